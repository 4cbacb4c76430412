"""Ratings, as both databases store them (player_ratings, hand_ratings, rating_scales and
rated_rounds): what a round's rating reads, the boards, and the rating's writes.

A rating is written in the transaction that closes its round (bot.store.sql.rounds) or stores
its daily result, behind that statement: only if it changed a row do the steps run, so a close
retried or a restart's second close rates nothing twice; `rated_rounds` keys each round once.
Each row is written as a step from what the update read (an upsert that adds it), so two rounds
closing at once in two chats that share a player both count; a player row is written only for
a person the database still has (a /forget a moment before the close leaves nothing behind).
Each player row written is copied, in the same transaction, as that day's point of the player's
rating history (rating_days, read by the pages: bot.store.sql.pages).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.records import (
    HandRow,
    RatedPlacing,
    RatingRow,
    RatingWrite,
    ScaleRow,
    StoredResponse,
)
from bot.store.sql import daily
from bot.store.sql.connection import Connection, Step, numbered_table

PLAYER_COLUMNS = "user_id, game, season, rating, uncertainty, responses, updated_at"
HAND_COLUMNS = "game, hand, numbers, target, difficulty, uncertainty, responses, updated_at"
SCALE_COLUMNS = "game, shape, uncertainty, rounds, updated_at"
# a board's line: the player, their name and rating (p: player_ratings, u: users)
LINE = "p.user_id, u.first_name, p.rating, p.uncertainty, p.responses"
# a player is settled on a season's board once rated on this many responses in it, provisional
# before (bot.play.ratings.records' PLAYER_PROVISIONAL, docs/ratings.md): written into the
# statements as a number, as schema step 29's partial index says it, so each engine may read
# that index for them (a test holds the three equal)
SETTLED = 10


# A chat's board, before schema step 32 and for a season older than a chat's latest: the chat's
# players first, then each one's row by its key (a season of every chat's players is not read
# for one chat's board), and the names of the best only (a busy group's thousand names looked
# up for ten cost a third of the statement). (chat, game, game, season, limit)
LOOKED_BOARD = ("WITH c AS MATERIALIZED (SELECT s.user_id FROM scores s WHERE s.chat_id = ? "
                "AND s.game = ?), b AS MATERIALIZED (SELECT p.user_id, p.rating, "
                "p.uncertainty, p.responses FROM c JOIN player_ratings p "
                "ON p.user_id = c.user_id AND p.game = ? AND p.season = ? "
                "WHERE p.responses {kind} ORDER BY p.rating DESC, p.user_id LIMIT ?) "
                "SELECT b.user_id, u.first_name, b.rating, b.uncertainty, b.responses "
                "FROM b JOIN shown_users u ON u.id = b.user_id")
# ... read in the index of the chat's players' latest ratings (step 32), in the board's order,
# ten at a time, each line as kept there (step 33 keeps the uncertainty too: their rows of
# player_ratings looked up as well were two thirds of the group's page's boards): (chat, game,
# season, limit)
KEPT_BOARD = ("WITH b AS MATERIALIZED (SELECT c.user_id, c.rating, c.uncertainty, c.responses "
              "FROM chat_ratings c WHERE c.chat_id = ? AND c.game = ? AND c.season = ? "
              "AND c.responses {kind} ORDER BY c.rating DESC, c.user_id LIMIT ?) "
              "SELECT b.user_id, u.first_name, b.rating, b.uncertainty, b.responses "
              "FROM b JOIN shown_users u ON u.id = b.user_id")
# a player of the chat rated in a later season than the one asked for: the kept rows are that
# season's, not the one asked for (chat, game, season), read at the end of an index
NEWER = "COALESCE((SELECT MAX(season) FROM chat_ratings WHERE chat_id = ? AND game = ?), '') > ?"
# each of the chat's players looked up by their key, one by one: a scalar subquery is never
# turned into a join, which PostgreSQL 15 would make by reading a season of every chat's players
# (a join's plan differs by version; this one does not). (chat, game, game, season, rating)
LOOKED_PLACE = ("SELECT 1 + COUNT(*) FROM scores s WHERE s.chat_id = ? AND s.game = ? AND "
                "(SELECT 1 FROM player_ratings p WHERE p.user_id = s.user_id AND p.game = ? "
                f"AND p.season = ? AND p.responses >= {SETTLED} AND p.rating > ?) IS NOT NULL")


# A chat's board and its provisional list in one statement: where step 32 keeps them, each row
# headed 1 (settled) or 0 (provisional), and a row of NULLs beside them when a player of the
# chat is rated in a later season than the one asked for, whose boards are then looked up. Not one
# statement with both ways in it, each read or not by a condition: SQLite fills a branch's CTEs
# before it tests the condition, and looked the chat's players up for nothing on every board
# (a third of the group's page on a year-old file). (chat, game, season, settled limit, chat,
# game, season, provisional limit, chat, game, season)
KEPT_BOARDS = (f"SELECT 1, * FROM ({KEPT_BOARD.format(kind='>= 10')}) AS settled "
               f"UNION ALL SELECT 0, * FROM ({KEPT_BOARD.format(kind='< 10')}) AS provisional "
               f"UNION ALL SELECT NULL, NULL, NULL, NULL, NULL, NULL WHERE {NEWER} "
               "ORDER BY 1 DESC, 4 DESC, 2")
# ... and looked up: (chat, game, game, season, settled limit, chat, game, game, season,
# provisional limit)
LOOKED_BOARDS = (f"SELECT 1, * FROM ({LOOKED_BOARD.format(kind='>= 10')}) AS settled "
                 f"UNION ALL SELECT 0, * FROM ({LOOKED_BOARD.format(kind='< 10')}) "
                 "AS provisional ORDER BY 1 DESC, 4 DESC, 2")


@dataclass(frozen=True)
class RatingStatements:
    player: str  # a player's rows in a game, newest season first
    # (round, round, round, game): the rows of everyone who answered, passed or dealt the round,
    # each player's newest season first — read beside the round's answers, in the same trip
    round_players: str
    hand: str
    hands: str  # one kind of hand: a game's hands of so many numbers for a target
    scale: str
    responses: str  # a round's answers
    passes: str
    # who answered in a chat's latest rounds of a game since a moment, each with their latest
    # season's row in the game (a row of NULLs for a player never rated)
    recent_ratings: str
    rounds_played: str  # a chat's closed rounds of a game, counted up to a number
    rated: str
    board: str  # a season's best settled players, every chat's
    provisional: str  # a season's best provisional players, every chat's (shown, not ranked)
    # a season's best settled and provisional players among a chat's players, where step 32
    # keeps them (and whether to look them up instead), and looked up
    chat_boards: str
    looked_boards: str
    place: str  # 1 + the settled players ahead on the every-chat board
    chat_place: str
    rate_round: str  # the round's key: a second rating of it fails
    put_player: str
    put_hand: str
    put_scale: str
    put_day: str  # the player's rating as it now stands, as the day's (table rating_days)
    put_themes: str  # (game, hand key, themes' bits): a hand's themes, written once (step 35)
    themed: str  # (most,): the hands whose themes are written, `most` at most


QMARK = RatingStatements(
    # none while the person's /forget is under way (/stats shows them; a close meanwhile
    # rates them as new, and the erasure then deletes what it wrote)
    player=f"SELECT {PLAYER_COLUMNS} FROM player_ratings p WHERE p.user_id = ? AND p.game = ? "
           "AND EXISTS (SELECT 1 FROM shown_users u WHERE u.id = p.user_id) "
           "ORDER BY p.season DESC",
    round_players="SELECT p.user_id, p.game, p.season, p.rating, p.uncertainty, p.responses, "
                  "p.updated_at FROM (SELECT a.user_id FROM answers a WHERE a.round_id = ? "
                  "UNION SELECT s.user_id FROM round_passes s WHERE s.round_id = ? "
                  "UNION SELECT r.started_by FROM rounds r WHERE r.id = ?) g "
                  "JOIN player_ratings p ON p.user_id = g.user_id AND p.game = ? "
                  "WHERE EXISTS (SELECT 1 FROM shown_users u WHERE u.id = g.user_id) "
                  "ORDER BY p.user_id, p.season DESC",
    hand=f"SELECT {HAND_COLUMNS} FROM hand_ratings WHERE game = ? AND hand = ?",
    hands=f"SELECT {HAND_COLUMNS} FROM hand_ratings WHERE game = ? AND numbers = ? "
          "AND target = ?",
    scale=f"SELECT {SCALE_COLUMNS} FROM rating_scales WHERE game = ?",
    responses="SELECT user_id, correct, distance, at FROM answers WHERE round_id = ? "
              "ORDER BY at, id",
    passes="SELECT user_id, at FROM round_passes WHERE round_id = ?",
    # one statement for the whole group, each player's latest season only (what a deal's aim
    # reads of them): a busy group's fifty players read one by one, every season of theirs,
    # were half of a deal's time on a year-old database (bench/bench_year.py)
    recent_ratings="SELECT g.user_id, p.game, p.season, p.rating, p.uncertainty, p.responses, "
                   "p.updated_at FROM (SELECT DISTINCT a.user_id FROM answers a "
                   "WHERE a.round_id IN (SELECT r.id FROM rounds r WHERE r.chat_id = ? "
                   "AND r.game = ? AND r.status <> 'open' ORDER BY r.id DESC LIMIT ?) "
                   "AND a.at >= ?) g LEFT JOIN player_ratings p ON p.user_id = g.user_id "
                   "AND p.game = ? AND p.season = (SELECT MAX(q.season) FROM player_ratings q "
                   "WHERE q.user_id = g.user_id AND q.game = ?) ORDER BY g.user_id",
    rounds_played="SELECT COUNT(*) FROM (SELECT 1 FROM rounds WHERE chat_id = ? AND game = ? "
                  "AND status <> 'open' LIMIT ?) AS played",
    rated="SELECT at FROM rated_rounds WHERE round_id = ?",
    board=f"SELECT {LINE} FROM player_ratings p JOIN shown_users u ON u.id = p.user_id "
          f"WHERE p.game = ? AND p.season = ? AND p.responses >= {SETTLED} "
          "ORDER BY p.rating DESC, p.user_id LIMIT ?",
    provisional=f"SELECT {LINE} FROM player_ratings p JOIN shown_users u ON u.id = p.user_id "
                f"WHERE p.game = ? AND p.season = ? AND p.responses < {SETTLED} "
                "ORDER BY p.rating DESC, p.user_id LIMIT ?",
    # read in the index of the chat's players' latest ratings (schema step 32) in the board's
    # order, where none of them is rated in a later season than the one asked for; else the
    # chat's players first, then each one's row by its key (LOOKED_BOARD)
    chat_boards=KEPT_BOARDS,
    looked_boards=LOOKED_BOARDS,
    # counted in the settled players' own index alone (schema step 29), not by reading each
    # row for its responses (a season's 100,000 players above the asker were 100,000 rows read
    # one to a page: 0.6 to 0.9 s on a year-old SQLite file, against 10 to 22 ms in an index)
    place="SELECT 1 + COUNT(*) FROM player_ratings WHERE game = ? AND season = ? "
          f"AND responses >= {SETTLED} AND rating > ?",
    # the chat's settled players above, counted in their index (schema step 32); each of the
    # chat's players looked up by their key as before where one is rated in a later season
    chat_place=f"SELECT CASE WHEN {NEWER} THEN ({LOOKED_PLACE}) ELSE (SELECT 1 + COUNT(*) "
               "FROM chat_ratings WHERE chat_id = ? AND game = ? AND season = ? "
               "AND responses >= 10 AND rating > ?) END",
    rate_round="INSERT INTO rated_rounds (round_id, at) VALUES (?, ?)",
    # typed where they are selected: PostgreSQL would read untyped parameters there as text
    put_player="INSERT INTO player_ratings (user_id, game, season, rating, uncertainty, "
               "responses, updated_at) SELECT CAST(? AS BIGINT), CAST(? AS TEXT), "
               "CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION), CAST(? AS DOUBLE PRECISION), "
               "CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION) "
               "WHERE EXISTS (SELECT 1 FROM users WHERE id = ?) "
               "ON CONFLICT (user_id, game, season) DO UPDATE SET "
               "rating = player_ratings.rating + ?, uncertainty = ?, "
               "responses = player_ratings.responses + 1, updated_at = ?",
    put_hand=f"INSERT INTO hand_ratings ({HAND_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
             "ON CONFLICT (game, hand) DO UPDATE SET "
             "difficulty = hand_ratings.difficulty + ?, uncertainty = ?, "
             "responses = hand_ratings.responses + ?, updated_at = ?",
    put_scale=f"INSERT INTO rating_scales ({SCALE_COLUMNS}) VALUES (?, ?, ?, ?, ?) "
              "ON CONFLICT (game) DO UPDATE SET shape = CASE "
              "WHEN rating_scales.shape + ? < ? THEN ? WHEN rating_scales.shape + ? > ? THEN ? "
              "ELSE rating_scales.shape + ? END, "
              "uncertainty = ?, rounds = rating_scales.rounds + 1, updated_at = ?",
    # the row just written, copied by its key: one cheap upsert a player, nothing when the
    # person is gone (their row was not written)
    put_day="INSERT INTO rating_days (user_id, game, day, season, rating) "
            "SELECT user_id, game, CAST(? AS TEXT), season, rating FROM player_ratings "
            "WHERE user_id = ? AND game = ? AND season = ? "
            "ON CONFLICT (user_id, game, day) DO UPDATE SET season = excluded.season, "
            "rating = excluded.rating",
    put_themes="INSERT INTO hand_themes (game, hand, themes) VALUES (?, ?, ?) "
               "ON CONFLICT (game, hand) DO NOTHING",
    themed="SELECT game, hand FROM hand_themes LIMIT ?",
)
NUMBERED = numbered_table(QMARK)


def day_of(when: float) -> str:
    """The UTC day a moment falls on, as rating_days keys it: "2026-11-25"."""
    return time.strftime("%Y-%m-%d", time.gmtime(when))


def rating_steps(sql: RatingStatements, write: RatingWrite,
                 round_id: int | None = None) -> list[Step]:
    """The statements that write a rating: the round's key (a daily answer has none), the
    hand, the players by id, then the scale (one order everywhere: two closes at once never
    wait for each other's rows in a circle)."""
    steps: list[Step] = []
    if round_id is not None:
        steps.append((sql.rate_round, (round_id, write.at)))
    if write.hand is not None:
        hand, step = write.hand
        steps.append((sql.put_hand, (
            hand.game, hand.hand, hand.numbers, hand.target, hand.difficulty, hand.uncertainty,
            hand.responses, hand.updated_at, step, hand.uncertainty, write.hand_responses,
            hand.updated_at)))
    for player, step in sorted(write.players, key=lambda pair: pair[0].user_id):
        steps.append((sql.put_player, (
            player.user_id, player.game, player.season, player.rating, player.uncertainty,
            player.responses, player.updated_at, player.user_id, step, player.uncertainty,
            player.updated_at)))
        steps.append((sql.put_day, (day_of(player.updated_at), player.user_id, player.game,
                                    player.season)))
    scale, step = write.scale
    low, high = write.shape_bounds
    steps.append((sql.put_scale, (scale.game, scale.shape, scale.uncertainty, scale.rounds,
                                  scale.updated_at, step, low, low, step, high, high, step,
                                  scale.uncertainty, scale.updated_at)))
    return steps


class Ratings:
    """The ratings' store (bot.store.protocols.RatingStore) over either database."""

    def __init__(self, db: Connection, sql: RatingStatements,
                 daily_sql: daily.DailyStatements) -> None:
        self.db = db
        self.sql = sql
        self.daily_sql = daily_sql

    async def player_ratings(self, user_id: int, game: str) -> list[RatingRow]:
        """A player's rows in a game, one a season, newest first."""
        rows = await self.db.fetch(self.sql.player, (user_id, game))
        return [RatingRow(*row) for row in rows]

    async def round_players(self, round_id: int, game: str) -> dict[int, list[RatingRow]]:
        """The rows of each player of a round (who answered, passed or dealt it), one a season,
        newest first; a player never rated is not there."""
        found: dict[int, list[RatingRow]] = {}
        for row in await self.db.fetch(self.sql.round_players,
                                       (round_id, round_id, round_id, game)):
            found.setdefault(row[0], []).append(RatingRow(*row))
        return found

    async def hand_rating(self, game: str, hand: str) -> HandRow | None:
        rows = await self.db.fetch(self.sql.hand, (game, hand))
        return HandRow(*rows[0]) if rows else None

    async def hand_ratings(self, game: str, numbers: int, target: int) -> list[HandRow]:
        """Every rated hand of one kind (start-up's index of the hands adaptive deals take)."""
        rows = await self.db.fetch(self.sql.hands, (game, numbers, target))
        return [HandRow(*row) for row in rows]

    async def put_themes(self, hands: Sequence[tuple[str, str, int]]) -> None:
        """Hands' themes ((game, hand key, themes' bits)), in one transaction; a hand already
        written keeps its row (the themes of a hand never change)."""
        await self.db.run_all([(self.sql.put_themes, hand) for hand in hands])

    async def themed_hands(self, most: int) -> list[tuple[str, str]]:
        """The hands whose themes are written ((game, hand key)), `most` at most."""
        return [(game, hand) for game, hand in await self.db.fetch(self.sql.themed, (most,))]

    async def scale(self, game: str) -> ScaleRow | None:
        rows = await self.db.fetch(self.sql.scale, (game,))
        return ScaleRow(*rows[0]) if rows else None

    async def responses(self, round_id: int) -> list[StoredResponse]:
        """A round's answers, earliest first."""
        rows = await self.db.fetch(self.sql.responses, (round_id,))
        return [StoredResponse(user, bool(correct), distance, at)
                for user, correct, distance, at in rows]

    async def passes(self, round_id: int) -> list[tuple[int, float]]:
        """Who passed in a round, and when."""
        return [(row[0], row[1]) for row in await self.db.fetch(self.sql.passes, (round_id,))]

    async def recent_ratings(self, chat_id: int, game: str, rounds: int,
                             since: float) -> dict[int, list[RatingRow]]:
        """Who answered in the chat's last `rounds` closed rounds of the game, since `since`,
        each with their latest season's row in the game (none: never rated), as
        player_ratings's first."""
        found: dict[int, list[RatingRow]] = {}
        rows = await self.db.fetch(self.sql.recent_ratings,
                                   (chat_id, game, rounds, since, game, game))
        for user_id, *rated in rows:
            kept = found.setdefault(user_id, [])
            if rated[0] is not None:
                kept.append(RatingRow(user_id, *rated))
        return found

    async def rounds_played(self, chat_id: int, game: str, most: int) -> int:
        """How many rounds of the game the chat closed, counted up to `most`."""
        rows = await self.db.fetch(self.sql.rounds_played, (chat_id, game, most))
        return int(rows[0][0])

    async def is_rated(self, round_id: int) -> bool:
        return bool(await self.db.fetch(self.sql.rated, (round_id,)))

    async def board(self, game: str, season: str, limit: int,
                    chat_id: int | None = None) -> list[RatedPlacing]:
        """A season's best settled players: every chat's, or among those who played in
        `chat_id`, ranked."""
        if chat_id is None:
            return await self._placings(self.sql.board, game, season, limit)
        return (await self.boards(game, season, limit, 0, chat_id))[0]

    async def provisional(self, game: str, season: str, limit: int,
                          chat_id: int | None = None) -> list[RatedPlacing]:
        """A season's best provisional players (rated on fewer than SETTLED responses), in
        the order of their ratings: shown apart from the board, never ranked on it."""
        if chat_id is None:
            return await self._placings(self.sql.provisional, game, season, limit)
        return (await self.boards(game, season, 0, limit, chat_id))[1]

    async def boards(self, game: str, season: str, settled: int, provisional: int,
                     chat_id: int | None = None
                     ) -> tuple[list[RatedPlacing], list[RatedPlacing]]:
        """The season's board (its best `settled` players, ranked) and its best `provisional`
        players: every chat's, or among those who played in `chat_id` (one statement)."""
        if chat_id is None:
            return (await self._placings(self.sql.board, game, season, settled),
                    await self._placings(self.sql.provisional, game, season, provisional))
        asked = (chat_id, game, season)
        rows = await self.db.fetch(self.sql.chat_boards, (*asked, settled, *asked, provisional,
                                                          *asked))
        if any(row[0] is None for row in rows):  # rated in a later season: looked up
            rows = await self.db.fetch(self.sql.looked_boards, (
                chat_id, game, game, season, settled, chat_id, game, game, season, provisional))
        ranked = [RatedPlacing(rank, *row[1:]) for rank, row in
                  enumerate((row for row in rows if row[0] == 1), 1)]
        unranked = [RatedPlacing(rank, *row[1:]) for rank, row in
                    enumerate((row for row in rows if row[0] == 0), 1)]
        return ranked, unranked

    async def _placings(self, sql: str, game: str, season: str, limit: int
                        ) -> list[RatedPlacing]:
        rows = await self.db.fetch(sql, (game, season, limit))
        return [RatedPlacing(rank, *row) for rank, row in enumerate(rows, 1)]

    async def place(self, game: str, season: str, row: RatingRow,
                    chat_id: int | None = None) -> int:
        """Where a settled player's row stands on that board: 1 + the settled players rated
        higher (players level on their rating share a place)."""
        if chat_id is None:
            found = await self.db.fetch(self.sql.place, (game, season, row.rating))
        else:
            found = await self.db.fetch(self.sql.chat_place, (
                chat_id, game, season, chat_id, game, game, season, row.rating,
                chat_id, game, season, row.rating))
        return int(found[0][0])

    async def record_daily(self, day: str, game: str, user_id: int, chat_id: int, answer: str,
                           seconds: float, at: float, rating: RatingWrite) -> bool:
        """The day's first right answer in the game and its rating, in one transaction; False
        (nothing written) when the person already had one that day in it."""
        return await self.db.run_guarded(
            (self.daily_sql.record, (day, game, user_id, chat_id, answer, seconds, at)),
            rating_steps(self.sql, rating))
