"""What the Mini App's pages read (bot.play.pages), as both databases store it: a player's year
(their rating's days, totals per game, the rounds they answered, their daily results) and a
group's season (its players' rating days, records, the hands solved there, rounds by week).

Each read starts from an index on the person or the chat (answered_rounds' key, scores_by_user,
rating_days' key, scores' key, rounds_won_in_chat), and reads a bounded span of time (the last
year, the season), so a page costs the same on a year-old database as on a young one save for
what the person or the group played. The rounds a player answered are read from the summary
their closes wrote (answered_rounds, migration 19: a row per player and round, kept in the
player's key order), not from the answers joined to the rounds: a heavy player's year is then
a few pages of one index rather than thousands of rows one to a page. Sets of keys go in as a
fixed number of parameters (KEYS), the rest filled with a key that matches nothing, so each
statement is prepared once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bot.store.sql.connection import Connection, numbered_table

# a person's rating days are read game by game, by the key: up to this many games at once, the
# slots the caller's games leave empty holding NO_GAME
GAME_SLOTS = 8
NO_GAME = ""
KEYS = 10  # players whose rating days one statement reads; hands one statement looks up
NOBODY = 0  # a user id no person has: fills the unused keys
NO_HAND = ""


@dataclass(frozen=True)
class PageStatements:
    player_days: str  # (user, GAME_SLOTS games, since day): each game's rating, day by day
    player_games: str  # (user,): rounds, wins, fastest win, longest run of wins per game
    # of the closed rounds the player answered since a moment (answered_rounds), each level
    # being 24's own (the LEVELS given first) or else '' (a game's only level):
    player_levels: str  # (LEVELS, user, since): game, level, rounds, rounds solved
    player_medians: str  # (LEVELS, user, since): game, level, the middle one or two of the
    #                       seconds to a right answer, in order
    player_round_days: str  # (user, since): each UTC day (a number) and its rounds
    player_solved: str  # (user, since): each stored hand solved, at its latest solve, latest
    #                      first: game, level, hand, target, when
    player_daily: str  # (user, since day): the days of their daily results, in any game
    hands: str  # (game, KEYS hand keys): learned difficulties
    days_of: str  # (game, since day, KEYS users): their rating days
    group_records: str  # (chat, chat): per game the rows holding the fastest win, the
    #                      longest run, the most wins: game, user, name, which, the bests
    group_hands: str  # (chat, since, most, skip): the latest won rounds: game, level, hand,
    #                    target, winner, their name, seconds
    group_weeks: str  # (since, chat, since): rounds won each week (0 = the oldest)
    erasing: str  # (user,): whether the person's /forget is under way


LEVELS = ("easy", "medium", "hard")  # 24's levels (bot.play.pages.player.LEVEL_ORDER)
LEVELED = "SELECT game, CASE WHEN level IN (?, ?, ?) THEN level ELSE '' END"
ANSWERED = "FROM answered_rounds WHERE user_id = ? AND first_at >= ?"


def _hand_keys() -> str:
    return ", ".join("?" * KEYS)


QMARK = PageStatements(
    player_days="SELECT game, day, season, rating FROM rating_days WHERE user_id = ? "
                f"AND game IN ({', '.join('?' * GAME_SLOTS)}) AND day >= ? ORDER BY game, day",
    player_games="SELECT game, SUM(rounds_played), SUM(wins), MIN(fastest_win), "
                 "MAX(best_streak) FROM scores WHERE user_id = ? GROUP BY game ORDER BY game",
    # the rows the round's close wrote (migration 19), the player's together in one index,
    # summed, ranked and deduplicated where they lie: only what the page shows comes out
    player_levels=f"SELECT game, lv, COUNT(*), SUM(solved) FROM ({LEVELED} AS lv, solved "
                  f"{ANSWERED}) a GROUP BY game, lv",
    player_medians=f"SELECT game, lv, seconds FROM (SELECT game, lv, seconds, ROW_NUMBER() "
                   "OVER (PARTITION BY game, lv ORDER BY seconds) AS k, COUNT(*) OVER "
                   f"(PARTITION BY game, lv) AS n FROM ({LEVELED} AS lv, seconds {ANSWERED} "
                   "AND solved = 1 AND seconds IS NOT NULL) a) m "
                   "WHERE k IN ((n + 1) / 2, n / 2 + 1) ORDER BY game, lv, k",
    player_round_days="SELECT day, COUNT(*) FROM answered_rounds WHERE user_id = ? "
                      "AND first_at >= ? GROUP BY day",
    # ties: the lower round first, as the rows lie
    player_solved="SELECT game, level, hand, target, first_at FROM (SELECT game, level, hand, "
                  "target, first_at, round_id, ROW_NUMBER() OVER (PARTITION BY game, hand, "
                  "target ORDER BY first_at DESC, round_id) AS n FROM answered_rounds "
                  "WHERE user_id = ? AND first_at >= ? AND solved = 1) s WHERE n = 1 "
                  "ORDER BY first_at DESC, round_id",
    player_daily="SELECT DISTINCT day FROM daily_results WHERE user_id = ? AND day >= ?",
    hands=f"SELECT hand, difficulty FROM hand_ratings WHERE game = ? "
          f"AND hand IN ({_hand_keys()})",
    days_of=f"SELECT user_id, day, rating FROM rating_days WHERE game = ? AND day >= ? "
            f"AND user_id IN ({_hand_keys()}) ORDER BY user_id, day",
    # per game the one best of each kind (ties: the lower id), each a window over the chat's
    # rows of scores (its key's prefix), the name joined to the few chosen
    # The best of each kind first (one pass over the chat's rows, no sort), then the rows
    # holding it (a tie: the smallest user id, chosen in Python): three windowed sorts of the
    # chat's rows cost five times as much in a group of a thousand players.
    group_records="WITH b AS (SELECT game, MIN(fastest_win) AS f, MAX(best_streak) AS r, "
                  "MAX(wins) AS w FROM scores WHERE chat_id = ? GROUP BY game) "
                  "SELECT s.game, s.user_id, u.first_name, s.fastest_win = b.f, "
                  "s.best_streak = b.r AND b.r > 0, s.wins = b.w AND b.w > 0, b.f, b.r, b.w "
                  "FROM b JOIN scores s ON s.chat_id = ? AND s.game = b.game "
                  "AND (s.fastest_win = b.f OR (s.best_streak = b.r AND b.r > 0) "
                  "OR (s.wins = b.w AND b.w > 0)) JOIN shown_users u ON u.id = s.user_id",
    group_hands="SELECT r.game, r.level, r.hand, r.target, r.winner_id, u.first_name, "
                "r.win_seconds FROM rounds r LEFT JOIN shown_users u ON u.id = r.winner_id "
                "WHERE r.chat_id = ? AND r.status = 'won' AND r.ended_at >= ? "
                "ORDER BY r.ended_at DESC, r.id DESC LIMIT ? OFFSET ?",
    # whole seconds, so that both databases divide whole numbers (and round down alike)
    group_weeks="SELECT (CAST(ended_at AS BIGINT) - CAST(? AS BIGINT)) / 604800 AS week, "
                "COUNT(*) "
                "FROM rounds WHERE chat_id = ? AND status = 'won' AND ended_at >= ? "
                "GROUP BY week ORDER BY week",
    erasing="SELECT COUNT(*) FROM forgets WHERE user_id = ?",
)
NUMBERED = numbered_table(QMARK)


@dataclass(frozen=True)
class RatingDay:
    game: str
    day: str
    season: str
    rating: float


@dataclass(frozen=True)
class GameTotals:
    game: str
    rounds: int
    wins: int
    fastest: float | None
    best_run: int


@dataclass(frozen=True)
class LevelYear:
    """A game's level in the player's year: rounds answered, how many right (at least once),
    the median seconds from the deal to their first right answer (None: never right)."""

    game: str
    level: str  # 24's level, or '' for a game's only one
    rounds: int
    solved: int
    median: float | None


class SolvedHand(NamedTuple):
    """A stored hand the player solved, at its latest solve. A named tuple made from the row
    as it is: a heavy player's year holds hundreds."""

    game: str
    level: str
    hand: str
    target: int
    at: float


