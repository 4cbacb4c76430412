"""Rounds and answers in PostgreSQL: the shared store (bot.store.sql.rounds) with PostgreSQL's
own limited guess and array parameter.

Of two closes at once, the second waits for the first one's row lock, finds the round no longer
open and changes nothing, so its row count says it lost.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.postgres.connection import Database
from bot.store.sql import ratings
from bot.store.sql.rounds import NUMBERED, Rounds

# Under READ COMMITTED a conditional INSERT could let two guesses both see the count below the
# limit: a guess takes its chat's advisory lock first (SQLite has one writer and needs none).
GUESS_LOCK = "SELECT pg_advisory_xact_lock(chat_id) FROM rounds WHERE id = $1"
# One array parameter (SQLite has none): one prepared statement for any number of ids.
ANNOUNCED = "UPDATE rounds SET announced = 1 WHERE id = ANY($1::bigint[])"


class PostgresRounds(Rounds):
    def __init__(self, db: Database) -> None:
        super().__init__(db, NUMBERED, ratings.NUMBERED)
        self.database = db  # its own transactions, beside the shared Connection

    async def record_guess(self, round_id: int, user_id: int, text: str, correct: bool,
                           at: float, distance: int, limit: int) -> int | None:
        """Record a guess unless the player has made `limit` already in this round; which guess
        this is (1..limit), or None when none was left. The count is read after the chat's
        lock, which the guess before it held until it committed."""
        async with self.database.transaction() as connection:
            await connection.execute(GUESS_LOCK, round_id)
            made = int(await connection.fetchval(self.sql.guesses_made, round_id, user_id))
            if made >= limit:
                return None
            await connection.execute(self.sql.record_answer, round_id, user_id, text,
                                     int(correct), at, distance)
            return made + 1

    async def set_announced(self, round_ids: Sequence[int]) -> None:
        """The result of these rounds was sent (or will never be)."""
        if round_ids:
            await self.db.run(ANNOUNCED, (list(round_ids),))
