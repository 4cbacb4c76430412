"""What every solo mode's book (a streak's, a storm's) does the same way: it knows which rounds in
play are its hands here (a first miss ends them), and at a close it finds whether the round was
the hand of its person's run, and how that round ended. Each mode says what follows.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Generic, Protocol, TypeVar

from bot.play.games import ADAPTIVE_GAME
from bot.play.ports import Scheduler
from bot.play.round.events import RoundClosed
from bot.play.round.table import RoundTable
from bot.store.protocols import RoundStore
from bot.store.records import Round

GAME = ADAPTIVE_GAME.name  # a solo mode's hands: the game dealt for a person's skill (24)


class Run(Protocol):
    """A streak or a storm as stored: its hand in play, if any."""

    @property
    def round_id(self) -> int | None: ...


R = TypeVar("R", bound=Run)


def heard(record: Round) -> bool:
    """Whether a close may be a solo mode's hand: a round of its game in a private chat (a
    private chat's id is its person's, positive; a group's is negative)."""
    return record.chat_id > 0 and record.game == GAME


class HandBook(Generic[R]):
    def __init__(self, run_on: Callable[[int], Awaitable[R | None]], rounds: RoundStore,
                 table: RoundTable, scheduler: Scheduler, pause: float) -> None:
        self.run_on = run_on  # the person's run on in their private chat (its id is theirs)
        self.rounds = rounds  # how a hand's round ended (the event holds it as dealt)
        self.table = table
        self.scheduler = scheduler
        self.pause = pause  # seconds between a hand's result and the next hand
        self._hands: set[int] = set()  # the rounds in play as this mode's hands, here

    def playing(self, round_id: int) -> None:
        """The round is one of this mode's hands (dealt here, or found at a resume)."""
        self._hands.add(round_id)

    def ends_at_miss(self, record: Round) -> bool:
        return record.id in self._hands

    async def closed_hand(self, event: RoundClosed) -> tuple[R, str | None] | None:
        """If the closed round was the hand of its person's run: the run, and how the round
        ended as stored (None: its row is gone). A close it does not follow: None."""
        record = event.round
        self._hands.discard(record.id)
        if not heard(record):
            return None
        run = await self.run_on(record.chat_id)
        if run is None or run.round_id != record.id:
            return None
        ended = await self.rounds.get_round(record.id)  # won: by its person, the only one
        return run, ended.status if ended is not None else None  # who writes in their chat
