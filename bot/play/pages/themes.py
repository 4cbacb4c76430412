"""A player's themes on their page (docs/themes.md, "A player's themes"): of the latest rounds they
answered, grouped by what every solution of each hand needed, how many they solved, weakest
first, with the latest hand of each theme they missed. Worked out from the rounds themselves
when the page is asked (the answers it reads are erased by /forget like the rest), so nothing
is written on a round's path."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.play.games import GAMES
from bot.play.words.themes import KEYS
from bot.store.sql.pages import TriedHand
from bot.text.i18n import Texts
from solver.errors import SolverError
from solver.themes import Themes, themes

TRIED = 40  # the latest rounds read: each hand's themes cost about a millisecond to work out
MOST_NUMBERS = 4  # hands of five take ten times as long (docs/themes.md, "Cost")


@dataclass
class Standing:
    """One theme's rounds: how many, how many solved, the latest missed hand."""

    rounds: int = 0
    solved: int = 0
    missed: tuple[list[int], int] | None = None
    pairs: set[tuple[int, int]] = field(default_factory=set)


Numbers = Callable[[str], "list[int] | None"]  # a stored hand's numbers (None: not numbers)


def standings(tried: list[TriedHand], numbers_of: Numbers) -> dict[tuple[str, int], Standing]:
    """Each theme (and the target it is about) of the hands in `tried`, latest first."""
    found: dict[tuple[str, int], Standing] = {}
    for row in tried:
        game = GAMES.get(row.game)
        numbers = numbers_of(row.hand)
        if game is None or not game.rules.coaches or numbers is None or \
                not 1 <= len(numbers) <= MOST_NUMBERS:
            continue
        needed = themes_or_none(numbers, row.target)
        if needed is None:
            continue
        for code in needed.codes:
            standing = found.setdefault((code, row.target), Standing())
            standing.rounds += 1
            standing.solved += row.solved
            standing.pairs.update(needed.factor_pairs)
            if not row.solved and standing.missed is None:
                standing.missed = (numbers, row.target)
    return found


def themes_or_none(numbers: list[int], target: int) -> Themes | None:
    try:
        return themes(numbers, target)
    except SolverError:  # a stored hand no longer solvable as the rules read it now
        return None


def themes_section(texts: Texts, tried: list[TriedHand], numbers_of: Numbers,
                   hand_text: Callable[[Texts, list[int], int], str]) -> dict[str, Any] | None:
    """The page's section: a row a theme, the weakest first (None: no round of a hand with a
    theme among the latest)."""
    found = standings(tried, numbers_of)
    if not found:
        return None
    rows = []
    for (code, target), standing in sorted(
            found.items(), key=lambda item: (item[1].solved / item[1].rounds, -item[1].rounds)):
        share = round(100 * standing.solved / standing.rounds)
        name = texts(KEYS[code], pairs=[f"{a}×{b}" for a, b in sorted(standing.pairs)]) \
            if code == "factor_pair" else texts(KEYS[code], target=target)
        rows.append({"name": name, "rounds": standing.rounds, "share": share,
                     "share_text": texts.percent(share / 100),
                     "median": hand_text(texts, *standing.missed) if standing.missed else ""})
    return {"kind": "themes", "title": texts("webapp_themes_title"),
            "heads": [texts("webapp_rounds"), texts("webapp_accuracy"),
                      texts("webapp_missed_lately")],
            "rows": rows}
