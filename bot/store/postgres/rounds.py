"""Rounds and answers in PostgreSQL.

Closing a round is one conditional UPDATE: of two closes at once, the second waits for the first
row lock, finds the round no longer open and changes nothing, so its row count says it lost; the
trigger `round_closed` scores the round in the same statement. A limited guess is counted and
stored in one transaction under its chat's lock, so two guesses at once cannot both take the last.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import asyncpg

from bot.store.postgres.connection import Database
from bot.store.postgres.rows import ROUND_COLUMNS, hand_of, round_of
from bot.store.records import BestAnswer, RaceWinner, Result, RightAnswer, Round

RESULT_COLUMNS = ", ".join("r." + column for column in ROUND_COLUMNS.split(", "))


class PostgresRounds:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def open_round(self, chat_id: int, game: str, hand: tuple, target: int, level: str,
                         points: int, lang: str, started_at: float, deadline: float,
                         started_by: int | None = None, topic: int = 0) -> Round | None:
        """A new open round, or None when the chat's topic already has one."""
        stored = json.dumps(hand)
        try:
            round_id = await self.db.insert(
                "INSERT INTO rounds (chat_id, game, hand, target, level, points, lang, "
                "started_at, deadline, started_by, topic) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, "
                "$9, $10, $11) RETURNING id",
                (chat_id, game, stored, target, level, points, lang, started_at, deadline,
                 started_by, topic))
        except asyncpg.UniqueViolationError:
            return None
        return Round(round_id, chat_id, game, hand_of(stored), target, level, points, lang, None,
                     started_at, deadline, "open", False, started_by, topic)

    async def set_message(self, round_id: int, message_id: int) -> None:
        await self.db.run("UPDATE rounds SET message_id = $1 WHERE id = $2",
                          (message_id, round_id))

    async def open_round_of(self, chat_id: int, topic: int = 0) -> Round | None:
        rows = await self.db.fetch(
            f"SELECT {ROUND_COLUMNS} FROM rounds WHERE chat_id = $1 AND topic = $2 "
            "AND status = 'open'", (chat_id, topic))
        return round_of(rows[0]) if rows else None

    async def get_round(self, round_id: int) -> Round | None:
        rows = await self.db.fetch(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE id = $1",
                                   (round_id,))
        return round_of(rows[0]) if rows else None

    async def open_rounds(self) -> list[Round]:
        rows = await self.db.fetch(
            f"SELECT {ROUND_COLUMNS} FROM rounds WHERE status = 'open' ORDER BY id")
        return [round_of(row) for row in rows]

    async def record_answer(self, round_id: int, user_id: int, text: str, correct: bool,
                            at: float, distance: int | None = None) -> None:
        await self.db.run("INSERT INTO answers (round_id, user_id, text, correct, at, distance) "
                          "VALUES ($1, $2, $3, $4, $5, $6)",
                          (round_id, user_id, text, int(correct), at, distance))

    async def record_guess(self, round_id: int, user_id: int, text: str, correct: bool,
                           at: float, distance: int, limit: int) -> int | None:
        """Record a guess unless the player has made `limit` already in this round; which guess
        this is (1..limit), or None when none was left. The count is read after the chat's
        lock, which the guess before it held until it committed."""
        async with self.db.transaction() as connection:
            await connection.execute("SELECT pg_advisory_xact_lock(chat_id) FROM rounds "
                                     "WHERE id = $1", round_id)
            made = await _guesses(connection, round_id, user_id)
            if made >= limit:
                return None
            await connection.execute(
                "INSERT INTO answers (round_id, user_id, text, correct, at, distance) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
                round_id, user_id, text, int(correct), at, distance)
            return made + 1

    async def guesses_made(self, round_id: int, user_id: int) -> int:
        """How many guesses (answers with a distance) the player made in the round."""
        async with self.db.pool.acquire() as connection:
            return await _guesses(connection, round_id, user_id)

    async def give_hint(self, round_id: int, number: int, points: int) -> bool:
        """Count the round's `number`th hint given (the column `hint_used` holds how many) and
        set its points; False if the round is closed or that hint was counted already."""
        return await self.db.run("UPDATE rounds SET hint_used = $1, points = $2 "
                                 "WHERE id = $3 AND status = 'open' AND hint_used = $4",
                                 (number, points, round_id, number - 1)) == 1

    async def hints_given(self, round_id: int) -> int:
        rows = await self.db.fetch("SELECT hint_used FROM rounds WHERE id = $1", (round_id,))
        return int(rows[0][0]) if rows else 0

    async def close_round(self, round_id: int, status: str, ended_at: float,
                          winner: int | None = None, answer: str | None = None,
                          awarded: int = 0, win_seconds: float | None = None) -> bool:
        """Close an open round ('won', 'revealed' or 'expired'); False if it was closed already.
        The trigger `round_closed` scores it in the same statement."""
        return await self.db.run(
            "UPDATE rounds SET status = $1, ended_at = $2, winner_id = $3, winning_answer = $4, "
            "awarded = $5, win_seconds = $6 WHERE id = $7 AND status = 'open'",
            (status, ended_at, winner, answer, awarded if winner is not None else 0,
             win_seconds, round_id)) == 1

    async def best_answer(self, round_id: int, excluding: int | None = None
                          ) -> BestAnswer | None:
        """The closest valid answer of a round (ties: the earliest), leaving out the answers
        of the player `excluding` (who ended the round early, and so cannot win it)."""
        rows = await self.db.fetch(
            "SELECT a.user_id, u.first_name, a.text, a.distance, a.at FROM answers a "
            "JOIN users u ON u.id = a.user_id WHERE a.round_id = $1 AND a.distance IS NOT NULL "
            "AND a.user_id IS DISTINCT FROM $2 ORDER BY a.distance, a.at, a.id LIMIT 1",
            (round_id, excluding))
        return BestAnswer(*rows[0]) if rows else None

    async def answerers(self, round_id: int) -> list[int]:
        """The players who answered in the round, in the order of their first answer."""
        rows = await self.db.fetch("SELECT user_id FROM answers WHERE round_id = $1 "
                                   "GROUP BY user_id ORDER BY MIN(id)", (round_id,))
        return [row[0] for row in rows]

    async def first_right_answer(self, round_id: int) -> RightAnswer | None:
        """The earliest right answer of a round: its winner, had the round been closed then."""
        rows = await self.db.fetch(
            "SELECT user_id, text, at FROM answers WHERE round_id = $1 AND correct = 1 "
            "ORDER BY at, id LIMIT 1", (round_id,))
        return RightAnswer(*rows[0]) if rows else None

    async def unannounced(self) -> list[Result]:
        """Closed rounds whose result message was never sent (the bot, or the leader, stopped
        in between), oldest first."""
        rows = await self.db.fetch(
            f"SELECT {RESULT_COLUMNS}, r.ended_at, u.first_name, r.winning_answer, r.awarded, "
            "r.win_seconds, "
            "EXISTS (SELECT 1 FROM answers a WHERE a.round_id = r.id "
            "        AND a.user_id = r.winner_id AND a.correct = 1), "
            "(SELECT MIN(a.distance) FROM answers a WHERE a.round_id = r.id "
            "        AND a.user_id = r.winner_id AND a.text = r.winning_answer) "
            "FROM rounds r LEFT JOIN users u ON u.id = r.winner_id "
            "WHERE r.announced = 0 AND r.status <> 'open' ORDER BY r.ended_at, r.id")
        return [Result(round_of(row[:-7]), row[-7], row[-6], row[-5], row[-4], row[-3],
                       bool(row[-2]), row[-1]) for row in rows]

    async def set_announced(self, round_ids: Sequence[int]) -> None:
        """The result of these rounds was sent (or will never be)."""
        if round_ids:
            await self.db.run("UPDATE rounds SET announced = 1 WHERE id = ANY($1::bigint[])",
                              (list(round_ids),))

    async def race(self, round_id: int) -> RaceWinner | None:
        """The winner of a round won by a right answer, with that answer's stored time (None
        for a round nobody won, or won by the closest answer at the end)."""
        rows = await self.db.fetch(
            "SELECT r.winner_id, u.first_name, MIN(a.at) FROM rounds r "
            "JOIN users u ON u.id = r.winner_id JOIN answers a ON a.round_id = r.id "
            "AND a.user_id = r.winner_id AND a.correct = 1 WHERE r.id = $1 "
            "GROUP BY r.winner_id, u.first_name", (round_id,))
        return RaceWinner(*rows[0]) if rows else None

    async def winner_name(self, round_id: int) -> str | None:
        rows = await self.db.fetch("SELECT u.first_name FROM rounds r JOIN users u "
                                   "ON u.id = r.winner_id WHERE r.id = $1", (round_id,))
        return rows[0][0] if rows else None


async def _guesses(connection: asyncpg.Connection, round_id: int, user_id: int) -> int:
    return int(await connection.fetchval(
        "SELECT COUNT(*) FROM answers WHERE round_id = $1 AND user_id = $2 "
        "AND distance IS NOT NULL", round_id, user_id))
