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

from bot.play.games import GAMES
from bot.play.ratings import GAMES as RATED
from bot.play.ratings import hand_key
from bot.play.ratings.model import scale_of
from bot.play.ratings.rater import fixed_difficulty
from bot.play.ratings.themes import Standing, ThemedRound, codes_of, standings
from bot.play.words.themes import KEYS
from bot.store.protocols import PageStore
from bot.store.sql.pages import TriedHand
from bot.text.i18n import Texts

TRIED = 100  # the latest rounds read: a walk backwards of the pages' key and of the dealt
MOST_NUMBERS = 4  # the hands whose themes are written (bot.play.dealing.themes)
EVEN = 0.25  # a standing within this of 0 (log-odds) is as the ratings expect

Numbers = Callable[[str], "list[int] | None"]  # a stored hand's numbers (None: not numbers)
Held = Callable[[Sequence[int], int], Awaitable[bool]]  # whether a hand is live now, anywhere
Shown = tuple[list[int], int, bool]  # a hand's numbers, target, whether the player solved it


async def themes_section(store: PageStore, texts: Texts, user_id: int, since: float,
                         ratings: dict[str, float], numbers_of: Numbers,
                         hand_text: Callable[[Texts, list[int], int], str],
                         held: Held | None = None) -> dict[str, Any] | None:
    """The page's section (None: fewer than a few rounds of any theme among the player's latest
    TRIED since a moment). `ratings`: their rating in each game they are rated in (others: a
    new player's). Two reads, one after the other: the rounds, then their hands. A row's hand
    is left out while a round of it is live anywhere (`held`): beside its theme it is a hint,
    and a tournament's other groups, another chat or the daily may be playing it."""
    tried = await store.tried_hands(user_id, since, TRIED)
    hands: list[tuple[TriedHand, list[int], tuple[str, str]]] = []
    for row in tried:
        game = GAMES.get(row.game)
        numbers = numbers_of(row.hand)
        if game is None or not game.rules.coaches or row.game not in RATED or \
                numbers is None or not 1 <= len(numbers) <= MOST_NUMBERS:
            continue
        hands.append((row, numbers, (row.game, hand_key(numbers, row.target))))
    if not hands:
        return None
    facts = await store.hand_facts(list(dict.fromkeys(key for _, _, key in hands)))
    rounds: list[ThemedRound] = []
    shown: list[tuple[tuple[str, ...], Shown]] = []
    for row, numbers, key in hands:
        known = facts.get(key)
        if known is None or known.themes is None:
            continue
        difficulty = known.difficulty if known.difficulty is not None else \
            fixed_difficulty(numbers, row.target, row.level)
        if difficulty is None:
            continue
        rating = ratings.get(row.game, scale_of(row.game).player_mean)
        codes = codes_of(known.themes)
        rounds.append(ThemedRound(row.solved, rating - difficulty, codes))
        shown.append((codes, (numbers, row.target, row.solved)))
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


def theme_name(texts: Texts, code: str, targets: set[int]) -> str:
    """A theme's words on the page: a product last without its pairs (they differ from hand to
    hand), a step past the target named where every round of it had one target."""
    if code == "factor_pair":
        return texts("webapp_theme_factor_pair")
    if code == "beyond" and len(targets) != 1:
        return texts("webapp_theme_beyond")
    return texts(KEYS[code], target=next(iter(targets), 0))
