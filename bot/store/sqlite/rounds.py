"""Rounds and answers in SQLite.

Closing a round is one conditional UPDATE (its row count says who closed it) and the trigger
`round_closed` scores it in the same statement; a limited guess is one conditional INSERT.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from bot.store.records import BestAnswer, RaceWinner, Result, RightAnswer, Round
from bot.store.sqlite.database import Database
from bot.store.sqlite.rows import ROUND_COLUMNS, round_of, tuples


class SqliteRounds:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def open_round(self, chat_id: int, game: str, hand: tuple, target: int, level: str,
                         points: int, lang: str, started_at: float, deadline: float,
                         started_by: int | None = None, topic: int = 0) -> Round | None:
        """A new open round, or None when the chat's topic already has one."""
        try:
            round_id = await self.db.insert(
                "INSERT INTO rounds (chat_id, game, hand, target, level, points, lang, "
                "started_at, deadline, started_by, topic) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (chat_id, game, json.dumps(hand), target, level, points, lang, started_at,
                 deadline, started_by, topic))
        except sqlite3.IntegrityError:
            return None
        return Round(round_id, chat_id, game, tuples(json.loads(json.dumps(hand))), target,
                     level, points, lang, None, started_at, deadline, "open", False, started_by,
                     topic)

    async def set_message(self, round_id: int, message_id: int) -> None:
        await self.db.run("UPDATE rounds SET message_id = ? WHERE id = ?",
                          (message_id, round_id))

    async def open_round_of(self, chat_id: int, topic: int = 0) -> Round | None:
        rows = await self.db.fetch(
            f"SELECT {ROUND_COLUMNS} FROM rounds WHERE chat_id = ? AND topic = ? "
            "AND status = 'open'", (chat_id, topic))
        return round_of(rows[0]) if rows else None

    async def get_round(self, round_id: int) -> Round | None:
        rows = await self.db.fetch(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE id = ?",
                                   (round_id,))
        return round_of(rows[0]) if rows else None

    async def open_rounds(self) -> list[Round]:
        rows = await self.db.fetch(
            f"SELECT {ROUND_COLUMNS} FROM rounds WHERE status = 'open' ORDER BY id")
        return [round_of(row) for row in rows]

    async def record_answer(self, round_id: int, user_id: int, text: str, correct: bool,
                            at: float, distance: int | None = None) -> None:
        await self.db.run("INSERT INTO answers (round_id, user_id, text, correct, at, distance) "
                          "VALUES (?, ?, ?, ?, ?, ?)",
                          (round_id, user_id, text, int(correct), at, distance))

    async def record_guess(self, round_id: int, user_id: int, text: str, correct: bool,
                           at: float, distance: int, limit: int) -> int | None:
        """Record a guess unless the player has made `limit` already in this round; which guess
        this is (1..limit), or None when none was left. Guesses are answers with a distance:
        one conditional INSERT, so two guesses at once cannot both take the last one."""
        inserted = await self.db.run(
            "INSERT INTO answers (round_id, user_id, text, correct, at, distance) "
            "SELECT ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM answers WHERE round_id = ? "
            "AND user_id = ? AND distance IS NOT NULL) < ?",
            (round_id, user_id, text, int(correct), at, distance, round_id, user_id, limit))
        return await self.guesses_made(round_id, user_id) if inserted else None

    async def guesses_made(self, round_id: int, user_id: int) -> int:
        """How many guesses (answers with a distance) the player made in the round."""
        rows = await self.db.fetch("SELECT COUNT(*) FROM answers WHERE round_id = ? AND "
                                   "user_id = ? AND distance IS NOT NULL", (round_id, user_id))
        return int(rows[0][0])

    async def give_hint(self, round_id: int, number: int, points: int) -> bool:
        """Count the round's `number`th hint given (the column `hint_used` holds how many) and
        set its points; False if the round is closed or that hint was counted already."""
        return await self.db.run("UPDATE rounds SET hint_used = ?, points = ? "
                                 "WHERE id = ? AND status = 'open' AND hint_used = ?",
                                 (number, points, round_id, number - 1)) == 1

    async def hints_given(self, round_id: int) -> int:
        rows = await self.db.fetch("SELECT hint_used FROM rounds WHERE id = ?", (round_id,))
        return int(rows[0][0]) if rows else 0

    async def close_round(self, round_id: int, status: str, ended_at: float,
                          winner: int | None = None, answer: str | None = None,
                          awarded: int = 0, win_seconds: float | None = None) -> bool:
        """Close an open round ('won', 'revealed' or 'expired'); False if it was closed already.

        The trigger `round_closed` (migration 4) scores it in the same statement; answers that
        land after this are counted by the trigger `answer_after_close`.
        """
        return await self.db.run(
            "UPDATE rounds SET status = ?, ended_at = ?, winner_id = ?, winning_answer = ?, "
            "awarded = ?, win_seconds = ? WHERE id = ? AND status = 'open'",
            (status, ended_at, winner, answer, awarded if winner is not None else 0,
             win_seconds, round_id)) == 1

    async def best_answer(self, round_id: int, excluding: int | None = None
                          ) -> BestAnswer | None:
        """The closest valid answer of a round (ties: the earliest), leaving out the answers
        of the player `excluding` (who ended the round early, and so cannot win it)."""
        rows = await self.db.fetch(
            "SELECT a.user_id, u.first_name, a.text, a.distance, a.at FROM answers a "
            "JOIN users u ON u.id = a.user_id WHERE a.round_id = ? AND a.distance IS NOT NULL "
            "AND a.user_id IS NOT ? ORDER BY a.distance, a.at, a.id LIMIT 1",
            (round_id, excluding))
        return BestAnswer(*rows[0]) if rows else None

    async def answerers(self, round_id: int) -> list[int]:
        """The players who answered in the round, in the order of their first answer."""
        rows = await self.db.fetch("SELECT user_id FROM answers WHERE round_id = ? "
                                   "GROUP BY user_id ORDER BY MIN(id)", (round_id,))
        return [row[0] for row in rows]

    async def first_right_answer(self, round_id: int) -> RightAnswer | None:
        """The earliest right answer of a round: its winner, had the round been closed then."""
        rows = await self.db.fetch(
            "SELECT user_id, text, at FROM answers WHERE round_id = ? AND correct = 1 "
            "ORDER BY at, id LIMIT 1", (round_id,))
        return RightAnswer(*rows[0]) if rows else None

    async def unannounced(self) -> list[Result]:
        """Closed rounds whose result message was never sent (the bot stopped in between),
        oldest first."""
        rows = await self.db.fetch(
            f"SELECT {', '.join('r.' + c for c in ROUND_COLUMNS.split(', '))}, r.ended_at, "
            "u.first_name, r.winning_answer, r.awarded, r.win_seconds, "
            "EXISTS (SELECT 1 FROM answers a WHERE a.round_id = r.id "
            "        AND a.user_id = r.winner_id AND a.correct = 1), "
            "(SELECT MIN(a.distance) FROM answers a WHERE a.round_id = r.id "
            "        AND a.user_id = r.winner_id AND a.text = r.winning_answer) "
            "FROM rounds r LEFT JOIN users u ON u.id = r.winner_id "
            "WHERE r.announced = 0 AND r.status != 'open' ORDER BY r.ended_at, r.id")
        return [Result(round_of(row[:-7]), row[-7], row[-6], row[-5], row[-4], row[-3],
                       bool(row[-2]), row[-1]) for row in rows]

    async def set_announced(self, round_ids: Sequence[int]) -> None:
        """The result of these rounds was sent (or will never be)."""
        if round_ids:
            await self.db.run(f"UPDATE rounds SET announced = 1 WHERE id IN "
                              f"({', '.join('?' * len(round_ids))})", tuple(round_ids))

    async def race(self, round_id: int) -> RaceWinner | None:
        """The winner of a round won by a right answer, with that answer's stored time (None
        for a round nobody won, or won by the closest answer at the end)."""
        rows = await self.db.fetch(
            "SELECT r.winner_id, u.first_name, MIN(a.at) FROM rounds r "
            "JOIN users u ON u.id = r.winner_id JOIN answers a ON a.round_id = r.id "
            "AND a.user_id = r.winner_id AND a.correct = 1 WHERE r.id = ? "
            "GROUP BY r.winner_id, u.first_name", (round_id,))
        return RaceWinner(*rows[0]) if rows else None

    async def winner_name(self, round_id: int) -> str | None:
        rows = await self.db.fetch("SELECT u.first_name FROM rounds r JOIN users u "
                                   "ON u.id = r.winner_id WHERE r.id = ?", (round_id,))
        return rows[0][0] if rows else None
