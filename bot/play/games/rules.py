"""The base of every game's rules: what the round service asks of a game (deal, judge, hint, reveal,
and the words for each). A subclass per game (twentyfour, countdown, yahtzee); solver work runs in
the pool through top-level functions of the game's module (picklable).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import ClassVar

from bot.play.dealing.analyses import ANALYSES
from bot.play.games import feedback
from bot.play.games.batches import DEAL_SECONDS, Maker
from bot.play.games.reading import LOOKS_LIKE_MATH, is_attempt
from bot.play.games.records import Analysis, PlayOptions, Revealed, Verdict
from bot.play.words.numbers import numbers_text, numbers_why
from bot.runtime.pool import SolverPool
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts


class Rules(ABC):
    """One game's rules, as the round service needs them."""

    name: ClassVar[str]
    closest_wins: ClassVar[bool] = False  # the best answer at the end wins, not the first right
    gives_hints: ClassVar[bool] = False
    guesses: ClassVar[int | None] = None  # answers a player may give in a round (None: any)
    pages_solutions: ClassVar[bool] = False  # a result can page through every solution
    levels: ClassVar[bool] = False  # deals by level: a result offers the same level again

    @abstractmethod
    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        """The top-level function and its arguments after the seed that make a new puzzle with
        its analysis (None when the options admit none within `budget` seconds); the same
        pair means the same kind of deal (bot.play.dealing.stock keeps one stock per pair)."""

    @abstractmethod
    def analyser(self) -> Callable[[tuple, int], Analysis]:
        """The top-level function that analyses a hand and target (a round dealt before a
        restart, or dealt without its analysis)."""

    def replay_options(self, ended: Round, same_level: bool) -> PlayOptions:
        """What Play again (and, where the game deals by level, Same level) deals after
        `ended`."""
        return PlayOptions()

    def costly(self, options: PlayOptions) -> bool:
        """Whether dealing with these options may take long (it then counts as heavy work)."""
        return False

    def looks_like_answer(self, text: str) -> bool:
        """Whether a plain message (no command, no reply) may be an answer: cheap, no solver."""
        return bool(LOOKS_LIKE_MATH.match(text.strip()))

    def tries(self, text: str, round_: Round) -> bool:
        """Whether a reply to the deal tries to answer it (else it is talk, and ignored)."""
        return is_attempt(text, round_.hand)

    def how_to_answer(self, texts: Texts, typing: bool) -> str:
        """The deal's last line: how to answer, where the game does not say it in its deal text
        (`typing`: the bot sees plain messages here, so typing the answer works)."""
        return ""

    @abstractmethod
    def judge(self, round_: Round, text: str, explicit: bool) -> Verdict:
        """The verdict on an answer; pure and bounded (the reader bounds its length and
        depth), so it runs in the event loop."""

    @abstractmethod
    def deal_text(self, round_: Round, texts: Texts) -> str:
        """The message that opens the round: the puzzle first, then the rules of the round."""

    async def reveal(self, pool: SolverPool, round_: Round, texts: Texts) -> Revealed:
        """The puzzle's answers, for the end of a round (from its analysis)."""
        return self.revealed(await ANALYSES.of(pool, self, round_), round_, texts)

    @abstractmethod
    def revealed(self, analysis: Analysis, round_: Round, texts: Texts) -> Revealed:
        """The words of `reveal`."""

    def points_for(self, distance: int) -> int:
        """Where the closest answer wins: the points for an answer this far from the target."""
        return 0

    async def win_details(self, pool: SolverPool, round_: Round, texts: Texts) -> str:
        """What to show under a winning answer (nothing, unless the game has more to tell)."""
        return ""

    async def hint_steps(self, pool: SolverPool, round_: Round) -> list[feedback.Step]:
        """The steps a solution takes, which hints give one at a time (empty: no hints)."""
        if not self.gives_hints:
            return []
        return list((await ANALYSES.of(pool, self, round_)).steps)

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
        if verdict.kind == "wrong_value":
            return texts("why_value", value=markup.value(verdict.value), target=round_.target)
        if verdict.kind == "wrong_numbers":
            return numbers_why(verdict, round_.hand, texts)
        if verdict.kind == "division_by_zero":
            return texts("why_division_by_zero")
        if verdict.kind == "not_whole" and verdict.params.get("step") is not None:
            return texts("why_illegal", step=markup.code(verdict.params["step"]),
                         reason=texts(f"why_{verdict.params['reason']}"))
        if verdict.kind == "not_whole":
            return texts("why_not_whole")
        if verdict.kind == "close" and verdict.distance is not None:
            return texts("why_away", value=verdict.value, distance=verdict.distance)
        return texts("why_wrong")

    def verdict_text(self, verdict: Verdict, round_: Round, texts: Texts) -> str:
        """A wrong (or, in Countdown, a valid but inexact) answer, in one short line."""
        if verdict.kind == "wrong_value":
            return texts("wrong_value", expression=markup.code(verdict.expression),
                         value=f"<code>{markup.value(verdict.value)}</code>",
                         target=round_.target)
        if verdict.kind == "wrong_numbers":
            return numbers_text(verdict, round_.hand, texts)
        if verdict.kind == "division_by_zero":
            return texts("division_by_zero")
        if verdict.kind == "not_whole":
            step = verdict.params.get("step")
            if step is None:
                return texts("not_whole", expression=markup.code(verdict.expression))
            return texts("bad_step", expression=markup.code(verdict.expression),
                         step=markup.code(step), reason=texts(f"step_{verdict.params['reason']}"))
        params = {k: markup.escape(str(v)) for k, v in verdict.params.items()}
        return texts("unreadable", reason=texts(f"parse_{verdict.error or 'parse'}", **params))

    def every_number_line(self, round_: Round, texts: Texts) -> str:
        """A line for deals of more than four numbers: each is used, once."""
        return texts("deal_every_number", count=len(round_.hand)) if len(round_.hand) > 4 else ""
