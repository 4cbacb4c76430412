"""The Yahtzee puzzle in a chat: 13 rolls dealt, players answer the best total, the table revealed.

The optimal total is computed when the round is dealt (in the pool) and kept as the round's
target, so judging an answer is a comparison of whole numbers.
"""

from __future__ import annotations

import random
import re

from bot import markup
from bot.games.rules import DEAL_GRACE, DEAL_SECONDS, Deal, PlayOptions, Rules, Verdict
from bot.i18n import Texts
from bot.pool import SolverPool
from bot.storage import Round
from solver.yahtzee import CATEGORIES, ROLLS, UPPER, YahtzeeResult, best_assignment

GAME = "yahtzee"
POINTS = 20
TOTAL = re.compile(r"^\s*(\d{1,5})\s*$")
DICE_TEXT = re.compile(r"[1-6]")
CATEGORY_KEYS = tuple("yz_" + name.replace(" ", "_") for name in CATEGORIES)


def roll_all(seed: int) -> Deal:
    """13 random rolls of five dice, and the best total they can score."""
    rng = random.Random(seed)
    rolls = tuple(tuple(rng.randint(1, 6) for _ in range(5)) for _ in range(ROLLS))
    return Deal(GAME, rolls, best_assignment(rolls).total, "", POINTS)


def judge(text: str, best: int, explicit: bool) -> Verdict:
    """A total is right when it is the best one; plain messages count only if they are a number."""
    found = TOTAL.match(text)
    if found is None:
        return Verdict("unreadable", error="not_total") if explicit else Verdict("ignore")
    total = int(found.group(1))
    return Verdict("right" if total == best else "wrong_total", value=str(total))


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

    async def deal(self, pool: SolverPool, seed: int, options: PlayOptions,
                   budget: float = DEAL_SECONDS) -> Deal | None:
        return await pool.run(roll_all, seed, timeout=budget + DEAL_GRACE)

    def looks_like_answer(self, text: str) -> bool:
        return bool(TOTAL.match(text))

    async def judge(self, pool: SolverPool, round_: Round, text: str,
                    explicit: bool) -> Verdict:
        return judge(text, round_.target, explicit)  # integers only: no solver work

    def puzzle_html(self, round_: Round) -> str:
        return "\n".join(f"{i}. {markup.dice(roll)}" for i, roll in enumerate(round_.hand, 1))

    def deal_text(self, round_: Round, texts: Texts) -> str:
        return texts("deal_yahtzee", rolls=self.puzzle_html(round_),
                     seconds=round(round_.deadline - round_.started_at), points=round_.points)

    def verdict_text(self, verdict: Verdict, round_: Round, texts: Texts) -> str:
        if verdict.kind == "wrong_total":
            return texts("yahtzee_wrong", total=verdict.value)
        return super().verdict_text(verdict, round_, texts)

    async def reveal_text(self, pool: SolverPool, round_: Round, texts: Texts) -> str:
        result = await pool.run(best_assignment, round_.hand)
        return table_text(texts, result)

    async def win_details(self, pool: SolverPool, round_: Round, texts: Texts) -> str:
        return await self.reveal_text(pool, round_, texts)


def table_text(texts: Texts, result: YahtzeeResult) -> str:
    """The optimal scoring as a fixed-width table: roll, score, category; bonus and total."""
    lines = [f"{' '.join(map(str, roll))}  {score:>3}  {texts(key)}"
             for roll, score, key in zip(result.rolls, result.scores, CATEGORY_KEYS, strict=True)]
    upper = sum(result.scores[:UPPER])
    lines.append(f"{'':9}  {result.bonus:>3}  {texts('yz_bonus', upper=upper)}")
    lines.append(f"{'':9}  {result.total:>3}  {texts('yz_total')}")
    return texts("yahtzee_best", total=result.total) + "\n" + markup.preformatted(lines)
