"""What every game of the bot has in common: a deal, a verdict on an answer, and its rules class.

A `Rules` subclass holds one game's rules for the round service (bot.play.rounds): how to deal,
how to judge an answer, what the messages say. Solver work runs in the pool through top-level
functions of the game's module (picklable): a deal comes with its `Analysis` (solutions, hints,
the best answer), worked out in the heavy lane, so that judging is all the rounds' lane does.
"""

from __future__ import annotations

import re
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.play import feedback
from bot.runtime.pool import ROUND_WORK, SolverPool
from bot.store.records import Round
from bot.text import markup
from bot.text.i18n import Texts
from solver import Expr, ParseError, parse
from solver.parser import normalise
from solver.yahtzee import YahtzeeResult

LOOKS_LIKE_MATH = re.compile(r"^[\d\s+\-*/×÷·xX−–()（）０-９＋－＊／=:：]+$")
COLONS = str.maketrans({":": "/", "：": "/"})  # 13:2 is a common way to write 13÷2
# two numbers with an operator between them, once parentheses and spaces are gone
JOINED = re.compile(r"(?=([0-9]+)[-+*/]([0-9]+))")
DEAL_SECONDS = 1.0  # how long a deal may search before it settles for what it found
DEAL_GRACE = 4.0  # past its budget (and a wait for the worker), a deal is stopped
ANALYSIS_GRACE = 10.0  # and past that, the time its solutions may take (six numbers: ~1.5 s)


@dataclass(frozen=True)
class Analysis:
    """What a round's hints, end and win show, worked out once when it is dealt: the distinct
    solutions (24) and the steps of the simplest, the nearest value and an expression for it
    (Countdown), the optimal table (Yahtzee)."""

    solutions: tuple[str, ...] = ()
    steps: tuple[feedback.Step, ...] = ()
    best: tuple[int, str] | None = None
    table: YahtzeeResult | None = None


@dataclass(frozen=True)
class Deal:
    """A new puzzle, made in the pool: what the round stores, and its analysis."""

    game: str
    hand: tuple
    target: int
    level: str
    points: int
    analysis: Analysis | None = field(default=None, compare=False)


Maker = Callable[..., "Deal | None"]


def deal_many(make: Maker, seeds: Sequence[int], *args: Any) -> list[tuple[Deal | None, float]]:
    """make(seed, *args) for each seed, with the CPU seconds each took: a batch of deals in one
    trip to a worker."""
    made = []
    for seed in seeds:
        started = time.process_time()
        dealt = make(seed, *args)
        made.append((dealt, time.process_time() - started))
    return made


@dataclass(frozen=True)
class Verdict:
    """What an answer is, decided in the pool.

    kind: right | close (a valid Countdown answer short of the target) | wrong_value |
    wrong_numbers | division_by_zero | not_whole | unreadable | ignore (a plain message that is
    no attempt at this puzzle). `error` and `params` carry the solver's error code for unreadable
    answers, `missing`/`extra` the misused numbers.
    """

    kind: str
    expression: str = ""
    value: str = ""
    distance: int | None = None
    error: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    missing: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()


@dataclass(frozen=True)
class Revealed:
    """A puzzle's answers at a round's end: the text, and whether it lists every solution (a
    result that does not offers to page through them all)."""

    text: str
    complete: bool = True


def unreadable(error: ParseError) -> Verdict:
    return Verdict("unreadable", error=error.code, params=dict(error.params))


def read_expression(text: str, explicit: bool) -> Expr | Verdict:
    """The expression of an answer, or the verdict when there is none to judge.

    "(3+3)*4 = 24" is fine: what stands before the sign is the answer. A plain message (not
    explicit) that is not arithmetic, or can't be read, is chatter and ignored.
    """
    text = text.strip()
    if "=" in text:
        text = text.split("=", 1)[0].strip()
    if not explicit and not LOOKS_LIKE_MATH.match(text):
        return Verdict("ignore")
    try:
        return parse(text.translate(COLONS))
    except ParseError as error:
        return unreadable(error) if explicit else Verdict("ignore")


def is_attempt(text: str, hand: tuple[int, ...]) -> bool:
    """Whether a reply to the deal tries to answer it: an operator between two numbers of the
    hand ("haha this one is tough" does not; "(8-4)*(3+3)" and "8 ÷ 3 so far" do)."""
    try:
        plain = normalise(text.split("=", 1)[0].translate(COLONS))
    except ParseError:
        return False
    joined = re.sub(r"[\s()]", "", plain)
    dealt = {str(n) for n in hand}
    return any(a in dealt and b in dealt for a, b in JOINED.findall(joined))

