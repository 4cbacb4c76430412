"""Precise feedback on an answer: how it misuses the hand's numbers, which step breaks a whole-steps
the rule, and the steps of a solution that hints give one at a time (never one that teaches
nothing).

Pure functions over the solver's expression trees: they run in the pool with the judging. The
wording stays in the games' rules and the catalogs; nothing here knows about Telegram.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from solver import BinOp, Expr, Num, canonical, parse, to_text
from solver.expr import Value, apply, numbers, value

Step = tuple[str, str]
"""A step of a solution: its ASCII text (e.g. "3-8/3") and its exact value (e.g. "1/3")."""


@dataclass(frozen=True)
class Overuse:
    """A number of the hand that an answer uses more often than the hand has it."""

    number: int
    used: int
    has: int


def absent(extra: Iterable[int], hand: Iterable[int]) -> tuple[int, ...]:
    """The numbers an answer uses that the hand does not have at all, each once, sorted."""
    dealt = set(hand)
    return tuple(sorted({n for n in extra if n not in dealt}))


def overused(extra: Iterable[int], hand: Iterable[int]) -> tuple[Overuse, ...]:
    """The hand's numbers an answer uses too often ("2 is used twice, the hand has one 2")."""
    more, dealt = Counter(extra), Counter(hand)
    return tuple(Overuse(n, dealt[n] + more[n], dealt[n]) for n in sorted(more) if dealt[n])


def tries_hand(expr: Expr, hand: Iterable[int], at_least: int) -> bool:
    """Whether a typed expression is an attempt at this hand: every number in it is one of
    the hand's (how often aside) and it has as many as an answer needs. Arithmetic on other
    numbers, and partial workings, are chatter; a number used too often is a wrong attempt,
    in every game alike."""
    used = numbers(expr)
    dealt = set(hand)
    return len(used) >= at_least and all(n in dealt for n in used)


# --- whole steps ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class BadStep:
    """The first step of an answer that breaks the rule of whole steps above zero, with the values
    it combines: `reason` is below_zero, zero, fraction or division_by_zero."""

    text: str
    reason: str


def first_bad_step(expr: Expr, low: int = 1) -> BadStep | None:
    """The first step (in the order it is worked out) whose result is not a whole number of at
    least `low`, or None when every step is fine. The step is shown with the values it combines
    ("4-9", not "(2+2)-9"), since those are what the player computed."""
    found = _walk(expr, low)
    return found if isinstance(found, BadStep) else None


def _walk(expr: Expr, low: int) -> int | BadStep:
    if isinstance(expr, Num):
        return expr.value
    a = _walk(expr.left, low)
    if isinstance(a, BadStep):
        return a
    b = _walk(expr.right, low)
    if isinstance(b, BadStep):
        return b
    text = to_text(BinOp(expr.op, Num(a), Num(b)))
    if expr.op == "/" and b == 0:
        return BadStep(text, "division_by_zero")
    result = apply(expr.op, a, b)
    if not isinstance(result, int):
        return BadStep(text, "fraction")
    if result < low:
        return BadStep(text, "zero" if result == 0 else "below_zero")
    return result


# --- hints ---------------------------------------------------------------------------------------
#
# A hint is a step of a solution, worked out in an order that teaches: never a step that leaves a
# number as it was (×1, ÷1, +0, −0, judged by value, so (13−12)×7 is one), since it costs the
# round half its points and says nothing. A solution is read as sums and products of terms
# (a − b + c is one sum, a ÷ b × c one product), so any two of a sum's or a product's ready terms
# may go first; the steps that teach go first, and a step that teaches nothing is folded into the
# next one shown ("1×10+14"). Every order is the same distinct solution (solver.normal).

HintStep = tuple[Expr, str]
"""A step as worked out: its expression tree (a part of the whole solution's tree) and value."""


@dataclass
class _Group:
    """A sum ("+") or a product ("*") of terms, each taken away (subtracted, divided) or not."""

    kind: str
    terms: list[tuple[bool, _Node]]


_Node = Expr | _Group


def trivial(step: BinOp) -> bool:
    """Whether a step leaves a number as it was: ×1, ÷1, +0, −0 (by value), or 0× and 0÷."""
    a, b = value(step.left), value(step.right)
    if step.op == "*":
        return 1 in (a, b) or 0 in (a, b)
    if step.op == "/":
        return b == 1 or a == 0
    return b == 0 or (step.op == "+" and a == 0)


