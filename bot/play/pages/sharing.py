"""The player's season as a share card (bot.play.cards): what it shows, read as the player's
page reads it. A season card shows no hand, so nothing of a live puzzle can be on it."""

from __future__ import annotations

from bot.play.cards import SeasonCard
from bot.play.pages.player import season_start, shown
from bot.play.ratings.seasons import season_of
from bot.store.protocols import PageStore


async def season_of_player(store: PageStore, user_id: int, name: str, game: str,
                           now: float) -> SeasonCard | None:
    """The card's figures for the game this season; None before the player's first rated
    round in it (there is no rating to show)."""
    days = [day for day in await store.rating_days(user_id, season_start(now))
            if day.game == game and day.season == season_of(now)]
    totals = next((t for t in await store.game_totals(user_id) if t.game == game), None)
    if not days or totals is None:
        return None
    first, last = shown(days[0].rating), shown(days[-1].rating)
    return SeasonCard(name=name, game=game, season=season_of(now), rating=last,
                      change=last - first, rounds=totals.rounds, wins=totals.wins,
                      best_streak=totals.best_run, fastest=totals.fastest)

