"""SQLite storage over aiosqlite: users, chats, rounds, answers, and scores per chat and game.

Every state change is one SQL statement, so one transaction: closing a round is a conditional
UPDATE whose row count decides, atomically, whether this caller closed it (two right answers
make one winner), and the database's own trigger scores the round in that same statement.
Single statements are pipelined through aiosqlite's thread; the few multi-statement
transactions (migrations, a chat's move) run alone behind `Gate`.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.sqlite.migrations import LATEST, MIGRATIONS, statements


@dataclass(frozen=True)
class Round:
    id: int
    chat_id: int
    game: str
    hand: tuple
    target: int
    level: str
    points: int
    lang: str
    message_id: int | None
    started_at: float
    deadline: float
    status: str
    hint_used: bool
    started_by: int | None = None  # the player who dealt it (None for rounds before migration 4)


@dataclass(frozen=True)
class Stats:
    game: str
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


@dataclass(frozen=True)
class BestAnswer:
    user_id: int
    name: str
    text: str
    distance: int
    at: float


@dataclass(frozen=True)
class RightAnswer:
    user_id: int
    text: str
    at: float


@dataclass(frozen=True)
class Match:
    """A match (/match N): `rounds` rounds of 24 in a row; status on | done | stopped."""

    id: int
    chat_id: int
    rounds: int
    started_by: int | None
    lang: str
    started_at: float
    status: str


@dataclass(frozen=True)
class MatchRound:
    number: int
    round_id: int
    status: str  # the round's: open | won | revealed | expired


@dataclass(frozen=True)
class MatchScore:
    user_id: int
    name: str
    points: int
    wins: int


@dataclass(frozen=True)
class RaceWinner:
    """Who won a round with a right answer, and when that answer was stored."""

    user_id: int
    name: str
    at: float


@dataclass(frozen=True)
class Result:
    """A closed round as its result message needs it (`exact`: the winner answered right;
    `distance`: how far the winner's answer was, where the closest answer wins)."""

    round: Round
    ended_at: float
    winner_name: str | None
    answer: str | None
    awarded: int
    win_seconds: float | None
    exact: bool
    distance: int | None


ROUND_COLUMNS = ("id, chat_id, game, hand, target, level, points, lang, message_id, started_at, "
                 "deadline, status, hint_used, started_by")


MATCH_COLUMNS = "id, chat_id, rounds, started_by, lang, started_at, status"


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _round(row: Sequence[Any]) -> Round:
    return Round(row[0], row[1], row[2], _tuples(json.loads(row[3])), row[4], row[5], row[6],
                 row[7], row[8], row[9], row[10], row[11], bool(row[12]), row[13])


class Gate:
    """Many single statements at once, or one multi-statement transaction alone.

    aiosqlite runs statements one after another on its thread, so single statements need no
    lock; a transaction spread over several awaits must not have others' statements inside it.
    """

    def __init__(self) -> None:
        self._sharing = 0
        self._exclusive = False
        self._changed = asyncio.Condition()

    @asynccontextmanager
    async def shared(self) -> AsyncIterator[None]:
        if self._exclusive:
            async with self._changed:
                await self._changed.wait_for(lambda: not self._exclusive)
        self._sharing += 1
        try:
            yield
        finally:
            self._sharing -= 1
            if self._exclusive and not self._sharing:
                async with self._changed:
                    self._changed.notify_all()

    @asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        async with self._changed:
            await self._changed.wait_for(lambda: not self._exclusive)
            self._exclusive = True
            await self._changed.wait_for(lambda: not self._sharing)
        try:
            yield
        finally:
            async with self._changed:
                self._exclusive = False
                self._changed.notify_all()


class Storage:
    """The bot's only way to the database; build with `await Storage.open(path)`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.gate = Gate()

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

    # --- plumbing ------------------------------------------------------------------------------

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        async with self.gate.shared():
            return [tuple(row) for row in await self.db.execute_fetchall(sql, params)]

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, its own transaction; the number of rows it changed."""
        async with self.gate.shared():
            cursor = await self.db.execute(sql, params)  # left to the collector: closing costs
            return cursor.rowcount                       # a trip to the database thread

    async def _transaction(self, steps: Sequence[tuple[str, Sequence[Any]]]) -> None:
        async with self.gate.exclusive():
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in steps:
                    await self.db.execute(sql, params)
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    # --- schema --------------------------------------------------------------------------------

    async def version(self) -> int:
        rows = await self._fetch("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def migrate(self, to: int = LATEST) -> None:
        """Apply the migrations after the current version, each in its own transaction."""
        for number in range(await self.version() + 1, to + 1):
            steps = [(sql, ()) for sql in statements(MIGRATIONS[number - 1])]
            await self._transaction([*steps, (f"PRAGMA user_version = {number}", ())])

    # --- chats and users -----------------------------------------------------------------------

    async def remember_chat(self, chat_id: int, chat_type: str, title: str | None) -> None:
        await self._run("INSERT INTO chats (id, type, title) VALUES (?, ?, ?) ON CONFLICT(id) "
                        "DO UPDATE SET type = excluded.type, title = excluded.title",
                        (chat_id, chat_type, title))

    async def remember_user(self, user_id: int, first_name: str,
                            username: str | None = None) -> None:
        await self._run("INSERT INTO users (id, first_name, username) VALUES (?, ?, ?) "
                        "ON CONFLICT(id) DO UPDATE SET first_name = excluded.first_name, "
                        "username = excluded.username", (user_id, first_name, username))

    async def user_name(self, user_id: int) -> str | None:
        rows = await self._fetch("SELECT first_name FROM users WHERE id = ?", (user_id,))
        return rows[0][0] if rows else None

    async def languages(self) -> dict[int, str]:
        """The language each chat chose with /lang."""
        rows = await self._fetch("SELECT id, lang FROM chats WHERE lang IS NOT NULL")
        return {chat_id: lang for chat_id, lang in rows}

    async def set_language(self, chat_id: int, lang: str) -> None:
        await self._run("UPDATE chats SET lang = ? WHERE id = ?", (lang, chat_id))

    # --- rounds --------------------------------------------------------------------------------

    async def open_round(self, chat_id: int, game: str, hand: tuple, target: int, level: str,
                         points: int, lang: str, started_at: float, deadline: float,
                         started_by: int | None = None) -> Round | None:
        """A new open round, or None when the chat already has one."""
        try:
            async with self.gate.shared():
                row = await self.db.execute_insert(
                    "INSERT INTO rounds (chat_id, game, hand, target, level, points, lang, "
                    "started_at, deadline, started_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (chat_id, game, json.dumps(hand), target, level, points, lang, started_at,
                     deadline, started_by))
        except sqlite3.IntegrityError:
            return None
        assert row is not None
        return Round(row[0], chat_id, game, _tuples(json.loads(json.dumps(hand))), target, level,
                     points, lang, None, started_at, deadline, "open", False, started_by)

    async def set_message(self, round_id: int, message_id: int) -> None:
        await self._run("UPDATE rounds SET message_id = ? WHERE id = ?", (message_id, round_id))

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
                            at: float, distance: int | None = None) -> None:
        await self._run("INSERT INTO answers (round_id, user_id, text, correct, at, distance) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (round_id, user_id, text, int(correct), at, distance))

    async def record_guess(self, round_id: int, user_id: int, text: str, correct: bool,
                           at: float, distance: int, limit: int) -> int | None:
        """Record a guess unless the player has made `limit` already in this round; which guess
        this is (1..limit), or None when none was left. Guesses are answers with a distance:
        one conditional INSERT, so two guesses at once cannot both take the last one."""
        inserted = await self._run(
            "INSERT INTO answers (round_id, user_id, text, correct, at, distance) "
            "SELECT ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM answers WHERE round_id = ? "
            "AND user_id = ? AND distance IS NOT NULL) < ?",
            (round_id, user_id, text, int(correct), at, distance, round_id, user_id, limit))
        return await self.guesses_made(round_id, user_id) if inserted else None

    async def guesses_made(self, round_id: int, user_id: int) -> int:
        """How many guesses (answers with a distance) the player made in the round."""
        rows = await self._fetch("SELECT COUNT(*) FROM answers WHERE round_id = ? AND "
                                 "user_id = ? AND distance IS NOT NULL", (round_id, user_id))
        return int(rows[0][0])

    async def give_hint(self, round_id: int, number: int, points: int) -> bool:
        """Count the round's `number`th hint given (the column `hint_used` holds how many) and
        set its points; False if the round is closed or that hint was counted already."""
        return await self._run("UPDATE rounds SET hint_used = ?, points = ? "
                               "WHERE id = ? AND status = 'open' AND hint_used = ?",
                               (number, points, round_id, number - 1)) == 1

    async def hints_given(self, round_id: int) -> int:
        rows = await self._fetch("SELECT hint_used FROM rounds WHERE id = ?", (round_id,))
        return int(rows[0][0]) if rows else 0

    async def close_round(self, round_id: int, status: str, ended_at: float,
                          winner: int | None = None, answer: str | None = None, awarded: int = 0,
                          win_seconds: float | None = None) -> bool:
        """Close an open round ('won', 'revealed' or 'expired'); False if it was closed already.

        The trigger `round_closed` (migration 4) scores it in the same statement; answers that
        land after this are counted by the trigger `answer_after_close`.
        """
        return await self._run(
            "UPDATE rounds SET status = ?, ended_at = ?, winner_id = ?, winning_answer = ?, "
            "awarded = ?, win_seconds = ? WHERE id = ? AND status = 'open'",
            (status, ended_at, winner, answer, awarded if winner is not None else 0,
             win_seconds, round_id)) == 1

    async def best_answer(self, round_id: int) -> BestAnswer | None:
        """The closest valid answer of a round (ties: the earliest)."""
        rows = await self._fetch(
            "SELECT a.user_id, u.first_name, a.text, a.distance, a.at FROM answers a "
            "JOIN users u ON u.id = a.user_id WHERE a.round_id = ? AND a.distance IS NOT NULL "
            "ORDER BY a.distance, a.at, a.id LIMIT 1", (round_id,))
        return BestAnswer(*rows[0]) if rows else None

    async def first_right_answer(self, round_id: int) -> RightAnswer | None:
        """The earliest right answer of a round: its winner, had the round been closed then."""
        rows = await self._fetch(
            "SELECT user_id, text, at FROM answers WHERE round_id = ? AND correct = 1 "
            "ORDER BY at, id LIMIT 1", (round_id,))
        return RightAnswer(*rows[0]) if rows else None

    async def unannounced(self) -> list[Result]:
        """Closed rounds whose result message was never sent (the bot stopped in between),
        oldest first."""
        rows = await self._fetch(
            f"SELECT {', '.join('r.' + c for c in ROUND_COLUMNS.split(', '))}, r.ended_at, "
            "u.first_name, r.winning_answer, r.awarded, r.win_seconds, "
            "EXISTS (SELECT 1 FROM answers a WHERE a.round_id = r.id "
            "        AND a.user_id = r.winner_id AND a.correct = 1), "
            "(SELECT MIN(a.distance) FROM answers a WHERE a.round_id = r.id "
            "        AND a.user_id = r.winner_id AND a.text = r.winning_answer) "
            "FROM rounds r LEFT JOIN users u ON u.id = r.winner_id "
            "WHERE r.announced = 0 AND r.status != 'open' ORDER BY r.ended_at, r.id")
        return [Result(_round(row[:-7]), row[-7], row[-6], row[-5], row[-4], row[-3],
                       bool(row[-2]), row[-1]) for row in rows]

    async def set_announced(self, round_ids: Sequence[int]) -> None:
        """The result of these rounds was sent (or will never be)."""
        if round_ids:
            await self._run(f"UPDATE rounds SET announced = 1 WHERE id IN "
                            f"({', '.join('?' * len(round_ids))})", tuple(round_ids))

    async def race(self, round_id: int) -> RaceWinner | None:
        """The winner of a round won by a right answer, with that answer's stored time (None
        for a round nobody won, or won by the closest answer at the end)."""
        rows = await self._fetch(
            "SELECT r.winner_id, u.first_name, MIN(a.at) FROM rounds r "
            "JOIN users u ON u.id = r.winner_id JOIN answers a ON a.round_id = r.id "
            "AND a.user_id = r.winner_id AND a.correct = 1 WHERE r.id = ? "
            "GROUP BY r.winner_id, u.first_name", (round_id,))
        return RaceWinner(*rows[0]) if rows else None

    async def winner_name(self, round_id: int) -> str | None:
        rows = await self._fetch("SELECT u.first_name FROM rounds r JOIN users u "
                                 "ON u.id = r.winner_id WHERE r.id = ?", (round_id,))
        return rows[0][0] if rows else None

    # --- updates ---------------------------------------------------------------------------------

    async def claim_update(self, update_id: int, at: float) -> bool:
        """True the first time an update is seen: Telegram sends an update again when the bot
        stopped before confirming it, and it must not act or reply twice."""
        return await self._run("INSERT INTO handled_updates (update_id, at) VALUES (?, ?) "
                               "ON CONFLICT DO NOTHING", (update_id, at)) == 1

    async def forget_updates(self, before: float) -> int:
        """Drop the ids of updates handled before `before` (Telegram redelivers for 24 hours at
        most, and picks new ids at random after a week without updates)."""
        return await self._run("DELETE FROM handled_updates WHERE at < ?", (before,))

    # --- scores --------------------------------------------------------------------------------

    async def top(self, chat_id: int | None, game: str | None = None,
                  limit: int = 10) -> list[Standing]:
        """The best players of a chat (or of all chats), in one game or all together."""
        where, params = ["s.points > 0"], list[Any]()
        if chat_id is not None:
            where.append("s.chat_id = ?")
            params.append(chat_id)
        if game is not None:
            where.append("s.game = ?")
            params.append(game)
        rows = await self._fetch(
            "SELECT u.first_name, SUM(s.points) AS p, SUM(s.wins) AS w FROM scores s "
            f"JOIN users u ON u.id = s.user_id WHERE {' AND '.join(where)} "
            "GROUP BY s.user_id ORDER BY p DESC, w DESC, s.user_id LIMIT ?", (*params, limit))
        return [Standing(*row) for row in rows]

    async def stats(self, chat_id: int, user_id: int) -> list[Stats]:
        """A player's scores in a chat, one row per game played."""
        rows = await self._fetch(
            "SELECT game, points, wins, rounds_played, fastest_win, current_streak, best_streak "
            "FROM scores WHERE chat_id = ? AND user_id = ? ORDER BY game", (chat_id, user_id))
        return [Stats(*row) for row in rows]

    async def migrate_chat(self, old_id: int, new_id: int) -> None:
        """A group became a supergroup: its rounds follow the new chat id, and the new chat's
        scores are counted again from all its rounds (streaks cannot simply be added)."""
        await self._transaction([
            ("INSERT INTO chats (id, type, title, lang) SELECT ?, 'supergroup', title, lang "
             "FROM chats WHERE id = ? ON CONFLICT(id) DO NOTHING", (new_id, old_id)),
            ("UPDATE rounds SET chat_id = ? WHERE chat_id = ?", (new_id, old_id)),
            ("UPDATE matches SET chat_id = ? WHERE chat_id = ?", (new_id, old_id)),
            ("DELETE FROM scores WHERE chat_id IN (?, ?)", (old_id, new_id)),
            ("INSERT INTO scores (chat_id, user_id, game, points, wins, rounds_played, "
             "fastest_win, current_streak, best_streak) SELECT chat_id, user_id, game, points, "
             "wins, rounds_played, fastest_win, current_streak, best_streak "
             "FROM scores_from_rounds WHERE chat_id = ?", (new_id,)),
        ])

    # --- matches -------------------------------------------------------------------------------

    async def open_match(self, chat_id: int, rounds: int, started_by: int | None, lang: str,
                         at: float) -> Match | None:
        """A new match, or None when the chat has one on already."""
        try:
            async with self.gate.shared():
                row = await self.db.execute_insert(
                    "INSERT INTO matches (chat_id, rounds, started_by, lang, started_at) "
                    "VALUES (?, ?, ?, ?, ?)", (chat_id, rounds, started_by, lang, at))
        except sqlite3.IntegrityError:
            return None
        assert row is not None
        return Match(row[0], chat_id, rounds, started_by, lang, at, "on")

    async def match_on(self, chat_id: int) -> Match | None:
        """The chat's match that is on, if any."""
        rows = await self._fetch(f"SELECT {MATCH_COLUMNS} FROM matches "
                                 "WHERE chat_id = ? AND status = 'on'", (chat_id,))
        return Match(*rows[0]) if rows else None

    async def matches_on(self) -> list[Match]:
        rows = await self._fetch(f"SELECT {MATCH_COLUMNS} FROM matches WHERE status = 'on' "
                                 "ORDER BY id")
        return [Match(*row) for row in rows]

    async def add_match_round(self, match_id: int, round_id: int) -> int:
        """Link a round to its match as the next one; its number in the match."""
        await self._run("INSERT INTO match_rounds (match_id, number, round_id) SELECT ?, "
                        "COALESCE(MAX(number), 0) + 1, ? FROM match_rounds WHERE match_id = ?",
                        (match_id, round_id, match_id))
        rows = await self._fetch("SELECT number FROM match_rounds WHERE round_id = ?",
                                 (round_id,))
        return int(rows[0][0])

    async def match_rounds(self, match_id: int) -> list[MatchRound]:
        """The match's rounds so far, in order, with their status."""
        rows = await self._fetch(
            "SELECT m.number, m.round_id, r.status FROM match_rounds m "
            "JOIN rounds r ON r.id = m.round_id WHERE m.match_id = ? ORDER BY m.number",
            (match_id,))
        return [MatchRound(*row) for row in rows]

    async def end_match(self, match_id: int, status: str, at: float) -> bool:
        """End a match ('done' or 'stopped'); False if it had ended already (one caller wins)."""
        return await self._run("UPDATE matches SET status = ?, ended_at = ? "
                               "WHERE id = ? AND status = 'on'", (status, at, match_id)) == 1

    async def match_scores(self, match_id: int) -> list[MatchScore]:
        """Points and wins per player over the match's rounds; ties go to whoever reached the
        points first."""
        rows = await self._fetch(
            "SELECT r.winner_id, u.first_name, SUM(r.awarded), COUNT(*) FROM match_rounds m "
            "JOIN rounds r ON r.id = m.round_id JOIN users u ON u.id = r.winner_id "
            "WHERE m.match_id = ? AND r.status = 'won' GROUP BY r.winner_id "
            "ORDER BY SUM(r.awarded) DESC, COUNT(*) DESC, MAX(m.number), r.winner_id",
            (match_id,))
        return [MatchScore(*row) for row in rows]

    async def chat_and_user(self, chat_id: int, user_id: int
                            ) -> tuple[tuple[str, str | None], tuple[str, str | None]] | None:
        """A known chat's (type, title) and a known user's (first name, username)."""
        rows = await self._fetch("SELECT c.type, c.title, u.first_name, u.username FROM chats c, "
                                 "users u WHERE c.id = ? AND u.id = ?", (chat_id, user_id))
        return ((rows[0][0], rows[0][1]), (rows[0][2], rows[0][3])) if rows else None
