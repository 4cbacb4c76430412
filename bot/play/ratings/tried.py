"""The rounds a player tried lately (answered, or dealt and won by nobody), each with the themes
its hand needed and the odds the ratings gave the player on it: what a player's standing in each
theme is learned from (bot.play.ratings.themes), read for their page (bot.play.pages.themes)
and for /practice (bot.play.solo.practice), which deals their weakest.

It counts; it never works a theme out: the themes of each hand are written once, after the hand
is first rated (bot.play.dealing.themes), and read with the hands' difficulties in one lookup. A
hand whose themes are not yet written is left out.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from bot.play.games import GAMES
from bot.play.ratings.model import GAMES as RATED
from bot.play.ratings.model import scale_of
from bot.play.ratings.prior import hand_key
from bot.play.ratings.rater import fixed_difficulty
from bot.play.ratings.themes import ThemedRound, codes_of, standings
from bot.store.protocols import PageStore
from bot.store.sql.pages import TriedHand

TRIED = 100  # the latest rounds read: a walk backwards of the pages' key and of the dealt
MOST_NUMBERS = 4  # the hands whose themes are written (bot.play.dealing.themes)

Numbers = Callable[[str], "list[int] | None"]  # a stored hand's numbers (None: not numbers)
Shown = tuple[list[int], int, bool]  # a hand's numbers, target, whether the player solved it

# a stored hand as the store writes it, JSON's list of whole numbers: read without the JSON
# parser (a busy group's page reads two hundred)
WRITTEN = re.compile(r"\[(?:0|[1-9][0-9]*)(?:, (?:0|[1-9][0-9]*))*\]")


def numbers_of(hand: str) -> list[int] | None:
    """A stored hand's numbers (a JSON list), or None for a table of rolls."""
    if WRITTEN.fullmatch(hand):
        return list(map(int, hand[1:-1].split(", ")))
    if hand.startswith("[["):  # a table of rolls: a list of lists, not read
        return None
    try:
        found = json.loads(hand)
    except ValueError:
        return None
    if isinstance(found, list) and all(type(n) is int for n in found):
        return found
    return None


async def themed_rounds(store: PageStore, user_id: int, since: float,
                        ratings: dict[str, float]) -> list[tuple[ThemedRound, Shown]]:
    """The player's latest TRIED rounds since a moment whose hands' themes are written, latest
    first: each as the standings read it and as a hand to show. `ratings`: their rating in
    each game they are rated in (others: a new player's). Two reads, one after the other: the
    rounds, then their hands."""
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
        return []
    facts = await store.hand_facts(list(dict.fromkeys(key for _, _, key in hands)))
    found: list[tuple[ThemedRound, Shown]] = []
    for row, numbers, key in hands:
        known = facts.get(key)
        if known is None or known.themes is None:
            continue
        difficulty = known.difficulty if known.difficulty is not None else \
            fixed_difficulty(numbers, row.target, row.level)
        if difficulty is None:
            continue
        rating = ratings.get(row.game, scale_of(row.game).player_mean)
        found.append((ThemedRound(row.solved, rating - difficulty, codes_of(known.themes)),
                      (numbers, row.target, row.solved)))
    return found


async def weakest_theme(store: PageStore, user_id: int, since: float,
                        ratings: dict[str, float]) -> str | None:
    """The theme the player stands lowest in against what their rating predicts, among those
    of their latest rounds with a few rounds each (None: none has enough yet)."""
    found = standings([themed for themed, _ in await themed_rounds(store, user_id, since,
                                                                      ratings)])
    return found[0].code if found else None
