"""Seasons: a calendar month (UTC), and the partial reset a player's rating gets at a new one.

A month, not a quarter: players ask for monthly boards, a month is short enough for a newcomer
to reach the top, and the daily puzzle alone gives about thirty responses a month, enough to
leave provisional. The reset is partial, so nothing known is thrown away: the rating is pulled
part of the way to the mean and its uncertainty widened, so the first rounds of a season move
it fast; the count starts again (a season's board ranks those rated enough in it).
"""

from __future__ import annotations

import dataclasses
import math
import time

from bot.play.ratings.model import scale_of
from bot.play.ratings.records import PlayerRating

KEEP = 0.7  # the part of a rating's distance from the mean a new season keeps
WIDEN = 0.5  # added (in quadrature) to the uncertainty, up to a new player's


def season_of(when: float) -> str:
    """The season a moment (Unix seconds) falls in: its UTC month, "2026-11"."""
    day = time.gmtime(when)
    return f"{day.tm_year:04d}-{day.tm_mon:02d}"


def next_season(rating: PlayerRating, season: str, now: float,
                mean: float | None = None) -> PlayerRating:
    """A player's row for a new season from their last one: shrunk toward `mean` (the game's
    new-player mean unless given, e.g. the last season's average), wider, count 0."""
    scale = scale_of(rating.game)
    centre = scale.player_mean if mean is None else mean
    return dataclasses.replace(
        rating, season=season, rating=centre + KEEP * (rating.rating - centre),
        uncertainty=min(math.hypot(rating.uncertainty, WIDEN), scale.player_uncertainty),
        count=0, updated_at=now)


assert season_of(0.0) == "1970-01" and season_of(1_790_000_000.0) == "2026-09"
