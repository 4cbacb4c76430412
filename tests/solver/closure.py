"""The truth the equivalence rules define, computed the slow way (test code only).

For a hand and a target: every expression tree over the hand that reaches the target, joined
(union-find) whenever one rule, applied once at one node, turns one tree into the other. The
connected groups are the distinct solutions. Nothing here is shared with `solver.normal`: the
rules are rewrites of trees, as the solver issue states them (X, Y, A, B, C any sub-trees; Z
one worth zero, O one worth one; every rewrite goes both ways):

1. A+B = B+A, A*B = B*A; (A+B)+C = A+(B+C), (A*B)*C = A*(B*C).
2. A+(B-C) = (A+B)-C; (A-B)-C = A-(B+C); A-(B-C) = (A+C)-B; and the same with * and /.
3. X+E = X-E', X-E = X+E', E*F = E'*F', E/F = E'/F', where E' is E with one subtraction turned
   round (found through the factors of products and quotients): E' is worth -E. And -Z is Z:
   a part worth zero may be turned round anywhere, also at the top of a solution to 0.
4. A-Z = A+Z; A/O = A*O; Z/A = Z*A; Z*Z' = Z+Z'; (A+Z)∘B = Z+(A∘B) and B∘(A+Z) = Z+(B∘A);
   (A*O)∘B = O*(A∘B) and B∘(A*O) = O*(B∘A), for ∘ any of + - * /; and Z*A = Z*A' for any A'
   over the same numbers ("whatever is multiplied by a zero counts once").
5. With X and Y of equal value: (A*X)/Y = (A+X)-Y; (A*X)/(B*Y) = ((A/B)+X)-Y;
   ((A+X)-Y)∘B = ((A∘B)+X)-Y and B∘((A+X)-Y) = ((B∘A)+X)-Y; and X/Y = Y/X (a cancelled pair
   has no order, as (A+X)-Y = (A+Y)-X already says beside anything else).

Trees are hash-consed into a `Forest` (an id per distinct tree). The operands of `+` and `*` are
stored sorted, which is rule 1's commutativity applied once and for all; every other rule is
matched against both orders of those operands.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from fractions import Fraction
from itertools import combinations

from solver.expr import BinOp, Expr, Num

Value = int | Fraction
LEAF = "#"
ZERO_TIMES = "0*"  # a marker node: "a zero times whatever these numbers make" (rule 4)


def _div(a: Value, b: Value) -> Value:
    if isinstance(a, int) and isinstance(b, int):
        return a // b if a % b == 0 else Fraction(a, b)
    q = Fraction(a) / b
    return q.numerator if q.denominator == 1 else q


def _wanted(target: Value, a: Value) -> Iterator[tuple[str, Value | None, bool]]:
    """(operation, value the other side needs, whether side a comes first) to make the target;
    None: any value will do (zero times, or zero divided by, anything)."""
    yield "+", target - a, True
    yield "-", a - target, True
    yield "-", target + a, False
    if a != 0:
        yield "*", _div(target, a), True
        yield "/", target * a, False
    elif target == 0:
        yield "*", None, True
        yield "/", None, True
    if target != 0:
        yield "/", _div(a, target), True


class Forest:
    """Hash-consed expression trees with their values and the numbers they use."""

    def __init__(self) -> None:
        self._ids: dict[tuple, int] = {}
        self.node: list[tuple] = []
        self.value: list[Value] = []
        self.numbers: list[tuple[int, ...]] = []
        self._by_value: dict[tuple[int, ...], dict[Value, list[int]]] = {}
        self._flips: dict[int, tuple[int, ...]] = {}
        self._neighbours: dict[int, tuple[int, ...]] = {}
        self._templates: dict[int, tuple[int, ...]] = {}
        self._reaching: dict[tuple[tuple[int, ...], Value], list[int]] = {}

    # -- building ------------------------------------------------------------------------------

    def _intern(self, node: tuple, value: Value, numbers: tuple[int, ...]) -> int:
        found = self._ids.get(node)
        if found is None:
            found = len(self.node)
            self._ids[node] = found
            self.node.append(node)
            self.value.append(value)
            self.numbers.append(numbers)
        return found

    def leaf(self, n: int) -> int:
        return self._intern((LEAF, n), n, (n,))

    def mk(self, op: str, a: int | None, b: int | None) -> int | None:
        """The tree `a op b`; None when an operand is None or it divides by zero."""
        if a is None or b is None:
            return None
        va, vb = self.value[a], self.value[b]
        if op == "+":
            v = va + vb
        elif op == "-":
            v = va - vb
        elif op == "*":
            v = va * vb
        elif vb == 0:
            return None
        else:
            v = _div(va, vb)
        if op in "+*" and a > b:
            a, b = b, a
        return self._intern((op, a, b), v, tuple(sorted(self.numbers[a] + self.numbers[b])))

    def marker(self, zero: int, numbers: tuple[int, ...]) -> int:
        return self._intern((ZERO_TIMES, zero, numbers), 0, ())

    def from_expr(self, expr: Expr) -> int | None:
        """The id of a `solver.expr` tree."""
        if isinstance(expr, Num):
            return self.leaf(expr.value)
        return self.mk(expr.op, self.from_expr(expr.left), self.from_expr(expr.right))

    def to_expr(self, t: int) -> Expr:
        """The `solver.expr` tree of an id."""
        node = self.node[t]
        if node[0] == LEAF:
            return Num(node[1])
        return BinOp(node[0], self.to_expr(node[1]), self.to_expr(node[2]))

    def text(self, t: int) -> str:
        node = self.node[t]
        if node[0] == LEAF:
            return str(node[1])
        return f"({self.text(node[1])}{node[0]}{self.text(node[2])})"

    # -- every tree of a hand ------------------------------------------------------------------

    def by_value(self, hand: tuple[int, ...]) -> dict[Value, list[int]]:
        """Every tree over the sorted hand, grouped by value."""
        found = self._by_value.get(hand)
        if found is not None:
            return found
        groups: dict[Value, set[int]] = {}
        if len(hand) == 1:
            groups[hand[0]] = {self.leaf(hand[0])}
        for left, right in _splits(hand):
            lefts, rights = self.by_value(left), self.by_value(right)
            for la in lefts.values():
                for rb in rights.values():
                    for a in la:
                        for b in rb:
                            for x, y in ((a, b), (b, a)):
                                for op in "+-*/":
                                    t = self.mk(op, x, y)
                                    if t is not None:
                                        groups.setdefault(self.value[t], set()).add(t)
        result = {v: sorted(ts) for v, ts in groups.items()}
        self._by_value[hand] = result
        return result

    def reaching(self, hand: Iterable[int], target: Value) -> list[int]:
        """Every tree over the hand worth the target; big hands build only what they need."""
        hand = tuple(sorted(hand))
        if len(hand) <= 3:
            return self.by_value(hand).get(target, [])
        memo = (hand, target)
        found = self._reaching.get(memo)
        if found is not None:
            return found
        out: set[int] = set()
        for left, right in _splits(hand):
            small, big = (left, right) if len(left) <= len(right) else (right, left)
            for va, la in self.by_value(small).items():
                for op, vb, small_first in _wanted(target, va):
                    rb = self.reaching(big, vb) if vb is not None else self._all(big)
                    for a in la:
                        for b in rb:
                            t = self.mk(op, a, b) if small_first else self.mk(op, b, a)
                            if t is not None and self.value[t] == target:
                                out.add(t)
        found = sorted(out)
        self._reaching[memo] = found
        return found

    def _all(self, hand: tuple[int, ...]) -> list[int]:
        """Every tree over a hand (a zero times, or divided by, any of them)."""
        return [t for ts in self.by_value(hand).values() for t in ts]

    # -- the rules -----------------------------------------------------------------------------

    def flips(self, t: int) -> tuple[int, ...]:
        """Rule 3: the tree written with the opposite sign, by turning one subtraction round
        (reached through the factors of products and quotients)."""
        found = self._flips.get(t)
        if found is None:
            node = self.node[t]
            out: list[int | None] = []
            op, a, b = node if node[0] != LEAF else (LEAF, 0, 0)
            if op == "-":
                out.append(self.mk("-", b, a))
            elif op in "*/":
                out += [self.mk(op, f, b) for f in self.flips(a)]
                out += [self.mk(op, a, f) for f in self.flips(b)]
            found = tuple(x for x in out if x is not None)
            self._flips[t] = found
        return found

    def neighbours(self, t: int) -> tuple[int, ...]:
        """Every tree that one rule applied once at one node of t makes."""
        found = self._neighbours.get(t)
        if found is None:
            node = self.node[t]
            out: set[int | None] = set()
            if node[0] != LEAF:
                op, a, b = node
                out.update(self._at_root(t))
                out.update(self.mk(op, x, b) for x in self.neighbours(a))
                out.update(self.mk(op, a, y) for y in self.neighbours(b))
            out.discard(None)
            out.discard(t)
            found = tuple(x for x in out if x is not None)
            self._neighbours[t] = found
        return found

    def templates(self, t: int) -> tuple[int, ...]:
        """Rule 4, "whatever is multiplied by a zero counts once": for each node Z*A (Z worth 0)
        the tree with that node replaced by a marker of Z and A's numbers. Trees sharing a
        template are one solution."""
        found = self._templates.get(t)
        if found is None:
            node = self.node[t]
            out: set[int | None] = set()
            if node[0] != LEAF:
                op, a, b = node
                if op == "*":
                    for z, x in ((a, b), (b, a)):
                        if self.value[z] == 0:
                            out.add(self.marker(z, self.numbers[x]))
                out.update(self.mk(op, x, b) for x in self.templates(a))
                out.update(self.mk(op, a, y) for y in self.templates(b))
            found = tuple(x for x in out if x is not None)
            self._templates[t] = found
        return found

    def _orders(self, a: int, b: int) -> tuple[tuple[int, int], ...]:
        return ((a, b), (b, a)) if a != b else ((a, b),)

    def _kids(self, t: int, op: str) -> tuple[int, int] | None:
        node = self.node[t]
        return (node[1], node[2]) if node[0] == op else None

    def _at_root(self, t: int) -> Iterator[int | None]:
        op, a, b = self.node[t]
        yield from self._rule1(op, a, b)
        yield from self._rule2(op, a, b)
        yield from self._rule3(t, op, a, b)
        yield from self._rule4(op, a, b)
        yield from self._rule5(op, a, b)

    def _rule1(self, op: str, a: int, b: int) -> Iterator[int | None]:
        """(A+B)+C = A+(B+C), (A*B)*C = A*(B*C); commutativity is in `mk`."""
        if op in "+*":
            for x, y in self._orders(a, b):
                kids = self._kids(x, op)
                if kids:
                    p, q = kids
                    yield self.mk(op, p, self.mk(op, q, y))
                    yield self.mk(op, q, self.mk(op, p, y))

    def _rule2(self, op: str, a: int, b: int) -> Iterator[int | None]:
        """a+(b-c) = (a+b)-c; (a-b)-c = a-(b+c); a-(b-c) = (a+c)-b; and the same for * and /."""
        for plus, minus in (("+", "-"), ("*", "/")):
            if op == plus:
                for x, y in self._orders(a, b):
                    kids = self._kids(y, minus)
                    if kids:  # A+(B-C) -> (A+B)-C
                        yield self.mk(minus, self.mk(plus, x, kids[0]), kids[1])
            if op == minus:
                left, right = self._kids(a, plus), self._kids(a, minus)
                if left:
                    for p, q in self._orders(*left):
                        yield self.mk(plus, p, self.mk(minus, q, b))  # (A+B)-C -> A+(B-C)
                        yield self.mk(minus, p, self.mk(minus, b, q))  # (A+C)-B -> A-(B-C)
                if right:  # (A-B)-C -> A-(B+C)
                    yield self.mk(minus, right[0], self.mk(plus, right[1], b))
                kids = self._kids(b, plus)
                if kids:  # A-(B+C) -> (A-B)-C
                    for p, q in self._orders(*kids):
                        yield self.mk(minus, self.mk(minus, a, p), q)
                kids = self._kids(b, minus)
                if kids:  # A-(B-C) -> (A+C)-B
                    yield self.mk(minus, self.mk(plus, a, kids[1]), kids[0])

    def _rule3(self, t: int, op: str, a: int, b: int) -> Iterator[int | None]:
        """X+E = X-(-E), X-E = X+(-E), E*F = (-E)*(-F), E/F = (-E)/(-F); and -Z is Z."""
        if op == "+":
            for x, e in self._orders(a, b):
                for f in self.flips(e):
                    yield self.mk("-", x, f)
        elif op == "-":
            for f in self.flips(b):
                yield self.mk("+", a, f)
        else:
            for f in self.flips(a):
                for g in self.flips(b):
                    yield self.mk(op, f, g)
        if self.value[t] == 0:
            yield from self.flips(t)
        if op == "/" and self.value[t] == 1:  # the order of a cancelled pair is no idea either
            yield self.mk("/", b, a)

    def _rule4(self, op: str, a: int, b: int) -> Iterator[int | None]:
        """Z worth 0, O worth 1: A-Z = A+Z; A/O = A*O; Z/A = Z*A; Z*Z' = Z+Z';
        (A+Z)∘B = Z+(A∘B); (A*O)∘B = O*(A∘B), on either side of ∘."""
        value = self.value
        if op == "-" and value[b] == 0:
            yield self.mk("+", a, b)
        if op == "/" and value[b] == 1:
            yield self.mk("*", a, b)
        if op == "/" and value[a] == 0:
            yield self.mk("*", a, b)
        if op in "+*" and value[a] == 0 and value[b] == 0:
            yield self.mk("*" if op == "+" else "+", a, b)
        for x, y in self._orders(a, b):
            if op == "+" and value[y] == 0:
                yield self.mk("-", x, y)
            if op == "*" and value[y] == 1:
                yield self.mk("/", x, y)
            if op == "*" and value[x] == 0 and value[y] != 0:
                yield self.mk("/", x, y)
        for unit, join in ((0, "+"), (1, "*")):
            # (A+Z)∘B -> Z+(A∘B) and B∘(A+Z) -> Z+(B∘A)
            for side, child in ((0, a), (1, b)):
                kids = self._kids(child, join)
                if kids:
                    other = b if side == 0 else a
                    for keep, ident in self._orders(*kids):
                        if value[ident] == unit:
                            inner = (self.mk(op, keep, other) if side == 0
                                     else self.mk(op, other, keep))
                            yield self.mk(join, ident, inner)
            # Z+(A∘B) -> (A+Z)∘B or A∘(B+Z)
            if op == join:
                for ident, rest in self._orders(a, b):
                    if value[ident] == unit and self.node[rest][0] != LEAF:
                        rop, p, q = self.node[rest]
                        yield self.mk(rop, self.mk(join, p, ident), q)
                        yield self.mk(rop, p, self.mk(join, q, ident))

    def _rule5(self, op: str, a: int, b: int) -> Iterator[int | None]:
        """X and Y of equal value: (A*X)/Y = (A+X)-Y; (A*X)/(B*Y) = ((A/B)+X)-Y;
        ((A+X)-Y)∘B = ((A∘B)+X)-Y, on either side of ∘."""
        value = self.value
        if op == "/":
            left = self._kids(a, "*")
            if left:
                for p, x in self._orders(*left):
                    if value[x] == value[b]:
                        yield self.mk("-", self.mk("+", p, x), b)
                right = self._kids(b, "*")
                if right:
                    for p, x in self._orders(*left):
                        for q, y in self._orders(*right):
                            if value[x] == value[y]:
                                yield self.mk("-", self.mk("+", self.mk("/", p, q), x), y)
        if op == "-":
            left = self._kids(a, "+")
            if left and value[b] != 0:
                for p, x in self._orders(*left):
                    if value[x] == value[b]:
                        yield self.mk("/", self.mk("*", p, x), b)
                        quotient = self._kids(p, "/")
                        if quotient:
                            yield self.mk("/", self.mk("*", quotient[0], x),
                                          self.mk("*", quotient[1], b))
            if left:  # ((A∘B)+X)-Y -> ((A+X)-Y)∘B or A∘((B+X)-Y)
                for p, x in self._orders(*left):
                    if value[x] == value[b] and self.node[p][0] != LEAF:
                        pop, u, w = self.node[p]
                        yield self.mk(pop, self.mk("-", self.mk("+", u, x), b), w)
                        yield self.mk(pop, u, self.mk("-", self.mk("+", w, x), b))
        for side, child in ((0, a), (1, b)):  # ((A+X)-Y)∘B -> ((A∘B)+X)-Y
            kids = self._kids(child, "-")
            if kids and self.node[kids[0]][0] == "+":
                y = kids[1]
                other = b if side == 0 else a
                for p, x in self._orders(*self._kids(kids[0], "+")):  # type: ignore[misc]
                    if value[x] == value[y]:
                        inner = self.mk(op, p, other) if side == 0 else self.mk(op, other, p)
                        yield self.mk("-", self.mk("+", inner, x), y)


def _splits(hand: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every cut of a sorted hand into two non-empty sorted parts, each unordered pair once."""
    seen = set()
    n = len(hand)
    for size in range(1, n // 2 + 1):
        for chosen in combinations(range(n), size):
            left = tuple(hand[i] for i in chosen)
            right = tuple(hand[i] for i in range(n) if i not in chosen)
            pair = (left, right) if left <= right else (right, left)
            if pair not in seen:
                seen.add(pair)
    return sorted(seen)


def one_rule_apart(forest: Forest, a: int, b: int) -> bool:
    """Whether one rule applied once at one node turns tree a into tree b."""
    return b in forest.neighbours(a) or bool(set(forest.templates(a)) & set(forest.templates(b)))


def classes(forest: Forest, hand: Iterable[int], target: Value) -> list[list[int]]:
    """The distinct solutions as the rules define them: groups of tree ids, each sorted."""
    trees = forest.reaching(hand, target)
    parent = {t: t for t in trees}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(x: int, y: int) -> None:
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)

    first_with: dict[int, int] = {}
    for t in trees:
        for n in forest.neighbours(t):
            if n in parent:
                union(t, n)
        for template in forest.templates(t):
            union(t, first_with.setdefault(template, t))
    groups: dict[int, list[int]] = {}
    for t in trees:
        groups.setdefault(find(t), []).append(t)
    return sorted(groups.values())
