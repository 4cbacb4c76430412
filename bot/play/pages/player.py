"""A player's page: their year in a few sections, each a JSON object with a `kind` that the page
draws (bot/webapp/static/pages.js) — the rating day by day per game with the season's start,
rounds and wins per game, how often and how fast they solve at each level, the calendar of
days played with their streaks, and their records. A section more (achievements) is one more
object in the list."""

from __future__ import annotations

import asyncio
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from typing import Any, Generic, Protocol, TypeVar

from bot.play.community.standings import SHOWN_MEAN, SHOWN_PER_UNIT
from bot.play.games import GAMES
from bot.play.pages.days import DAY, day_of, days_back, streaks
from bot.play.pages.themes import Held, themes_section
from bot.play.ratings import hand_key
from bot.play.ratings.rater import fixed_difficulty
from bot.play.ratings.seasons import season_of
from bot.play.ratings.tried import numbers_of
from bot.store.protocols import PageStore
from bot.store.sql.pages import LEVELS, LevelYear, SolvedHand
from bot.text.i18n import Texts

YEAR = 365
RATED = tuple(name for name, game in GAMES.items() if game.rated)  # games with rating days
LEVEL_ORDER = {"easy": 0, "medium": 1, "hard": 2}  # 24's levels; other games' have one
HARDEST_OF = 20  # distinct hands of the highest level solved whose difficulty is compared
TOP_LEVEL = max(LEVEL_ORDER.values())
assert tuple(LEVEL_ORDER) == LEVELS  # the store groups the other levels as these do


def shown(rating: float) -> int:
    """A rating on the scale /top rating shows (1500 a new player)."""
    return round(SHOWN_MEAN + SHOWN_PER_UNIT * rating)


def season_start(now: float) -> str:
    """The first day of the season (a calendar month, UTC) `now` falls in."""
    return day_of(now)[:8] + "01"


def separator(texts: Texts) -> str:
    """Between two parts of a label: a middle dot, but where digits are Persian, whose zero is
    a dot too, a comma of the script."""
    return " · " if texts.script.digits == "0123456789" else "، "


def hand_text(texts: Texts, numbers: list[int], target: int) -> str:
    """A hand on the page: "1 2 8 45 → 24" in the language's digits, kept left to right in
    every language (the page isolates it), so its arrow is never mirrored."""
    return texts.script.number_digits(" ".join(map(str, numbers)) + f" → {target}")


def level_name(texts: Texts, game: str, level: str) -> str:
    """The game's name, and the level's where the game has levels."""
    if level in LEVEL_ORDER:
        return f"{texts.game(game)}{separator(texts)}{texts(f'level_{level}')}"
    return texts.game(game)


Solved = tuple[str, str, list[int], int]  # game, level, numbers, target
Seen = tuple[str, tuple[int, ...], int]  # a hand as hand_key tells them apart: game, hand


async def ranked(store: PageStore, solved: list[Solved], most: int) -> list[int]:
    """The hardest `most` distinct hands of those solved (latest first), as indices into
    `solved`: of the HARDEST_OF latest distinct hands of the highest levels reached, by level,
    then by the difficulty the ratings learned (else the model's prior for the hand)."""
    firsts: dict[Seen, int] = {}
    for index, (game, _, numbers, target) in enumerate(solved):
        firsts.setdefault((game, tuple(sorted(numbers)), target), index)
    chosen = sorted(firsts.values(), key=lambda index: -LEVEL_ORDER.get(solved[index][1], 0))
    # hand_key's text made for the chosen only (a busy group's page tells a hundred apart)
    keys = {index: (solved[index][0], hand_key(solved[index][2], solved[index][3]))
            for index in chosen[:HARDEST_OF]}
    learned = await store.hand_difficulties(list(keys.values()))

    def hardness(index: int) -> tuple[int, float]:
        _, level, numbers, target = solved[index]
        known = learned.get(keys[index])
        if known is None:
            known = fixed_difficulty(numbers, target, level)
        return LEVEL_ORDER.get(level, 0), known if known is not None else float("-inf")

    return sorted(keys, key=hardness, reverse=True)[:most]


