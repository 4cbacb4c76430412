"""SQLite storage over aiosqlite: users, chats, rounds, answers and per-chat scores.

Every state change is one transaction; closing a round is a conditional UPDATE whose row count
decides, atomically, whether this caller closed it (so two right answers make one winner).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from bot.migrations import LATEST, MIGRATIONS


@dataclass(frozen=True)
class Round:
    id: int
    chat_id: int
    hand: tuple[int, ...]
    target: int
    level: str
    points: int
    message_id: int | None
    started_at: float
    deadline: float
    status: str
    hint_used: bool


@dataclass(frozen=True)
class Stats:
    points: int
    wins: int
    rounds_played: int
    fastest_win: float | None
    current_streak: int
    best_streak: int


@dataclass(frozen=True)
class Standing:
    name: str
    points: int
    wins: int


ROUND_COLUMNS = ("id, chat_id, hand, target, level, points, message_id, started_at, deadline, "
                 "status, hint_used")


def _round(row: sqlite3.Row | tuple) -> Round:
    return Round(row[0], row[1], tuple(json.loads(row[2])), row[3], row[4], row[5], row[6],
                 row[7], row[8], row[9], bool(row[10]))


class Storage:
    """The bot's only way to the database; build with `await Storage.open(path)`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        # One connection serves every coroutine: a transaction must not interleave with another
        # coroutine's statements, so all access takes turns.
        self.lock = asyncio.Lock()

    async def _fetch(self, sql: str, params: tuple = ()) -> list[tuple]:
        async with self.lock, self.db.execute(sql, params) as cursor:
            return [tuple(row) for row in await cursor.fetchall()]

    @classmethod
    async def open(cls, path: Path | str, migrate_to: int = LATEST) -> Storage:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        # WAL with synchronous=NORMAL: a commit survives a crash of the bot; only a power cut
        # may lose the last moments. Syncing every commit would cap the bot at disk speed.
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA busy_timeout=5000")
        storage = cls(db)
        await storage.migrate(migrate_to)
        return storage

    async def close(self) -> None:
        await self.db.close()

    async def version(self) -> int:
        rows = await self._fetch("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def migrate(self, to: int = LATEST) -> None:
        """Apply the migrations after the current version, each in its own transaction."""
        current = await self.version()
        for number in range(current + 1, to + 1):
            async with self.lock:
                await self._migrate_one(number)

    async def _migrate_one(self, number: int) -> None:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[number - 1].split(";"):
                if statement.strip():
                    await self.db.execute(statement)
            await self.db.execute(f"PRAGMA user_version = {number}")
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    async def _write(self, statements: list[tuple[str, tuple]]) -> list[int]:
        """Run statements in one transaction; the row count of each."""
        async with self.lock:
            return await self._transaction(statements)

    async def _transaction(self, statements: list[tuple[str, tuple]]) -> list[int]:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            counts = []
            for sql, params in statements:
                cursor = await self.db.execute(sql, params)
                counts.append(cursor.rowcount)
            await self.db.execute("COMMIT")
            return counts
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    async def remember(self, chat_id: int, chat_type: str, title: str | None,
                       user_id: int | None = None, first_name: str = "",
                       username: str | None = None) -> None:
        """Record (or refresh) a chat and a user."""
        statements: list[tuple[str, tuple]] = [(
            "INSERT INTO chats (id, type, title) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE "
            "SET type = excluded.type, title = excluded.title", (chat_id, chat_type, title))]
        if user_id is not None:
            statements.append((
                "INSERT INTO users (id, first_name, username) VALUES (?, ?, ?) ON CONFLICT(id) "
                "DO UPDATE SET first_name = excluded.first_name, username = excluded.username",
                (user_id, first_name, username)))
        await self._write(statements)

    async def open_round(self, chat_id: int, hand: tuple[int, ...], target: int, level: str,
                         points: int, started_at: float, deadline: float) -> Round | None:
        """A new open round, or None when the chat already has one."""
        try:
            await self._write([(
                "INSERT INTO rounds (chat_id, hand, target, level, points, started_at, deadline) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (chat_id, json.dumps(list(hand)), target, level, points, started_at, deadline))])
        except sqlite3.IntegrityError:
            return None
        return await self.open_round_of(chat_id)

    async def set_message(self, round_id: int, message_id: int) -> None:
        await self._write([("UPDATE rounds SET message_id = ? WHERE id = ?",
                            (message_id, round_id))])

    async def open_round_of(self, chat_id: int) -> Round | None:
        rows = await self._fetch(
            f"SELECT {ROUND_COLUMNS} FROM rounds WHERE chat_id = ? AND status = 'open'",
            (chat_id,))
        return _round(rows[0]) if rows else None

    async def get_round(self, round_id: int) -> Round | None:
        rows = await self._fetch(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE id = ?", (round_id,))
        return _round(rows[0]) if rows else None

    async def open_rounds(self) -> list[Round]:
        rows = await self._fetch(
            f"SELECT {ROUND_COLUMNS} FROM rounds WHERE status = 'open' ORDER BY id")
        return [_round(row) for row in rows]

    async def record_answer(self, round_id: int, user_id: int, text: str, correct: bool,
                            at: float, first_name: str | None = None) -> None:
        """Store an answer (and, when a name is given, the user, in the same transaction)."""
        statements: list[tuple[str, tuple]] = []
        if first_name is not None:
            statements.append((
                "INSERT INTO users (id, first_name) VALUES (?, ?) ON CONFLICT(id) "
                "DO UPDATE SET first_name = excluded.first_name", (user_id, first_name)))
        statements.append(("INSERT INTO answers (round_id, user_id, text, correct, at) "
                           "VALUES (?, ?, ?, ?, ?)", (round_id, user_id, text, int(correct), at)))
        await self._write(statements)

    async def use_hint(self, round_id: int, points: int) -> bool:
        """Mark the hint and lower the points, once; False if the round is no longer open."""
        counts = await self._write([(
            "UPDATE rounds SET hint_used = 1, points = ? WHERE id = ? AND status = 'open'",
            (points, round_id))])
        return counts[0] == 1

    async def win(self, round_id: int, user_id: int, answer: str, ended_at: float) -> bool:
        """Close the round with this winner; False if someone else closed it first."""
        return await self._close(round_id, "won", ended_at, user_id, answer)

    async def end(self, round_id: int, status: str, ended_at: float) -> bool:
        """Close the round without a winner ('revealed' or 'expired'); False if already closed."""
        return await self._close(round_id, status, ended_at, None, None)

    async def _close(self, round_id: int, status: str, ended_at: float, winner: int | None,
                     answer: str | None) -> bool:
        async with self.lock:
            return await self._close_locked(round_id, status, ended_at, winner, answer)

    async def _close_locked(self, round_id: int, status: str, ended_at: float,
                            winner: int | None, answer: str | None) -> bool:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            cursor = await self.db.execute(
                "UPDATE rounds SET status = ?, ended_at = ?, winner_id = ?, winning_answer = ?, "
                "awarded = CASE WHEN ? IS NULL THEN 0 ELSE points END "
                "WHERE id = ? AND status = 'open'",
                (status, ended_at, winner, answer, winner, round_id))
            if cursor.rowcount != 1:
                await self.db.execute("ROLLBACK")
                return False
            await self._score_round(round_id, winner)
            await self.db.execute("COMMIT")
            return True
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    async def _score_round(self, round_id: int, winner: int | None) -> None:
        """Inside the closing transaction: played counts, the winner's points, streaks."""
        async with self.db.execute("SELECT chat_id, points, ended_at - started_at FROM rounds "
                                   "WHERE id = ?", (round_id,)) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        chat_id, points, elapsed = row
        await self.db.execute(
            "INSERT INTO scores (chat_id, user_id) SELECT DISTINCT ?, user_id FROM answers "
            "WHERE round_id = ? ON CONFLICT DO NOTHING", (chat_id, round_id))
        if winner is not None:
            await self.db.execute("INSERT INTO scores (chat_id, user_id) VALUES (?, ?) "
                                  "ON CONFLICT DO NOTHING", (chat_id, winner))
        await self.db.execute(
            "UPDATE scores SET rounds_played = rounds_played + 1 WHERE chat_id = ? AND "
            "(user_id = ? OR user_id IN (SELECT user_id FROM answers WHERE round_id = ?))",
            (chat_id, winner, round_id))
        await self.db.execute(
            "UPDATE scores SET current_streak = 0 WHERE chat_id = ? AND user_id IS NOT ?",
            (chat_id, winner))
        if winner is not None:
            await self.db.execute(
                "UPDATE scores SET points = points + ?, wins = wins + 1, "
                "fastest_win = MIN(COALESCE(fastest_win, ?), ?), "
                "current_streak = current_streak + 1, "
                "best_streak = MAX(best_streak, current_streak + 1) "
                "WHERE chat_id = ? AND user_id = ?",
                (points, elapsed, elapsed, chat_id, winner))

    async def top(self, chat_id: int | None, limit: int = 10) -> list[Standing]:
        """The best players of a chat, or of all chats together."""
        if chat_id is None:
            sql = ("SELECT u.first_name, SUM(s.points) AS p, SUM(s.wins) FROM scores s "
                   "JOIN users u ON u.id = s.user_id GROUP BY s.user_id HAVING p > 0 "
                   "ORDER BY p DESC, SUM(s.wins) DESC, u.id LIMIT ?")
            params: tuple = (limit,)
        else:
            sql = ("SELECT u.first_name, s.points, s.wins FROM scores s JOIN users u "
                   "ON u.id = s.user_id WHERE s.chat_id = ? AND s.points > 0 "
                   "ORDER BY s.points DESC, s.wins DESC, u.id LIMIT ?")
            params = (chat_id, limit)
        rows = await self._fetch(sql, params)
        return [Standing(row[0], row[1], row[2]) for row in rows]

    async def stats(self, chat_id: int, user_id: int) -> Stats | None:
        rows = await self._fetch(
            "SELECT points, wins, rounds_played, fastest_win, current_streak, best_streak "
            "FROM scores WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))
        return Stats(*rows[0]) if rows else None

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its rounds and scores follow the new chat id."""
        async with self.lock:
            await self._migrate_chat(old_id, new_id)

    async def winner_name(self, round_id: int) -> str | None:
        rows = await self._fetch("SELECT u.first_name FROM rounds r JOIN users u "
                                 "ON u.id = r.winner_id WHERE r.id = ?", (round_id,))
        return rows[0][0] if rows else None

    async def _migrate_chat(self, old_id: int, new_id: int) -> None:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.execute(
                "INSERT INTO chats (id, type, title) SELECT ?, 'supergroup', title FROM chats "
                "WHERE id = ? ON CONFLICT(id) DO NOTHING", (new_id, old_id))
            await self.db.execute(
                "INSERT INTO scores (chat_id, user_id, points, wins, rounds_played, fastest_win, "
                "current_streak, best_streak) SELECT ?, user_id, points, wins, rounds_played, "
                "fastest_win, current_streak, best_streak FROM scores WHERE chat_id = ? "
                "ON CONFLICT(chat_id, user_id) DO UPDATE SET points = points + excluded.points, "
                "wins = wins + excluded.wins, rounds_played = rounds_played + "
                "excluded.rounds_played, fastest_win = MIN(COALESCE(fastest_win, "
                "excluded.fastest_win), COALESCE(excluded.fastest_win, fastest_win)), "
                "best_streak = MAX(best_streak, excluded.best_streak)", (new_id, old_id))
            await self.db.execute("DELETE FROM scores WHERE chat_id = ?", (old_id,))
            await self.db.execute("UPDATE rounds SET chat_id = ? WHERE chat_id = ?",
                                  (new_id, old_id))
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
