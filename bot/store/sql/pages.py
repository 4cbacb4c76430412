"""What the Mini App's pages read (bot.play.pages), as both databases store it: a player's year
(their rating's days, totals per game, the rounds they answered, their daily results) and a
group's season (its players' rating days, records, the hands solved there, rounds by week).

Each read starts from an index on the person or the chat (answered_rounds' key, scores_by_user,
rating_days' key, the records' indexes of scores, rounds_won_in_chat), and reads a bounded span
of time (the last year, the season), so a page costs the same on a year-old database as on a
young one save for what the person or the group played. The rounds a player answered are read
from the summary their closes wrote (answered_rounds, migration 19: a row per player and round,
kept in the player's key order), not from the answers joined to the rounds: a heavy player's
year is then a few pages of one index rather than thousands of rows one to a page. Sets of keys
go in as a fixed number of parameters (the SLOTS), the rest filled with a key that matches
nothing, so each statement is prepared once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from bot.store.sql.connection import Connection, numbered_table

# a person's rating days are read game by game, by the key: up to this many games at once, the
# slots the caller's games leave empty holding NO_GAME
GAME_SLOTS = 8
NO_GAME = ""
# (game, key) pairs one statement looks up, the slots left empty holding a pair that matches
# nothing: a page's hands whose difficulties are compared (bot.play.pages.player's HARDEST_OF),
# and a group's page's players of its boards (four rated games' ten and five)
HAND_SLOTS = 20
THEMED_SLOTS = 100  # and the hands of a player's latest rounds tried, at once (pages.themes)
DAY_SLOTS = 60
NOBODY = 0  # a user id no person has: fills the unused slots
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
    player_tried: str  # (user, since, most, user, since, most): the latest rounds the person
    #                     answered, and of the latest they dealt those won by nobody (solved -1),
    #                     each latest first: round, game, level, hand, target, solved
    hands: str  # (HAND_SLOTS games and hand keys): learned difficulties
    themed: str  # (THEMED_SLOTS games and hand keys): learned difficulties and themes (step 35)
    days_of: str  # (DAY_SLOTS games and users, since day): their rating days
    group_records: str  # (chat x 8): per game its fastest win, longest run and most wins,
    #                      each with its holder: game, kind, user, name, the best
    group_hands: str  # (chat, since, window, most, skip): of the latest `window` rounds won,
    #                    24's hardest level first, then the latest: game, level, hand, target,
    #                    winner, their name, seconds
    group_weeks: str  # (chat, first week, past the last): rounds won each week it won in
    erasing: str  # (user,): whether the person's /forget is under way


LEVELS = ("easy", "medium", "hard")  # 24's levels (bot.play.pages.player.LEVEL_ORDER)
# a round's level as that order ranks it, other games' levels with 24's easiest
LEVEL_RANK = "CASE w.level " + " ".join(
    f"WHEN '{level}' THEN {rank}" for rank, level in enumerate(LEVELS) if rank) + " ELSE 0 END"
LEVELED = "SELECT game, CASE WHEN level IN (?, ?, ?) THEN level ELSE '' END"
ANSWERED = "FROM answered_rounds WHERE user_id = ? AND first_at >= ?"


def holders(*kinds: tuple[str, str, str, str]) -> str:
    """Each kind of record's holder: of the chat's players level on the game's best of that
    kind (b's `value`, when `held`), the least user id whose name may be shown. (chat, each)"""
    return " UNION ALL ".join(
        f"SELECT b.game, '{kind}' AS kind, b.{value} AS value, (SELECT s.user_id "
        f"FROM scores s WHERE s.chat_id = ? AND s.game = b.game AND s.{column} = b.{value} "
        "AND EXISTS (SELECT 1 FROM shown_users u WHERE u.id = s.user_id) "
        f"ORDER BY s.user_id LIMIT 1) AS user_id FROM b WHERE b.{value} {held}"
        for kind, value, column, held in kinds)


def pairs(slots: int, first: str, second: str) -> str:
    """A table `k` of `slots` pairs of parameters, its columns named and typed by the first
    (PostgreSQL types the rest alike)."""
    return (f"WITH k ({first}) AS (VALUES ({second}), "
            + ", ".join(["(?, ?)"] * (slots - 1)) + ")")


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
    # the pages' key and the starter's index (schema step 35), each walked backwards from the
    # latest and stopped at `most`: no sort of the person's year; one statement, one connection
    player_tried="SELECT round_id, game, level, hand, target, solved FROM (SELECT round_id, "
                 "game, level, hand, target, solved FROM answered_rounds WHERE user_id = ? "
                 "AND first_at >= ? ORDER BY round_id DESC LIMIT ?) AS a UNION ALL "
                 "SELECT id, game, level, hand, target, -1 FROM (SELECT id, game, level, hand, "
                 "target, status, winner_id FROM rounds WHERE started_by = ? AND started_at >= ? "
                 "ORDER BY id DESC LIMIT ?) AS r WHERE status IN ('expired', 'revealed') "
                 "AND winner_id IS NULL",
    # each pair looked up by its key (a scalar subquery: no engine reads the table for a join),
    # every game's at once (a statement a game was a trip a game, each reading a few rows)
    hands=f"{pairs(HAND_SLOTS, 'game, hand', 'CAST(? AS TEXT), CAST(? AS TEXT)')} "
          "SELECT k.game, k.hand, (SELECT h.difficulty FROM hand_ratings h "
          "WHERE h.game = k.game AND h.hand = k.hand) FROM k",
    themed=f"{pairs(THEMED_SLOTS, 'game, hand', 'CAST(? AS TEXT), CAST(? AS TEXT)')} "
           "SELECT k.game, k.hand, (SELECT h.difficulty FROM hand_ratings h "
           "WHERE h.game = k.game AND h.hand = k.hand), (SELECT t.themes FROM hand_themes t "
           "WHERE t.game = k.game AND t.hand = k.hand) FROM k",
    days_of=f"{pairs(DAY_SLOTS, 'game, user_id', 'CAST(? AS TEXT), CAST(? AS BIGINT)')} "
            "SELECT r.game, r.user_id, r.day, r.rating FROM k "
            "JOIN rating_days r ON r.user_id = k.user_id AND r.game = k.game WHERE r.day >= ?",
    # per game the best of each kind, each at the head of its index (schema step 33), then its
    # holder in the same entries (ties: the lower id, of those whose name may be shown), the
    # chat's games listed by skipping from one to the next in the wins' index: no row of the
    # chat's scores is read (they lie one to a page of the table: reading all of a busy group's
    # made the page slow to come on a year-old file)
    group_records="WITH RECURSIVE games (game) AS (SELECT MIN(game) FROM scores "
                  "WHERE chat_id = ? UNION ALL SELECT (SELECT MIN(s.game) FROM scores s "
                  "WHERE s.chat_id = ? AND s.game > games.game) FROM games "
                  "WHERE games.game IS NOT NULL), "
                  "b AS MATERIALIZED (SELECT g.game, (SELECT MIN(s.fastest_win) FROM scores s "
                  "WHERE s.chat_id = ? AND s.game = g.game AND s.fastest_win IS NOT NULL) AS f, "
                  "(SELECT MAX(s.best_streak) FROM scores s WHERE s.chat_id = ? "
                  "AND s.game = g.game) AS r, (SELECT MAX(s.wins) FROM scores s "
                  "WHERE s.chat_id = ? AND s.game = g.game) AS w FROM games g "
                  "WHERE g.game IS NOT NULL), "
                  "k AS MATERIALIZED ("
                  + holders(("fastest", "f", "fastest_win", "IS NOT NULL"),
                            ("run", "r", "best_streak", "> 0"), ("wins", "w", "wins", "> 0"))
                  + ") "
                  "SELECT k.game, k.kind, k.user_id, (SELECT u.first_name FROM users u "
                  "WHERE u.id = k.user_id), k.value FROM k WHERE k.user_id IS NOT NULL",
    # the window's rounds put in the page's order by the database, only the part asked for
    # then leaving it, each joined to its winner's name: on the year's busiest groups the
    # window held a hundred rounds, all read out, parsed and joined, where twenty were used
    group_hands="SELECT h.game, h.level, h.hand, h.target, h.winner_id, u.first_name, "
                f"h.win_seconds FROM (SELECT w.*, {LEVEL_RANK} AS k FROM (SELECT game, level, "
                "hand, target, winner_id, win_seconds, ended_at, id FROM rounds "
                "WHERE chat_id = ? AND status = 'won' AND ended_at >= ? "
                "ORDER BY ended_at DESC, id DESC LIMIT ?) AS w "
                "ORDER BY k DESC, w.ended_at DESC, w.id DESC LIMIT ? OFFSET ?) AS h "
                "LEFT JOIN shown_users u ON u.id = h.winner_id "
                "ORDER BY h.k DESC, h.ended_at DESC, h.id DESC",
    # the group's kept weeks (schema step 39): a row a week it won in, in its key's order
    group_weeks="SELECT week, wins FROM chat_weeks WHERE chat_id = ? AND week >= ? "
                "AND week < ?",
    erasing="SELECT COUNT(*) FROM forgets WHERE user_id = ?",
)
# PostgreSQL takes a player's hundred hands as two arrays (a statement of two parameters, planned
# once, where two hundred were planned afresh on each connection's first runs), joined: on tables
# of a few hundred hands its planner reads each once for a hash join, where a scalar subquery a
# key read the whole small table a key (80 keys, 5 ms); on big ones it looks each key up
NUMBERED = replace(
    numbered_table(QMARK),
    themed="SELECT k.game, k.hand, h.difficulty, t.themes "
           "FROM unnest($1::TEXT[], $2::TEXT[]) AS k (game, hand) "
           "LEFT JOIN hand_ratings h ON h.game = k.game AND h.hand = k.hand "
           "LEFT JOIN hand_themes t ON t.game = k.game AND t.hand = k.hand")


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


