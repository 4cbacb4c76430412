"""What an open round's transitions take and decide: an answer as the round takes it, what
`accept` made of it (Won, Missed, Guessed, ...), the attempts and the winner the round remembers,
and how a round closed without a right answer (Ending). Values only: the aggregate
(bot.play.round.open_round) decides, the round service words them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.play.rules import Verdict
from bot.play.rules.records import Near, Right, Unreadable, Wrong
from bot.store.records import BestAnswer


@dataclass(frozen=True, slots=True)
class Attempt:
    """An answer that did not win (yet), as the status names it: who, and its verdict
    (`distance`: a valid answer where the closest wins, this far from the target)."""

    user_id: int
    name: str
    verdict: Wrong | Near
    distance: int | None = None
    at: float = 0.0


@dataclass(frozen=True)
class Answer:
    """An answer as the round takes it: who, what, how it was given (`explicit`: /a, a reply
    to the deal or a page; `replied`: a reply to the deal), whether plain typed messages
    count where it was written, and whether only the bot saw it (`private`: a miss is then
    never the latest attempt the deal shows)."""

    user_id: int
    name: str
    text: str
    explicit: bool
    replied: bool = False
    typing: bool = True
    private: bool = False


@dataclass(frozen=True)
class Won:
    """The answer won the round (written once the close is committed)."""

    verdict: Right
    elapsed: float


@dataclass(frozen=True)
class Missed:
    """A readable attempt that does not win: its words go into the deal's status."""

    verdict: Wrong | Near


@dataclass(frozen=True)
class Guessed:
    """A sealed guess taken: marked, never worded to the chat; `left` guesses."""

    verdict: Verdict
    left: int


@dataclass(frozen=True)
class NoGuessesLeft:
    limit: int


@dataclass(frozen=True)
class Unread:
    """Not an answer at all (said in words to whoever meant it as one)."""

    verdict: Unreadable


@dataclass(frozen=True)
class LateRight:
    """A right answer to a round won a moment ago: who won, and how much earlier."""

    winner: str
    gap: float


@dataclass(frozen=True)
class Over:
    """An explicit answer to a round that is over (not a right one)."""


Accepted = Won | Missed | Guessed | NoGuessesLeft | Unread | LateRight | Over


@dataclass(frozen=True)
class Winner:
    user_id: int
    name: str
    at: float


@dataclass(frozen=True)
class Ending:
    """How a round closed without a right answer: its status, the closest answer that wins it
    where the closest wins (with its points), whether it was ended early, and by whom."""

    status: str
    best: BestAnswer | None
    points: int
    early: bool
    ended_by: int | None = None
    ended_by_answered: bool = False
    everyone_passed: bool = False

    @property
    def winner(self) -> int | None:
        return self.best.user_id if self.best is not None and self.points > 0 else None
