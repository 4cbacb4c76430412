"""Hints that teach (bot.play.rules.feedback, the rules' `hints`, steering's /hint): over every
hand of four numbers 1..13 that makes 24, no hint is a step that leaves a number as it was (×1,
÷1, +0, −0 by value), and each is a step of one of the hand's distinct solutions; a hand whose
every step but the answer teaches nothing is told which numbers go together, at no cost."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations, combinations_with_replacement

import pytest

from bot.play.chats.people import Chat, Player
from bot.play.games.twentyfour.rules import TwentyFour, analyse
from bot.play.outcomes import Edited, Marked
from bot.play.rules.feedback import hint_plan, together
from bot.play.rules.records import Analysis, Together
from bot.play.services import Services
from bot.store.stores import Stores
from solver import BinOp, DivisionByZeroError, Expr, Num, canonical, evaluate, parse, solve
from solver.expr import numbers

GROUP = Chat(-42, "group", "G")
ANN = Player(1, "Ann", language_code="en")
BEN = Player(2, "Ben", language_code="en")
RULES = TwentyFour()
FOURS = [hand for hand in combinations_with_replacement(range(1, 14), 4) if solve(hand)]


def teaches_nothing(step: Expr) -> bool:
    """Written apart from the code under test: the step's value is one of its two sides' and
    the other side is what changes nothing (1 for × and ÷ on the right, 0 for + and −)."""
    assert isinstance(step, BinOp)
    left, right = evaluate(step.left), evaluate(step.right)
    return {"*": 1 in (left, right) or 0 in (left, right), "/": right == 1 or left == 0,
            "+": 0 in (left, right), "-": right == 0}[step.op]


def trees(leaves: Sequence[Expr]) -> Iterator[Expr]:
    """Every expression tree over the leaves, each used once, in any order and grouping."""
    if len(leaves) == 1:
        yield leaves[0]
        return
    indices = range(len(leaves))
    for size in range(1, len(leaves)):
        for chosen in combinations(indices, size):
            left = [leaves[i] for i in chosen]
            right = [leaves[i] for i in indices if i not in chosen]
            for a in trees(left):
                for b in trees(right):
                    for op in "+-*/":
                        yield BinOp(op, a, b)


def makes(expr: Expr, target: int) -> bool:
    try:
        return evaluate(expr) == target
    except DivisionByZeroError:
        return False


def is_a_step_of_a_solution(step: Expr, hand: tuple[int, ...]) -> bool:
    """Some tree holding the step whole, over the rest of the hand, makes 24 and is one of the
    hand's distinct solutions (solver.canonical, as `solve` tells them apart)."""
    rest = list(hand)
    for n in numbers(step):
        rest.remove(n)
    distinct = {canonical(s) for s in solve(hand)}
    return any(makes(whole, 24) and canonical(whole) in distinct
               for whole in trees([step, *map(Num, rest)]))


async def dealt_by_hand(services: Services, stores: Stores, hand: tuple[int, ...]):
    """A round of 24 with a known hand, stored as a deal would store it (easy: 10 points)."""
    await stores.people.remember_chat(GROUP.id, GROUP.type, GROUP.title)
    await stores.people.remember_user(ANN.id, ANN.first_name)
    now = services.rounds.clock()
    made = await stores.rounds.open_round(GROUP.id, "24", hand, 24, "easy", 10, "en", now,
                                          now + 60, ANN.id)
    assert made is not None
    await services.people.load()
    services.table.load(await services.rounds.store.open_rounds())
    return made


def given(hand: tuple[int, ...]):
    return RULES.hints(analyse(hand, 24))


