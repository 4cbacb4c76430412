"""The Yahtzee puzzle in a chat: 13 rolls dealt with what each scores, players guess the best
total, the optimal table revealed.

A guessing game people can play on a phone, and that no one wins by typing 101, 102, 103 ...:
the deal shows every roll's score in the categories that are not plain dice counts; each player
has GUESSES guesses a round and hears "higher" or "lower"; an exact guess wins at once, else the
closest guess when the time is up wins if it is within 10 (ties: the earlier guess). The optimal
total is computed when the round is dealt (in the pool) and kept as the round's target, so a
guess is judged by comparing whole numbers. How many guesses a player has left is counted from
the stored answers (bot.store.storage), not here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from bot.play.games.rules import DEAL_GRACE, DEAL_SECONDS, Deal, PlayOptions, Rules, Verdict
from bot.runtime.pool import SolverPool
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts
from solver.yahtzee import (
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
    return Deal(GAME, rolls, best_assignment(rolls).total, "", POINTS[0][1])


def judge(text: str, best: int, explicit: bool) -> Verdict:
    """A guess of the best total: right, or how far off (the reply says only higher or lower);
    plain messages count only if they are a number."""
    found = TOTAL.match(text)
    if found is None:
        return Verdict("unreadable", error="not_total") if explicit else Verdict("ignore")
    total = int(found.group(1))
    distance = abs(total - best)
    return Verdict("right" if distance == 0 else "close", value=str(total), distance=distance)


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

    async def deal(self, pool: SolverPool, seed: int, options: PlayOptions,
                   budget: float = DEAL_SECONDS) -> Deal | None:
        return await pool.run(roll_all, seed, timeout=budget + DEAL_GRACE)

    def looks_like_answer(self, text: str) -> bool:
        return bool(TOTAL.match(text))

    async def judge(self, pool: SolverPool, round_: Round, text: str,
                    explicit: bool) -> Verdict:
        return judge(text, round_.target, explicit)  # integers only: no solver work

    def points_for(self, distance: int) -> int:
        return points_for(distance)

    def puzzle_html(self, round_: Round) -> str:
        return markup.preformatted(score_table(round_.hand))

    def deal_text(self, round_: Round, texts: Texts) -> str:
        return texts("deal_yahtzee", rolls=self.puzzle_html(round_), guesses=GUESSES,
                     seconds=round(round_.deadline - round_.started_at), points=round_.points)

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        return texts("answer_how_yahtzee" if typing else "answer_how_yahtzee_no_typing")

    def verdict_text(self, verdict: Verdict, round_: Round, texts: Texts) -> str:
        if verdict.kind == "close":
            key = "yahtzee_higher" if int(verdict.value) < round_.target else "yahtzee_lower"
            return texts(key, total=verdict.value, left=verdict.params.get("left", 0))
        return super().verdict_text(verdict, round_, texts)

    async def reveal_text(self, pool: SolverPool, round_: Round, texts: Texts) -> str:
        result = await pool.run(best_assignment, round_.hand)
        return table_text(texts, result, round_.hand)

    async def win_details(self, pool: SolverPool, round_: Round, texts: Texts) -> str:
        return await self.reveal_text(pool, round_, texts)


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
