"""Themes of a hand: what every solution of it needs (a fraction on the way, a factor pair, ...).

A theme is *needed* when every solution has it, and a solution here is every expression tree over
the hand (each number once, + - * /, exact) that makes the target, not only the one form `solve`
prints of each distinct solution: so a theme is a property of the hand, never of a written form.
Computed from the trees themselves (the search's value sets and exact steps), with no list of
hands and no floats. Definitions, worked hands and costs: docs/themes.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

from solver.errors import DivisionByZeroError, InputError, UnsolvableError
from solver.expr import BinOp, Expr, Num, Value, apply, divide, exact
from solver.parser import parse
from solver.search import Hand, combine_values, reachable_values, splits
from solver.solutions import solve, validate_hand

THEMES = ("fraction", "beyond", "factor_pair", "division_last", "subtraction_last", "cancel",
          "unique")
"""Every theme's code, in the order `Themes.codes` lists them."""

MAX_THEMED = 5  # numbers in a hand; six would take a second (docs/themes.md)

Values = Callable[[Hand], frozenset[Value]]  # the values a kind of tree makes of a sub-hand
Step = tuple[Value, str, Value, Value]  # left operand, operator, right operand, result


@dataclass(frozen=True, slots=True)
class Example:
    """A solution that shows a theme and the step of it that does, written with the values it
    combines: fraction `8/3` (worth 8/3), beyond `7*7` (49), the last step `48/2` (24), the
    cancelling pair `9-9` (0) or `2/2` (1); for `unique` the step is the solution."""

    theme: str
    solution: str  # one of `solve`'s, ASCII
    step: str
    value: Value


@dataclass(frozen=True, slots=True)
class Themes:
    """What a hand's solutions need: `codes` are the needed themes (in THEMES order),
    `factor_pairs` the whole pairs (a <= b, a*b = target) some solution's last step multiplies,
    `solutions` the count of distinct solutions, `examples` one per needed theme."""

    numbers: Hand
    target: int
    codes: tuple[str, ...]
    factor_pairs: tuple[tuple[int, int], ...]
    solutions: int
    examples: tuple[Example, ...]

    def __contains__(self, code: object) -> bool:
        return code in self.codes

    def example(self, code: str) -> Example | None:
        """The example of a needed theme, None for a theme the hand does not need."""
        return next((e for e in self.examples if e.theme == code), None)


def themes(numbers: Sequence[int], target: int = 24) -> Themes:
    """The themes every solution of the hand needs; UnsolvableError when it has no solution.

    Takes 1 to MAX_THEMED numbers and a whole target above 0; InputError otherwise.
    """
    numbers = list(numbers)
    if not 1 <= len(numbers) <= MAX_THEMED:
        raise InputError(f"Give between 1 and {MAX_THEMED} numbers for themes.",
                         count=len(numbers))
    hand, goal = validate_hand(numbers, target)
    if not isinstance(goal, int) or goal <= 0:
        raise InputError("Themes need a whole target above 0.", target=goal)
    return _themes(hand, goal)


@lru_cache(maxsize=1 << 12)
def _themes(hand: Hand, goal: int) -> Themes:
    solutions = solve(hand, goal)
    if not solutions:
        shown = " ".join(map(str, hand))
        raise UnsolvableError(f"{shown} cannot make {goal}, so it has no themes.",
                              numbers=list(hand), target=goal)
    lasts = list(last_steps(hand, goal, reachable_values))
    pairs = sorted({_pair(p, q) for kind, p, _, q in lasts
                    if kind == "product" and _whole(p) and _whole(q)})
    kinds = {kind for kind, *_ in lasts}
    needed = {
        "fraction": not _any(last_steps(hand, goal, _whole_values)),
        "beyond": not _any(last_steps(hand, goal, lambda side: within(side, goal))),
        "factor_pair": all(kind == "product" and _whole(p) and _whole(q)
                           for kind, p, _, q in lasts),
        "division_last": kinds == {"quotient"},
        "subtraction_last": kinds == {"difference"},
        "cancel": _cancel_needed(hand, goal, solutions),
        "unique": len(solutions) == 1,
    }
    if len(hand) == 1:  # a lone number makes the target with no step at all
        needed = {"unique": True}
    codes = tuple(code for code in THEMES if needed.get(code))
    # every tree has a needed theme, so the simplest solution shows each of them
    examples = tuple(_example(code, solutions[0], goal) for code in codes)
    return Themes(hand, goal, codes, tuple(pairs), len(solutions), examples)