def _grouped(expr: Expr) -> _Node:
    """The expression as nested sums and products, each holding all the terms it joins."""
    if isinstance(expr, Num):
        return expr
    kind = "+" if expr.op in "+-" else "*"
    terms: list[tuple[bool, _Node]] = []
    for away, side in ((False, expr.left), (expr.op in "-/", expr.right)):
        node = _grouped(side)
        if isinstance(node, _Group) and node.kind == kind:
            terms += [(away != inner, term) for inner, term in node.terms]
        else:
            terms.append((away, node))
    return _Group(kind, terms)


def _joined(kind: str, one: tuple[bool, _Node], other: tuple[bool, _Node]
            ) -> tuple[bool, BinOp]:
    """Two ready terms of a sum or product made one, never below zero: a − b, or b − a taken
    away when b is the larger."""
    (away, a), (other_away, b) = one, other
    assert not isinstance(a, _Group) and not isinstance(b, _Group), "terms worked out"
    if away == other_away:
        return away, BinOp(kind, a, b)
    kept, taken = (b, a) if away else (a, b)
    if kind == "*":
        return False, BinOp("/", kept, taken)
    if value(kept) >= value(taken):
        return False, BinOp("-", kept, taken)
    return True, BinOp("-", taken, kept)


def _groups(node: _Node) -> Iterator[_Group]:
    """Every sum and product, inner ones first."""
    if isinstance(node, _Group):
        for _, term in node.terms:
            yield from _groups(term)
        yield node


def _settled(node: _Node) -> _Node:
    """A sum or product left with one term is that term."""
    if isinstance(node, _Group):
        node.terms = [(away, _settled(term)) for away, term in node.terms]
        if len(node.terms) == 1:
            return node.terms[0][1]
    return node


def _next_step(root: _Group) -> tuple[_Group, int, int, tuple[bool, BinOp], bool]:
    """The next two ready terms to join: the first pair, inner groups first, whose step teaches
    something; else the first pair at all. With the group, the pair, the term and whether it
    teaches."""
    first = None
    for group in _groups(root):
        ready = [i for i, (_, term) in enumerate(group.terms) if not isinstance(term, _Group)]
        for x, i in enumerate(ready):
            for j in ready[x + 1:]:
                joined = _joined(group.kind, group.terms[i], group.terms[j])
                if not trivial(joined[1]):
                    return group, i, j, joined, True
                first = first or (group, i, j, joined, False)
    assert first is not None, "a group holds two terms"
    return first


def worked(solution: str | Expr) -> list[HintStep]:
    """The steps of a solution that teach, in the order a person may work them out, each with
    its value; the last is the whole answer (the solution's terms maybe in another order)."""
    root = _grouped(parse(solution) if isinstance(solution, str) else solution)
    shown: list[HintStep] = []
    while isinstance(root, _Group):
        group, i, j, joined, teaches = _next_step(root)
        group.terms[i] = joined
        del group.terms[j]
        root = _settled(root)
        if teaches:
            shown.append((joined[1], str(value(joined[1]))))
    if not shown or shown[-1][0] is not root:
        shown.append((root, str(value(root))))
    return shown


def together(solution: str | Expr) -> tuple[int, ...]:
    """The numbers a solution joins once what leaves a number as it was is taken out ("11 and
    13" of 1×1×11+13): a hint for a hand none of whose steps teach."""
    def kept(expr: Expr) -> Expr:
        if isinstance(expr, Num):
            return expr
        step = BinOp(expr.op, kept(expr.left), kept(expr.right))
        if not trivial(step):
            return step
        return step.left if value(step) == value(step.left) else step.right
    found = numbers(kept(parse(solution) if isinstance(solution, str) else solution))
    return tuple(found) if len(found) > 1 else ()


@dataclass(frozen=True)
class HintPlan:
    """What hints give from a hand's solutions: the steps of the one that teaches most (the last
    is the answer), or, when no step but the answer teaches, the numbers that go together."""

    steps: tuple[Step, ...] = ()
    together: tuple[int, ...] = ()


