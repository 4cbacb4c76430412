"""Achievements, as both databases store them (table achievements, migration 17): what a
close's check reads of the round and of its players' counting rounds, the award, and what the
pages read (a player's, a chat's).

A round counts (docs/achievements.md) when it closed in a group (a negative chat id: a private
chat's id is its person's) and at least two different people answered in it; the reads below
say it in SQL (`COUNTS`), each through an index: the round's own answers, the player's wins
(rounds_by_winner), their answers (answers_by_user), their days (daily_results_by_user). Each
count stops at what its rule asks, and is asked only until the rule is earned (once a person
and code), so a long history is read for a rule at most until that person earns it.

An award is one INSERT that does nothing when the person has that achievement already (the key
is the person and the code) or is no longer stored (a /forget came first): of two closes at once
for one person, one writes it, and only the one that wrote it announces it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.store.sql.connection import Connection, numbered_table

# the round r counts: in a group, and answered by two different people at least
COUNTS = ("r.chat_id < 0 AND (SELECT COUNT(DISTINCT c.user_id) FROM answers c "
          "WHERE c.round_id = r.id) >= 2")
# an award: the row, only while the person is stored (a /forget may have come first) ...
AWARD = ("INSERT INTO achievements (user_id, code, earned_at, chat_id, round_id) "
         "SELECT CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION), "
         "CAST(? AS BIGINT), CAST(? AS BIGINT) WHERE EXISTS (SELECT 1 FROM users WHERE id = ?)")
# ... and once a person and code
AWARD_ONCE = "ON CONFLICT (user_id, code) DO NOTHING"


@dataclass(frozen=True)
class RoundPlayer:
    user_id: int
    name: str
    codes: frozenset[str] = frozenset()  # the achievements they had as the round was read


@dataclass(frozen=True)
class ClosedRound:
    """A closed round as the rules read it (`right`: its winner answered right, not only
    closest; `players`: who answered, first answer first)."""

    id: int
    status: str
    winner_id: int | None
    win_seconds: float | None
    ended_at: float
    right: bool
    players: tuple[RoundPlayer, ...]


@dataclass(frozen=True)
class EarnedAchievement:
    """One of a player's achievements: which, when, and where (the chat; the round, but for
    the daily puzzle's)."""

    code: str
    earned_at: float
    chat_id: int
    round_id: int | None


@dataclass(frozen=True)
class ChatAchievement:
    """An achievement earned in a chat: by whom (id and name), which, when, in which round."""

    user_id: int
    name: str
    code: str
    earned_at: float
    round_id: int | None


@dataclass(frozen=True)
class AchievementStatements:
    closed: str  # (round,): status, winner, win seconds, end, the winner answered right
    players: str  # (round,): who answered, with their names, first answer first
    codes: str  # (user,): the codes they have
    round_codes: str  # (round,): the codes of each player who answered in the round
    # the award only if the person's count reaches what the rule asks, each count stopped
    # there: (user, code, at, chat, round, user), then
    award_wins_in_chat: str  # (user, chat, reach, reach): their counting wins in the chat
    award_run_in_chat: str  # (user, chat, reach, user, reach): their latest there, all won
    award_played: str  # (user, reach, reach): counting rounds they played in any group
    latest_days: str  # (user, count): their latest daily results' days, newest first
    award: str  # (user, code, at, chat, round, user)
    earned: str  # (user,)
    earned_in_chat: str  # (chat, limit)


QMARK = AchievementStatements(
    closed="SELECT r.status, r.winner_id, r.win_seconds, r.ended_at, "
           "EXISTS (SELECT 1 FROM answers a WHERE a.round_id = r.id "
           "AND a.user_id = r.winner_id AND a.correct = 1) FROM rounds r WHERE r.id = ?",
    players="SELECT a.user_id, MIN(u.first_name) FROM answers a JOIN shown_users u "
            "ON u.id = a.user_id WHERE a.round_id = ? GROUP BY a.user_id ORDER BY MIN(a.id)",
    codes="SELECT code FROM achievements WHERE user_id = ?",
    round_codes="SELECT g.user_id, h.code FROM (SELECT DISTINCT a.user_id FROM answers a "
                "WHERE a.round_id = ?) g JOIN achievements h ON h.user_id = g.user_id",
    award_wins_in_chat=f"{AWARD} AND (SELECT COUNT(*) FROM (SELECT r.id FROM rounds r "
                       f"WHERE r.winner_id = ? AND r.chat_id = ? AND r.status = 'won' "
                       f"AND {COUNTS} LIMIT ?) AS w) >= ? {AWARD_ONCE}",
    award_run_in_chat=f"{AWARD} AND (SELECT COUNT(*) FROM (SELECT r.winner_id FROM rounds r "
                      "WHERE r.id IN (SELECT a.round_id FROM answers a WHERE a.user_id = ?) "
                      f"AND r.chat_id = ? AND r.status <> 'open' AND {COUNTS} "
                      "ORDER BY r.id DESC LIMIT ?) AS l WHERE l.winner_id = ?) >= ? "
                      f"{AWARD_ONCE}",
    award_played=f"{AWARD} AND (SELECT COUNT(*) FROM (SELECT r.id FROM rounds r WHERE r.id IN "
                 "(SELECT a.round_id FROM answers a WHERE a.user_id = ?) "
                 f"AND r.status <> 'open' AND {COUNTS} LIMIT ?) AS p) >= ? {AWARD_ONCE}",
    # a day counts once, whichever games' dailies were solved in it (the week's achievement)
    latest_days="SELECT DISTINCT day FROM daily_results WHERE user_id = ? "
                "ORDER BY day DESC LIMIT ?",
    award=f"{AWARD} {AWARD_ONCE}",
    earned="SELECT code, earned_at, chat_id, round_id FROM achievements WHERE user_id = ? "
           "ORDER BY earned_at, code",
    earned_in_chat="SELECT a.user_id, u.first_name, a.code, a.earned_at, a.round_id "
                   "FROM achievements a JOIN shown_users u ON u.id = a.user_id WHERE a.chat_id = ? "
                   "ORDER BY a.earned_at DESC, a.user_id, a.code LIMIT ?",
)
NUMBERED = numbered_table(QMARK)


