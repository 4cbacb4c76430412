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
from the stored answers, not here.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Sequence
from functools import cache

from bot.play.games.batches import DEAL_SECONDS, Maker
from bot.play.games.records import Analysis, Deal, PlayOptions, Revealed, Verdict
from bot.play.games.rules import Rules
from bot.runtime.pool import SolverPool
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts
from solver.yahtzee import (
    BONUS,
    BONUS_THRESHOLD,
    CATEGORIES,
    ROLLS,
    UPPER,
    YahtzeeResult,
    best_assignment,
    category_score,
)

GAME = "yahtzee"
POINTS = ((0, 20), (5, 10), (10, 5))  # (at most this far from the best total, points)
WITHIN = POINTS[-1][0]
GUESSES = 3  # per player and round
GUESS_REACTION = "✍"  # the same mark on every guess that counts: noted, nothing more
TOTAL = re.compile(r"^\s*(\d{1,5})\s*$")
DICE_TEXT = re.compile(r"[1-6]")
CATEGORY_KEYS = tuple("yz_" + name.replace(" ", "_") for name in CATEGORIES)
# The deal's table: chance, then the lower categories; ones .. sixes are the dice of one face.
COLUMNS = (("Σ", CATEGORIES.index("chance")), ("3K", CATEGORIES.index("three of a kind")),
           ("4K", CATEGORIES.index("four of a kind")), ("5K", CATEGORIES.index("five of a kind")),
           ("SS", CATEGORIES.index("short straight")), ("LS", CATEGORIES.index("long straight")),
           ("FH", CATEGORIES.index("full house")))


def points_for(distance: int) -> int:
    """20 for the best total itself, 10 within 5, 5 within 10, nothing further away."""
    return next((points for within, points in POINTS if distance <= within), 0)


def roll_all(seed: int) -> Deal:
    """13 random rolls of five dice, and the best total they can score."""
    rng = random.Random(seed)
    rolls = tuple(tuple(rng.randint(1, 6) for _ in range(5)) for _ in range(ROLLS))
    table = best_assignment(rolls)
    return Deal(GAME, rolls, table.total, "", POINTS[0][1], Analysis(table=table))


def analyse(rolls: tuple, target: int) -> Analysis:
    """The optimal table of the rolls (the target is its total)."""
    return Analysis(table=best_assignment(rolls))


def judge(text: str, best: int, bounds: tuple[int, int], explicit: bool) -> Verdict:
    """A guess of the best total: right, or how far off (kept for the end; the chat is told
    nothing). Only a number within `bounds` is a guess: a plain message that is not one is
    chatter, an explicit one is told the range."""
    found = TOTAL.match(text)
    if found is None:
        return Verdict("unreadable", error="not_total") if explicit else Verdict("ignore")
    total = int(found.group(1))
    low, high = bounds
    if not low <= total <= high:
        return Verdict("unreadable", error="total_range",
                       params={"low": low, "high": high, "total": total}) \
            if explicit else Verdict("ignore")
    distance = abs(total - best)
    return Verdict("right" if distance == 0 else "close", value=str(total), distance=distance)


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


def score_table(rolls: tuple[tuple[int, ...], ...]) -> list[str]:
    """Each roll (its dice sorted) with what it scores in chance and the lower categories, as
    fixed-width lines about 30 characters wide (a phone's width); "·" for nothing."""
    lines = [f"{'#':>2} {'':5} " + " ".join(f"{head:>2}" for head, _ in COLUMNS)]
    for number, roll in enumerate(rolls, 1):
        scores = (category_score(roll, column) for _, column in COLUMNS)
        lines.append(f"{number:>2} {''.join(map(str, sorted(roll)))} "
                     + " ".join(f"{score:>2}" if score else " ·" for score in scores))
    return lines


def parse_dice(text: str) -> list[tuple[int, ...]] | None:
    """65 dice (digits 1..6, any separators, or 13 groups of five) as 13 rolls; None otherwise."""
    if re.search(r"[^1-6\s,;/|]", text):
        return None
    dice = [int(d) for d in DICE_TEXT.findall(text)]
    if len(dice) != 5 * ROLLS:
        return None
    return [tuple(dice[i:i + 5]) for i in range(0, len(dice), 5)]


class Yahtzee(Rules):
    name = GAME
    closest_wins = True
    guesses = GUESSES

    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        return roll_all, ()

    def analyser(self) -> Callable[[tuple, int], Analysis]:
        return analyse

    def looks_like_answer(self, text: str) -> bool:
        return bool(TOTAL.match(text))

    def tries(self, text: str, round_: Round) -> bool:
        return self.looks_like_answer(text)

    def judge(self, round_: Round, text: str, explicit: bool) -> Verdict:
        return judge(text, round_.target, total_bounds(round_.hand), explicit)  # no solving

    def points_for(self, distance: int) -> int:
        return points_for(distance)

    def puzzle_html(self, round_: Round) -> str:
        return markup.preformatted(score_table(round_.hand))

    def deal_text(self, round_: Round, texts: Texts) -> str:
        low, high = total_bounds(round_.hand)
        return texts("deal_yahtzee", rolls=self.puzzle_html(round_), guesses=GUESSES,
                     seconds=round(round_.deadline - round_.started_at), points=round_.points,
                     low=low, high=high)

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        return texts("answer_how_yahtzee" if typing else "answer_how_yahtzee_no_typing")

    def verdict_text(self, verdict: Verdict, round_: Round, texts: Texts) -> str:
        if verdict.kind == "close":  # said only where reactions are off: the same for all
            return texts("yahtzee_noted", total=verdict.value,
                         left=verdict.params.get("left", 0))
        if verdict.error == "total_range":  # read fine: only no best total can be that
            return texts("yahtzee_out_of_range", **verdict.params)
        return super().verdict_text(verdict, round_, texts)

    def revealed(self, analysis: Analysis, round_: Round, texts: Texts) -> Revealed:
        assert analysis.table is not None
        return Revealed(table_text(texts, analysis.table, round_.hand))

    async def win_details(self, pool: SolverPool, round_: Round, texts: Texts) -> str:
        return (await self.reveal(pool, round_, texts)).text


def roll_numbers(placed: Sequence[Sequence[int]], dealt: Sequence[Sequence[int]]) -> list[int]:
    """Where each placed roll stands in the deal (1-based); equal rolls take distinct numbers."""
    free = list(range(len(dealt)))
    numbers = []
    for roll in placed:
        index = next((i for i in free if tuple(dealt[i]) == tuple(roll)), None)
        if index is None:  # a roll not in the deal: the table is shown without its number
            numbers.append(0)
            continue
        free.remove(index)
        numbers.append(index + 1)
    return numbers


def table_text(texts: Texts, result: YahtzeeResult, rolls: Sequence[Sequence[int]]) -> str:
    """The optimal scoring as a fixed-width table: the roll's number in the deal and its dice
    (sorted, as the deal shows them), score, category; bonus and total."""
    numbers = roll_numbers(result.rolls, rolls)
    lines = [f"{number:>2} {''.join(map(str, sorted(roll)))}  {score:>3}  {texts(key)}"
             for number, roll, score, key in zip(numbers, result.rolls, result.scores,
                                                 CATEGORY_KEYS, strict=True)]
    upper = sum(result.scores[:UPPER])
    lines.append(f"{'':8}  {result.bonus:>3}  {texts('yz_bonus', upper=upper)}")
    lines.append(f"{'':8}  {result.total:>3}  {texts('yz_total')}")
    return texts("yahtzee_best", total=result.total) + "\n" + markup.preformatted(lines)