def hint_plan(solutions: Sequence[str], looked_at: int = 200) -> HintPlan:
    """The first of the solutions (simplest first) whose every step teaches, else the one of the
    first `looked_at` with the most steps that teach, one of them short of the answer (a step
    that makes the target already gives the answer away). When none has such a step, a hand of
    four is written every other way its solutions can be (1×1×11+13 is also 1+11+13−1, whose
    1+11 teaches); failing that, the numbers that go together."""
    if not solutions:
        return HintPlan()
    target = str(value(parse(solutions[0])))
    best: list[HintStep] = []
    mark = (False, -1)
    for solution in solutions[:looked_at]:
        shown = worked(solution)
        found = (_short_of(shown, target), sum(not trivial(expr) for expr, _ in shown
                                               if isinstance(expr, BinOp)))
        if found > mark:
            best, mark = shown, found
        if mark == (True, len(numbers(parse(solution))) - 1):
            break
    if not mark[0]:
        best = _rewritten(solutions, target) or []
    if best:
        return HintPlan(tuple((to_text(expr), found) for expr, found in best))
    return HintPlan(together=together(solutions[0]))


def _short_of(shown: Sequence[HintStep], target: str) -> bool:
    """Whether the steps hints would give of these (`hints_allowed`) stop short of the answer:
    none is the answer, and none makes the target already (2×12 of 2×12+2−2)."""
    given = shown[:hints_allowed(len(shown))]
    return len(shown) > 1 and all(found != target for _, found in given)


def hints_allowed(steps: int) -> int:
    """How many of a solution's steps hints give: never the last (it is the answer), nor the
    one before it, which leaves the answer a single step away ("12×(9+13) = 264" of
    12×(9+13)÷11); one at least."""
    return max(1, steps - 2)


REWRITTEN_UP_TO = 4  # numbers: every tree of four is 7,680 to try; of five, 430,080


def _rewritten(solutions: Sequence[str], target: str) -> list[HintStep] | None:
    """The steps of the first way to write one of the solutions (every tree over its numbers,
    none below zero on the way, the same distinct solution) that has a step that teaches short
    of the answer; None when there is none, or the hand is too large to try every tree."""
    hand = numbers(parse(solutions[0]))
    if len(hand) > REWRITTEN_UP_TO:
        return None
    distinct = {canonical(solution) for solution in solutions}
    for whole in _trees([Num(n) for n in hand]):
        if str(_value_of(whole)) == target and canonical(whole) in distinct:
            shown = worked(whole)
            if _short_of(shown, target):
                return shown
    return None


def _trees(leaves: Sequence[Expr]) -> Iterator[Expr]:
    """Every expression tree over the leaves, each used once, in any order and grouping."""
    if len(leaves) == 1:
        yield leaves[0]
        return
    for size in range(1, len(leaves)):
        for chosen in combinations(range(len(leaves)), size):
            left = [leaves[i] for i in chosen]
            right = [leaf for i, leaf in enumerate(leaves) if i not in chosen]
            for a in _trees(left):
                for b in _trees(right):
                    for op in "+-*/":
                        yield BinOp(op, a, b)


def _value_of(expr: Expr) -> Value | None:
    """The value of a tree none of whose parts is below zero or divides by zero (else None)."""
    if isinstance(expr, Num):
        return expr.value
    a, b = _value_of(expr.left), _value_of(expr.right)
    if a is None or b is None or (expr.op == "/" and b == 0):
        return None
    found = apply(expr.op, a, b)
    return found if found >= 0 else None


assert [s.number for s in overused([2], (2, 3, 4, 6))] == [2]
assert first_bad_step(parse("(2+2-9)*3")) == BadStep("4-9", "below_zero")
assert first_bad_step(parse("7/2*2")) == BadStep("7/2", "fraction")
assert hint_plan(["8/(3-8/3)"]).steps == (("8/3", "8/3"), ("3-8/3", "1/3"), ("8/(3-8/3)", "24"))
assert hint_plan(["1*10+5+9"]).steps == (("5+9", "14"), ("1*10+5+9", "24"))
assert hint_plan(["1*1*11+13"]).steps[0] == ("1+11", "12")  # 1+11+13-1
assert together("1*1*11+13") == (11, 13)