async def player_page(store: PageStore, texts: Texts, user_id: int, name: str,
                      now: float, held: Held | None = None) -> dict[str, Any]:
    """The player's page: their last year, as sections, its reads asked side by side (on
    SQLite they share trips to the database's thread, on PostgreSQL they run on connections
    of their own)."""
    since_day = days_back(now, YEAR)
    since = now - YEAR * DAY
    days, totals, rounds, daily, levels, hands = await asyncio.gather(
        store.rating_days(user_id, since_day, RATED), store.game_totals(user_id),
        store.round_days(user_id, since), store.daily_days(user_id, since_day),
        store.levels(user_id, since), store.solved_hands(user_id, since))
    played = played_days(rounds, daily)
    now_run, longest = streaks(played, day_of(now))
    sections: list[dict[str, Any]] = [
        rating_section(texts, days, season_start(now), day_of(now)),
        {"kind": "games", "title": texts("webapp_games_title"),
         "legend": [texts("webapp_rounds"), texts("webapp_wins")],
         "games": [{"name": texts.game(t.game), "rounds": t.rounds, "wins": t.wins}
                   for t in totals if t.rounds]},
        levels_section(texts, levels),
        {"kind": "calendar", "title": texts("webapp_calendar_title"), "from": since_day,
         "to": day_of(now), "days": sorted(played.items()),
         "streaks": [texts("webapp_streak_now", days=now_run),
                     texts("webapp_streak_best", days=longest)]},
    ]
    # asked side by side once the ratings are read (at most six reads at once: PostgreSQL
    # gives each a connection of the pool's eight)
    records, themed = await asyncio.gather(
        records_section(store, texts, totals, hands, longest),
        themes_section(store, texts, user_id, since, latest_ratings(days), hand_text,
                       held))
    sections.append(records)
    if themed is not None:
        sections.insert(3, themed)  # beside the levels: how the player does by what hands need
    season = season_of(now)
    this_season = sorted({day.game for day in days if day.season == season})
    if this_season:  # a share card of each game the player is rated in this season
        sections.append({"kind": "share", "title": texts("daily_share_button"),
                         "games": [{"game": game, "name": texts.game(game)}
                                   for game in this_season]})
    return {"kind": "player", "title": texts("webapp_page_player", name=name),
            "sections": sections}


def latest_ratings(days: list) -> dict[str, float]:
    """Each game's latest rating among the player's rating days."""
    found: dict[str, tuple[str, float]] = {}
    for day in days:
        if day.game not in found or day.day >= found[day.game][0]:
            found[day.game] = (day.day, day.rating)
    return {game: rating for game, (_, rating) in found.items()}


def played_days(rounds: dict[int, int], daily: list[str]) -> Counter[str]:
    """Each day played and how often: the rounds answered (by the UTC day, a number, of their
    first answer) and the daily results."""
    found = Counter({day_of(number * DAY): count for number, count in rounds.items()})
    found.update(daily)
    return found


def rating_section(texts: Texts, days: list, season: str, today: str) -> dict[str, Any]:
    """The rating day by day, one line per game, on an axis that ends `today` (the page's
    day: a rating last written a week ago ends a week before the axis does)."""
    by_game: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for day in days:
        by_game[day.game].append((day.day, shown(day.rating)))
    return {"kind": "rating", "title": texts("webapp_rating_title"), "season_start": season,
            "season_word": texts("webapp_season_start"), "today": today,
            "lines": [{"name": texts.game(game), "points": points}
                      for game, points in by_game.items()]}


def levels_section(texts: Texts, levels: list[LevelYear]) -> dict[str, Any]:
    """Per game and level: rounds answered, the share solved (a number for the meter, and as
    the language writes a percentage: ٪ and Persian digits in Persian), the median seconds from
    the deal to a right answer. In a game where the closest answer may win a round, a round
    won need not be solved, so the share says "exact": beside "1 win in 1 round" on the games'
    bars, a bare "0 %" read as a contradiction."""
    rows = [{"name": level_name(texts, y.game, y.level), "rounds": y.rounds,
             "share": round(100 * y.solved / y.rounds),
             "share_text": share_text(texts, y),
             "median": texts.seconds(y.median) if y.median is not None else ""}
            for y in sorted(levels, key=lambda y: (y.game, LEVEL_ORDER.get(y.level, 0)))]
    return {"kind": "levels", "title": texts("webapp_levels_title"),
            "heads": [texts("webapp_rounds"), texts("webapp_accuracy"), texts("webapp_median")],
            "rows": rows}


