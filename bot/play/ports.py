"""What play needs from outside, as ports the faces implement: a scheduler (the services say *when*
something is due in a chat's topic; bot.telegram.jobs decides *how*), and a publisher (play says
*what* a chat is shown; the face renders and sends it, and says what became of the chat). A test
hands in fakes of both.

One alarm of each kind per chat and topic: setting one replaces that topic's alarm of that kind.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from bot.store.records import ClaimGone, OwedClaim, Place, Round, StarterFull

if TYPE_CHECKING:
    from bot.play.outcomes import Outcome

__all__ = ["KINDS", "NEXT_DEAL", "ROUND_END", "STATUS", "STORM_NEXT", "STREAK_NEXT", "WARNING",
           "Alarm", "ClaimGone", "Delivery", "Errand", "Fate", "Gone", "Handover", "Holding",
           "HoldsAll", "Moved", "OpenRounds", "OwedClaim", "PageLink", "PageLinks", "Place",
           "Publisher", "Round", "Scheduler", "StarterFull", "Target"]

ROUND_END = "round"  # a round's time is up
NEXT_DEAL = "match"  # a match deals its next round
WARNING = "warn"  # a match round's "30 s left" notice
STATUS = "status"  # a deal's status is due to be written (at most once a second)
STREAK_NEXT = "streak"  # a streak deals its next hand
STORM_NEXT = "storm"  # a storm deals its next hand
KINDS = (ROUND_END, NEXT_DEAL, WARNING, STATUS, STREAK_NEXT, STORM_NEXT)


@dataclass(frozen=True)
class Alarm:
    """Something due in a chat's topic (0: no topic): its kind, and the round it is about."""

    kind: str
    chat_id: int
    round_id: int | None = None
    topic: int = 0

    @property
    def place(self) -> Place:
        return (self.chat_id, self.topic)


class Scheduler(Protocol):
    def set(self, alarm: Alarm, seconds: float) -> None:
        """Ring `alarm` in `seconds` (now, if not positive), replacing the alarm of that kind
        in the same chat and topic."""

    def cancel(self, kind: str, chat_id: int, topic: int = 0) -> None:
        """Drop the topic's alarm of that kind, if one is set."""

    def pending(self, kind: str, chat_id: int, topic: int = 0) -> Alarm | None:
        """The topic's alarm of that kind that has not rung yet."""

    def cancel_chats(self, chats: Callable[[int], bool]) -> None:
        """Drop every alarm, of any kind and topic, of the chats `chats` picks."""


