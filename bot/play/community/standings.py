"""Leaderboards and a player's statistics (/top, /stats), from the scores the database keeps and
the rounds won lately; the asker's own place when the board's first ten leave them out. The
rating boards (/top rating) rank the current season's skill (docs/ratings.md): shown on an
Elo-like scale, 1500 for a new player, SHOWN_PER_UNIT points for each unit of the model's."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from bot.play.chats.people import Chat, People, Player
from bot.play.community.boards import BoardAsk
from bot.play.community.periods import season_key
from bot.play.games import FIRST, GAMES
from bot.play.ratings import GAMES as RATED_GAMES
from bot.play.ratings import season_of
from bot.play.ratings.records import PLAYER_PROVISIONAL
from bot.play.words.places import shared_places
from bot.store.protocols import RatingStore, ScoreStore, StormStore, StreakStore
from bot.store.records import RatedPlacing, RatingRow, Stats
from bot.store.retention import WEEK  # the week's boards: seven days to the second
from bot.store.score_store import Board, Placing
from bot.text import markup
from bot.text.i18n import Texts

SHOWN = 10
PROVISIONAL_SHOWN = 3  # the best provisional ratings shown under a board, unranked
# what an empty board tells to type: the command that deals a round of its game (all: /play)
STARTS = {"": FIRST.start, **{name: game.start for name, game in GAMES.items()}}
# The model's unit (the log-odds of solving within the usual round) as Elo shows it: 400 points
# are a factor of ten in the odds. A new player stands at SHOWN_MEAN.
SHOWN_PER_UNIT = 400 / math.log(10)
SHOWN_MEAN = 1500
RATED_DEFAULT = FIRST.name  # the game of /top rating when none is named


def shown_rating(rating: float) -> str:
    """A rating as shown: a whole number, without a thousands separator (as Elo is written)."""
    return str(round(SHOWN_MEAN + SHOWN_PER_UNIT * rating))


def shown_spread(uncertainty: float) -> str:
    return str(round(SHOWN_PER_UNIT * uncertainty))


class Standings:
    def __init__(self, store: ScoreStore, people: People,
                 clock: Callable[[], float] = time.time,
                 ratings: RatingStore | None = None,
                 streaks: StreakStore | None = None,
                 storms: StormStore | None = None) -> None:
        self.store = store
        self.ratings = ratings
        self.streaks = streaks  # the person's best streak, under their stats (None: not said)
        self.storms = storms  # ... and their best storm of the season
        self.people = people
        self.clock = clock

    async def top(self, chat: Chat, player: Player, everywhere: bool,
                  game: str | None = None) -> str:
        """The best players of this chat (or of every chat), in one game or all, all time."""
        return await self.board(chat, player, BoardAsk("all", everywhere, game))

    async def board(self, chat: Chat, player: Player, ask: BoardAsk) -> str:
        """The first ten of a board (all time, or the rounds won in the last 7 days), and the
        asker's own place below them when they have points there but not among the ten."""
        if ask.period == "rating":
            return await self.rating_board(chat, player, ask)
        texts = await self.people.texts(chat, player)
        week = ask.period == "week"
        board = Board(None if ask.everywhere else chat.id, ask.game,
                      self.clock() - WEEK if week else None)
        rows = await self.store.board(board, SHOWN)
        if not rows:
            return texts("board_week_empty" if week else "top_empty",
                         start=STARTS.get(ask.game or "", STARTS[""]))
        where = texts("top_all" if ask.everywhere else "top_chat")
        if week:
            where = texts("board_week", where=where)
        title = f"{where} · {texts.game(ask.game)}" if ask.game else where
        shown = [texts("top_title", title=title)]
        places = shared_places([(row.points, row.wins) for row in rows])
        shown += [texts("top_line", rank=place, name=markup.name(row.name), points=row.points,
                        wins=row.wins) for place, row in zip(places, rows, strict=True)]
        if all(row.user_id != player.id for row in rows):
            mine = await self.store.placing(board, player.id)
            if mine is not None:
                shown.append(own_line(texts, mine))
        return markup.clip("\n".join(shown))

    async def rating_board(self, chat: Chat, player: Player, ask: BoardAsk) -> str:
        """The season's most skilled in a game (24 unless named): this chat's players, or every
        chat's. Only settled ratings are ranked (rated on PLAYER_PROVISIONAL rounds this season
        at least: docs/ratings.md, "Boards"); the best provisional ones are shown apart, unranked,
        as Lichess keeps provisional ratings off its boards. The asker's own line below, ranked
        if settled, when they are rated but not among those shown."""
        texts = await self.people.texts(chat, player)
        game = ask.game or RATED_DEFAULT
        season = season_of(self.clock())
        chat_id = None if ask.everywhere else chat.id
        if self.ratings is None or game not in RATED_GAMES:
            return rating_empty(texts, game, season)
        placings, unranked = await self.ratings.boards(game, season, SHOWN, PROVISIONAL_SHOWN,
                                                       chat_id)
        mine = [row for row in await self.ratings.player_ratings(player.id, game)
                if row.season == season]
        # a rated asker is told their rating, never "Nobody is rated", where the chat's players
        # are not rated yet (they were rated on rounds they dealt there, or in other chats)
        if not placings and not unranked and not mine:
            return rating_empty(texts, game, season)
        where = texts("top_all" if ask.everywhere else "top_chat")
        shown = [texts("rating_title", where=where, game=texts.game(game), season=season)]
        shown += [rating_line(texts, place, p.name, p.rating, p.uncertainty, p.responses)
                  for place, p in zip(rating_places(placings), placings, strict=True)]
        if unranked:
            shown.append(texts("rating_provisional_head", count=PLAYER_PROVISIONAL))
            shown += [unranked_line(texts, p.name, p.rating, p.uncertainty, p.responses)
                      for p in unranked]
        if mine and all(p.user_id != player.id for p in (*placings, *unranked)):
            line = await self._own_rating_line(texts, player, mine[0], chat_id)
            shown.append(texts("board_you", line=line) if placings or unranked else line)
        return markup.clip("\n".join(shown))

    async def _own_rating_line(self, texts: Texts, player: Player, own: RatingRow,
                               chat_id: int | None) -> str:
        """The asker's line under a season's board that does not show them: their place among
        the settled, or their provisional rating unranked."""
        assert self.ratings is not None
        if own.responses >= PLAYER_PROVISIONAL:
            rank = await self.ratings.place(own.game, own.season, own, chat_id)
            return rating_line(texts, rank, player.first_name, own.rating, own.uncertainty,
                               own.responses)
        return unranked_line(texts, player.first_name, own.rating, own.uncertainty,
                             own.responses)

    async def stats(self, chat: Chat, player: Player) -> str:
        """The player's points, wins, rounds, fastest win and streaks in this chat, per game;
        then their rating in each rated game they played this season (with its uncertainty)
        and their best season's, their best /streak and their best /storm of the season (theirs
        in every chat, as a rating)."""
        texts = await self.people.texts(chat, player)
        name = markup.name(player.first_name)
        rows = [row for row in await self.store.stats(chat.id, player.id) if row.rounds_played]
        rated = await self._ratings_lines(texts, player)
        if self.streaks is not None and (best := await self.streaks.best_streak(player.id)):
            rated.append(texts("stats_streak", best=best))
        if self.storms is not None and \
                (best := await self.storms.best_storm(player.id, season_key(self.clock()))):
            rated.append(texts("stats_storm", best=best))
        if not rows:  # nothing in this chat; a rating is the player's, from every chat
            return "\n".join([texts("stats_none", name=name), *rated])
        lines = [texts("stats_title", name=name)]
        lines += [stats_line(texts, row) for row in rows]
        if len(rows) > 1:
            lines.append(texts("stats_overall", points=sum(r.points for r in rows),
                               wins=sum(r.wins for r in rows),
                               played=sum(r.rounds_played for r in rows)))
        return "\n".join(lines + rated)

    async def _ratings_lines(self, texts: Texts, player: Player) -> list[str]:
        if self.ratings is None:
            return []
        season, lines = season_of(self.clock()), []
        for game in RATED_GAMES:
            rows = await self.ratings.player_ratings(player.id, game)
            now = [row for row in rows if row.season == season]
            if not now:
                continue
            lines.append(texts("stats_rating", game=texts.game(game),
                               rating=shown_rating(now[0].rating),
                               spread=shown_spread(now[0].uncertainty),
                               count=now[0].responses))
            best = best_season(rows)
            if best is not None:
                lines.append(texts("stats_rating_best", rating=shown_rating(best.rating),
                                   season=best.season))
        return lines


