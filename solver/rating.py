"""How hard a hand feels to people: the chance that a player's habitual steps find a solution.

Solution counts predict human solve times poorly (1 1 4 6 and 1 5 5 5 both have one solution; the
first is the easiest hand, the second among the hardest): what matters is whether the steps people
try first lead anywhere. So a player is a random walk: combine two numbers, repeat, and with two
left see at once whether they make the target. Steps are picked with weight exp(-cost): products,
divisors of the target and the target itself first, big results later, and wasteful steps (x-x,
small/large, ×1, ÷1, ±0) almost never. Difficulty = -log2(chance the walk ends on the target), so
hands that need a wasteful step, like 6/(1-3/4), are the hardest, as for people. Five round-number
weights, fitted to 4nums.com times, and no hand known by name.

With five or six numbers a player also looks for numbers to set aside: two equal ones (x-x makes
0, which swallows whatever is left over: 12+12+(7-7)*4), a 1 or two numbers one apart (×1), three
where two make the third (a+b-c). Such a hand is as easy as the better of the walk (along the
likeliest steps, and one known solution's, down to four numbers, to stay fast) and the best
shortcut: 2**-cost of seeing it times the chance of finishing what it leaves. Four numbers keep the
walk alone, as fitted. Levels are cut per count of numbers, each splitting deals about 40/35/25 %.

The walk visits thousands of states for a six-number hand (tens of milliseconds), so the bot's
usual deals, four, five or six numbers 1..13 for 24, were rated once by this model and are looked
up (solver.rating_table, `difficulty_of`); every other hand is rated here, and kept
(`modelled_difficulty`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from solver import rating_table
from solver.errors import InputError, UnsolvableError
from solver.expr import Expr, Num, Value, apply, divide
from solver.parser import parse
from solver.solutions import first_solution, validate_hand

Hand = tuple[int, ...]  # the numbers dealt, sorted
State = tuple[Value, ...]  # the numbers a player still holds, sorted
Steps = tuple[tuple[Value, float], ...]  # (result, weight) of each operation on two numbers
Moves = tuple[tuple[float, State], ...]  # (probability, next state) of each step from a state
Tree = Value | tuple  # a solution being worked out: a value, or (op, left tree, right tree)

MAX_RATED = 6
EXACT = 4  # states of up to this many numbers are followed exactly; bigger ones along a beam
BEAM = 12  # at a bigger state, how many of the likeliest steps are followed

# Costs of a step (its weight is exp(-cost)): habits of players, fitted as round numbers.
WASTEFUL = 8.0  # a result below one or an identity: x-x, small/large, x*1, x/1, x+0, x-0
ADDITIVE = 0.5  # + and - are tried a little later than * and /: the target is seen as a product
BIG = 1.0  # per doubling of the result past the target
FACTOR = -1.0  # the result is a whole number dividing the target: it looks like progress
HIT = -1.5  # the result is the target itself (on top of FACTOR)

# Costs (in bits) of seeing numbers to set aside, with five numbers or more: a player who sees
# them is left with fewer numbers. Round numbers, like the costs above.
SPOT = 1.0  # a 1 or a 0 in the hand, or two equal numbers (x-x = 0, x/x = 1)
SPOT_NEXT = 2.0  # two numbers one apart: (a+1)-a = 1
SPOT_STEP = 2.5  # three numbers where two make the third: a+b-c = 0, a*b-c = 0

LEVELS = ("easy", "medium", "hard")
# Where medium and hard start, by count of numbers (fewer than four: as four). Each pair splits the
# solvable hands of 1..13 to 24 about 40 / 35 / 25 % easy / medium / hard: for four numbers all
# 1362 of them, for five and six the seeded samples of bench/bench_levels.py. With more
# numbers, more shortcuts: a hard six-number hand is the hardest quarter of its kind.
CUTS = {4: (4.1, 5.5), 5: (4.2, 5.2), 6: (2.7, 4.3)}


@dataclass(frozen=True)
class Rating:
    """`difficulty`: -log2 of the model player's chance of success, 0 when it cannot fail;
    higher is harder. `level`: "easy", "medium" or "hard"."""

    difficulty: float
    level: str


def rating_of(numbers: Sequence[int], target: int = 24) -> Rating:
    """The difficulty of a solvable hand and its level; UnsolvableError when it has no solution.

    Takes 1 to 6 numbers and any whole target; InputError for what the solver does not take.
    """
    numbers = list(numbers)
    if not 1 <= len(numbers) <= MAX_RATED:
        raise InputError(f"Give between 1 and {MAX_RATED} numbers to rate.", count=len(numbers))
    hand, goal = validate_hand(numbers, target)
    difficulty = difficulty_of(hand, target)
    if difficulty is None:
        shown = " ".join(map(str, hand))
        raise UnsolvableError(f"{shown} cannot make {goal}, so it has no difficulty.",
                              numbers=list(hand), target=goal)
    return Rating(difficulty, level_of(difficulty, len(hand)))


def difficulty_of(hand: Hand, target: int) -> float | None:
    """The difficulty of a sorted hand, None when it has no solution: the table's for the bot's
    usual deals (rated once, ahead: solver.rating_table), the model's for any other."""
    if rating_table.covers(hand, target):
        return rating_table.recorded(hand)
    return modelled_difficulty(hand, target)