# --- publishing -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    """Where an outcome is shown: a chat's topic and, when it answers a message, that message
    (a reply quotes it where `quote`, a reaction marks it). `public_only`: the asker is not in
    the chat (a Mini App's page): only what the whole chat must see is shown there — a deal, a
    result, the deal rewritten — and the rest goes back to the asker alone. `broadcast`: one of
    a message to many chats at once (a tournament's deal or board), sent as a paid broadcast
    where the operator allows them. `alone`: the asker wrote where only the bot sees it (a face
    that can answer them alone does so): what they wrote is kept from the chat — a miss is told
    to them, never written into the deal."""

    chat_id: int
    topic: int = 0
    reply_to: int | None = None
    quote: bool = True
    public_only: bool = False
    broadcast: bool = False
    alone: bool = False

    @property
    def place(self) -> Place:
        return (self.chat_id, self.topic)


@dataclass(frozen=True)
class Gone:
    """The chat (or only its forum topic, `topic` not None) takes no more messages from the bot:
    removed, banned, blocked, deleted."""

    chat_id: int
    topic: int | None = None


@dataclass(frozen=True)
class Moved:
    """The group became a supergroup with a new id (what was sent went there)."""

    old_id: int
    new_id: int


Fate = Gone | Moved


@dataclass(frozen=True)
class Delivery:
    """What became of an outcome shown: the message that carries it, if one was sent (a deal's
    or a result's), and what Telegram said of the chat meanwhile (None: nothing); `then`, what
    the face still does once play has recorded it (a result's deal losing its buttons): after
    the record, so that the time between Telegram taking a message and its record, in which a
    process killed sends it again, is one send's, not two (issue 70)."""

    message_id: int | None = None
    fate: Fate | None = None
    then: Callable[[], Awaitable[None]] | None = field(default=None, compare=False)


class Publisher(Protocol):
    async def show(self, outcome: Outcome, target: Target) -> Delivery:
        """Show an outcome in the target's chat and topic; what happened is returned, and
        acted on by play (bot.play.round.outbox), never by the face."""


@dataclass(frozen=True)
class PageLink:
    """A button under a deal that opens the round's page (a face of its own: the Mini App);
    `web_app`: opened inside Telegram (a private chat), else a link Telegram signs (a group)."""

    url: str
    web_app: bool


PageLinks = Callable[[Round], PageLink | None]
"""The page a deal's round opens, if any (the composition root asks the page's face)."""


# --- the chats this process plays ------------------------------------------------------------

@dataclass(frozen=True)
class Handover:
    """A group became a supergroup whose chats another process plays: what moved with it (the
    open round's id, whether a match was on), for that process to take up."""

    old_id: int
    new_id: int
    round_id: int | None = None
    match: bool = False


@dataclass(frozen=True)
class Errand:
    """A tournament's errand to one chat (bot.play.tournaments), for the process playing it:
    deal round `number` ("deal"), show the board after it ("board"), or say the tournament was
    cancelled ("cancelled"). It names what to do, never its words or its hand: the process that
    does it reads them from the database."""

    kind: str
    tournament_id: int
    number: int
    chat_id: int


class Holding(Protocol):
    """Which chats this process plays (a cluster's worker: its partitions'), and how what moved
    to a chat it does not play, or what is to be done there, reaches the process that does."""

    def holds(self, chat_id: int) -> bool:
        """Whether this process plays the chat."""

    async def hand_over(self, moved: Handover) -> None:
        """Have the process playing `moved.new_id` take up what moved there."""

    async def carry(self, errand: Errand) -> None:
        """Have the process playing `errand.chat_id` do the errand."""


class HoldsAll:
    """One process: it plays every chat, and never hands anything over."""

    def holds(self, chat_id: int) -> bool:
        return True

    async def hand_over(self, moved: Handover) -> None:
        raise RuntimeError(f"nobody to hand chat {moved.new_id} to: one process plays all")

    async def carry(self, errand: Errand) -> None:
        raise RuntimeError(f"nobody to carry chat {errand.chat_id}'s errand: one process plays all")


# --- the open rounds beyond this process ------------------------------------------------------

class OpenRounds(Protocol):
    """Every open round of the bot, where this process's round table may hold only some (each
    of several processes keeps its own chats'): what the fairness rules must see beyond it,
    the puzzles a request reaches (bot.play.guards.live) and the rounds one person started.
    A process that deals every round itself has them all in memory: bot.play.round.own."""

    async def reaching(self, numbers: Sequence[int]) -> list[Round]:
        """At least every open round beyond the table that a request for these numbers may
        reach, for any target (the caller applies the rule exactly)."""

    async def reaching_rolls(self, rolls: Sequence[Sequence[int]]) -> list[Round]:
        """At least every open round of rolls beyond the table that these rolls may reach."""

    async def open_round(self, most: int, chat_id: int, game: str, hand: tuple, target: int,
                         level: str, points: int, lang: str, started_at: float, deadline: float,
                         started_by: int | None, topic: int = 0, hints_on: bool | None = None,
                         typing_on: bool | None = None, claim: OwedClaim | None = None
                         ) -> Round | StarterFull | ClaimGone | None:
        """Store a new open round (as RoundStore.open_round, its update's claim settled with
        it), unless its starter has `most` open in all chats (StarterFull), the topic has one
        (None) or the claim is another process's now (ClaimGone)."""
