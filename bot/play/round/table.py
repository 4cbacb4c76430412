"""The open rounds of every chat and topic, one `OpenRound` aggregate each, kept in memory beside
the database (this process deals every round and is the database's only writer, so judging an answer
costs no read), with each topic's round just won (a right answer a moment late is told who was
first) and the heads of the results sent (pages of solutions keep them on top).

The repository of the aggregate: `get` fetches a topic's round once per update, `commit` writes
what its transitions recorded (in order, through the round store) and, when it closed, takes it
off the table: its end alarm and status alarm go and its puzzle is no longer live. Adding a round
arms its end and makes its puzzle live.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable

from bot.play.guards.live import LivePuzzles
from bot.play.guards.stand_ins import counted_as
from bot.play.ports import ROUND_END, STATUS, Alarm, Scheduler
from bot.play.ratings.rater import Rater
from bot.play.round.open_round import OpenRound, Terms
from bot.play.round.writes import (
    AnswerWrite,
    ClockWrite,
    CloseWrite,
    Committed,
    HintWrite,
    MessageWrite,
    PassWrite,
    Write,
)
from bot.runtime import metrics
from bot.runtime.lru import FIFO
from bot.runtime.timed import Timed
from bot.store.protocols import RoundStore
from bot.store.records import Place, RatingWrite, Round

log = logging.getLogger(__name__)

# A right answer this long after the round was won is still told who was first, and by how much;
# later, or once a new round is on, the chat has moved on.
LATE_WITHIN = 60.0
# result heads remembered for paging under them (older ones page without): the soak's busy bot
# (bench/bench_soak.py) ends about 900 rounds an hour, so half an hour of them; at 2,000 the
# map was still filling at the day's end, 0.8 MB of its growth (docs/benchmarks.md)
TEXTS_KEPT = 500
WON_KEPT = 10_000  # topics whose round was won within LATE_WITHIN, at most


class RoundTable:
    def __init__(self, store: RoundStore, clock: Callable[[], float], scheduler: Scheduler,
                 live: LivePuzzles | None = None,
                 stored: Callable[[int], Awaitable[None]] | None = None,
                 rater: Rater | None = None) -> None:
        self.store = store
        self.stored = stored or _stored  # waits for a player's row being stored (People)
        self.rater = rater  # a close's rating, written in its transaction (None: unrated)
        self.clock = clock
        self.scheduler = scheduler
        self.live = live or LivePuzzles()
        self._open: dict[Place, OpenRound] = {}
        # what is asked of the open rounds, kept as they change (`_put`, `_pop`), so that no
        # question scans them all: with thousands open, an alarm's look-up by id and a deal's
        # bounds were each a scan of every one
        self._by_id: dict[int, OpenRound] = {}
        self._starters: dict[int, int] = {}  # open rounds a starter has (counted_as)
        self._chats: dict[int, int] = {}  # open rounds a chat has, in all its topics
        self._counted: dict[Place, int] = {}  # whom each place's round counts against
        # -> its last round won, and when: kept LATE_WITHIN on the game's clock, at most
        # WON_KEPT topics (a burst of wins past that forgets the oldest: a late answer there is
        # judged as after any round)
        self._won: Timed[Place, tuple[OpenRound, float]] = Timed(
            WON_KEPT, LATE_WITHIN, timer=lambda: self.clock())
        # round id -> its result's head; the oldest of TEXTS_KEPT go first
        self._heads: FIFO[int, str] = FIFO(TEXTS_KEPT)

    def load(self, rounds: Iterable[Round], terms: Callable[[int], Terms] | None = None
             ) -> None:
        """The rounds open at start-up (their ends are armed by recovery, which first settles
        those that ended while the bot was down)."""
        for place in list(self._open):
            self._pop(place)
        for r in rounds:
            self._put(OpenRound(r, dealt_with(r) or (terms(r.chat_id) if terms else None)))
        self._won.clear()
        self.live.clear()
        for current in self._open.values():
            self.live.add(current.record)

    def adopt(self, rounds: Iterable[Round], terms: Callable[[int], Terms] | None = None
              ) -> None:
        """Rounds open in chats taken up now, beside those held already (their ends are armed
        by recovery, as at start-up)."""
        for record in rounds:
            adopted = OpenRound(record, dealt_with(record) or (terms(record.chat_id) if terms
                                                               else None))
            self._put(adopted)
            self._won.pop(record.place, None)
            self.live.add(record)

    def release(self, chats: Callable[[int], bool]) -> int:
        """Let the chats go: their open rounds leave the table and stop being live here, and
        every alarm of theirs (their rounds', their matches') is cancelled. How many rounds
        left."""
        gone = [place for place in self._open if chats(place[0])]
        for place in gone:
            left = self._pop(place)
            if left is not None:
                self.live.remove(left.record)
        for place in [place for place in self._won if chats(place[0])]:
            del self._won[place]
        self.scheduler.cancel_chats(chats)
        return len(gone)

    def get(self, chat_id: int, topic: int = 0) -> OpenRound | None:
        """The topic's round: open, or won less than LATE_WITHIN ago (the one look-up an update
        makes)."""
        found = self._open.get((chat_id, topic))
        if found is not None:
            return found
        won = self._won.get((chat_id, topic))
        if won is None:
            return None
        if self.clock() - won[1] > LATE_WITHIN:
            del self._won[(chat_id, topic)]
            return None
        return won[0]

    def of(self, chat_id: int, topic: int = 0) -> OpenRound | None:
        """The open round of the chat's topic (None when its last round is over)."""
        return self._open.get((chat_id, topic))

    def rounds(self) -> list[OpenRound]:
        """Every open round."""
        return list(self._open.values())

    def find(self, round_id: int) -> OpenRound | None:
        """An open round by its id (a timer names its round)."""
        return self._by_id.get(round_id)

    def held(self, round_id: int) -> OpenRound | None:
        """A round by its id, open or just won (its deal's message id arrives once it is
        sent, perhaps after a fast win)."""
        return self.find(round_id) or next(
            (won for won, _at in self._won.values() if won.id == round_id), None)

    def started_by(self, counted: int) -> int:
        """How many open rounds were started by whom a limit counts as `counted`
        (bot.play.guards.stand_ins.counted_as): a person's in any chat, a stand-in's for a chat
        (a group's anonymous admins) in that chat alone."""
        return self._starters.get(counted, 0)

    def in_chat(self, chat_id: int) -> int:
        """How many rounds are open in the chat's topics."""
        return self._chats.get(chat_id, 0)

    def add(self, opened: OpenRound) -> None:
        """A round was dealt: it is its topic's open round (the one won before is history), its
        puzzle is live and its end armed."""
        self._put(opened)
        self._won.pop(opened.place, None)
        self.live.add(opened.record)
        self.arm(opened)

    def arm(self, current: OpenRound) -> None:
        """Set the round's end alarm (now, if its deadline passed)."""
        record = current.record
        self.scheduler.set(Alarm(ROUND_END, record.chat_id, record.id, record.topic),
                           record.deadline - self.clock())

    async def commit(self, current: OpenRound) -> Committed:
        """Write what the round's transitions recorded, in order; a close takes the round off
        the table (a won one stays findable a while). `closed` is False when the database
        says the round was closed already: memory and database then agree it is over."""
        writes, events = current.taken()
        record, confirmed = current.record, True
        for n, write in enumerate(writes):
            if isinstance(write, CloseWrite):
                if write.winner is not None:
                    await self.stored(write.winner)
                rating = await self._rating(record, write.at, write.winner)
                confirmed = await self.store.close_round(
                    record.id, write.status, write.at, write.winner, write.answer, write.points,
                    write.win_seconds, rating)
                if confirmed:
                    metrics.record_round_ended(record.game, write.status)
                    if rating is not None and self.rater is not None:
                        self.rater.written(rating)
                self._closed(current, write.at if write.status == "won" and write.answer
                             and confirmed else None)
            else:
                await self._write(record, write, writes[n - 1] if n else None,
                                  writes[n + 1] if n + 1 < len(writes) else None)
        return Committed(confirmed, events if confirmed else [])

    async def _write(self, record: Round, write: Write, before: Write | None,
                     after: Write | None) -> None:
        """One write other than a close (`before` and `after`: its neighbours in the commit)."""
        if isinstance(write, AnswerWrite):
            await self.stored(write.user_id)  # another's answer may ride on this commit
            if write.guesses is not None:
                await self.store.record_guess(record.id, write.user_id, write.text,
                                              write.right, write.at, write.distance or 0,
                                              write.guesses)
            else:
                await self.store.record_answer(record.id, write.user_id, write.text,
                                               write.right, write.at, write.distance)
        elif isinstance(write, ClockWrite) and isinstance(after, MessageWrite):
            # a deal shown later than dealt: its clock and its message, one trip
            await self.store.set_shown(record.id, after.message_id, write.started_at,
                                       write.deadline)
        elif isinstance(write, MessageWrite) and isinstance(before, ClockWrite):
            pass  # written with the clock before it
        elif isinstance(write, HintWrite):
            await self.store.give_hint(record.id, write.given, write.points)
        elif isinstance(write, PassWrite):
            await self.store.record_pass(record.id, write.user_id, write.at)
        elif isinstance(write, MessageWrite):
            await self.store.set_message(record.id, write.message_id)
        elif isinstance(write, ClockWrite):
            await self.store.restart_clock(record.id, write.started_at, write.deadline)

    async def _rating(self, record: Round, ended_at: float,
                      winner: int | None) -> RatingWrite | None:
        """The close's rating; None when there is none, or it could not be read (the round
        closes all the same: a rating is never worth a round left open)."""
        if self.rater is None:
            return None
        try:
            return await self.rater.of_round(record, ended_at, winner)
        except Exception:
            log.exception("round %s closes unrated", record.id)
            return None

    def _closed(self, current: OpenRound, won_at: float | None) -> None:
        """The round closed (won at `won_at`, if a right answer won it): it leaves the table,
        its puzzle is no longer live, its end alarm (and a status due to be written) goes."""
        record = current.record
        if self._open.get(record.place) is current:
            self._pop(record.place)
            self.live.remove(record)
        self.scheduler.cancel(ROUND_END, record.chat_id, record.topic)
        self.scheduler.cancel(STATUS, record.chat_id, record.topic)
        if won_at is not None:
            self._won[record.place] = (current, won_at)

    def drop(self, current: OpenRound) -> None:
        """A round closed outside a transition (abandoned with its chat)."""
        current.abandoned()
        self._closed(current, None)

    def forget(self, user_id: int) -> None:
        """The person was forgotten (/forget): the open rounds hold nothing of theirs, and a
        round they won a moment ago no longer tells a late answer who was first."""
        for current in list(self._open.values()):
            started_by = current.record.started_by
            current.forget(user_id)
            if current.record.started_by != started_by:  # no longer counted as theirs
                self._pop(current.place)
                self._put(current)
        for place in [place for place, (won, _at) in self._won.items()
                      if won.winner is not None and won.winner.user_id == user_id]:
            del self._won[place]

    def remember_head(self, round_id: int, head: str) -> None:
        """The head of a round's result message as sent (who won, or how it ended)."""
        self._heads[round_id] = head

    def head(self, round_id: int) -> str:
        """A result's head, to keep on top while its solutions are paged ("" once forgotten)."""
        return self._heads.get(round_id, "")

    def move(self, old_id: int, new_id: int) -> tuple[OpenRound, bool] | None:
        """A group became a supergroup (a group has no topics): its open round, now under the
        new id, with its end alarm moved, and whether its deal was sent (in the old group)."""
        moved = self._pop((old_id, 0))
        self._won.pop((old_id, 0), None)
        if moved is None:
            return None
        self.scheduler.cancel(ROUND_END, old_id)
        self.scheduler.cancel(STATUS, old_id)
        self.live.remove(moved.record)
        had_deal = moved.move(new_id)
        self._put(moved)
        self.live.add(moved.record)
        self.arm(moved)
        return moved, had_deal


    def _put(self, current: OpenRound) -> None:
        """The round is its place's open round, counted where the table's questions read."""
        place = current.place
        if place in self._open:
            self._pop(place)
        record = current.record
        self._open[place] = current
        self._by_id[current.id] = current
        self._chats[record.chat_id] = self._chats.get(record.chat_id, 0) + 1
        if record.started_by is not None:
            counted = counted_as(record.chat_id, record.started_by)
            self._counted[place] = counted
            self._starters[counted] = self._starters.get(counted, 0) + 1

    def _pop(self, place: Place) -> OpenRound | None:
        """The place's open round leaves the table (None: it had none), uncounted."""
        current = self._open.pop(place, None)
        if current is None:
            return None
        if self._by_id.get(current.id) is current:
            del self._by_id[current.id]
        _less(self._chats, place[0])
        counted = self._counted.pop(place, None)
        if counted is not None:
            _less(self._starters, counted)
        return current


def _less(counts: dict[int, int], key: int) -> None:
    """One fewer of `key`; none is no entry."""
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


async def _stored(_user_id: int) -> None:
    """No player's row is stored meanwhile (a table without People: tests of the table)."""


def dealt_with(record: Round) -> Terms | None:
    """The terms a round was dealt with, as stored (None for a round dealt before they were:
    the chat's settings now stand in)."""
    if record.hints_on is None or record.typing_on is None:
        return None
    return Terms(hints=record.hints_on, typing=record.typing_on)
