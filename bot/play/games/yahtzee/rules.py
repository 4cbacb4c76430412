"""The Yahtzee puzzle in a chat: 13 rolls dealt with what each scores, players guess the best
total, the optimal table revealed.

A guessing game that rewards solving, not listening: guesses are sealed. Each player has
GUESSES guesses a round, and the bot marks each one with the same reaction whatever its
distance, so the chat learns nothing that narrows the answer; an exact guess wins at once,
else the closest guess when the time is up wins if it is within 10 (ties: the earlier guess).
Only a number in the range the best total must lie in counts as a guess (`total_bounds`: both
ends come from what everyone sees, so they tell nothing either); chatter ("3") is ignored. The
optimal total is computed when the round is dealt (in the pool) and kept as the round's target,
so a guess is judged by comparing whole numbers. How many guesses a player has left is counted
from the stored answers, not here; the words (the deal's table, the optimal table revealed) are
bot.play.games.yahtzee.words.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Sequence
from functools import cache

from bot.play.rules.base import Rules
from bot.play.rules.batches import DEAL_SECONDS, Maker
from bot.play.rules.page import Form, Guess, Rolls
from bot.play.rules.page import Puzzle as PagePuzzle
from bot.play.rules.records import (
    IGNORED,
    Analysis,
    Deal,
    Near,
    PlayOptions,
    Puzzle,
    Right,
    Unreadable,
    Verdict,
)
from solver.digits import plain_digits
from solver.yahtzee import (
    BONUS,
    BONUS_THRESHOLD,
    CATEGORIES,
    ROLLS,
    UPPER,
    best_assignment,
    category_score,
)

NAME = "yahtzee"
POINTS = ((0, 20), (5, 10), (10, 5))  # (at most this far from the best total, points)
WITHIN = POINTS[-1][0]
GUESSES = 3  # per player and round
# The deal's table: chance, then the lower categories; ones .. sixes are the dice of one face.
COLUMNS = (("Σ", CATEGORIES.index("chance")), ("3K", CATEGORIES.index("three of a kind")),
           ("4K", CATEGORIES.index("four of a kind")), ("5K", CATEGORIES.index("five of a kind")),
           ("SS", CATEGORIES.index("short straight")), ("LS", CATEGORIES.index("long straight")),
           ("FH", CATEGORIES.index("full house")))
TOTAL = re.compile(r"^\s*([0-9]{1,5})\s*$")  # read after every script's digits are ASCII
DICE_TEXT = re.compile(r"[1-6]")


def points_for(distance: int) -> int:
    """20 for the best total itself, 10 within 5, 5 within 10, nothing further away."""
    return next((points for within, points in POINTS if distance <= within), 0)


def roll_all(seed: int) -> Deal:
    """13 random rolls of five dice, and the best total they can score."""
    rng = random.Random(seed)
    rolls = tuple(tuple(rng.randint(1, 6) for _ in range(5)) for _ in range(ROLLS))
    table = best_assignment(rolls)
    return Deal(NAME, rolls, table.total, "", POINTS[0][1], Analysis(table=table))


def analyse(rolls: tuple, target: int) -> Analysis:
    """The optimal table of the rolls (the target is its total)."""
    return Analysis(table=best_assignment(rolls))


def judge(text: str, best: int, bounds: tuple[int, int], explicit: bool) -> Verdict:
    """A guess of the best total: right, or how far off (kept for the end; the chat is told
    nothing). Only a number within `bounds` is a guess: a plain message that is not one is
    chatter, an explicit one is told the range."""
    found = TOTAL.match(plain_digits(text))
    if found is None:
        return Unreadable.of("not_total") if explicit else IGNORED
    total = int(found.group(1))
    low, high = bounds
    if not low <= total <= high:
        return Unreadable.of("total_range", {"low": low, "high": high, "total": total}) \
            if explicit else IGNORED
    distance = abs(total - best)
    return Right(value=str(total)) if distance == 0 else Near("", str(total), distance)


@cache
def most_any_rolls() -> int:
    """The most any 13 rolls can total: each category's best over every roll of five dice,
    and the bonus."""
    every = list(itertools.combinations_with_replacement(range(1, 7), 5))
    best = [max(category_score(roll, c) for roll in every) for c in range(ROLLS)]
    return sum(best) + (BONUS if sum(best[:UPPER]) >= BONUS_THRESHOLD else 0)


def total_bounds(rolls: Sequence[Sequence[int]]) -> tuple[int, int]:
    """Where the best total of these rolls lies, from what everyone sees: at least what the
    rolls score in the order dealt (roll 1 as ones, roll 2 as twos, ... roll 13 as full house),
    at most what any 13 rolls can score. Neither end says more about the answer than the table
    does, so a guess counting or not tells the chat nothing."""
    scores = [category_score(roll, category) for category, roll in enumerate(rolls)]
    upper = sum(scores[:UPPER])
    return sum(scores) + (BONUS if upper >= BONUS_THRESHOLD else 0), most_any_rolls()


def parse_dice(text: str) -> list[tuple[int, ...]] | None:
    """65 dice (digits 1..6, any separators, or 13 groups of five) as 13 rolls; None otherwise."""
    text = plain_digits(text)
    if re.search(r"[^1-6\s,;/|،]", text):
        return None
    dice = [int(d) for d in DICE_TEXT.findall(text)]
    if len(dice) != 5 * ROLLS:
        return None
    return [tuple(dice[i:i + 5]) for i in range(0, len(dice), 5)]


class Yahtzee(Rules):
    name = NAME
    closest_wins = True
    guesses = GUESSES

    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        return roll_all, ()

    def analyser(self) -> Callable[[tuple, int], Analysis]:
        return analyse

    def looks_like_answer(self, text: str) -> bool:
        return bool(TOTAL.match(text))

    def tries(self, text: str, puzzle: Puzzle) -> bool:
        return self.looks_like_answer(text)

    def judge(self, puzzle: Puzzle, text: str, explicit: bool) -> Verdict:
        return judge(text, puzzle.target, total_bounds(puzzle.hand), explicit)  # no solving

    def points_for(self, distance: int) -> int:
        return points_for(distance)

    def page(self, hand: tuple, target: int) -> tuple[PagePuzzle, Form]:
        """The 13 rolls with what each scores in chance and the lower categories, as the deal's
        table has them; the best total guessed, and sealed."""
        dice = tuple(tuple(sorted(roll)) for roll in hand)
        low, high = total_bounds(hand)
        return Rolls(tuple(head for head, _ in COLUMNS), dice,
                     tuple(tuple(category_score(roll, column) for _, column in COLUMNS)
                           for roll in dice)), Guess(low, high, GUESSES)

    def shows_best_on_win(self) -> bool:
        return True  # the optimal table: how the best total is made