@lru_cache(maxsize=1 << 14)
def modelled_difficulty(hand: Hand, target: int) -> float | None:
    """The model's difficulty of a sorted hand (-log2 of the walk's chance), None when the walk
    cannot succeed (the hand has no solution). Kept per hand: a deal meets a hand again."""
    chance = _hand_chance(hand, target)
    if chance <= 0.0:
        return None
    return max(0.0, -math.log2(chance)) + 0.0  # + 0.0 turns -0.0 into 0.0


def rate(numbers: Sequence[int], target: int = 24) -> float:
    """The difficulty of a solvable hand: higher is harder, 0 when a player cannot go wrong."""
    return rating_of(numbers, target).difficulty


def level(numbers: Sequence[int], target: int = 24) -> str:
    """"easy", "medium" or "hard" for a solvable hand."""
    return rating_of(numbers, target).level


def level_of(difficulty: float, count: int = 4) -> str:
    """The level a difficulty falls in, for a hand of `count` numbers."""
    medium_from, hard_from = CUTS.get(count, CUTS[4])
    if difficulty >= hard_from:
        return "hard"
    return "medium" if difficulty >= medium_from else "easy"


def step_cost(a: Value, b: Value, op: str, result: Value, target: Value) -> float:
    """How reluctant a player is to take the step `a op b = result` (a >= b; op "\\" is b/a)."""
    if isinstance(result, int):
        below_one = result == 0
    else:
        below_one = abs(result.numerator) < result.denominator
    if below_one or (b == 1 and op in "*/") or (b == 0 and op in "+-"):
        return WASTEFUL
    cost = ADDITIVE if op in "+-" else 0.0
    size, scale = abs(float(result)), max(abs(float(target)), 1.0)
    if size > scale:
        cost += BIG * math.log2(size / scale)
    if isinstance(result, int) and target % result == 0:
        cost += FACTOR + (HIT if result == target else 0.0)
    return cost


@lru_cache(maxsize=1 << 14, typed=True)  # typed: see _kinds
def _steps(a: Value, b: Value, target: Value) -> Steps:
    """Each operation on two numbers (a >= b) as (result, weight); the weights are not normalised.

    Results stay non-negative for a target >= 0, as any solution can (see solver.search); for a
    negative target a player may also take the smaller minus the larger.
    """
    results = [("+", a + b), ("-", a - b), ("*", a * b)]
    if b:
        results.append(("/", divide(a, b)))
    if a and a != b:
        results.append(("\\", divide(b, a)))
        if target < 0:
            results.append(("-", b - a))
    return tuple((r, math.exp(-step_cost(a, b, op, r, target))) for op, r in results)


