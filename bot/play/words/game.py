"""The words of a game: what its deal, its verdicts, its end and its win say, from the catalogs.
A subclass per game (bot.play.games.<game>.words), beside the game's rules
(bot.play.games), which decide and never word."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

from bot.play.rules.records import (
    Analysis,
    BadStep,
    DivisionByZero,
    Near,
    Unreadable,
    Verdict,
    Wrong,
    WrongNumbers,
    WrongValue,
)
from bot.play.words.numbers import numbers_text, numbers_why
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts

SEALED = "✍"  # the same mark on every sealed guess that counts: noted, nothing more


@dataclass(frozen=True)
class Revealed:
    """A puzzle's answers at a round's end: the text, and whether it lists every solution (a
    result that does not offers to page through them all)."""

    text: str
    complete: bool = True


class GameWords(ABC):
    """One game's words, as the round service needs them (each game says its deal and its
    answers; the rest has a common wording)."""

    name: ClassVar[str]

    @abstractmethod
    def deal_text(self, round_: Round, texts: Texts) -> str:
        """The message that opens the round: the puzzle first, then the rules of the round."""

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        """The deal's last line: how to answer, where the game does not say it in its deal text
        (`typing`: the bot sees plain messages here, so typing the answer works)."""
        return ""

    @abstractmethod
    def revealed(self, analysis: Analysis, round_: Round, texts: Texts) -> Revealed:
        """The puzzle's answers, for the end of a round."""

    def win_details(self, analysis: Analysis, round_: Round, texts: Texts) -> str:
        """What to show under a winning answer (nothing, unless the game has more to tell)."""
        return ""

    def help_text(self, texts: Texts, seconds: float) -> str:
        """How the game scores, for `/help` and one of the game's help topics (`seconds`: this
        chat's round length); a game without topics of its own is told in the common help."""
        return ""

    def still_open_text(self, round_: Round, texts: Texts, left: str) -> str:
        """A /play while a round is on: that round, and the time it has left (worded)."""
        return texts("still_open", game=texts.game(self.name), puzzle=self.puzzle_html(round_),
                     left=left)

    def puzzle_html(self, round_: Round) -> str:
        return f"{markup.numbers(round_.hand)} → <b>{markup.signed(round_.target)}</b>"

    def goal_html(self, round_: Round, texts: Texts) -> str:
        """The game and what the round asked for, to say which round ended ("make 36")."""
        return texts(f"goal_{self.name}", target=round_.target)

    def why_text(self, verdict: Verdict, round_: Round, texts: Texts) -> str:
        """Why an answer does not win, in a few words for the deal's status ("skips 13",
        "uses 8 twice", "= 22, not 24", "illegal: 7−9 is negative", "23 away")."""
        if isinstance(verdict, Near):
            return texts("why_away", value=verdict.value, distance=verdict.distance)
        if not isinstance(verdict, Wrong):
            return texts("why_wrong")
        reason = verdict.reason
        if isinstance(reason, WrongValue):
            return texts("why_value", value=markup.value(reason.value), target=round_.target)
        if isinstance(reason, WrongNumbers):
            return numbers_why(reason, round_.hand, texts)
        if isinstance(reason, DivisionByZero):
            return texts("why_division_by_zero")
        if reason.step is not None:
            return texts("why_illegal", step=markup.code(reason.step),
                         reason=texts(f"why_{reason.reason}"))
        return texts("why_not_whole")

    def guess_mark(self) -> str:
        """The reaction a sealed guess that counts is marked with (where guesses are sealed)."""
        return SEALED

    def verdict_text(self, verdict: Verdict, round_: Round, texts: Texts,
                     left: int | None = None) -> str:
        """A wrong (or, where the closest wins, a valid but inexact) answer, in one short line;
        `left`: the guesses a player has left, where guesses are counted."""
        if isinstance(verdict, Wrong):
            return self.wrong_text(verdict, verdict.reason, round_, texts)
        if isinstance(verdict, Unreadable):
            return self.refused(unreadable_text(verdict, texts), round_, texts)
        return texts("why_wrong")

    def wrong_text(self, verdict: Wrong, reason: WrongValue | WrongNumbers | DivisionByZero |
                   BadStep, round_: Round, texts: Texts) -> str:
        if isinstance(reason, WrongValue):
            return texts("wrong_value", expression=markup.code(verdict.expression),
                         value=f"<code>{markup.value(reason.value)}</code>",
                         target=round_.target)
        if isinstance(reason, WrongNumbers):
            return numbers_text(reason, round_.hand, texts)
        if isinstance(reason, DivisionByZero):
            return texts("division_by_zero")
        if reason.step is None:
            return texts("not_whole", expression=markup.code(verdict.expression))
        return texts("bad_step", expression=markup.code(verdict.expression),
                     step=markup.code(reason.step), reason=texts(f"step_{reason.reason}"))

    def answer_rules(self, round_: Round, texts: Texts) -> str:
        """What an answer to the round is, in a sentence (the middle line of a refusal)."""
        return texts(f"answer_rules_{self.name}", target=round_.target)

    def answer_example(self, round_: Round, command: str = "/a") -> str:
        """An answer to the round that reads (`command` and the dealt numbers added up), and is
        not right: it never gives the round away. Where the sum is the target, the last number
        is taken away instead."""
        numbers = [str(n) for n in round_.hand]
        if sum(round_.hand) == round_.target:
            return f"{command} {'+'.join(numbers[:-1])}-{numbers[-1]}"
        return f"{command} {'+'.join(numbers)}"

    def refused(self, problem: str, round_: Round, texts: Texts, command: str = "/a") -> str:
        """An answer refused, in the shape of every refusal (docs/refusals.md): what was wrong,
        what an answer is, and an answer of this round's numbers that reads."""
        return texts("refusal", problem=problem, allowed=self.answer_rules(round_, texts),
                     example=markup.typed(self.answer_example(round_, command)))

    def every_number_line(self, round_: Round, texts: Texts) -> str:
        """A line for deals of more than four numbers: each is used, once."""
        return texts("deal_every_number", count=len(round_.hand)) if len(round_.hand) > 4 else ""


def unreadable_text(verdict: Unreadable, texts: Texts) -> str:
    """What cannot be read as an answer, and why (the reader's error, its fields escaped), in
    one sentence: a refusal's first line."""
    params = {k: markup.escape(str(v)) for k, v in verdict.fields}
    return texts("unreadable", reason=texts(f"parse_{verdict.error or 'parse'}", **params))