@dataclass(frozen=True)
class PlayOptions:
    """What a player asked for with /play or /countdown (None: the game's default)."""

    level: str | None = None
    count: int | None = None
    target: int | None = None
    large: int | None = None


class Rules(ABC):
    """One game's rules, as the round service needs them."""

    name: ClassVar[str]
    closest_wins: ClassVar[bool] = False  # the best answer at the end wins, not the first right
    gives_hints: ClassVar[bool] = False
    guesses: ClassVar[int | None] = None  # answers a player may give in a round (None: any)
    pages_solutions: ClassVar[bool] = False  # a result can page through every solution

    @abstractmethod
    def dealer(self, options: PlayOptions, budget: float = DEAL_SECONDS) -> tuple[Maker, tuple]:
        """The top-level function and its arguments after the seed that make a new puzzle with
        its analysis (None when the options admit none within `budget` seconds); the same
        pair means the same kind of deal (bot.play.stock keeps one stock per pair)."""

    @abstractmethod
    def analyser(self) -> Callable[[tuple, int], Analysis]:
        """The top-level function that analyses a hand and target (a round dealt before a
        restart, or dealt without its analysis)."""

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
    async def judge(self, pool: SolverPool, round_: Round, text: str,
                    explicit: bool) -> Verdict:
        """The verdict on an answer."""

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

    def still_open_text(self, round_: Round, texts: Texts, seconds_left: int) -> str:
        return texts("still_open", game=texts.game(self.name), puzzle=self.puzzle_html(round_),
                     seconds=seconds_left)

    def puzzle_html(self, round_: Round) -> str:
        return f"{markup.numbers(round_.hand)} → <b>{markup.signed(round_.target)}</b>"

    def goal_html(self, round_: Round, texts: Texts) -> str:
        """The game and what the round asked for, to say which round ended ("make 36")."""
        return texts(f"goal_{self.name}", target=round_.target)

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


class Analyses:
    """The analyses of the puzzles being played, by game, hand and target: kept when a round is
    dealt with one (`keep`), or worked out in the heavy lane, ahead of the questions waiting
    there, for a round that came without one (dealt before a restart). Pure results of the
    puzzle, so one memo serves every chat; the oldest go once more than `kept` solutions (a
    six-number hand may have 1,500) are held."""

    def __init__(self, kept: int = 200_000) -> None:
        self.kept = kept
        self.held = 0
        self._known: OrderedDict[tuple[str, tuple, int], Analysis] = OrderedDict()

    def keep(self, game: str, hand: tuple, target: int, analysis: Analysis) -> None:
        key = (game, hand, target)
        self.forget(key)
        self._known[key] = analysis
        self.held += _weight(analysis)
        while self.held > self.kept and len(self._known) > 1:
            self.forget(next(iter(self._known)))

    def forget(self, key: tuple[str, tuple, int]) -> None:
        gone = self._known.pop(key, None)
        if gone is not None:
            self.held -= _weight(gone)

    def known(self, game: str, hand: tuple, target: int) -> Analysis | None:
        return self._known.get((game, hand, target))

    async def of(self, pool: SolverPool, rules: Rules, round_: Round) -> Analysis:
        found = self.known(round_.game, round_.hand, round_.target)
        if found is None:
            found = await pool.run_heavy(rules.analyser(), round_.hand, round_.target,
                                         rank=ROUND_WORK)
            self.keep(round_.game, round_.hand, round_.target, found)
        return found


def _weight(analysis: Analysis) -> int:
    return 1 + len(analysis.solutions)


ANALYSES = Analyses()


def numbers_text(verdict: Verdict, hand: tuple, texts: Texts) -> str:
    """What an answer does wrong with the hand's numbers, each misuse said exactly: numbers
    the hand lacks, numbers used more often than dealt ("2 is used twice, the hand has one 2"),
    numbers left out."""
    parts = []
    if missing_from_hand := feedback.absent(verdict.extra, hand):
        parts.append(texts("numbers_absent", numbers=texts.listing(
            [f"<code>{n}</code>" for n in missing_from_hand], "list_or")))
    for over in feedback.overused(verdict.extra, hand):
        times = texts("times_two") if over.used == 2 else texts("times_many", count=over.used)
        key = "overused_single" if over.has == 1 else "overused_several"
        parts.append(texts(key, number=f"<code>{over.number}</code>", times=times,
                           count=over.has))
    if verdict.missing:
        parts.append(texts("numbers_missing", numbers=texts.listing(
            [f"<code>{n}</code>" for n in verdict.missing])))
    problems = texts("list_semicolon").join(parts)
    return texts("wrong_numbers", problems=problems[:1].upper() + problems[1:],
                 numbers=markup.numbers(hand))