def _pairs(state: State) -> Iterator[tuple[Value, Value, State]]:
    """(larger, smaller, the other numbers) for each pair a player can pick from a state."""
    seen = set()
    for i in range(len(state)):
        for j in range(i + 1, len(state)):
            if (state[i], state[j]) not in seen:  # equal numbers are one choice for a player
                seen.add((state[i], state[j]))
                yield state[j], state[i], state[:i] + state[i + 1:j] + state[j + 1:]


def _makes(a: Value, b: Value, target: Value) -> bool:
    """Whether one operation on a and b gives the target (what a player sees at a glance).

    In integers: with a = p/q, b = r/s and the target u/v, each test is one cross-multiplication
    (Fractions would be built and reduced ten times over, in the innermost loop).
    """
    p, q, r, s = a.numerator, a.denominator, b.numerator, b.denominator
    u, v = target.numerator, target.denominator
    ps, rq, goal = p * s * v, r * q * v, u * q * s
    return (ps + rq == goal or ps - rq == goal or rq - ps == goal or p * r * v == goal
            or (r != 0 and ps == u * r * q) or (p != 0 and rq == u * p * s))


def _moves(state: State, target: Value) -> Moves:
    """Each step a player can take from a state, as (probability, next state)."""
    moves = [(weight, tuple(sorted((*rest, result))))
             for a, b, rest in _pairs(state) for result, weight in _steps(a, b, target)]
    total = sum(weight for weight, _ in moves)
    return tuple((weight / total, after) for weight, after in moves)


def _kinds(state: State) -> tuple[type, ...]:
    """The type of each number of a state, for the caches' keys. The model tells 2 from a whole
    Fraction(2) (only an int result looks like a factor of the target, see step_cost), and so
    must its caches: keyed by value alone, whichever of the two came first was kept for both,
    and a hand's difficulty depended on the hands rated before it in the process."""
    return tuple(map(type, state))


def _chance(state: State, target: Value) -> float:
    """The chance that a walk from this state ends on the target (big states: along the beam)."""
    return _kept_chance(state, _kinds(state), target)


@lru_cache(maxsize=1 << 15)
def _kept_chance(state: State, kinds: tuple[type, ...], target: Value) -> float:
    """_chance, kept per state and kinds of its numbers."""
    if len(state) == 1:
        return 1.0 if state[0] == target else 0.0
    if len(state) == 2:
        return 1.0 if _makes(state[0], state[1], target) else 0.0
    if len(state) == 3:
        return _last_choice(state, target)
    moves = _moves(state, target)
    if len(state) > EXACT:
        return _beam_chance(moves, target, ())
    return sum(p * _chance(after, target) for p, after in moves)


def _last_choice(state: State, target: Value) -> float:
    """The chance from three numbers: the weight of the steps whose result and the third number
    make the target. (The same sum as for bigger states, without building the states.)"""
    total = hits = 0.0
    for a, b, (c,) in _pairs(state):
        for result, weight in _steps(a, b, target):
            total += weight
            if _makes(result, c, target):
                hits += weight
    return hits / total


def _beam_chance(moves: Moves, target: Value, path: tuple[State, ...]) -> float:
    """The chance from a big state, following only its BEAM likeliest steps (and the next step of
    a known solution's path, if given), as if the others succeeded as often on average."""
    followed = sorted(moves, key=lambda move: -move[0])[:BEAM]
    if path:
        followed += [move for move in moves if move[1] == path[0] and move not in followed]
    chance = 0.0
    for p, after in followed:
        if path and after == path[0]:
            chance += p * _guided_chance(after, target, path[1:])
        else:
            chance += p * _chance(after, target)
    return chance / sum(p for p, _ in followed)


def _guided_chance(state: State, target: Value, path: tuple[State, ...]) -> float:
    """The chance from a state on a known solution's path: the beam always follows that path."""
    if len(state) <= EXACT or not path:
        return _chance(state, target)
    return _beam_chance(_moves(state, target), target, path)


