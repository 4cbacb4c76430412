"""The words of Countdown: its deal, a valid answer's distance and points, and the best the hand
can do (a round's end, and /countdown with the numbers given)."""

from __future__ import annotations

from bot.play.asking.requests import SolveRequest
from bot.play.games.countdown.rules import NAME, WITHIN, points_for
from bot.play.rules.records import Analysis, Near, Verdict
from bot.play.words.game import GameWords, Revealed
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts


class CountdownWords(GameWords):
    name = NAME

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        return texts("answer_how_countdown" if typing else "answer_how_countdown_no_typing")

    def answer_example(self, round_: Round, command: str = "/a") -> str:
        """Two of the tiles added (three where two make the target): an answer that reads,
        with whole steps, and is not exact."""
        first, second, *rest = round_.hand
        if first + second == round_.target and rest:
            return f"{command} {first}+{second}+{rest[0]}"
        return f"{command} {first}+{second}"

    def deal_text(self, round_: Round, texts: Texts) -> str:
        return texts("deal_countdown", numbers=markup.numbers(round_.hand), target=round_.target,
                     seconds=round(round_.deadline - round_.started_at))

    def verdict_text(self, verdict: Verdict, round_: Round, texts: Texts,
                     left: int | None = None) -> str:
        if isinstance(verdict, Near):
            key = "countdown_close" if verdict.distance <= WITHIN else "countdown_far"
            return texts(key, expression=markup.code(verdict.expression), value=verdict.value,
                         distance=verdict.distance, points=points_for(verdict.distance))
        return super().verdict_text(verdict, round_, texts, left)

    def revealed(self, analysis: Analysis, round_: Round, texts: Texts) -> Revealed:
        assert analysis.best is not None
        nearest, expression = analysis.best
        return Revealed(best_text(texts, round_.hand, round_.target, nearest, expression))


def given_text(texts: Texts, request: SolveRequest, found: tuple[int, str]) -> str:
    """/countdown with a puzzle (or /solve --closest): the nearest value and how."""
    return best_text(texts, request.numbers, request.target, *found)


def best_text(texts: Texts, hand: tuple[int, ...] | list[int], target: int, nearest: int,
              expression: str) -> str:
    """The best a hand can do for a target, with one expression for it."""
    if nearest == target:
        return texts("countdown_best_exact", numbers=markup.numbers(hand), target=target,
                     expression=markup.code(expression))
    return texts("countdown_best", numbers=markup.numbers(hand), target=target, best=nearest,
                 distance=abs(nearest - target), expression=markup.code(expression))
