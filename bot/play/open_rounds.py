"""The rounds on in each chat and topic, kept in memory beside the database: this process is the
database's only writer, so judging an answer costs no read. Also each topic's round just won (a
right answer a moment late is told who was first), how many hints each open round gave, the
deal and result texts the bot sent (hints and pages edit them), and the live puzzles (which the
solving commands refuse).

Shared by the services of a round's life (bot.play.rounds, answers, recovery, solving); no I/O.
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from collections.abc import Callable, Iterable

from bot.play.live import LivePuzzles
from bot.store.records import Place, Round

# A right answer this long after the round was won is still told who was first, and by how much;
# later, or once a new round is on, the chat has moved on.
LATE_WITHIN = 60.0
TEXTS_KEPT = 2000  # result texts remembered for paging under them (older ones page without)


class OpenRounds:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._open: dict[Place, Round] = {}  # chat and topic -> its open round
        self._won: dict[Place, tuple[Round, float]] = {}  # -> its last round won, when
        self.hints: dict[int, int] = {}  # open round id -> hints given
        self.deals: dict[int, str] = {}  # open round id -> its deal's text, as dealt
        self.notes: dict[int, dict[str, str]] = {}  # -> lines under it: hints, time left
        self.results: OrderedDict[int, str] = OrderedDict()  # round id -> its result's head
        self.live = LivePuzzles()

    def load(self, rounds: Iterable[Round]) -> None:
        self._open = {r.place: r for r in rounds}
        self.live.clear()
        for current in self._open.values():
            self.live.add(current)

    def of(self, chat_id: int, topic: int = 0) -> Round | None:
        """The open round of the chat's topic."""
        return self._open.get((chat_id, topic))

    def find(self, round_id: int) -> Round | None:
        """An open round by its id."""
        return next((r for r in self._open.values() if r.id == round_id), None)

    def start(self, new: Round) -> None:
        """A round was dealt: it is its topic's open round; the one won before is history."""
        self._open[new.place] = new
        self._won.pop(new.place, None)
        self.live.add(new)

    def update(self, round_: Round, **changes: object) -> None:
        """Change what is known of a round still open or just won (its message, points)."""
        if (current := self._open.get(round_.place)) is not None and current.id == round_.id:
            self._open[round_.place] = dataclasses.replace(current, **changes)  # type: ignore[arg-type]
        if (won := self._won.get(round_.place)) is not None and won[0].id == round_.id:
            self._won[round_.place] = (
                dataclasses.replace(won[0], **changes), won[1])  # type: ignore[arg-type]

    def end(self, current: Round, won_at: float | None = None) -> None:
        """The round closed (won at `won_at`, if it was won by a right answer)."""
        self.hints.pop(current.id, None)
        self.deals.pop(current.id, None)
        self.notes.pop(current.id, None)
        if (still := self._open.get(current.place)) is not None and still.id == current.id:
            del self._open[current.place]
            self.live.remove(still)
        if won_at is not None:
            self._won[current.place] = (current, won_at)

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
        current = self.of(chat_id, topic) or self.just_won(chat_id, topic)
        return current is not None and current.message_id == message_id

    def remember_result(self, round_id: int, head: str) -> None:
        """The head of a round's result message (who won, or how it ended): paging through
        its solutions keeps it on top."""
        self.results[round_id] = head
        self.results.move_to_end(round_id)
        while len(self.results) > TEXTS_KEPT:
            self.results.popitem(last=False)

    def move(self, old_id: int, new_id: int) -> Round | None:
        """A group became a supergroup (a group has no topics); its open round, now under the
        new id."""
        moved = self._open.pop((old_id, 0), None)
        if moved is not None:
            moved = dataclasses.replace(moved, chat_id=new_id)
            self._open[moved.place] = moved
        return moved
