"""A player's themes on their page (docs/themes.md, "A player's themes"): of the latest rounds
they tried (answered, or dealt and won by nobody), each theme their hands needed with the
player's standing in it (learned beside their rating: bot.play.ratings.themes), the weakest
first, with the latest hand that showed it.

The page counts; it never works a theme out: the themes of each hand are written once, after the
hand is first rated (bot.play.dealing.themes), and read here with the hands' difficulties in the
same lookup. A hand whose themes are not yet written is left out.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot.play.ratings.themes import Standing, standings
from bot.play.ratings.tried import Shown, themed_rounds
from bot.play.words.themes import KEYS, theme_name
from bot.store.protocols import PageStore
from bot.text.i18n import Texts

EVEN = 0.25  # a standing within this of 0 (log-odds) is as the ratings expect

Held = Callable[[Sequence[int], int], Awaitable[bool]]  # whether a hand is live now, anywhere


async def themes_section(store: PageStore, texts: Texts, user_id: int, since: float,
                         ratings: dict[str, float],
                         hand_text: Callable[[Texts, list[int], int], str],
                         held: Held | None = None) -> dict[str, Any] | None:
    """The page's section (None: fewer than a few rounds of any theme among the player's latest
    TRIED since a moment). `ratings`: their rating in each game they are rated in (others: a
    new player's). Two reads, one after the other: the rounds, then their hands. A row's hand
    is left out while a round of it is live anywhere (`held`): beside its theme it is a hint,
    and a tournament's other groups, another chat or the daily may be playing it."""
    themed = await themed_rounds(store, user_id, since, ratings)
    rounds = [round_ for round_, _ in themed]
    shown = [(round_.codes, hand) for round_, hand in themed]
    found = standings(rounds)
    if not found:
        return None
    targets = {code: {target for codes, (_, target, _) in shown if code in codes}
               for code in KEYS}
    rows = []
    for standing in found:
        hand = showing(standing, shown)
        if hand is not None and held is not None and await held(hand[0], hand[1]):
            hand = None
        rows.append({
            "name": theme_name(texts, standing.code, targets[standing.code]),
            "rounds": standing.rounds,
            "share": round(100 * standing.solved / standing.rounds),
            "share_text": texts.percent(round(100 * standing.solved / standing.rounds) / 100),
            "expected": texts.percent(round(100 * standing.expected / standing.rounds) / 100),
            "standing": round(standing.offset, 2),
            "kind": "weak" if standing.offset <= -EVEN else
                    "strong" if standing.offset >= EVEN else "even",
            "hand": hand_text(texts, hand[0], hand[1]) if hand else ""})
    return {"kind": "themes", "title": texts("webapp_themes_title"),
            "heads": [texts("webapp_rounds"), texts("webapp_accuracy"),
                      texts("webapp_expected"), texts("webapp_theme_hand")],
            "rows": rows}


def showing(standing: Standing, shown: list[tuple[tuple[str, ...], Shown]]) -> Shown | None:
    """The latest hand of the theme that shows the standing: one missed where the player stands
    below what the ratings expect, one solved where above (or as expected)."""
    missed = standing.offset < 0
    return next((hand for codes, hand in shown
                 if standing.code in codes and hand[2] is not missed), None)
