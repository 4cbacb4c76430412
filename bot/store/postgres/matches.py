"""Matches in PostgreSQL: a match row and the rounds it dealt, in order; its scoreboard is read
from those rounds, so nothing is scored twice."""

from __future__ import annotations

import asyncpg

from bot.store.postgres.connection import Database
from bot.store.records import Match, MatchRound, MatchScore

MATCH_COLUMNS = "id, chat_id, rounds, started_by, lang, started_at, status, topic"


class PostgresMatches:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def open_match(self, chat_id: int, rounds: int, started_by: int | None, lang: str,
                         at: float, topic: int = 0) -> Match | None:
        """A new match, or None when the chat's topic has one on already."""
        try:
            match_id = await self.db.insert(
                "INSERT INTO matches (chat_id, rounds, started_by, lang, started_at, topic) "
                "VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                (chat_id, rounds, started_by, lang, at, topic))
        except asyncpg.UniqueViolationError:
            return None
        return Match(match_id, chat_id, rounds, started_by, lang, at, "on", topic)

    async def match_on(self, chat_id: int, topic: int = 0) -> Match | None:
        """The match on in the chat's topic, if any."""
        rows = await self.db.fetch(f"SELECT {MATCH_COLUMNS} FROM matches WHERE chat_id = $1 "
                                   "AND topic = $2 AND status = 'on'", (chat_id, topic))
        return Match(*rows[0]) if rows else None

    async def matches_on(self) -> list[Match]:
        rows = await self.db.fetch(f"SELECT {MATCH_COLUMNS} FROM matches WHERE status = 'on' "
                                   "ORDER BY id")
        return [Match(*row) for row in rows]

    async def add_match_round(self, match_id: int, round_id: int) -> int:
        """Link a round to its match as the next one; its number in the match."""
        rows = await self.db.fetch(
            "INSERT INTO match_rounds (match_id, number, round_id) SELECT $1, "
            "COALESCE(MAX(number), 0) + 1, $2 FROM match_rounds WHERE match_id = $1 "
            "RETURNING number", (match_id, round_id))
        return int(rows[0][0])

    async def match_rounds(self, match_id: int) -> list[MatchRound]:
        """The match's rounds so far, in order, with their status."""
        rows = await self.db.fetch(
            "SELECT m.number, m.round_id, r.status FROM match_rounds m "
            "JOIN rounds r ON r.id = m.round_id WHERE m.match_id = $1 ORDER BY m.number",
            (match_id,))
        return [MatchRound(*row) for row in rows]

    async def end_match(self, match_id: int, status: str, at: float) -> bool:
        """End a match ('done' or 'stopped'); False if it had ended already (one caller wins)."""
        return await self.db.run("UPDATE matches SET status = $1, ended_at = $2 "
                                 "WHERE id = $3 AND status = 'on'", (status, at, match_id)) == 1

    async def match_scores(self, match_id: int) -> list[MatchScore]:
        """Points and wins per player over the match's rounds; ties go to whoever reached the
        points first."""
        rows = await self.db.fetch(
            "SELECT r.winner_id, u.first_name, SUM(r.awarded), COUNT(*) FROM match_rounds m "
            "JOIN rounds r ON r.id = m.round_id JOIN users u ON u.id = r.winner_id "
            "WHERE m.match_id = $1 AND r.status = 'won' GROUP BY r.winner_id, u.first_name "
            "ORDER BY SUM(r.awarded) DESC, COUNT(*) DESC, MAX(m.number), r.winner_id",
            (match_id,))
        return [MatchScore(*row) for row in rows]