class Achievements:
    def __init__(self, db: Connection, sql: AchievementStatements) -> None:
        self.db = db
        self.sql = sql

    async def closed_round(self, round_id: int) -> ClosedRound | None:
        """A closed round as the rules see it: how it closed, who answered and the codes each
        of them has (None: no such round, or still open). Read together, in one trip: a close
        waits for each trip behind the loop's other work."""
        rows, answered, had = await asyncio.gather(
            self.db.fetch(self.sql.closed, (round_id,)),
            self.db.fetch(self.sql.players, (round_id,)),
            self.db.fetch(self.sql.round_codes, (round_id,)))
        if not rows or rows[0][0] == "open":
            return None
        status, winner, seconds, ended_at, right = rows[0]
        codes: dict[int, set[str]] = {}
        for user_id, code in had:
            codes.setdefault(user_id, set()).add(code)
        players = tuple(RoundPlayer(user_id, name or "", frozenset(codes.get(user_id, ())))
                        for user_id, name in answered)
        return ClosedRound(round_id, status, winner, seconds, ended_at, bool(right), players)

    async def codes(self, user_id: int) -> set[str]:
        return {row[0] for row in await self.db.fetch(self.sql.codes, (user_id,))}

    # Each award below is one statement with the count it hangs on (stopped at `reach`): a
    # close's check waits on one trip for both, not a count's and then an award's.

    async def award_if_wins_here(self, user_id: int, code: str, at: float, chat_id: int,
                                 round_id: int, reach: int) -> bool:
        """The award if the person has `reach` counting wins in the chat; whether this call
        awarded it."""
        return await self.db.run(self.sql.award_wins_in_chat, (
            user_id, code, at, chat_id, round_id, user_id, user_id, chat_id, reach, reach)) > 0

    async def award_if_run_here(self, user_id: int, code: str, at: float, chat_id: int,
                                round_id: int, reach: int) -> bool:
        """The award if the person won each of their latest `reach` counting rounds in the
        chat; whether this call awarded it."""
        return await self.db.run(self.sql.award_run_in_chat, (
            user_id, code, at, chat_id, round_id, user_id, user_id, chat_id, reach, user_id,
            reach)) > 0

    async def award_if_played(self, user_id: int, code: str, at: float, chat_id: int,
                              round_id: int, reach: int) -> bool:
        """The award if the person played `reach` counting rounds in any group; whether this
        call awarded it."""
        return await self.db.run(self.sql.award_played, (
            user_id, code, at, chat_id, round_id, user_id, user_id, reach, reach)) > 0

    async def latest_days(self, user_id: int, count: int) -> list[str]:
        """The days of their latest `count` daily results, newest first."""
        return [row[0] for row in await self.db.fetch(self.sql.latest_days, (user_id, count))]

    async def award(self, user_id: int, code: str, at: float, chat_id: int,
                    round_id: int | None) -> bool:
        """Whether this call awarded it (False: they had it, or they are no longer stored)."""
        return await self.db.run(self.sql.award,
                                 (user_id, code, at, chat_id, round_id, user_id)) > 0

    async def earned(self, user_id: int) -> list[EarnedAchievement]:
        """A player's achievements, the first earned first."""
        return [EarnedAchievement(*row) for row in await self.db.fetch(self.sql.earned,
                                                                        (user_id,))]

    async def earned_in_chat(self, chat_id: int, limit: int = 100) -> list[ChatAchievement]:
        """Who earned what in the chat, the latest first, at most `limit`."""
        return [ChatAchievement(*row)
                for row in await self.db.fetch(self.sql.earned_in_chat, (chat_id, limit))]