def _hand_chance(hand: Hand, target: int) -> float:
    """The chance that a player makes the target from a whole hand: a walk for up to four
    numbers; from five on, the better of a walk and a shortcut (numbers set aside)."""
    if len(hand) <= EXACT:
        return _chance(hand, target)
    path = _solution_path(hand, target)
    if path is None:
        return 0.0
    return max(_guided_chance(hand, target, path), _shortcut_chance(hand, target))


def _asides(hand: Hand) -> Iterator[tuple[float, bool, Hand]]:
    """(cost, whether it makes 0, the numbers kept) for each set of numbers a player can put aside
    in a sorted hand. A 0 swallows whatever the solution leaves over (A + 0*rest); a 1 leaves all
    the other numbers to make the target (A*1)."""
    def without(*picked: int) -> Hand:
        return tuple(x for i, x in enumerate(hand) if i not in picked)

    for i, x in enumerate(hand):
        if x in (0, 1):
            yield SPOT, x == 0, without(i)
    for i, j in itertools.combinations(range(len(hand)), 2):
        if hand[i] == hand[j]:
            yield SPOT, True, without(i, j)
        elif hand[j] - hand[i] == 1:
            yield SPOT_NEXT, False, without(i, j)
    for i, j, k in itertools.permutations(range(len(hand)), 3):
        a, b, c = hand[i], hand[j], hand[k]
        if i < j and (a + b == c or a * b == c):
            yield SPOT_STEP, True, without(i, j, k)


def _shortcut_chance(hand: Hand, target: int) -> float:
    """The chance of a player who sets numbers aside first: 2**-cost of seeing them, times the
    chance of making the target from the numbers kept (any of them, when the aside makes 0)."""
    best = 0.0
    for cost, zero, rest in set(_asides(hand)):
        if zero:
            kept = 1.0 if target == 0 else _spare_chance(rest, target)
        else:
            kept = _hand_chance(rest, target)
        best = max(best, 2.0 ** -cost * kept)
    return best


def _spare_chance(state: State, target: Value) -> float:
    """The chance of a walk that need not use every number (a zero will swallow the others):
    it succeeds as soon as it holds the target or two numbers that make it."""
    return _kept_spare_chance(state, _kinds(state), target)


@lru_cache(maxsize=1 << 14)
def _kept_spare_chance(state: State, kinds: tuple[type, ...], target: Value) -> float:
    """_spare_chance, kept per state and kinds of its numbers."""
    if target in state or any(_makes(a, b, target) for a, b, _ in _pairs(state)):
        return 1.0
    if len(state) <= 2:
        return 0.0
    return sum(p * _spare_chance(after, target) for p, after in _moves(state, target))


def _solution_path(hand: Hand, target: int) -> tuple[State, ...] | None:
    """The states one solution passes through, step by step; None when the hand has none."""
    text = first_solution(hand, target)
    if text is None:
        return None
    tree, path = _tree(parse(text)), []
    while isinstance(tree, tuple):
        tree = _contract(tree)
        path.append(tuple(sorted(_values(tree))))
    return tuple(path)


def _tree(expr: Expr) -> Tree:
    return expr.value if isinstance(expr, Num) else (expr.op, _tree(expr.left), _tree(expr.right))


def _contract(tree: tuple) -> Tree:
    """The tree with its leftmost operation on two plain values carried out."""
    op, left, right = tree
    if isinstance(left, tuple):
        return (op, _contract(left), right)
    if isinstance(right, tuple):
        return (op, left, _contract(right))
    return apply(op, left, right)


def _values(tree: Tree) -> list[Value]:
    """The values a player holds while working out a solution."""
    if isinstance(tree, tuple):
        return _values(tree[1]) + _values(tree[2])
    return [tree]


assert level_of(0.0) == "easy" and level_of(5.5) == "hard" and level_of(5.0, 6) == "hard"
assert _steps(3, 1, 24)[2] == (3, math.exp(-WASTEFUL))  # 3*1 wastes the 1
assert _contract(("/", 8, ("-", 3, ("/", 8, 3)))) == ("/", 8, ("-", 3, Fraction(8, 3)))
assert _makes(Fraction(1, 3), 8, 24) and not _makes(0, 0, 1) and _makes(2, 5, Fraction(2, 5))