# The last step. Every tree over the hand making the target is, step for step, a tree of
# non-negative values with the same magnitudes (rule 3 of solver.normal: turn a subtraction
# round and the signs go), so a last step is read by the magnitudes it combines: kinds, not
# signs. Adding or taking away a zero is adding it, dividing by a one multiplying by it (rule 4).


def last_steps(hand: Hand, target: Value,
               values: Values) -> Iterator[tuple[str, Value, str, Value]]:
    """(kind, p, op, q) for every last step `p op q` = target of a tree over the hand, p and q
    from the `values` of the two parts; kind is "sum", "difference", "product" or "quotient".
    + and * come once per pair of parts: their order changes no kind."""
    for left, right in splits(hand):
        xs, ys = values(left), values(right)
        if len(ys) < len(xs):
            xs, ys = ys, xs
        for x in xs:
            for op, p, q, _ in _partners(target, x, ys):
                yield _kind(op, q), p, op, q


def _partners(v: Value, x: Value,
              ys: frozenset[Value]) -> Iterator[tuple[str, Value, Value, bool]]:
    """Each step `p op q` worth v with x one operand and the other in ys, as (op, p, q, whether
    p is x); all values non-negative."""
    if v >= x and v - x in ys:
        yield "+", x, exact(v - x), True
    if x >= v and x - v in ys:
        yield "-", x, exact(x - v), True
    if v + x in ys:
        yield "-", exact(v + x), x, False
    if x:
        if divide(v, x) in ys:
            yield "*", x, divide(v, x), True
        if v and divide(x, v) in ys:
            yield "/", x, divide(x, v), True
        if v * x in ys:
            yield "/", exact(v * x), x, False
    elif v == 0:  # zero times (or zero over) anything
        yield from (("*", x, y, True) for y in ys)
        yield from (("/", x, y, True) for y in ys if y)


def _kind(op: str, q: Value) -> str:
    if op == "+" or (op == "-" and q == 0):
        return "sum"
    if op == "-":
        return "difference"
    return "product" if op == "*" or q == 1 else "quotient"


def _whole(v: Value) -> bool:
    return not isinstance(v, Fraction) or v.denominator == 1


def _pair(p: Value, q: Value) -> tuple[int, int]:
    return (int(min(p, q)), int(max(p, q)))


def _any(items: Iterator[object]) -> bool:
    return any(True for _ in items)


def _whole_values(hand: Hand) -> frozenset[Value]:
    """What the hand makes with every step whole (the search's integer-only value set)."""
    return reachable_values(hand, True)


@lru_cache(maxsize=1 << 15)
def within(hand: Hand, bound: Value) -> frozenset[Value]:
    """Every value the hand makes with no step past `bound` (its numbers may be)."""
    if len(hand) == 1:
        return frozenset(hand)
    values: set[Value] = set()
    for left, right in splits(hand):
        right_values = within(right, bound)
        for a in within(left, bound):
            for b in right_values:
                values.update(v for v in combine_values(a, b, False) if v <= bound)
    return frozenset(values)


# A cancelling pair: two equal numbers of the solution whose value never matters, written both
# as any other number y the solution makes the same (x-x, x/x, (A+x)-x, A*x/x, A+x/x). As a
# function of y the solution is a ratio of polynomials of degree at most 2 (y appears twice), so
# agreeing at x and at two more values of y proves it constant: exact, with no algebra.


def _cancel_needed(hand: Hand, goal: int, solutions: list[str]) -> bool:
    """Whether every tree making the goal has a cancelling pair: refuted by a printed solution
    when one has none (nearly always), else proved over every tree of non-negative steps."""
    if len(set(hand)) == len(hand):
        return False
    if any(cancelling(parse(text)) is None for text in solutions):
        return False
    return all(cancelling(tree) is not None for tree in trees(hand, goal))