@dataclass(frozen=True)
class GroupRecord:
    game: str
    kind: str  # fastest (seconds), run (wins in a row), wins
    user_id: int
    name: str
    value: float


@dataclass(frozen=True)
class WonRound:
    game: str
    level: str
    hand: str
    target: int
    winner_id: int | None
    name: str | None
    seconds: float | None


class Pages:
    """The pages' reads (bot.store.protocols.PageStore) over either database."""

    def __init__(self, db: Connection, sql: PageStatements) -> None:
        self.db = db
        self.sql = sql

    async def rating_days(self, user_id: int, since_day: str,
                          games: Sequence[str]) -> list[RatingDay]:
        if len(games) > GAME_SLOTS:
            raise ValueError(f"at most {GAME_SLOTS} games' rating days at once, not {len(games)}")
        slots = (*games, *[NO_GAME] * (GAME_SLOTS - len(games)))
        rows = await self.db.fetch(self.sql.player_days, (user_id, *slots, since_day))
        return [RatingDay(game, day, season, float(rating)) for game, day, season, rating in rows]

    async def game_totals(self, user_id: int) -> list[GameTotals]:
        rows = await self.db.fetch(self.sql.player_games, (user_id,))
        return [GameTotals(game, int(rounds or 0), int(wins or 0), fastest, int(run or 0))
                for game, rounds, wins, fastest, run in rows]

    async def levels(self, user_id: int, since: float) -> list[LevelYear]:
        """Per game and level, the closed rounds the player answered since a moment."""
        asked = (*LEVELS, user_id, since)
        middle_rows, level_rows = await asyncio.gather(
            self.db.fetch(self.sql.player_medians, asked),
            self.db.fetch(self.sql.player_levels, asked))
        middles: dict[tuple[str, str], list[float]] = {}
        for game, level, seconds in middle_rows:
            middles.setdefault((game, level), []).append(seconds)
        return [LevelYear(game, level, int(rounds), int(solved or 0),
                          median(middles.get((game, level), [])))
                for game, level, rounds, solved in level_rows]

    async def round_days(self, user_id: int, since: float) -> dict[int, int]:
        """The closed rounds the player answered since a moment, by the UTC day (days since
        1970) of their first answer."""
        rows = await self.db.fetch(self.sql.player_round_days, (user_id, since))
        return {int(day): int(count) for day, count in rows}

    async def solved_hands(self, user_id: int, since: float) -> list[SolvedHand]:
        """Each stored hand the player solved since a moment, at its latest solve, latest
        first."""
        rows = await self.db.fetch(self.sql.player_solved, (user_id, since))
        return list(map(SolvedHand._make, rows))

    async def daily_days(self, user_id: int, since_day: str) -> list[str]:
        return [row[0] for row in await self.db.fetch(self.sql.player_daily,
                                                      (user_id, since_day))]

    async def hand_difficulties(self, game: str, keys: list[str]) -> dict[str, float]:
        """The learned difficulty of each of these hands (hand_key form) that has one."""
        found: dict[str, float] = {}
        for start in range(0, len(keys), KEYS):
            part = keys[start:start + KEYS]
            rows = await self.db.fetch(self.sql.hands, (game, *part,
                                                        *[NO_HAND] * (KEYS - len(part))))
            found.update((hand, float(difficulty)) for hand, difficulty in rows)
        return found

    async def days_of(self, game: str, user_ids: list[int], since_day: str
                      ) -> dict[int, list[tuple[str, float]]]:
        """These players' rating days in a game since a day, by player."""
        found: dict[int, list[tuple[str, float]]] = {}
        for start in range(0, len(user_ids), KEYS):
            part = user_ids[start:start + KEYS]
            rows = await self.db.fetch(self.sql.days_of, (
                game, since_day, *part, *[NOBODY] * (KEYS - len(part))))
            for user_id, day, rating in rows:
                found.setdefault(user_id, []).append((day, float(rating)))
        return found

    async def group_records(self, chat_id: int) -> list[GroupRecord]:
        """Per game the fastest win, the longest run of wins and the most wins, each its
        holder's (a tie: the smallest user id), by game and kind."""
        best: dict[tuple[str, str], GroupRecord] = {}
        for game, user_id, name, fastest, run, wins, f, r, w in await self.db.fetch(
                self.sql.group_records, (chat_id, chat_id)):
            for kind, holds, value in (("fastest", fastest, f), ("run", run, r),
                                       ("wins", wins, w)):
                held = best.get((game, kind))
                if holds and (held is None or user_id < held.user_id):
                    best[(game, kind)] = GroupRecord(game, kind, user_id, name or "",
                                                     float(value))
        return [best[key] for key in sorted(best)]

    async def won_rounds(self, chat_id: int, since: float, most: int, skip: int = 0
                         ) -> list[WonRound]:
        """The chat's rounds won since a moment, latest first, `most` of them after the
        latest `skip`."""
        rows = await self.db.fetch(self.sql.group_hands, (chat_id, since, most, skip))
        return [WonRound(game, level, hand, int(target), winner, name, seconds)
                for game, level, hand, target, winner, name, seconds in rows]

    async def erasing(self, user_id: int) -> bool:
        """Whether the person's /forget is under way: their page and cards show nothing of
        theirs until it ends (their rows go a part at a time after the confirmation)."""
        rows = await self.db.fetch(self.sql.erasing, (user_id,))
        return bool(rows[0][0])

    async def weeks(self, chat_id: int, since: float) -> dict[int, int]:
        """Rounds won in the chat each week since a moment (week 0 starts then)."""
        rows = await self.db.fetch(self.sql.group_weeks, (int(since), chat_id, since))
        return {int(week): int(count) for week, count in rows}


def median(middle: list[float]) -> float | None:
    """The median of a sorted list from its middle one or two values, as statistics.median
    makes it (the mean of the two: their sum halved)."""
    if not middle:
        return None
    return middle[0] if len(middle) == 1 else (middle[0] + middle[1]) / 2
