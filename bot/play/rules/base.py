"""The base of every game's rules: what the round service asks of a game — how to deal, judge an
answer, score the closest one, what Play again deals, which steps hints give. Decisions only: the
words for each live in bot.play.words, the solver work runs in the pool through top-level
functions of the game's module (picklable), and no store, pool or catalog is known here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import ClassVar

from bot.play.rules.batches import DEAL_SECONDS, Maker
from bot.play.rules.feedback import hints_allowed
from bot.play.rules.page import Form
from bot.play.rules.page import Puzzle as PagePuzzle
from bot.play.rules.reading import is_attempt, looks_like_math
from bot.play.rules.records import Analysis, Hint, PlayOptions, Puzzle, Together, Verdict


class Rules(ABC):
    """One game's rules, as the round service needs them."""

    name: ClassVar[str]
    closest_wins: ClassVar[bool] = False  # the best answer at the end wins, not the first right
    gives_hints: ClassVar[bool] = False
    guesses: ClassVar[int | None] = None  # answers a player may give in a round (None: any)
    pages_solutions: ClassVar[bool] = False  # a result can page through every solution
    levels: ClassVar[bool] = False  # deals by level: a result offers the same level again
    coaches: ClassVar[bool] = False  # a miss may ask what every solution needed (coaching)

    @abstractmethod
    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        """The top-level function and its arguments after the seed that make a new puzzle with
        its analysis (None when the options admit none within `budget` seconds); the same
        pair means the same kind of deal (bot.play.dealing.stock keeps one stock per pair)."""

    @abstractmethod
    def analyser(self) -> Callable[[tuple, int], Analysis]:
        """The top-level function that analyses a hand and target (a round dealt before a
        restart, or dealt without its analysis)."""

    def replay_options(self, ended: Puzzle, same_level: bool) -> PlayOptions:
        """What Play again (and, where the game deals by level, Same level) deals after
        `ended`."""
        return PlayOptions()

    def costly(self, options: PlayOptions) -> bool:
        """Whether dealing with these options may take long (it then counts as heavy work)."""
        return False

    def looks_like_answer(self, text: str) -> bool:
        """Whether a plain message (no command, no reply) may be an answer: cheap, no solver."""
        return looks_like_math(text.strip())

    def tries(self, text: str, puzzle: Puzzle) -> bool:
        """Whether a reply to the deal tries to answer it (else it is talk, and ignored)."""
        return is_attempt(text, puzzle.hand)

    @abstractmethod
    def judge(self, puzzle: Puzzle, text: str, explicit: bool) -> Verdict:
        """The verdict on an answer; pure and bounded (the reader bounds its length and
        depth), so it runs in the event loop."""

    def points_for(self, distance: int) -> int:
        """Where the closest answer wins: the points for an answer this far from the target."""
        return 0

    def hints(self, analysis: Analysis) -> tuple[Hint, ...]:
        """What hints give, one at a time (empty: no hints): the steps of a solution that teach
        (feedback.hint_plan), as many as `hints_allowed`; or, for a hand none of whose steps
        but the answer teaches, which numbers go together."""
        if not self.gives_hints:
            return ()
        if len(analysis.steps) > 1:
            return analysis.steps[:hints_allowed(len(analysis.steps))]
        return (Together(analysis.together),) if analysis.together else ()

    @abstractmethod
    def page(self, hand: tuple, target: int) -> tuple[PagePuzzle, Form]:
        """What a round's page (the Mini App) draws of this hand and how it is answered there:
        tiles or rolls, combined or guessed (bot.play.rules.page)."""

    def may_reach(self, numbers: Sequence[int]) -> bool:
        """Whether a request for these numbers could reach some hand this game deals, by the
        rule of bot.play.guards.live (the hand with extras or none, the hand less one number,
        and where part of a hand may answer, a part): an answer about it is then never kept
        for everyone, since such a round may be dealt any time."""
        return False

    def shows_best_on_win(self) -> bool:
        """Whether a win's result shows the puzzle's best answer under it (a game of rolls: its
        optimal table)."""
        return False