@pytest.mark.slow
def test_no_hint_over_every_hand_of_four_teaches_nothing_and_each_is_a_step_of_a_solution():
    """The one hint a hand of four gets: a step of two or three of its numbers that teaches
    (not ×1, ÷1, +0, −0 by value), short of the answer, and a step of a distinct solution —
    1 1 11 13, whose one solution is 11+13 with 1×1, gets a step of 1+11+13−1."""
    for hand in FOURS:
        [hint] = given(hand)  # a hand of four gets one
        assert not isinstance(hint, Together), hand
        step = parse(hint[0])
        assert not teaches_nothing(step), (hand, hint)
        assert Fraction(hint[1]) == evaluate(step) != 24 and len(numbers(step)) < 4
        assert is_a_step_of_a_solution(step, hand), (hand, hint)


def test_without_a_step_that_teaches_the_hint_names_the_numbers_that_go_together():
    """A hand too large to write every way (five numbers and more), none of whose solutions
    has a step short of the answer that teaches: what is left once the numbers that change
    nothing are taken out."""
    plan = hint_plan(["1*1*1*11+13"])
    assert plan.steps == () and plan.together == (11, 13)
    assert RULES.hints(Analysis(("1*1*1*11+13",), together=plan.together)) == \
        (Together((11, 13)),)
    assert together("(13-12)*7+17") == (7, 17) and together("8/(3-8/3)") == (3, 3, 8, 8)


def parts(expr: Expr) -> Iterator[Expr]:
    if isinstance(expr, BinOp):
        yield from parts(expr.left)
        yield from parts(expr.right)
        yield expr


def test_the_hint_for_5_10_9_1_is_not_1x10():
    [hint] = given((5, 10, 9, 1))
    assert not isinstance(hint, Together)
    step = parse(hint[0])
    assert not teaches_nothing(step) and "1" not in hint[0].split("+")
    assert is_a_step_of_a_solution(step, (1, 5, 9, 10))


@pytest.mark.parametrize("hand", [(1, 2, 3, 4, 5), (1, 1, 6, 9, 13), (1, 1, 2, 3, 7, 8),
                                  (13, 1, 1, 12, 12, 1)])
def test_every_hint_of_a_larger_hand_teaches(hand):
    """Five and six numbers get two and three hints: none teaches nothing, each uses the
    hand's numbers once at most, and the answer they lead to is one of the hand's solutions."""
    analysis = analyse(hand, 24)
    hints = RULES.hints(analysis)
    assert len(hints) == len(hand) - 3
    for step in hints:
        assert not isinstance(step, Together) and not teaches_nothing(parse(step[0]))
        assert not set(numbers(parse(step[0]))) - set(hand)
    whole = parse(analysis.steps[-1][0])
    assert sorted(numbers(whole)) == sorted(hand) and makes(whole, 24)
    assert canonical(whole) in {canonical(s) for s in solve(hand)}


async def test_a_hint_in_a_round_of_5_10_9_1_shows_a_step_and_halves(services: Services,
                                                                       stores: Stores):
    dealt = await dealt_by_hand(services, stores, (5, 10, 9, 1))
    hint = await services.rounds.hint(GROUP, ANN)
    assert isinstance(hint, Edited) and "1×10" not in hint.text and "1×10" not in hint.notice
    assert "(now worth 5 points)" in hint.text  # dealt worth 10
    assert (await stores.rounds.get_round(dealt.id)).points == 5


async def test_which_numbers_go_together_costs_nothing_and_anyone_may_ask(
        services: Services, stores: Stores):
    """A round whose analysis (as a five-number hand's might) has no step that teaches."""
    hand = (1, 1, 1, 11, 13)
    services.rounds.analyses.keep("24", hand, 24, Analysis(("1*1*1*11+13",), together=(11, 13)))
    dealt = await dealt_by_hand(services, stores, hand)
    told = await services.rounds.hint(GROUP, BEN)  # not the starter: it costs nobody anything
    assert isinstance(told, Edited)
    assert "go together" in told.text and "worth" not in told.text
    assert "<code>11</code> and <code>13</code> go together" in told.notice
    assert (await stores.rounds.get_round(dealt.id)).points == dealt.points
    again = await services.rounds.hint(GROUP, ANN)
    assert isinstance(again, Marked) and "No more hints" in again.text
