"""A closed round's rating, computed for the transaction that closes it (docs/ratings.md).

The table's commit asks for it when it writes a close: the round's answers and passes are in the
store by then (they are written before the close, in order), the players' rows, the hand's and
the game's scale are read, the pure model (bot.play.ratings) computes the rows after, and the
store writes them with the close, behind it: only a close that changed the round rates it, so a
close retried or a restart's second close rates nothing twice, and a kill before the commit
leaves the round open, to be closed (and rated) by the restart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from bot.play import ratings
from bot.play.games import GAMES
from bot.play.ratings import ClosedRound, HandRating, PlayerRating, Response, ScaleRating
from bot.play.ratings.model import SHAPES
from bot.store.protocols import RatingStore
from bot.store.records import HandRow, RatingRow, RatingWrite, Round, ScaleRow
from solver import rating_table
from solver.rating import CUTS, difficulty_of

FOUR = 4
# where the closest wins, a hand's nearest reachable value, if its analysis is known
# (bot.play.dealing.analyses)
Best = Callable[[str, tuple, int], int | None]


def fixed_difficulty(hand: Sequence[int], target: int, level: str) -> float | None:
    """The fixed model's difficulty of a hand (its prior): the rating table's for the usual
    deals of four, five and six numbers, the model's own for any other four (a fraction of a
    millisecond); else the middle of the level it was dealt at (the model's walk is too slow
    for a close)."""
    ordered = tuple(sorted(hand))
    if rating_table.covers(ordered, target) or len(ordered) == FOUR:
        return difficulty_of(ordered, target)
    medium_from, hard_from = CUTS.get(len(ordered), CUTS[FOUR])
    middle = {"easy": medium_from / 2, "medium": (medium_from + hard_from) / 2,
              "hard": hard_from + 1.0}
    return middle.get(level)


def player_of(row: RatingRow) -> PlayerRating:
    return PlayerRating(row.user_id, row.game, row.season, row.rating, row.uncertainty,
                        row.responses, row.updated_at)


def hand_of(row: HandRow) -> HandRating:
    return HandRating(row.hand, row.game, row.difficulty, row.uncertainty, row.responses,
                      row.updated_at)


def scale_of(row: ScaleRow) -> ScaleRating:
    """The stored scale, its shape within the model's bounds (a database written before the
    store kept them may hold one outside)."""
    low, high = SHAPES
    return ScaleRating(row.game, min(high, max(low, row.shape)), row.uncertainty, row.rounds,
                       row.updated_at)


def current(rows: Sequence[RatingRow], user_id: int, game: str, season: str,
            now: float) -> PlayerRating:
    """A player's row this season: stored; or their last season's, partly reset; or a new
    player's."""
    if rows and rows[0].season == season:
        return player_of(rows[0])
    if rows:
        return ratings.next_season(player_of(rows[0]), season, now)
    return ratings.new_player(user_id, game, season, now)


def written(before: dict[int, PlayerRating], hand: HandRating, scale: ScaleRating,
            update: ratings.RatingUpdate, count: int, target: int, now: float) -> RatingWrite:
    """The update as the store writes it: each row after, with its step from the row before."""
    players = tuple(
        (RatingRow(row.player_id, row.game, row.season, row.rating, row.uncertainty, row.count,
                   row.updated_at), row.rating - before[row.player_id].rating)
        for row in update.players)
    after = update.hand
    return RatingWrite(
        at=now, players=players,
        hand=(HandRow(after.game, after.hand_key, count, target, after.difficulty,
                      after.uncertainty, after.count, after.updated_at),
              after.difficulty - hand.difficulty),
        hand_responses=len(update.players),
        scale=(ScaleRow(update.scale.game, update.scale.shape, update.scale.uncertainty,
                        update.scale.count, update.scale.updated_at),
               update.scale.shape - scale.shape),
        shape_bounds=SHAPES)