def cancelling(expr: Expr) -> tuple[int, int] | None:
    """The positions (leaves left to right) of the first cancelling pair, or None."""
    leaves = list(_leaves(expr))
    goal, _ = _evaluate(expr, {})
    for i, j in combinations(range(len(leaves)), 2):
        if leaves[i] == leaves[j] and _constant(expr, (i, j), leaves[i], goal):
            return i, j
    return None


def _constant(expr: Expr, pair: tuple[int, int], x: int, goal: Value) -> bool:
    """Whether the value stays `goal` for every y written at both leaves of the pair."""
    agreeing, y = 0, x
    while agreeing < 2:  # a finite set of y divides by zero somewhere: skip past it
        y += 1
        try:
            moved, _ = _evaluate(expr, dict.fromkeys(pair, y))
        except DivisionByZeroError:
            continue
        if moved != goal:
            return False
        agreeing += 1
    return True


def _evaluate(expr: Expr, swap: dict[int, Value], start: int = 0) -> tuple[Value, int]:
    """The value with leaf i (counted from `start`) worth swap[i] where given, and the count
    after the last leaf."""
    if isinstance(expr, Num):
        return swap.get(start, expr.value), start + 1
    a, middle = _evaluate(expr.left, swap, start)
    b, end = _evaluate(expr.right, swap, middle)
    return apply(expr.op, a, b), end


def _leaves(expr: Expr) -> Iterator[int]:
    if isinstance(expr, Num):
        yield expr.value
    else:
        yield from _leaves(expr.left)
        yield from _leaves(expr.right)


def trees(hand: Hand, v: Value) -> Iterator[Expr]:
    """Every tree of non-negative steps over the hand worth v, + and * in one order."""
    if len(hand) == 1:
        if hand[0] == v:
            yield Num(hand[0])
        return
    for left, right in splits(hand):
        for x in reachable_values(left):
            for op, p, q, p_is_x in _partners(v, x, reachable_values(right)):
                p_hand, q_hand = (left, right) if p_is_x else (right, left)
                for p_tree in trees(p_hand, p):
                    for q_tree in trees(q_hand, q):
                        yield BinOp(op, p_tree, q_tree)


# Examples: the step of a solution that shows each theme.


def _example(code: str, solution: str, goal: int) -> Example:
    expr = parse(solution)
    steps: list[Step] = []
    _walk(expr, steps)
    if code == "fraction":
        step = next(s for s in steps if not _whole(s[3]))
    elif code == "beyond":
        step = next(s for s in steps if _size(s[3]) > goal)
    elif code == "cancel":
        return _cancel_example(expr, solution)
    elif code == "unique":
        return Example(code, solution, solution, goal)
    else:
        step = steps[-1]
    return Example(code, solution, _written(step), step[3])


def first_step(solution: str) -> str | None:
    """The step a solution does first, as a player would start it: the leftmost step of two
    of the hand's own numbers (`8/(3-8/3)`: `8/3`), written by the sizes it combines; None for
    a lone number, which has no step."""
    steps: list[Step] = []
    _walk(parse(solution), steps)
    return _written(steps[0]) if steps else None


def _walk(expr: Expr, steps: list[Step]) -> Value:
    """The value of expr; appends each step (operands, operator, result) in the order done."""
    if isinstance(expr, Num):
        return expr.value
    a, b = _walk(expr.left, steps), _walk(expr.right, steps)
    result = apply(expr.op, a, b)
    steps.append((a, expr.op, b, result))
    return result


def _written(step: Step) -> str:
    """A step by the magnitudes it combines (a sum of opposite signs is a difference)."""
    a, op, b, result = step
    p, q = _size(a), _size(b)
    if op in "+-":
        op = "+" if p + q == _size(result) else "-"
        if op == "-" and p < q:
            p, q = q, p
    return f"{_shown(p)}{op}{_shown(q)}"


def _size(v: Value) -> Value:
    return -v if v < 0 else v


