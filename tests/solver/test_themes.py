"""solver.themes: what every solution of a hand needs, on hands picked by hand and, against a
brute force written here, on every four-number hand of 1..13 (docs/themes.md)."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import pytest

from solver import InputError, UnsolvableError, evaluate, solve
from solver.themes import THEMES, Themes, first_step, themes

ALL_HANDS = list(itertools.combinations_with_replacement(range(1, 14), 4))
ROOT_THEMES = ("fraction", "beyond", "factor_pair", "division_last", "subtraction_last", "cancel")


def test_fraction_three_three_eight_eight():
    """3 3 8 8 has one solution, 8/(3-8/3): 8/3 first, 3-8/3 = 1/3, 8/(1/3) = 24. Whole steps
    from 3 3 8 8 never reach 24, so every way to write it passes a fraction; and it ends in a
    division by that 1/3."""
    found = themes([3, 3, 8, 8])
    assert found.codes == ("fraction", "division_last", "unique")
    assert found.example("fraction").step == "8/3"
    assert found.example("division_last").step == "8/(1/3)"


def test_beyond_one_two_seven_seven():
    """1 2 7 7 has one solution, (7*7-1)/2: 7*7 = 49 and 49-1 = 48 are both past 24, and no
    tree of 1 2 7 7 with every step at most 24 makes 24; its last step is 48/2."""
    found = themes([7, 2, 7, 1])
    assert found.numbers == (1, 2, 7, 7)
    assert found.codes == ("beyond", "division_last", "unique")
    example = found.example("beyond")
    assert (example.solution, example.step, example.value) == ("(7*7-1)/2", "7*7", 49)


def test_division_last_one_four_five_six():
    """1 4 5 6 has two solutions, 4/(1-5/6) and 6/(5/4-1): 4 divided by 1/6 and 6 by 1/4.
    Neither can end otherwise: 1/6 and 1/4 are no factors of 24 to multiply by."""
    found = themes([1, 4, 5, 6])
    assert found.solutions == 2
    assert found.codes == ("fraction", "division_last")
    assert found.factor_pairs == ()


def test_subtraction_last_one_five_five_six():
    """1 5 5 6 has two solutions, 5*6-1-5 and 5*(1+5)-6: 30 less 6, however the 1 and the 5 are
    taken away, and 30 less 6 again. Nothing added is at most 24 to add last (30 is past it)."""
    found = themes([1, 5, 5, 6])
    assert found.solutions == 2
    assert found.codes == ("beyond", "subtraction_last")
    assert found.example("subtraction_last").step == "29-5"  # 5*6-1 first, as printed


def test_a_factor_pair_five_five_eight_thirteen():
    """5 5 8 13: 8*(13-5-5) and (8-5)*(13-5), both 8 times 3, and no way to end in a sum, a
    difference or a division (8/(1/3) would need a 1)."""
    found = themes([5, 5, 8, 13])
    assert found.codes == ("factor_pair",)
    assert found.factor_pairs == ((3, 8),)
    assert found.example("factor_pair").step == "8*3"


def test_cancel_three_eight_nine_nine():
    """3 8 9 9 has one solution, 3*8+9-9: the two 9s take nothing away from 3*8, as 3*8*9/9 or
    3*8*(9/9) would not either; written as any other number both, the value stays 24."""
    found = themes([3, 8, 9, 9])
    assert found.codes == ("cancel", "unique")
    example = found.example("cancel")
    assert (example.solution, example.step, example.value) == ("3*8+9-9", "9-9", 0)
    assert found.factor_pairs == ((1, 24), (3, 8))  # 3*8*(9/9) and (3*8)*(9/9)


def test_cancel_by_a_one_two_two_ten_thirteen():
    """2 2 10 13 has one solution, 2/2+10+13: the two 2s make a 1 added to 23, whatever number
    they were."""
    found = themes([2, 2, 10, 13])
    assert found.codes == ("cancel", "unique")
    assert found.example("cancel").step == "2/2"


def test_unique_alone_one_one_six_nine():
    """1 1 6 9 has one solution, 9*(1+1)+6, and it needs nothing else: no step past 24 (18),
    no fraction, and it ends in a sum."""
    found = themes([1, 1, 6, 9])
    assert found.codes == ("unique",)
    assert found.example("unique").solution == "9*(1+1)+6"


def test_none_one_two_three_four():
    """1 2 3 4 needs none: three solutions (1*2*3*4, 4*(1+2+3), (1+3)*(2+4)) and no fraction,
    nothing past 24, no pair. Every solution can end in a product, but 4/(1/(2*3)) is one way to
    write 1*2*3*4 that ends in a division, so a factor pair is no need (the four pairs are
    there to use)."""
    found = themes([1, 2, 3, 4])
    assert found.codes == ()
    assert found.examples == ()
    assert found.factor_pairs == ((1, 24), (2, 12), (3, 8), (4, 6))
    assert found.example("fraction") is None and "fraction" not in found


def test_the_api_edges():
    assert themes([24]).codes == ("unique",)
    assert themes([4, 6], 10).codes == ("unique",)  # 4+6: a sum, nothing else
    assert themes([1, 2, 3, 4], 10).solutions == len(solve([1, 2, 3, 4], 10))
    with pytest.raises(UnsolvableError):
        themes([1, 1, 1, 1])
    for numbers, target in [([1, 2, 3, 4, 5, 6], 24), ([1, 2, 3], 0), ([1, 2, 3], -6),
                            ([], 24)]:
        with pytest.raises(InputError):
            themes(numbers, target)


@pytest.mark.parametrize("hand", [(3, 3, 8, 8), (1, 2, 7, 7), (1, 5, 5, 6), (3, 8, 9, 9),
                                  (2, 2, 10, 13), (5, 5, 8, 13), (12, 4, 7, 12, 7)])
def test_every_example_is_a_solution_and_its_step_is_worth_its_value(hand):
    found = themes(hand)
    for example in found.examples:
        assert example.solution in solve(hand)
        assert evaluate(example.step) == example.value


@pytest.mark.parametrize("solution, step", [
    ("8/(3-8/3)", "8/3"), ("(7*7-1)/2", "7*7"), ("8*(13-5-5)", "13-5"), ("4/(1-5/6)", "5/6"),
    ("(13-1)+(13-1)", "13-1"), ("2*(3+4)+10", "3+4"), ("1-(2-9)*3", "9-2"), ("6", None)])
def test_the_first_step_of_a_solution(solution, step):
    assert first_step(solution) == step


@pytest.mark.parametrize("hand", ALL_HANDS[::37])
def test_a_first_step_joins_two_of_the_hands_numbers(hand):
    """What a coach tells a player to start with is a step they can make from the hand alone."""
    for solution in solve(hand):
        step = first_step(solution)
        assert step is not None
        left, _, right = next(step.partition(o) for o in "+-*/" if o in step)
        assert Counter([int(left), int(right)]) <= Counter(hand)
        assert evaluate(step) >= 0  # written by sizes: a step never goes below zero


def test_five_numbers():
    """12 4 7 12 7 has eight solutions: 12+12+(7-7)*4 cancels the 7s, 12*(4+12-7-7) does not
    (written as 8 and 8, the 7s make 12*(4+12-8-8) = 0), 12*(4-7/7)-12 passes 36; the last
    steps multiply 12*2, 8*3 ((7-4)*(12/12+7)) and 4*6 (4 times 12/(7+7-12)), or divide 48/2."""
    found = themes([12, 4, 7, 12, 7])
    assert found.codes == ()
    assert found.solutions == 8
    assert found.factor_pairs == ((2, 12), (3, 8), (4, 6))


# The brute force: every expression tree over the hand, exactly, negative values and all.


@dataclass(frozen=True, slots=True)
class Tree:
    """What a property needs of one tree: its value, whether a step was not whole, whether a
    step was past the target in size, and its value with each pair of equal numbers written as
    each of FAR (`moved`, one entry per pair and value)."""

    value: Number
    fraction: bool
    beyond: bool
    moved: tuple[Number, ...]


Number = int | Fraction  # an int while whole: Fractions are slow, and the answers the same
FAR = (10**9 + 7, 10**9 + 9)
TARGET = 24


def operate(op: str, a: Number, b: Number) -> Number:
    if op == "+":
        result = a + b
    elif op == "-":
        result = a - b
    elif op == "*":
        result = a * b
    elif isinstance(a, int) and isinstance(b, int):
        return a // b if a % b == 0 else Fraction(a, b)
    else:
        result = Fraction(a) / b
    if isinstance(result, Fraction) and result.denominator == 1:
        return result.numerator
    return result


class BruteForce:
    """Every tree over the positions of a hand, built from every ordered split and operator.

    Trees with the same `Tree` data are kept once: what is asked of a tree is a function of it,
    so every tree is still checked, through the data it shares with others."""

    def __init__(self, hand: tuple[int, ...]):
        self.hand = hand
        self.pairs = [(i, j) for i, j in itertools.combinations(range(len(hand)), 2)
                      if hand[i] == hand[j]]
        self.moves = [(pair, y) for pair in self.pairs for y in FAR]
        self.memo: dict[frozenset[int], set[Tree]] = {}

    def trees(self, positions: frozenset[int]) -> set[Tree]:
        if positions not in self.memo:
            self.memo[positions] = self._build(positions)
        return self.memo[positions]

    def _build(self, positions: frozenset[int]) -> set[Tree]:
        if len(positions) == 1:
            (k,) = positions
            x = self.hand[k]
            return {Tree(x, False, False, tuple(y if k in pair else x for pair, y in self.moves))}
        built = set()
        for left, right in self.ordered_splits(positions):
            for a in self.trees(left):
                for b in self.trees(right):
                    for op in "+-*/":
                        if op == "/" and b.value == 0:
                            continue
                        built.add(self.join(op, a, b))
        return built

    @staticmethod
    def ordered_splits(positions: frozenset[int]):
        items = sorted(positions)
        for size in range(1, len(items)):
            for left in itertools.combinations(items, size):
                yield frozenset(left), positions - frozenset(left)

    @staticmethod
    def join(op: str, a: Tree, b: Tree) -> Tree:
        value = operate(op, a.value, b.value)
        if op == "/":
            assert 0 not in b.moved, "a far value divides by zero: choose others"
        moved = tuple(operate(op, p, q) for p, q in zip(a.moved, b.moved, strict=True))
        return Tree(value, a.fraction or b.fraction or isinstance(value, Fraction),
                    a.beyond or b.beyond or abs(value) > TARGET, moved)

    def solutions(self) -> set[tuple]:
        """(fraction, beyond, kind, factor pair or None, cancel) of every tree making the
        target, read at its last step."""
        whole = frozenset(range(len(self.hand)))
        found = set()
        for left, right in self.ordered_splits(whole):
            by_value: dict[Number, list[Tree]] = {}
            for b in self.trees(right):
                by_value.setdefault(b.value, []).append(b)
            for a in self.trees(left):
                for op, b_value in partners(a.value):
                    for b in by_value.get(b_value, ()):
                        found.add(self.read(op, a, b))
        return found

    def read(self, op: str, a: Tree, b: Tree) -> tuple:
        p, q = abs(a.value), abs(b.value)
        if op in "+-":
            kind = "sum" if p + q == TARGET else "difference"
        elif op == "*" or q == 1:
            kind = "product"
        else:
            kind = "quotient"
        pair = None
        if kind == "product":
            factors = (p, q) if op == "*" else (1, p)
            if not any(isinstance(f, Fraction) for f in factors):
                pair = (int(min(factors)), int(max(factors)))
        cancel = any(
            all(operate(op, a.moved[k], b.moved[k]) == TARGET
                for k, (moved_pair, _) in enumerate(self.moves) if moved_pair == pair_of_hand)
            for pair_of_hand in self.pairs)
        return (a.fraction or b.fraction, a.beyond or b.beyond, kind, pair, cancel)


def partners(a: Number) -> list[tuple[str, Number]]:
    """(op, b) with `a op b` = TARGET."""
    found = [("+", TARGET - a), ("-", a - TARGET)]
    if a:
        found += [("*", operate("/", TARGET, a)), ("/", operate("/", a, TARGET))]
    return found


def needed_by_brute_force(solutions: set[tuple]) -> dict[str, bool]:
    """For each theme, whether every tree making the target has it."""
    return {
        "fraction": all(s[0] for s in solutions),
        "beyond": all(s[1] for s in solutions),
        "factor_pair": all(s[3] is not None for s in solutions),
        "division_last": all(s[2] == "quotient" for s in solutions),
        "subtraction_last": all(s[2] == "difference" for s in solutions),
        "cancel": all(s[4] for s in solutions),
    }


def test_the_brute_force_on_its_own():
    """The brute force sees what the worked hands say: 3 3 8 8 passes a fraction, 1 2 3 4 ends
    in a division as 4/(1/(2*3)), 3 8 9 9 cancels, 1 1 1 1 makes nothing."""
    assert needed_by_brute_force(BruteForce((3, 3, 8, 8)).solutions())["fraction"]
    assert not needed_by_brute_force(BruteForce((1, 2, 3, 4)).solutions())["factor_pair"]
    assert needed_by_brute_force(BruteForce((3, 8, 9, 9)).solutions())["cancel"]
    assert BruteForce((1, 1, 1, 1)).solutions() == set()


@pytest.mark.slow
def test_every_four_number_hand_against_the_brute_force():
    """Over all 1820 hands of 1..13 at 24: a theme is named exactly when every tree the brute
    force finds has it (named: all have it; not named: one at least lacks it), the factor pairs
    are the last steps' pairs, and a hand is unsolvable exactly when no tree makes 24. The
    counts per theme are docs/themes.md's."""
    wrong, counts = [], Counter()
    for hand in ALL_HANDS:
        solutions = BruteForce(hand).solutions()
        try:
            found: Themes | None = themes(hand)
        except UnsolvableError:
            found = None
        if found is None or not solutions:
            if found is not None or solutions:
                wrong.append((hand, "solvable?"))
            continue
        brute = needed_by_brute_force(solutions)
        for theme in ROOT_THEMES:
            if (theme in found) != brute[theme]:
                wrong.append((hand, theme, "named" if theme in found else "not named"))
        pairs = sorted({s[3] for s in solutions if s[3] is not None})
        if list(found.factor_pairs) != pairs:
            wrong.append((hand, "factor pairs", found.factor_pairs, pairs))
        if ("unique" in found) != (found.solutions == 1 == len(solve(hand))):
            wrong.append((hand, "unique"))
        counts.update(found.codes or ["none"])
    assert wrong == []
    assert set(ROOT_THEMES) | {"unique"} == set(THEMES)
    assert counts == {"none": 725, "unique": 515, "factor_pair": 240, "beyond": 124, "cancel": 89,
                      "subtraction_last": 78, "division_last": 20, "fraction": 16}


@pytest.mark.slow
@pytest.mark.parametrize("hand", [
    (6, 6, 7, 7, 8),  # 6/(7/7-6/8): fraction, division last, cancel, unique
    (10, 13, 13, 13, 13),  # (10*13+13)/13+13 and two more: beyond
    (9, 9, 10, 11, 11),  # (11-9)*(10+11-9): factor pair, unique
    (2, 7, 7, 7, 7),  # (7*7-7/7)/2: beyond, division last, cancel, unique
    (1, 8, 11, 11, 12),  # 11*11-8*12-1 and two more: beyond, subtraction last
    (5, 5, 5, 9, 12),  # 9*(5-5/5)-12, 12*(5/5+9)/5: cancel
    (4, 7, 7, 12, 12),  # none
    (1, 2, 3, 4, 5),  # none
])
def test_five_number_hands_against_the_brute_force(hand):
    """The same exactness on five numbers, for a hand naming each theme (about a second each)."""
    solutions = BruteForce(hand).solutions()
    found = themes(hand)
    brute = needed_by_brute_force(solutions)
    assert {theme for theme in ROOT_THEMES if theme in found} == {t for t in brute if brute[t]}
    assert list(found.factor_pairs) == sorted({s[3] for s in solutions if s[3] is not None})
