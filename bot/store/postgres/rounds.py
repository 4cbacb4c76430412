"""Rounds and answers in PostgreSQL: the shared store (bot.store.sql.rounds) with PostgreSQL's
own limited guess and array parameter.

Of two closes at once, the second waits for the first one's row lock, finds the round no longer
open and changes nothing, so its row count says it lost.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.postgres.connection import TOTALS_LOCK, Database
from bot.store.sql import ratings
from bot.store.sql.connection import Step, numbered
from bot.store.sql.rounds import NUMBERED, QMARK, Rounds

# Under READ COMMITTED a conditional INSERT could let two guesses both see the count below the
# limit: a guess takes its chat's advisory lock first (SQLite has one writer and needs none).
GUESS_LOCK = "SELECT pg_advisory_xact_lock(chat_id) FROM rounds WHERE id = $1"
# One array parameter (SQLite has none): one prepared statement for any number of ids.
ANNOUNCED = "UPDATE rounds SET announced = 1 WHERE id = ANY($1::bigint[])"
# A close with its rating: the rating's key is the guard, written only while the round is open,
# whose row it locks until the COMMIT; the rating's other steps follow, and the close comes
# last. The close's triggers take the lock on the totals every chat's scores share
# (connection.TOTALS_LOCK), and the rating's last step the game's scale row every round shares.
# Closed first (SQLite's order), a round held both across its rating's dozen round trips, and
# with several processes every close waited for the client of the one holding them: four
# workers capped at 0.15 cores spent the answers' phase with 20 closes queued on that lock
# (issue 57). Now the scale's upsert rides in the close's own statement (SCALED_CLOSE), so both
# are held for that last statement and the COMMIT. The order of locks stays the round's row,
# then its chat's, then the totals'.
RATE_OPEN = ("INSERT INTO rated_rounds (round_id, at) SELECT id, $2::DOUBLE PRECISION "
             "FROM rounds WHERE id = $1 AND status = 'open' FOR NO KEY UPDATE")
SCALED_CLOSE = numbered(f"WITH scaled AS ({ratings.QMARK.put_scale} RETURNING 1) "
                        f"{QMARK.close_round}")
# The week's housekeeping takes the totals' lock before it reads the rounds that left the week
# (schema step 31): a chat's reset taking winners off them meanwhile then either came first,
# its trigger having taken them off the totals, or comes after, finding them out of the week.
WEEK_LOCK = f"SELECT pg_advisory_xact_lock({TOTALS_LOCK[0]}, {TOTALS_LOCK[1]})"


class PostgresRounds(Rounds):
    def __init__(self, db: Database) -> None:
        super().__init__(db, NUMBERED, ratings.NUMBERED, WEEK_LOCK)
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

    async def rated_close(self, close: Step, steps: list[Step]) -> bool:
        (key, rated), *middle, (scale, scaled) = steps
        assert key == self.rated.rate_round and scale == self.rated.put_scale
        return await self.db.run_guarded((RATE_OPEN, rated),
                                         [*middle, (SCALED_CLOSE, (*scaled, *close[1]))])

    async def set_announced(self, round_ids: Sequence[int]) -> None:
        """The result of these rounds was sent (or will never be)."""
        if round_ids:
            await self.db.run(ANNOUNCED, (list(round_ids),))
