"""Ratings that learn: each player's skill and each hand's difficulty, on one scale per game,
from what closed rounds show (who solved and how fast, who answered wrong or passed, who was
still trying when the race was won or the time ran out). Pure: no I/O, no store, no words.

docs/ratings.md says why it is built this way and how a store keeps it.
"""

from bot.play.ratings.adaptive import AIM, HandIndex, adaptive_hands, aimed_difficulty, group_chance
from bot.play.ratings.book import Book
from bot.play.ratings.model import GAMES, predicted_chance, solve_chance
from bot.play.ratings.prior import (
    hand_key,
    hand_prior,
    level_of,
    new_hand,
    new_player,
    new_scale,
)
from bot.play.ratings.records import (
    ClosedRound,
    HandRating,
    PlayerRating,
    RatingUpdate,
    Response,
    ScaleRating,
)
from bot.play.ratings.seasons import next_season, season_of
from bot.play.ratings.update import rate_round

__all__ = [
    "AIM", "GAMES", "Book", "ClosedRound", "HandIndex", "HandRating", "PlayerRating",
    "RatingUpdate", "Response", "ScaleRating", "adaptive_hands", "aimed_difficulty",
    "group_chance", "hand_key", "hand_prior", "level_of", "new_hand", "new_player", "new_scale",
    "next_season", "predicted_chance", "rate_round", "season_of", "solve_chance",
]
