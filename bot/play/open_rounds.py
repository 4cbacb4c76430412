"""The rounds on in each chat, kept in memory beside the database: this process is the database's
only writer, so judging an answer costs no read. Also each chat's round just won (a right answer
a moment late is told who was first) and how many hints each open round gave.

Shared by the services of a round's life (bot.play.rounds, answers, recovery); no I/O here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from bot.store.records import Round

# A right answer this long after the round was won is still told who was first, and by how much;
# later, or once a new round is on, the chat has moved on.
LATE_WITHIN = 60.0


class OpenRounds:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._open: dict[int, Round] = {}  # chat id -> its open round
        self._won: dict[int, tuple[Round, float]] = {}  # chat id -> its last round won, when
        self.hints: dict[int, int] = {}  # open round id -> hints given

    def load(self, rounds: Iterable[Round]) -> None:
        self._open = {r.chat_id: r for r in rounds}

    def of(self, chat_id: int) -> Round | None:
        """The chat's open round."""
        return self._open.get(chat_id)

    def find(self, round_id: int) -> Round | None:
        """An open round by its id."""
        return next((r for r in self._open.values() if r.id == round_id), None)

    def start(self, new: Round) -> None:
        """A round was dealt: it is the chat's open round; the one won before is history."""
        self._open[new.chat_id] = new
        self._won.pop(new.chat_id, None)

    def update(self, round_id: int, chat_id: int, **changes: object) -> None:
        """Change what is known of a round still open or just won (its message, points)."""
        if (current := self._open.get(chat_id)) is not None and current.id == round_id:
            self._open[chat_id] = dataclasses.replace(current, **changes)  # type: ignore[arg-type]
        if (won := self._won.get(chat_id)) is not None and won[0].id == round_id:
            self._won[chat_id] = (dataclasses.replace(won[0], **changes),  # type: ignore[arg-type]
                                  won[1])

    def end(self, current: Round, won_at: float | None = None) -> None:
        """The round closed (won at `won_at`, if it was won by a right answer)."""
        self.hints.pop(current.id, None)
        if (still := self._open.get(current.chat_id)) is not None and still.id == current.id:
            del self._open[current.chat_id]
        if won_at is not None:
            self._won[current.chat_id] = (current, won_at)

    def just_won(self, chat_id: int) -> Round | None:
        """The chat's round won less than LATE_WITHIN ago (None once a new one is dealt)."""
        won = self._won.get(chat_id)
        if won is None:
            return None
        if self.clock() - won[1] > LATE_WITHIN:
            del self._won[chat_id]
            return None
        return won[0]

    def is_deal(self, chat_id: int, message_id: int) -> bool:
        """Whether a message is the deal of the chat's round (open, or just won): a reply to it
        is an answer."""
        current = self._open.get(chat_id) or self.just_won(chat_id)
        return current is not None and current.message_id == message_id

    def move(self, old_id: int, new_id: int) -> Round | None:
        """A group became a supergroup; its open round, now under the new id."""
        moved = self._open.pop(old_id, None)
        if moved is not None:
            self._open[new_id] = dataclasses.replace(moved, chat_id=new_id)
        return self._open.get(new_id)
