"""The player's share cards (bot.play.cards): what each shows, read as the player's page reads
it — a season's figures, or a daily puzzle result of the player's own. A season card shows no
hand; a daily card's hand is drawn face down while its day is live (bot.play.cards.daily_card),
so nothing of a live puzzle can be on either. Which card the page offers is said here too: the
share section's buttons."""

from __future__ import annotations

from datetime import date
from typing import Any, Protocol

from bot.play.cards import DailyCard, SeasonCard
from bot.play.daily.daily import daily_number
from bot.play.daily.puzzle import streaks
from bot.play.pages.player import season_start, shown
from bot.play.ratings.seasons import season_of
from bot.store.daily_store import DailyStore
from bot.store.protocols import PageStore
from bot.store.sql.pages import GameTotals
from bot.text.i18n import Texts

SHARE = "share"  # the share section's kind


class DailyFacts(Protocol):
    """What a daily card is made from (bot.play.daily.Daily): the results stored, and the hand
    and target of a day in a game's daily (drawn with the bot's secret, so only the daily
    service can say them)."""

    store: DailyStore
    game: str  # the daily a card is of unless one is named (each game's results kept apart)

    @staticmethod
    def games() -> tuple[str, ...]: ...

    def hand_of(self, day: str, game: str | None = None) -> tuple[int, ...]: ...

    def target_of(self, day: str, game: str | None = None) -> int: ...


async def season_of_player(store: PageStore, user_id: int, name: str, game: str,
                           now: float) -> SeasonCard | None:
    """The card's figures for the game this season; None before the player's first rated
    round in it (there is no rating to show), or while their /forget is under way. Its rounds,
    wins, best streak and fastest win are the player's page's (all chats, all time: the card
    says so, docs/counts.md), none yet for a player rated on rounds they only dealt or on the
    daily puzzle: their card is drawn all the same, as the page's share section offers it."""
    if await store.erasing(user_id):
        return None
    days = [day for day in await store.rating_days(user_id, season_start(now), (game,))
            if day.game == game and day.season == season_of(now)]
    if not days:
        return None
    totals = next((t for t in await store.game_totals(user_id) if t.game == game),
                  GameTotals(game, 0, 0, None, 0))
    first, last = shown(days[0].rating), shown(days[-1].rating)
    return SeasonCard(name=name, game=game, season=season_of(now), rating=last,
                      change=last - first, rounds=totals.rounds, wins=totals.wins,
                      best_streak=totals.best_run, fastest=totals.fastest)


def read_day(text: object) -> str | None:
    """A day a request names ("2026-11-24"), or None when it names none that exists."""
    if not isinstance(text, str) or len(text) != 10:
        return None
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        return None


async def daily_of_player(daily: DailyFacts, user_id: int, name: str, day: str | None,
                          game: str | None = None) -> DailyCard | None:
    """The card's figures of the player's own result of the day in a game's daily (None: the
    daily they solved last): when they solved it, their streak as it stood that day, and the
    day's hand and target (the card turns the hand face down while the day is live). None when
    they have no result that day: nobody else's result is ever read."""
    if game is None:  # a day named without its game is the first daily's, as links were
        latest = await latest_daily(daily, user_id) if day is None else None
        game = latest[1] if latest is not None else daily.game
    solved = await daily.store.daily_days(user_id, game)
    chosen = day if day is not None else (solved[-1] if solved else None)
    if chosen is None or chosen not in solved:
        return None
    result = await daily.store.daily_result(chosen, game, user_id)
    if result is None:  # forgotten meanwhile
        return None
    streak, _ = streaks([d for d in solved if d <= chosen], chosen)
    return DailyCard(name=name, day=chosen, seconds=result.seconds, streak=streak,
                     hand=daily.hand_of(chosen, game), target=daily.target_of(chosen, game),
                     game=game)


async def latest_daily(daily: DailyFacts, user_id: int) -> tuple[str, str] | None:
    """The day and game of the daily the player solved last (the latest day; that day, the
    answer that arrived last), or None before their first."""
    latest: tuple[str, float, str] | None = None
    for game in daily.games():
        solved = await daily.store.daily_days(user_id, game)
        if not solved or (latest is not None and solved[-1] < latest[0]):
            continue
        result = await daily.store.daily_result(solved[-1], game, user_id)
        if result is not None and (latest is None or (solved[-1], result.seconds) > latest[:2]):
            latest = (solved[-1], result.seconds, game)
    return None if latest is None else (latest[0], latest[2])


async def offer_daily(daily: DailyFacts, texts: Texts, user_id: int,
                      sections: list[dict[str, Any]]) -> None:
    """Add the player's latest daily result (of whichever game's daily they solved last) to the
    page's share section (made if the page has none), as a button that asks for its card."""
    latest = await latest_daily(daily, user_id)
    if latest is None:
        return
    day, game = latest
    found = next((s for s in sections if s["kind"] == SHARE), None)
    if found is None:
        found = {"kind": SHARE, "title": texts("daily_share_button"), "games": []}
        sections.append(found)
    found["daily"] = {"day": day, "game": game, "name": texts(
        "card_daily", number=str(daily_number(day)), day=day, game=texts.game(game))}
