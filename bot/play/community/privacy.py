"""What a person may see and delete of what the bot keeps (/privacy, /forget), and a group
admin's reset of the chat's board (/resetscores). Both deletions wait for a press of the asker's
own confirmation button, which lapses after CONFIRM_SECONDS; the pending confirmations live in
memory only (a restart lets them lapse: nothing is deleted unasked). A press by anyone else, or
naming the token in another chat, leaves the asker's question pending; a reset is confirmed
only by someone who still administers the group at the press (Telegram asked again then).

A person's forget is answered as soon as it is noted in the store: from the note on, nothing of
the person is shown anywhere (every read of a name leaves out whoever has a forget under way:
the view shown_users, schema step 28). It ends what they have on in their private chat without
a word to anyone (a match stopped, a round deleted and taken off the table: it scores nothing);
their rows then go in the background, a part at a time (bot/store/sql/forgetting.py), and the
note with the last of them. One a kill or an error interrupted is finished by the housekeeping's
next run (the first comes at start-up), or by the person's next /forget."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.play.chats.people import Chat, People, Player
from bot.play.guards.permissions import AdminCheck
from bot.runtime.locks import KeyedLocks
from bot.runtime.timed import Timed
from bot.store.score_store import ForgetStore
from bot.text import markup

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 60.0
# An erasure that fails (the person playing again at that very moment: a row of theirs written
# beside its last transaction) is tried again a moment later, this many times in all; past
# that, the housekeeping's next run finishes it (the note keeps them hidden until then).
ERASE_TRIES, ERASE_PAUSE = 3, 0.5
PENDING_KEPT = 10_000  # questions waiting for their Confirm at once, at most
FORGET, RESET = "forget", "reset"
# What play has on in a chat, as /forget ends it (bot.play.services wires both): its matches
# stopped without a word; its open rounds taken off the table quietly, whether there were any.
StopMatches = Callable[[int], Awaitable[None]]
DropRounds = Callable[[int], Awaitable[bool]]


async def _no_matches(_chat_id: int) -> None:
    """No match service (a privacy without play: tests of the questions)."""


async def _no_rounds(_chat_id: int) -> bool:
    return False


@dataclass(frozen=True)
class Pending:
    kind: str  # FORGET | RESET
    chat_id: int
    user_id: int
    name: str
    until: float


@dataclass(frozen=True)
class Asked:
    """A question with confirm and cancel buttons carrying `token`."""

    text: str
    token: str


@dataclass(frozen=True)
class Pressed:
    """What a press on a confirmation does: `text` replaces the question (its buttons gone),
    or, with `notice` only, the question stays and the presser alone is told why."""

    text: str | None
    notice: str


class Privacy:
    def __init__(self, store: ForgetStore, people: People, clock: Callable[[], float],
                 stop_matches: StopMatches = _no_matches,
                 drop_rounds: DropRounds = _no_rounds,
                 remembered: tuple[Callable[[int], None], ...] = ()) -> None:
        self.store = store
        self.people = people
        # what else keeps something of a person in memory (their share cards): told to let it
        # go with their name
        self.remembered = remembered
        self.clock = clock
        self.stop_matches = stop_matches
        self.drop_rounds = drop_rounds
        # token -> the question it carries, for CONFIRM_SECONDS on the game's clock (at most
        # PENDING_KEPT at once: a flood of questions forgets the oldest, which the asker re-asks)
        self._pending: Timed[str, Pending] = Timed(PENDING_KEPT, CONFIRM_SECONDS,
                                                         timer=lambda: self.clock())
        self._one_at_a_time = KeyedLocks()  # per person: a second confirmation waits
        self._erasing_one = KeyedLocks()  # per person: a second erasure waits for the first
        self._erasing: Counter[int] = Counter()  # the people this process erases now
        self._erasures: set[asyncio.Task[None]] = set()  # held, so that none is collected

    async def text(self, chat: Chat, player: Player) -> str:
        """/privacy: what is kept, why, and how to delete it."""
        return (await self.people.texts(chat, player))("privacy_text")

    async def ask_forget(self, chat: Chat, player: Player) -> Asked | str:
        """/forget: in a private chat, the question; elsewhere, where to ask it."""
        texts = await self.people.texts(chat, player)
        if chat.type != "private":
            return texts("forget_private_only")
        return Asked(texts("forget_ask", seconds=round(CONFIRM_SECONDS)),
                     self._ask(FORGET, chat, player))

    async def ask_reset(self, chat: Chat, player: Player, is_admin: AdminCheck) -> Asked | str:
        """/resetscores: in a group, for its admins, the question."""
        texts = await self.people.texts(chat, player)
        if chat.type == "private":
            return texts("reset_group_only")
        if not await is_admin():
            return texts("reset_admins_only")
        return Asked(texts("reset_ask", name=markup.name(player.first_name),
                           seconds=round(CONFIRM_SECONDS)), self._ask(RESET, chat, player))

    async def press(self, token: str, confirm: bool, chat: Chat, player: Player,
                    is_admin: AdminCheck) -> Pressed:
        """A press of Confirm or Cancel on the question that carries `token`: only the asker's
        counts, only in time, and a reset only while the asker still administers the group
        (`is_admin` must ask Telegram now, not a minute-old answer). Nobody else's press, and
        no press in another chat, drops the asker's question: only its lapse does."""
        texts = await self.people.texts(chat, player)
        pending = self._pending.get(token)
        # lapsed, or asked before a restart: it can't be answered now
        if pending is None or pending.until < self.clock():
            return Pressed(texts("privacy_confirm_expired"),
                           texts("privacy_confirm_expired_notice"))
        if pending.chat_id != chat.id:  # the token of a question asked elsewhere
            return Pressed(None, texts("button_unknown"))
        if pending.user_id != player.id:
            return Pressed(None, texts("privacy_confirm_not_yours", name=pending.name))
        if not confirm:
            del self._pending[token]
            return Pressed(texts("privacy_confirm_cancelled"), texts("privacy_confirm_cancelled"))
        if pending.kind == RESET and not await is_admin():  # demoted since asking
            return Pressed(None, texts("reset_admins_only"))
        if self._pending.pop(token, None) is None:  # a second press, while the first asked
            return Pressed(None, texts("privacy_confirm_expired_notice"))
        if pending.kind == FORGET:
            ended = await self.forget(player.id)
            done = texts("forget_done")
            return Pressed(f"{done}\n{texts('forget_round_ended')}" if ended else done,
                           texts("forget_done_notice"))
        await self.store.reset_chat(chat.id)
        return Pressed(texts("reset_done", name=markup.name(player.first_name)),
                       texts("reset_done_notice"))

    async def forget(self, user_id: int) -> bool:
        """What a confirmed /forget does before it is answered; whether a round of theirs was
        on in their private chat (it ended with the forget). The rows go after, in the
        background (`erased` waits for them): a long history costs the answer nothing."""
        ended = await self._hide(user_id)
        self._erasing[user_id] += 1
        task = asyncio.ensure_future(self._erase(user_id))
        self._erasures.add(task)
        task.add_done_callback(self._erasures.discard)
        return ended

    async def _hide(self, user_id: int) -> bool:
        """Noted first, so that nothing of the person is shown from here on and a kill anywhere
        after leaves the forget to be finished; their match in their private chat stops (its
        alarms with it), their open rounds there are deleted, then taken off the table (a close
        or a late answer there writes nothing, and no result is owed), and their name leaves
        memory. Whether a round was on."""
        async with self._one_at_a_time.held(user_id):
            await self.store.note_forget(user_id, self.clock())
            await self.stop_matches(user_id)
            await self.store.drop_open_private(user_id)
            ended = await self.drop_rounds(user_id)
            self.people.forget(user_id)
            for forget in self.remembered:
                forget(user_id)
        return ended

    async def _erase(self, user_id: int) -> None:
        """Every row of the person, a part at a time, then the note (bot/store/sql/
        forgetting.py), tried ERASE_TRIES times. Marked in `_erasing` by the caller, unmarked
        here. A failure leaves the note: the housekeeping's next run finishes it."""
        try:
            async with self._erasing_one.held(user_id):
                for tried in range(1, ERASE_TRIES + 1):
                    if await self._erased_now(user_id, last=tried == ERASE_TRIES):
                        return
                    await asyncio.sleep(ERASE_PAUSE)
        finally:
            self._erasing[user_id] -= 1
            if self._erasing[user_id] <= 0:
                del self._erasing[user_id]

    async def _erased_now(self, user_id: int, last: bool) -> bool:
        """One try of the erasure: whether it ended (its note gone)."""
        try:
            await self.store.forget_user(user_id)
        except Exception as error:  # the note stays: nothing of theirs is shown, tried again
            # a try that will be tried again (a lock held past the busy timeout on a loaded
            # machine) is one line; the last one's traceback is the operator's to read
            log.warning("/forget: an erasure stopped (%s: %s)%s", type(error).__name__, error,
                        "; the housekeeping finishes it" if last else "; trying again",
                        exc_info=last)
            return False
        return True

    async def erased(self) -> None:
        """Until every erasure this process began has ended (tests, and a stop that can
        wait; one cut short by a stop is finished at the next start)."""
        while self._erasures:
            await asyncio.gather(*self._erasures, return_exceptions=True)

    async def finish_unfinished(self) -> int:
        """Finish the forgets a kill or an error interrupted (their note is still stored), but
        those this process erases now: how many."""
        unfinished = [user_id for user_id in await self.store.unfinished_forgets()
                      if user_id not in self._erasing]
        for user_id in unfinished:
            await self._hide(user_id)
            self._erasing[user_id] += 1
            await self._erase(user_id)
        return len(unfinished)

    def _ask(self, kind: str, chat: Chat, player: Player) -> str:
        now = self.clock()
        token = secrets.token_hex(4)
        self._pending[token] = Pending(kind, chat.id, player.id,
                                       markup.name(player.first_name), now + CONFIRM_SECONDS)
        return token