def _shown(v: Value) -> str:
    return str(v) if _whole(v) else f"({v})"


def _cancel_example(expr: Expr, solution: str) -> Example:
    pair = cancelling(expr)
    assert pair is not None  # every tree of the hand has one
    x = list(_leaves(expr))[pair[0]]
    additive = _joining(expr, pair).op in "+-"
    return Example("cancel", solution, f"{x}-{x}" if additive else f"{x}/{x}",
                   0 if additive else 1)


def _joining(expr: Expr, pair: tuple[int, int], start: int = 0) -> BinOp:
    """The smallest step whose parts hold both leaves of the pair (counted from `start`)."""
    assert isinstance(expr, BinOp)
    middle = start + len(list(_leaves(expr.left)))
    if pair[1] < middle:
        return _joining(expr.left, pair, start)
    if pair[0] >= middle:
        return _joining(expr.right, pair, middle)
    return expr


assert cancelling(parse("4*6+9-9")) == (2, 3) and cancelling(parse("8/(3-8/3)")) is None


# `python -m solver.themes 3 3 8 8 [--target 24]`: one hand's themes as a JSON line;
# `python -m solver.themes --time [--count 4]`: the cost per hand over every hand of 1..13.


def as_json(found: Themes) -> dict:
    """A hand's themes as plain JSON values (fractions as text)."""
    return {"numbers": list(found.numbers), "target": found.target, "themes": list(found.codes),
            "factor_pairs": [list(pair) for pair in found.factor_pairs],
            "solutions": found.solutions,
            "examples": {e.theme: {"solution": e.solution, "step": e.step, "value": str(e.value)}
                         for e in found.examples}}


def forget() -> None:
    """Empty every cache a hand's themes fill (the search's, the core's and this module's)."""
    from solver import native, search
    from solver.normal import clear_caches

    for cached in (search.reachable_values, search.ordered_values, search.splits, within,
                   _themes):
        cached.cache_clear()
    clear_caches()
    if native.CORE is not None:
        native.CORE.clear_cache()


def timings(count: int = 4, target: int = 24) -> dict[str, list[float]]:
    """Seconds per solvable hand of `count` numbers of 1..13: "cold" with every cache emptied
    before each hand, "warm" in one pass (the parts' value sets kept, as in a worker)."""
    from itertools import combinations_with_replacement
    from time import perf_counter

    hands = list(combinations_with_replacement(range(1, 14), count))
    runs: dict[str, list[float]] = {"cold": [], "warm": []}
    for run in runs:
        forget()
        for hand in hands:
            if run == "cold":
                forget()
            start = perf_counter()
            try:
                themes(hand, target)
            except UnsolvableError:
                continue
            runs[run].append(perf_counter() - start)
    return runs


def main(argv: Sequence[str]) -> int:
    import argparse
    import json

    from solver import native
    from solver.cli_numbers import whole_argument

    parser = argparse.ArgumentParser(prog="python -m solver.themes",
                                     description="What every solution of a hand needs.")
    parser.add_argument("--target", type=whole_argument, default=24)
    parser.add_argument("--time", action="store_true",
                        help="time every hand of 1..13 of --count numbers instead")
    parser.add_argument("--count", type=int, choices=range(1, MAX_THEMED + 1), default=4)
    parser.add_argument("numbers", nargs="*", type=whole_argument)
    args = parser.parse_args(argv)
    if args.time:
        print(f"native core: {native.STATUS}")
        for run, seconds in timings(args.count, args.target).items():
            seconds.sort()
            ms = [1000 * seconds[int(q * (len(seconds) - 1))] for q in (0.5, 0.99, 1)]
            print(f"{run}: {len(seconds)} hands, {1000 * sum(seconds):.0f} ms in all, per hand "
                  f"median {ms[0]:.2f} ms, 99th percentile {ms[1]:.2f} ms, most {ms[2]:.2f} ms")
        return 0
    try:
        print(json.dumps(as_json(themes(args.numbers, args.target))))
    except InputError as error:
        print(json.dumps({"numbers": args.numbers, "error": str(error)}))
        return 2
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
