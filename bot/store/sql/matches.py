"""Matches, as both databases store them: a match row and the rounds it dealt, in order; its
scoreboard is read from those rounds, so nothing is scored twice."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store.records import Match, MatchRound, MatchScore
from bot.store.sql.connection import Connection, Refused, numbered_table

MATCH_COLUMNS = "id, chat_id, rounds, started_by, lang, started_at, status, topic"


@dataclass(frozen=True)
class MatchStatements:
    open_match: str
    match_on: str
    matches_on: str
    add_match_round: str
    match_round_number: str
    match_rounds: str
    end_match: str
    match_scores: str


QMARK = MatchStatements(
    open_match="INSERT INTO matches (chat_id, rounds, started_by, lang, started_at, topic) "
               "VALUES (?, ?, ?, ?, ?, ?)",
    match_on=f"SELECT {MATCH_COLUMNS} FROM matches WHERE chat_id = ? AND topic = ? "
             "AND status = 'on'",
    matches_on=f"SELECT {MATCH_COLUMNS} FROM matches WHERE status = 'on' ORDER BY +id",
    add_match_round="INSERT INTO match_rounds (match_id, number, round_id) SELECT ?, "
                    "COALESCE(MAX(number), 0) + 1, ? FROM match_rounds WHERE match_id = ?",
    match_round_number="SELECT number FROM match_rounds WHERE round_id = ?",
    match_rounds="SELECT m.number, m.round_id, r.status, r.game FROM match_rounds m "
                 "JOIN rounds r ON r.id = m.round_id WHERE m.match_id = ? ORDER BY m.number",
    end_match="UPDATE matches SET status = ?, ended_at = ? WHERE id = ? AND status = 'on'",
    match_scores="SELECT r.winner_id, u.first_name, SUM(r.awarded), COUNT(*) FROM match_rounds m "
                 "JOIN rounds r ON r.id = m.round_id JOIN shown_users u ON u.id = r.winner_id "
                 "WHERE m.match_id = ? AND r.status = 'won' GROUP BY r.winner_id, u.first_name "
                 "ORDER BY SUM(r.awarded) DESC, COUNT(*) DESC, MAX(m.number), r.winner_id",
)
NUMBERED = numbered_table(QMARK)


class Matches:
    def __init__(self, db: Connection, sql: MatchStatements) -> None:
        self.db = db
        self.sql = sql

    async def open_match(self, chat_id: int, rounds: int, started_by: int | None, lang: str,
                         at: float, topic: int = 0) -> Match | None:
        """A new match, or None when the chat's topic has one on already."""
        try:
            match_id = await self.db.insert(self.sql.open_match,
                                            (chat_id, rounds, started_by, lang, at, topic))
        except Refused:
            return None
        return Match(match_id, chat_id, rounds, started_by, lang, at, "on", topic)

    async def match_on(self, chat_id: int, topic: int = 0) -> Match | None:
        """The match on in the chat's topic, if any."""
        rows = await self.db.fetch(self.sql.match_on, (chat_id, topic))
        return Match(*rows[0]) if rows else None

    async def matches_on(self) -> list[Match]:
        return [Match(*row) for row in await self.db.fetch(self.sql.matches_on)]

    async def add_match_round(self, match_id: int, round_id: int) -> int:
        """Link a round to its match as the next one; its number in the match."""
        await self.db.run(self.sql.add_match_round, (match_id, round_id, match_id))
        rows = await self.db.fetch(self.sql.match_round_number, (round_id,))
        return int(rows[0][0])

    async def match_rounds(self, match_id: int) -> list[MatchRound]:
        """The match's rounds so far, in order, with their status."""
        rows = await self.db.fetch(self.sql.match_rounds, (match_id,))
        return [MatchRound(*row) for row in rows]

    async def end_match(self, match_id: int, status: str, at: float) -> bool:
        """End a match ('done' or 'stopped'); False if it had ended already (one caller wins)."""
        return await self.db.run(self.sql.end_match, (status, at, match_id)) == 1

    async def match_scores(self, match_id: int) -> list[MatchScore]:
        """Points and wins per player over the match's rounds; ties go to whoever reached the
        points first."""
        rows = await self.db.fetch(self.sql.match_scores, (match_id,))
        return [MatchScore(*row) for row in rows]