class Rater:
    def __init__(self, store: RatingStore, best: Best | None = None) -> None:
        self.store = store
        # where the closest wins: the nearest a hand can reach (its analysis, if known)
        self.best = best
        self._followers: list[Callable[[HandRow], None]] = []

    def follow(self, follower: Callable[[HandRow], None]) -> None:
        """Tell `follower` each hand's row once a rating of it is written (the deals' index)."""
        self._followers.append(follower)

    def written(self, rating: RatingWrite) -> None:
        """A rating was written (with its close, or its daily result)."""
        if rating.hand is not None:
            for follower in self._followers:
                follower(rating.hand[0])

    async def rows(self, game: str, user_ids: Sequence[int], key: str, hand: Sequence[int],
                   target: int, level: str, now: float
                   ) -> tuple[dict[int, PlayerRating], HandRating, ScaleRating]:
        """The rows a rating starts from: each player's this season, the hand's (its prior if
        never rated) and the game's scale."""
        # asked together: one trip to SQLite's thread, or side by side on PostgreSQL's pool
        rows, stored, scale = await asyncio.gather(
            asyncio.gather(*(self.store.player_ratings(user, game) for user in user_ids)),
            self.store.hand_rating(game, key), self.store.scale(game))
        return starting(game, dict(zip(user_ids, rows, strict=True)), user_ids, key, hand,
                        target, level, stored, scale, now)

    async def of_round(self, record: Round, ended_at: float,
                       winner: int | None = None) -> RatingWrite | None:
        """The rating of a round closing at `ended_at` (None: its game is not rated, or nobody
        took part). Who took part: whoever answered or passed, and who dealt it (a time-out
        nobody tried still tells about the hand) — but not a `winner` who did not solve it (a
        round won by the closest answer, short of the best the hand can reach): to
        the model that answer fell short, and a win never lowers its winner."""
        if record.game not in ratings.GAMES:
            return None
        started = record.started_at
        solved: dict[int, float] = {}
        wrong: dict[int, int] = {}
        # where the closest answer wins, solved is reaching the best the hand can do (an
        # unreachable target would otherwise fail everyone); a valid answer short of it is wrong
        nearest = self.best(record.game, record.hand, record.target) \
            if self.best is not None and GAMES[record.game].rules.closest_wins else None
        reached = abs(nearest - record.target) if nearest is not None else 0
        key = ratings.hand_key(record.hand, record.target)
        # everything the rating reads, asked together: one trip to SQLite's thread (a close
        # waits for each trip behind the busy loop's other work), side by side on PostgreSQL
        responses, passes, kept, stored, scale = await asyncio.gather(
            self.store.responses(record.id), self.store.passes(record.id),
            self.store.round_players(record.id, record.game),
            self.store.hand_rating(record.game, key), self.store.scale(record.game))
        for answer in responses:
            if answer.correct or (nearest is not None and answer.distance is not None
                                  and answer.distance <= reached):
                solved.setdefault(answer.user_id, max(0.0, answer.at - started))
            else:
                wrong[answer.user_id] = wrong.get(answer.user_id, 0) + 1
        passed = {user: max(0.0, at - started) for user, at in passes}
        taking_part = {*solved, *wrong, *passed}
        if record.started_by is not None:
            taking_part.add(record.started_by)
        if winner is not None and winner not in solved:
            taking_part.discard(winner)
        if not taking_part:
            return None
        closed = ClosedRound(
            record.game, key, max(1.0, record.deadline - started), max(0.0, ended_at - started),
            tuple(Response(user, solved.get(user), wrong.get(user, 0), passed.get(user))
                  for user in sorted(taking_part)))
        players, hand, scaled = starting(record.game, kept, sorted(taking_part), key,
                                         record.hand, record.target, record.level, stored,
                                         scale, ended_at)
        return rated(closed, players, hand, scaled, len(record.hand), record.target, ended_at)

    async def of_daily(self, game: str, user_id: int, hand: Sequence[int], target: int,
                       seconds: float | None, now: float) -> RatingWrite:
        """A right answer to the daily puzzle (of `game`), a round of one: solved after
        `seconds` (None: not known, taken as the game's usual round length), its deadline that
        length (a slower solve is still a solve)."""
        deadline = ratings.GAMES[game].reference_seconds
        took = deadline if seconds is None else max(0.0, seconds)
        closed = ClosedRound(game, ratings.hand_key(hand, target), deadline, took,
                             (Response(user_id, took),))
        return await self._rated(closed, hand, target, "", now)

    async def _rated(self, closed: ClosedRound, hand: Sequence[int], target: int, level: str,
                     now: float) -> RatingWrite:
        players, found, scale = await self.rows(
            closed.game, [r.player_id for r in closed.responses], closed.hand_key, hand, target,
            level, now)
        return rated(closed, players, found, scale, len(hand), target, now)


def starting(game: str, kept: dict[int, list[RatingRow]], user_ids: Sequence[int], key: str,
             hand: Sequence[int], target: int, level: str, stored: HandRow | None,
             scale: ScaleRow | None, now: float
             ) -> tuple[dict[int, PlayerRating], HandRating, ScaleRating]:
    """The rows a rating starts from, out of what was read: each player's this season (`kept`:
    their stored rows, newest season first), the hand's (its prior if never rated) and the
    game's scale."""
    season = ratings.season_of(now)
    players = {user: current(kept.get(user, ()), user, game, season, now) for user in user_ids}
    found = hand_of(stored) if stored is not None else ratings.new_hand(
        game, key, now, len(hand), target, fixed_difficulty(hand, target, level))
    return players, found, scale_of(scale) if scale is not None else ratings.new_scale(
        game, now)


def rated(closed: ClosedRound, players: dict[int, PlayerRating], hand: HandRating,
          scale: ScaleRating, count: int, target: int, now: float) -> RatingWrite:
    """The model's update of the round, as the store writes it."""
    update = ratings.rate_round(closed, players, hand, scale, now)
    return written(players, hand, scale, update, count, target, now)