class TriedHand(NamedTuple):
    """A closed round the player tried: its id, game, level, stored hand, target, and whether
    they solved it."""

    round_id: int
    game: str
    level: str
    hand: str
    target: int
    solved: bool


class HandFacts(NamedTuple):
    """What the store knows of a hand: its learned difficulty and its themes' bits (each None
    where none is written)."""

    difficulty: float | None
    themes: int | None


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


class WonRound(NamedTuple):
    """A round won in the group. A named tuple made from the row as it is: a busy group's
    page reads two hundred."""

    game: str
    level: str
    hand: str
    target: int
    winner_id: int | None
    name: str | None
    seconds: float | None


class Pages:
    """The pages' reads (bot.store.protocols.PageStore) over either database.

    A player's reads go through `db` (on SQLite aiosqlite's thread: a heavy player's year may
    take milliseconds); the group's page's and the key look-ups through `near` (on SQLite the
    event loop's own thread, bot.store.sqlite.trips). Each of those is bounded whatever the
    database's age (a board's players' season of days, the latest WON_READ wins, 52 counts of
    an index, a record per game from the kept totals), and the group's page asks them in up
    to three trips one after another: on the thread each trip cost its hand-over both ways
    (docs/benchmarks.md). A statement slow on the loop twice still goes to the thread for
    good, as any near one does."""

    def __init__(self, db: Connection, sql: PageStatements, arrays: bool = False,
                 near: Connection | None = None) -> None:
        self.db = db
        self.near = near or db
        self.sql = sql
        self.arrays = arrays  # `themed` takes its keys as two arrays (NUMBERED's), not slots

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

    async def tried_hands(self, user_id: int, since: float, most: int) -> list[TriedHand]:
        """The latest closed rounds the player tried since a moment, latest first, `most` at
        most: those they answered (solved or not), and those they dealt and nobody won, which
        they missed though they never answered (the ratings count the dealer of a round that
        ran out as having tried it)."""
        rows = await self.db.fetch(self.sql.player_tried, (user_id, since, most,
                                                           user_id, since, most))
        found: dict[int, TriedHand] = {}
        for round_id, game, level, hand, target, solved in rows:
            if solved >= 0 or round_id not in found:  # answered: what they answered says
                found[round_id] = TriedHand(round_id, game, level, hand, target, solved == 1)
        return sorted(found.values(), key=lambda row: -row.round_id)[:most]

    async def hand_facts(self, hands: Sequence[tuple[str, str]]
                         ) -> dict[tuple[str, str], HandFacts]:
        """The learned difficulty and the themes of each of these hands ((game, hand_key
        form)) that has either."""
        parts = [hands[start:start + THEMED_SLOTS]
                 for start in range(0, len(hands), THEMED_SLOTS)]
        found = await asyncio.gather(*(self.db.fetch(self.sql.themed, (
            [game for game, _ in part], [hand for _, hand in part]) if self.arrays
            else filled(part, THEMED_SLOTS, (NO_GAME, NO_HAND))) for part in parts))
        return {(game, hand): HandFacts(None if difficulty is None else float(difficulty),
                                        themes)
                for rows in found for game, hand, difficulty, themes in rows
                if difficulty is not None or themes is not None}

    async def daily_days(self, user_id: int, since_day: str) -> list[str]:
        return [row[0] for row in await self.db.fetch(self.sql.player_daily,
                                                      (user_id, since_day))]

    async def hand_difficulties(self, hands: Sequence[tuple[str, str]]
                                ) -> dict[tuple[str, str], float]:
        """The learned difficulty of each of these hands ((game, hand_key form)) that has
        one."""
        parts = [hands[start:start + HAND_SLOTS] for start in range(0, len(hands), HAND_SLOTS)]
        found = await asyncio.gather(*(self.near.fetch(self.sql.hands, filled(
            part, HAND_SLOTS, (NO_GAME, NO_HAND))) for part in parts))
        return {(game, hand): float(difficulty) for rows in found
                for game, hand, difficulty in rows if difficulty is not None}

    async def days_of(self, players: Sequence[tuple[str, int]], since_day: str
                      ) -> dict[tuple[str, int], list[tuple[str, float]]]:
        """These (game, player)'s rating days since a day, each one's in order."""
        parts = [players[start:start + DAY_SLOTS]
                 for start in range(0, len(players), DAY_SLOTS)]
        found: dict[tuple[str, int], list[tuple[str, float]]] = {}
        for rows in await asyncio.gather(*(self.near.fetch(self.sql.days_of, (*filled(
                part, DAY_SLOTS, (NO_GAME, NOBODY)), since_day)) for part in parts)):
            for game, user_id, day, rating in rows:
                found.setdefault((game, user_id), []).append((day, float(rating)))
        for days in found.values():
            days.sort()  # a player has one row a day
        return found

    async def group_records(self, chat_id: int) -> list[GroupRecord]:
        """Per game the fastest win, the longest run of wins and the most wins, each its
        holder's (a tie: the smallest user id), by game and kind."""
        rows = await self.near.fetch(self.sql.group_records, (chat_id,) * 8)
        return sorted((GroupRecord(game, kind, user_id, name or "", float(value))
                       for game, kind, user_id, name, value in rows),
                      key=lambda record: (record.game, record.kind))

    async def won_rounds(self, chat_id: int, since: float, window: int, most: int,
                         skip: int = 0) -> list[WonRound]:
        """Of the chat's latest `window` rounds won since a moment, `most` after the first
        `skip` in the order a page ranks them: by 24's level, the hardest first (other games'
        with the easiest), then the latest first."""
        rows = await self.near.fetch(self.sql.group_hands, (chat_id, since, window, most, skip))
        return list(map(WonRound._make, rows))

    async def erasing(self, user_id: int) -> bool:
        """Whether the person's /forget is under way: their page and cards show nothing of
        theirs until it ends (their rows go a part at a time after the confirmation)."""
        rows = await self.near.fetch(self.sql.erasing, (user_id,))
        return bool(rows[0][0])

    async def weeks(self, chat_id: int, first: int, weeks: int) -> list[int]:
        """Rounds won in the chat in each of `weeks` calendar weeks from the `first` (numbered
        as schema step 39 numbers them), the oldest first."""
        rows = await self.near.fetch(self.sql.group_weeks, (chat_id, first, first + weeks))
        counts = [0] * weeks
        for week, count in rows:
            counts[int(week) - first] = int(count)
        return counts


def filled(pairs: Sequence[tuple[object, object]], slots: int,
           empty: tuple[object, object]) -> list[object]:
    """The pairs' values in order, the slots they leave filled with `empty`'s."""
    return [value for pair in (*pairs, *[empty] * (slots - len(pairs))) for value in pair]


def median(middle: list[float]) -> float | None:
    """The median of a sorted list from its middle one or two values, as statistics.median
    makes it (the mean of the two: their sum halved)."""
    if not middle:
        return None
    return middle[0] if len(middle) == 1 else (middle[0] + middle[1]) / 2
