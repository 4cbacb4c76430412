"""The open rounds of every chat and topic, one `OpenRound` each, kept in memory beside the
database (this process deals every round and is the database's only writer, so judging an answer
costs no read); each topic's round just won (a right answer a moment late is told who was
first); and the heads of the results sent (pages of solutions keep them on top).

Opening a round here arms its end (the scheduler port) and makes its puzzle live (the solving
commands refuse it, bot.play.guards.live); closing it undoes both. No other I/O.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable, Iterable

from bot.play.guards.live import LivePuzzles
from bot.play.ports import ROUND_END, Alarm, Scheduler
from bot.play.round.open_round import OpenRound
from bot.play.round.status import STATUS
from bot.store.records import Place, Round

# A right answer this long after the round was won is still told who was first, and by how much;
# later, or once a new round is on, the chat has moved on.
LATE_WITHIN = 60.0
TEXTS_KEPT = 2000  # result heads remembered for paging under them (older ones page without)


class RoundTable:
    def __init__(self, clock: Callable[[], float], scheduler: Scheduler,
                 live: LivePuzzles | None = None) -> None:
        self.clock = clock
        self.scheduler = scheduler
        self.live = live or LivePuzzles()
        self._open: dict[Place, OpenRound] = {}
        self._won: dict[Place, tuple[Round, float]] = {}  # -> its last round won, when
        self._heads: OrderedDict[int, str] = OrderedDict()  # round id -> its result's head

    def load(self, rounds: Iterable[Round]) -> None:
        """The rounds open at start-up (their ends are armed by recovery, which first settles
        those that ended while the bot was down)."""
        self._open = {r.place: OpenRound(r) for r in rounds}
        self.live.clear()
        for current in self._open.values():
            self.live.add(current.record)

    def of(self, chat_id: int, topic: int = 0) -> OpenRound | None:
        """The open round of the chat's topic."""
        return self._open.get((chat_id, topic))

    def rounds(self) -> list[OpenRound]:
        """Every open round."""
        return list(self._open.values())

    def find(self, round_id: int) -> OpenRound | None:
        """An open round by its id."""
        return next((r for r in self._open.values() if r.id == round_id), None)

    def started_by(self, user_id: int) -> int:
        """How many open rounds this user started (in any chat)."""
        return sum(r.record.started_by == user_id for r in self._open.values())

    def in_chat(self, chat_id: int) -> int:
        """How many rounds are open in the chat's topics."""
        return sum(place[0] == chat_id for place in self._open)

    def open(self, record: Round, deal_text: str) -> OpenRound:
        """A round was dealt: it is its topic's open round (the one won before is history), its
        puzzle is live and its end armed."""
        opened = OpenRound(record, deal_text)
        self._open[record.place] = opened
        self._won.pop(record.place, None)
        self.live.add(record)
        self.arm(opened)
        return opened

    def arm(self, current: OpenRound) -> None:
        """Set the round's end alarm (now, if its deadline passed)."""
        record = current.record
        self.scheduler.set(Alarm(ROUND_END, record.chat_id, record.id, record.topic),
                           record.deadline - self.clock())

    def close(self, record: Round, won_at: float | None = None) -> None:
        """The round closed (won at `won_at`, if a right answer won it): it leaves the table,
        its puzzle is no longer live, its end alarm (and a status due to be written) goes."""
        still = self._open.get(record.place)
        if still is not None and still.id == record.id:
            del self._open[record.place]
            self.live.remove(still.record)
        self.scheduler.cancel(ROUND_END, record.chat_id, record.topic)
        self.scheduler.cancel(STATUS, record.chat_id, record.topic)
        if won_at is not None:
            self._won[record.place] = (still.record if still else record, won_at)

    def set_message(self, round_id: int, message_id: int) -> Round | None:
        """The deal of a round still open, or just won, was sent as this message."""
        if (current := self.find(round_id)) is not None:
            return current.with_message(message_id)
        for place, (won, at) in self._won.items():
            if won.id == round_id:
                self._won[place] = (dataclasses.replace(won, message_id=message_id), at)
                return self._won[place][0]
        return None

    def just_won(self, chat_id: int, topic: int = 0) -> Round | None:
        """The topic's round won less than LATE_WITHIN ago (None once a new one is dealt)."""
        won = self._won.get((chat_id, topic))
        if won is None:
            return None
        if self.clock() - won[1] > LATE_WITHIN:
            del self._won[(chat_id, topic)]
            return None
        return won[0]

    def is_deal(self, chat_id: int, message_id: int, topic: int = 0) -> bool:
        """Whether a message is the deal of the topic's round (open, or just won): a reply to
        it is an answer."""
        current = self.of(chat_id, topic)
        record = current.record if current else self.just_won(chat_id, topic)
        return record is not None and record.message_id == message_id

    def remember_head(self, round_id: int, head: str) -> None:
        """The head of a round's result message as sent (who won, or how it ended)."""
        self._heads[round_id] = head
        self._heads.move_to_end(round_id)
        while len(self._heads) > TEXTS_KEPT:
            self._heads.popitem(last=False)

    def head(self, round_id: int) -> str:
        """A result's head, to keep on top while its solutions are paged ("" once forgotten)."""
        return self._heads.get(round_id, "")

    def move(self, old_id: int, new_id: int) -> OpenRound | None:
        """A group became a supergroup (a group has no topics): its open round, now under the
        new id, with its end alarm moved."""
        moved = self._open.pop((old_id, 0), None)
        if moved is None:
            return None
        self.scheduler.cancel(ROUND_END, old_id)
        self.scheduler.cancel(STATUS, old_id)
        moved.change(chat_id=new_id)
        self._open[moved.place] = moved
        self.arm(moved)
        return moved