def share_text(texts: Texts, year: LevelYear) -> str:
    """The share of a game's rounds at a level the player solved, as the language writes it."""
    share = texts.percent(round(100 * year.solved / year.rounds) / 100)
    game = GAMES.get(year.game)
    return texts("webapp_share_exact", share=share) if game and game.rules.closest_wins \
        else share


async def records_section(store: PageStore, texts: Texts, totals: list, hands:
                          list[SolvedHand], longest: int) -> dict[str, Any]:
    items = []
    for t in totals:
        if t.fastest is not None:
            items.append({"label": texts("webapp_fastest", game=texts.game(t.game)),
                          "value": texts.seconds(t.fastest)})
    for index in await ranked(store, solved := latest_solved(hands), 1):
        game, level, numbers, target = solved[index]
        items.append({"label": texts("webapp_hardest"), "hand": "value",
                      "value": hand_text(texts, numbers, target),
                      "detail": level_name(texts, game, level)})
    if longest:
        items.append({"label": texts("webapp_most_days"), "value": texts.number(longest)})
    for t in totals:
        if t.best_run > 1:
            items.append({"label": texts("webapp_most_wins_run", game=texts.game(t.game)),
                          "value": texts.number(t.best_run)})
    return {"kind": "records", "title": texts("webapp_records_title"), "items": items}


def latest_solved(hands: list[SolvedHand]) -> list[Solved]:
    """The hands solved, latest first, as `ranked` chooses among them, but what cannot change
    its choice left out (a heavy player's year holds hundreds): each stored hand once, at its
    latest solve (ranked keeps a hand's latest alone), up to the HARDEST_OF-th distinct hand
    at the highest level (`until_hardest_of`)."""
    seen: set[tuple[str, str, int]] = set()

    def fresh() -> Iterator[SolvedHand]:
        for r in sorted(hands, key=lambda r: -r.at):
            if (r.game, r.hand, r.target) not in seen:
                seen.add((r.game, r.hand, r.target))
                yield r

    return [(r.game, r.level, numbers, r.target) for r, numbers in until_hardest_of(fresh())]


class Played(Protocol):
    """A stored hand solved: a player's (SolvedHand) or a group's (WonRound)."""

    @property
    def game(self) -> str: ...
    @property
    def level(self) -> str: ...
    @property
    def hand(self) -> str: ...
    @property
    def target(self) -> int: ...


P = TypeVar("P", bound=Played)


def until_hardest_of(rows: Iterable[P]) -> list[tuple[P, list[int]]]:
    """Each row, latest first, with its hand's numbers (a table of rolls left out), up to the
    one that brings the HARDEST_OF-th distinct hand at the highest level (`HardestOf`)."""
    return HardestOf[P]().take(rows)


class HardestOf(Generic[P]):
    """Rows read latest first, kept up to the one that brings the HARDEST_OF-th distinct hand
    at the highest level: `ranked` chooses the latest HARDEST_OF there first, so nothing older
    can change its choice, and a busy group's or player's older hands need not be read. Fed
    a part at a time, it says when it has seen enough (`done`). Rows read `by_level` (the
    highest level first, then the latest) are enough at the HARDEST_OF-th distinct hand of
    any level: `ranked` compares those, each at the highest level it was solved at."""

    def __init__(self, by_level: bool = False) -> None:
        self.top: set[Seen] = set()  # distinct hands last solved at the top level
        self.keys: set[Seen] = set()
        self.by_level = by_level
        self.done = False

    def take(self, rows: Iterable[P]) -> list[tuple[P, list[int]]]:
        kept: list[tuple[P, list[int]]] = []
        for r in rows:
            if self.done:
                break
            if not (numbers := numbers_of(r.hand)):
                continue
            kept.append((r, numbers))
            # not made into hand_key's text: a busy group's page tells two hundred apart
            key = (r.game, tuple(sorted(numbers)), r.target)
            if key not in self.keys:
                self.keys.add(key)
                if self.by_level:
                    self.done = len(self.keys) == HARDEST_OF
                elif LEVEL_ORDER.get(r.level, 0) == TOP_LEVEL:
                    self.top.add(key)
                    self.done = len(self.top) == HARDEST_OF
        return kept
