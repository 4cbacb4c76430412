"""The periods the solo modes' boards are kept by: a UTC day, a season (the UTC month, as the
ratings' seasons), all time. A storm or a streak counts in the periods it began in; each is a
key of table `solo_bests` ("d2026-11-29", "s2026-11", "all")."""

from __future__ import annotations

import time

from bot.play.ratings.seasons import season_of

ALL_TIME = "all"


def day_key(at: float) -> str:
    """The board of the UTC day a moment falls in: "d2026-11-29"."""
    return "d" + time.strftime("%Y-%m-%d", time.gmtime(at))


def season_key(at: float) -> str:
    """The board of the season a moment falls in (a UTC month, as the ratings'): "s2026-11"."""
    return "s" + season_of(at)
