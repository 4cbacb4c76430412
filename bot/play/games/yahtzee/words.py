"""The words of the Yahtzee puzzle: the deal's table of rolls and what each scores, the sealed
guess's mark, and the optimal table (a round's end, a win, /yahtzee with the dice given)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.play.asking.requests import DiceRequest
from bot.play.games.yahtzee.rules import (
    COLUMNS,
    GUESSES,
    NAME,
    POINTS,
    most_any_rolls,
    total_bounds,
)
from bot.play.rules.records import Analysis, Near, Unreadable, Verdict
from bot.play.words.game import SEALED, GameWords, Revealed
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts
from solver.yahtzee import CATEGORIES, UPPER, YahtzeeResult, category_score

GUESS_REACTION = SEALED  # the same mark on every guess that counts: noted, nothing more
CATEGORY_KEYS = tuple("yz_" + name.replace(" ", "_") for name in CATEGORIES)


class YahtzeeWords(GameWords):
    name = NAME

    def puzzle_html(self, round_: Round) -> str:
        return markup.preformatted(score_table(round_.hand))

    def deal_text(self, round_: Round, texts: Texts) -> str:
        low, high = total_bounds(round_.hand)
        return texts("deal_yahtzee", rolls=self.puzzle_html(round_), guesses=GUESSES,
                     seconds=round(round_.deadline - round_.started_at), points=round_.points,
                     low=low, high=high)

    def help_text(self, texts: Texts, seconds: float) -> str:
        return texts("help_yahtzee", guesses=GUESSES, seconds=seconds,
                     exact=POINTS[0][1], near=POINTS[1][1], near_within=POINTS[1][0],
                     far=POINTS[2][1], far_within=POINTS[2][0], most=most_any_rolls())

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        return texts("answer_how_yahtzee" if typing else "answer_how_yahtzee_no_typing")

    def verdict_text(self, verdict: Verdict, round_: Round, texts: Texts,
                     left: int | None = None) -> str:
        if isinstance(verdict, Near):  # said only where reactions are off: the same for all
            return texts("yahtzee_noted", total=verdict.value, left=left or 0)
        if isinstance(verdict, Unreadable) and verdict.error == "total_range":
            return self.refused(texts("yahtzee_out_of_range", total=verdict.params["total"]),
                                round_, texts)  # read fine: no total can be
        return super().verdict_text(verdict, round_, texts, left)

    def answer_rules(self, round_: Round, texts: Texts) -> str:
        low, high = total_bounds(round_.hand)
        return texts("answer_rules_yahtzee", low=low, high=high)

    def answer_example(self, round_: Round, command: str = "/a") -> str:
        """A guess in the range the deal states: its top, which no dealt rolls reach but the
        best of all (and then the one below it), so the example is never the answer."""
        low, high = total_bounds(round_.hand)
        guess = high if high != round_.target else max(low, high - 1)
        return f"{command} {guess}"

    def revealed(self, analysis: Analysis, round_: Round, texts: Texts) -> Revealed:
        assert isinstance(analysis.table, YahtzeeResult)
        return Revealed(table_text(texts, analysis.table, round_.hand))

    def win_details(self, analysis: Analysis, round_: Round, texts: Texts) -> str:
        return self.revealed(analysis, round_, texts).text


def score_table(rolls: tuple[tuple[int, ...], ...]) -> list[str]:
    """Each roll (its dice sorted) with what it scores in chance and the lower categories, as
    fixed-width lines about 30 characters wide (a phone's width); "·" for nothing."""
    lines = [f"{'#':>2} {'':5} " + " ".join(f"{head:>2}" for head, _ in COLUMNS)]
    for number, roll in enumerate(rolls, 1):
        scores = (category_score(roll, column) for _, column in COLUMNS)
        lines.append(f"{number:>2} {''.join(map(str, sorted(roll)))} "
                     + " ".join(f"{score:>2}" if score else " ·" for score in scores))
    return lines


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


def given_text(texts: Texts, request: DiceRequest, found: YahtzeeResult) -> str:
    """/yahtzee with 65 dice: their optimal scoring."""
    return table_text(texts, found, request.rolls)


def table_text(texts: Texts, result: YahtzeeResult, rolls: Sequence[Sequence[int]]) -> str:
    """The optimal scoring as a fixed-width table: the roll's number in the deal and its dice
    (sorted, as the deal shows them), score, category; bonus and total. Its figures in the
    language's digits, as its words' (a digit for a digit: the columns stay aligned)."""
    digits = texts.script.number_digits
    numbers = roll_numbers(result.rolls, rolls)
    lines = [digits(f"{number:>2} {''.join(map(str, sorted(roll)))}  {score:>3}  ") + texts(key)
             for number, roll, score, key in zip(numbers, result.rolls, result.scores,
                                                 CATEGORY_KEYS, strict=True)]
    upper = sum(result.scores[:UPPER])
    lines.append(digits(f"{'':8}  {result.bonus:>3}  ") + texts("yz_bonus", upper=upper))
    lines.append(digits(f"{'':8}  {result.total:>3}  ") + texts("yz_total"))
    return texts("yahtzee_best", total=result.total) + "\n" + markup.preformatted(lines)