def best_season(rows: list[RatingRow]) -> RatingRow | None:
    """A player's best season: the highest rating of a season they were rated in enough to
    leave provisional (None: no such season)."""
    settled = [row for row in rows if row.responses >= PLAYER_PROVISIONAL]
    return max(settled, key=lambda row: (row.rating, row.season)) if settled else None


def rating_places(placings: Sequence[RatedPlacing]) -> list[int]:
    """A season board's places: players level on their rating share one (the store's own
    place counts those rated strictly higher: the same rule)."""
    return shared_places([p.rating for p in placings])


def rating_line(texts: Texts, rank: int, name: str, rating: float, uncertainty: float,
                responses: int) -> str:
    """A settled player's line on a season's board, ranked."""
    return texts("rating_line", rank=rank, name=markup.name(name), rating=shown_rating(rating),
                 spread=shown_spread(uncertainty), count=responses)


def unranked_line(texts: Texts, name: str, rating: float, uncertainty: float,
                  responses: int) -> str:
    """A provisional player's line: their rating, not a place among the settled."""
    return texts("rating_line_provisional", name=markup.name(name),
                 rating=shown_rating(rating), spread=shown_spread(uncertainty),
                 count=responses)


def own_line(texts: Texts, mine: Placing) -> str:
    return texts("board_you", line=texts("top_line", rank=mine.rank, name=markup.name(mine.name),
                                         points=mine.points, wins=mine.wins))


def stats_line(texts: Texts, row: Stats) -> str:
    fastest = texts.seconds(row.fastest_win) if row.fastest_win is not None else "—"
    return texts("stats_game", game=texts.game(row.game), points=row.points, wins=row.wins,
                 played=row.rounds_played, fastest=fastest, streak=row.current_streak,
                 best_streak=row.best_streak)


def rating_empty(texts: Texts, game: str, season: str) -> str:
    """An empty season's board, naming the command that deals its game (the daily puzzle rates
    24 only)."""
    if game == RATED_DEFAULT:
        return texts("rating_empty", game=texts.game(game), season=season)
    return texts("rating_empty_other", game=texts.game(game), season=season,
                 start=STARTS.get(game, STARTS[""]))
