"""Rounds and answers in SQLite: the shared store (bot.store.sql.rounds) with SQLite's own
limited guess and list parameter."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.sql.rounds import QMARK, Rounds
from bot.store.sqlite.database import Database

# One conditional INSERT is atomic here: SQLite has one writer at a time, so two guesses at once
# cannot both read the count below the limit (PostgreSQL needs its chat lock instead).
GUESS = ("INSERT INTO answers (round_id, user_id, text, correct, at, distance) "
         "SELECT ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM answers WHERE round_id = ? "
         "AND user_id = ? AND distance IS NOT NULL) < ?")
# SQLite has no array parameter: one `?` per id in the braces.
ANNOUNCED = "UPDATE rounds SET announced = 1 WHERE id IN ({})"


class SqliteRounds(Rounds):
    def __init__(self, db: Database) -> None:
        super().__init__(db, QMARK)

    async def record_guess(self, round_id: int, user_id: int, text: str, correct: bool,
                           at: float, distance: int, limit: int) -> int | None:
        """Record a guess unless the player has made `limit` already in this round; which guess
        this is (1..limit), or None when none was left. Guesses are answers with a distance."""
        inserted = await self.db.run(GUESS, (round_id, user_id, text, int(correct), at,
                                             distance, round_id, user_id, limit))
        return await self.guesses_made(round_id, user_id) if inserted else None

    async def set_announced(self, round_ids: Sequence[int]) -> None:
        """The result of these rounds was sent (or will never be). SQLite has no array
        parameter: one `?` per id."""
        if round_ids:
            await self.db.run(ANNOUNCED.format(", ".join("?" * len(round_ids))),
                              tuple(round_ids))
