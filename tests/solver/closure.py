"""The truth the equivalence rules define, computed the slow way (test code only).

For a hand and a target: every expression tree over the hand that reaches the target, joined
(union-find) whenever one rule, applied once at one node, turns one tree into the other. The
connected groups are the distinct solutions. Nothing here is shared with `solver.normal`: the
rules are rewrites of trees, as `solver.normal` states them, every rewrite both ways. X, Y, A,
B, C are sub-trees. Words: the *terms* of a tree are what its sums add and subtract (through +
and -), its *factors* what its products multiply and divide (through * and /); a *zero term* is
a product or quotient worth 0, or the number 0; a *one factor* is a factor (no product) worth 1
with nothing inside that moves; a *pair* is a difference worth 0 with one added term. Of equal
parts, the *lesser* has fewer and smaller numbers. A part is *settled* when nothing inside it
moves: no product in it has a one factor beside anything else, no sum in it a zero term or a
pair to lift (rules 4 and 5 read parts as they are once those have left).

1. A+B = B+A, A*B = B*A; (A+B)+C = A+(B+C), (A*B)*C = A*(B*C).
2. A+(B-C) = (A+B)-C; (A-B)-C = A-(B+C); A-(B-C) = (A+C)-B; and the same with * and /.
3. X+E = X-E', X-E = X+E', E*F = E'*F', E/F = E'/F', where E' is E with one subtraction turned
   round (found through the factors of products and quotients): E' is worth -E; a zero term
   with no subtraction in it is its own E'. A whole solution worth 0 may be turned round. No
   other zero is: 2+(1+8-9) and 2+(9-(1+8)) differ, and so do X/Y and Y/X.
4. Z, Z' zero terms, O a one factor, G a group of factors (two or more multiplied, none
   divided) worth one: A/O = A*O; A/G = A*G; Z/A = Z*A; Z*Z' = Z+Z'; Z*A = Z*A' for any A'
   over the same numbers ("whatever is multiplied by a zero counts once"); (A+Z)∘B = Z+(A∘B)
   and B∘(A+Z) = Z+(B∘A) for ∘ one of * /; and (A*O)∘B = O*(A∘B), B∘(A*O) = O*(B∘A) for ∘ any
   of + - * /, where for + and - the one really leaves: the product it leaves or joins does
   not keep it (a product keeps its least one when, its pairs cancelled, nothing else is left;
   inside a sum that holds for the product it joins too), a zero among terms does not become
   a zero term, and if A is worth zero, it is a zero term, or it is the pair the whole solution
   A+B cancels (B only added).
5. With X and Y of equal value, both settled and worth more than 0: (A*X)/Y = (A+X)-Y and
   (A*X)/(B*Y) = ((A/B)+X)-Y, A settled and worth more than 0, where the product is not a
   factor of another and X, Y (groups of its factors and divisors) are the pair it cancels:
   the whole divisor first, then the fewest divisors, the fewest factors, the lesser numbers;
   of one factors, the two lesser, the lesser as Y, only in a whole solution. And ((A+X)-Y)∘B
   = ((A∘B)+X)-Y, B∘((A+X)-Y) = ((B∘A)+X)-Y for ∘ one of * /: X one term, A and Y only
   added (Y is everything the sum subtracts), X the lesser such term, A and B worth more than 0.

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
        self._neighbours: dict[tuple[int, str], tuple[int, ...]] = {}
        self._terms: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._factors: dict[int, tuple[tuple[int, ...], ...]] = {}
        self._settled: dict[int, bool] = {}
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

    def neighbours(self, t: int, within: str = "") -> tuple[int, ...]:
        """Every tree that one rule applied once at one node of t makes; `within`: the
        operator t is an operand of ("" for a whole solution), which rules 4 and 5 look at."""
        found = self._neighbours.get((t, within))
        if found is None:
            node = self.node[t]
            out: set[int | None] = set()
            if node[0] != LEAF:
                op, a, b = node
                out.update(self._at_root(t, within))
                out.update(self.mk(op, x, b) for x in self.neighbours(a, op))
                out.update(self.mk(op, a, y) for y in self.neighbours(b, op))
            out.discard(None)
            out.discard(t)
            found = tuple(x for x in out if x is not None)
            self._neighbours[(t, within)] = found
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

    # -- what the rules look at -----------------------------------------------------------------

    def terms(self, t: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(added, subtracted) terms of a tree, through + and -."""
        return self._flat(t, "+", "-", self._terms)

    def factors(self, t: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(multiplied, divided) factors of a tree, through * and /."""
        return self._flat(t, "*", "/", self._factors)

    def _flat(self, t: int, plus: str, minus: str, memo: dict) -> tuple[tuple[int, ...], ...]:
        found = memo.get(t)
        if found is None:
            op, *kids = self.node[t]
            if op in (plus, minus):
                (pa, ma), (pb, mb) = (self._flat(k, plus, minus, memo) for k in kids)
                found = (pa + pb, ma + mb) if op == plus else (pa + mb, ma + pb)
            else:
                found = ((t,), ())
            memo[t] = found
        return found

    def one_term(self, t: int) -> bool:
        return self.node[t][0] not in "+-"

    def signed_terms(self, t: int) -> tuple[list[int], list[int]]:
        """(added, subtracted) terms by what they do: a term worth less than zero added is one
        subtracted, turned round (rule 3)."""
        plus, minus = self.terms(t)
        value = self.value
        return ([p for p in plus if value[p] >= 0] + [m for m in minus if value[m] < 0],
                [m for m in minus if value[m] >= 0] + [p for p in plus if value[p] < 0])

    def adds_only(self, t: int) -> bool:
        return not self.signed_terms(t)[1]

    def is_zero_term(self, t: int) -> bool:
        return self.value[t] == 0 and self.node[t][0] in (LEAF, "*", "/")

    def is_one_factor(self, t: int) -> bool:
        return self.value[t] == 1 and self.is_unit(t)

    def is_unit(self, t: int) -> bool:
        """A one factor, or one turned round (worth -1: rule 3 makes it a one factor)."""
        return (abs(self.value[t]) == 1 and self.node[t][0] not in ("*", "/")
                and self.settled(t))

    def is_one_group(self, t: int) -> bool:
        """Whether t is a group of factors (two or more, none divided) whose product is one."""
        num, den = self.factors(t)
        return self.value[t] == 1 and not den and len(num) >= 2

    def is_pair(self, t: int) -> bool:
        return self.value[t] == 0 and not self.one_term(t) and len(self.signed_terms(t)[0]) == 1

    def settled(self, t: int) -> bool:
        """Whether nothing inside t moves: no product in it has a one factor or a pair to
        cancel, no sum in it a zero term or a pair to lift (rules 4, 5 read parts once those
        have left)."""
        found = self._settled.get(t)
        if found is None:
            op = self.node[t][0]
            if op == LEAF:
                found = True
            elif op in "+-":
                plus, minus = self.terms(t)
                found = self.chosen_term(t) is None and all(
                    self.settled(k) and not self.is_zero_term(k) for k in plus + minus)
            else:  # a one leaves a product, unless it is all the product multiplies
                num, den = self.factors(t)
                found = all(map(self.settled, num + den)) and not any(
                    map(self.is_unit, den + (num if len(num) > 1 else ()))) and (
                    self._plain_pair(num, den) is None) and not any(
                    len(g) >= 2 and _product(self.value[d] for d in g) == 1
                    for g in _groups(den, len(den)))
            self._settled[t] = found
        return found

    def factors_settled(self, t: int) -> bool:
        num, den = self.factors(t)
        return all(map(self.settled, num + den))

    def one_order(self, t: int) -> tuple:
        """Of two one factors, the lesser: fewer and smaller numbers first."""
        return self.numbers[t], self.text(t)

    def chosen_pair(self, t: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """(factors, divisors) of t that cancel (rule 5), None when none do. When several
        could: a group of factors none worth one against the whole divisor first, then the
        fewest divisors, the fewest factors, the fewest and smallest numbers; else the two
        lesser one factors, the lesser divided (of ones only, the least stays)."""
        num, den = self._moved(t)
        best = self._plain_pair(num, den)
        if best is not None:
            return best
        ones = sorted((f for f in num if abs(self.value[f]) == 1), key=self.one_order)
        if len(ones) == len(num) and not den:
            ones = ones[1:]  # nothing else multiplied: the least one stays
        if len(ones) >= 2:
            return (ones[1],), (ones[0],)
        return None

    def _moved(self, t: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(factors, divisors) of t once a divided one factor multiplies (A/O = A*O)."""
        num, den = self.factors(t)
        return (num + tuple(d for d in den if self.is_unit(d)),
                tuple(d for d in den if not self.is_unit(d)))

    def _plain_pair(self, num: tuple[int, ...], den: tuple[int, ...],
                    ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        value = self.value
        if not den or len(num) < 2:
            return None
        totals: dict[Value, list[tuple[int, ...]]] = {}  # by size: -Y is Y turned round
        for group in _groups(den, len(den)):
            totals.setdefault(abs(_product(value[d] for d in group)), []).append(group)
        plain = [f for f in num if abs(value[f]) != 1]
        best: tuple | None = None
        for xs in _groups(plain, len(num) - 1):
            for ys in totals.get(abs(_product(value[f] for f in xs)), ()):
                rank = (len(ys) != len(den), len(ys), len(xs), self._numbers(xs),
                        self._numbers(ys), [self.text(f) for f in xs],
                        [self.text(d) for d in ys], xs, ys)
                if best is None or rank < best:
                    best = rank
        return None if best is None else (best[-2], best[-1])

    def keeps(self, product: int, one: int) -> bool:
        """Whether `product` keeps the one factor `one` (rule 4 lets the others leave): once
        its pairs cancel (rule 5), it multiplies nothing else and `one` is its least one."""
        return self._keeps(*self._moved(product), one)

    def _keeps(self, num: tuple[int, ...], den: tuple[int, ...], one: int) -> bool:
        nums, dens = list(num), list(den)
        while (chosen := self._plain_pair(tuple(nums), tuple(dens))) is not None:
            for f in chosen[0]:
                nums.remove(f)
            for d in chosen[1]:
                dens.remove(d)
        ones = sorted((f for f in nums if abs(self.value[f]) == 1), key=self.one_order)
        if len(ones) < len(nums) or not ones:
            return False
        return ones[0] == one and ones.count(one) == 1

    def kept_beside(self, one: int, part: int) -> bool:
        """Whether `one` multiplying `part` would be kept once the zero terms and the pair
        of part's sum have left it (rules 4, 5): then it multiplies what is left."""
        if not self.one_term(part):
            plus, minus = (list(side) for side in self.signed_terms(part))
            plus = [k for k in plus if not self.is_zero_term(k)]
            minus = [k for k in minus if not self.is_zero_term(k)]
            taken = sum(abs(self.value[m]) for m in minus)
            found = [p for p in plus if abs(self.value[p]) == taken] if minus else []
            if found and len(plus) >= 2:
                plus.remove(min(found, key=lambda p: (self.numbers[p], self.text(p))))
                minus = []
            if len(plus) != 1 or minus:
                return self._keeps((one, part), (), one)
            part = plus[0]
        num, den = self._moved(part)
        return self._keeps((one, *num), den, one)

    def _numbers(self, parts: Iterable[int]) -> tuple[int, ...]:
        return tuple(sorted(n for p in parts for n in self.numbers[p]))

    def cancels(self, t: int) -> bool:
        """Whether some factors of t (none worth one) cancel some of its divisors: rule 5
        comes before a one leaves (rule 4)."""
        chosen = self.chosen_pair(t)
        return chosen is not None and abs(self.value[chosen[0][0]]) != 1

    def chosen_term(self, t: int) -> int | None:
        """The added term of t that cancels everything t subtracts (rule 5), the one with the
        fewest and smallest numbers if several; None when none does."""
        plus, minus = self.signed_terms(t)
        if not minus or len(plus) < 2:
            return None
        taken = sum(abs(self.value[m]) for m in minus)
        found = [p for p in plus if abs(self.value[p]) == taken]
        return min(found, key=lambda p: (self.numbers[p], self.text(p))) if found else None

    def pair_is_chosen(self, product: int | None, x: int, y: int) -> bool:
        """Whether X cancels Y in this product, X and Y multiplying only (rule 5)."""
        if product is None or self.factors(x)[1] or self.factors(y)[1]:
            return False
        chosen = self.chosen_pair(product)
        return chosen is not None and (sorted(chosen[0]), sorted(chosen[1])) == (
            sorted(self.factors(x)[0]), sorted(self.factors(y)[0]))

    def _orders(self, a: int, b: int) -> tuple[tuple[int, int], ...]:
        return ((a, b), (b, a)) if a != b else ((a, b),)

    def _kids(self, t: int, op: str) -> tuple[int, int] | None:
        node = self.node[t]
        return (node[1], node[2]) if node[0] == op else None

    def _at_root(self, t: int, within: str) -> Iterator[int | None]:
        op, a, b = self.node[t]
        yield from self._rule1(op, a, b)
        yield from self._rule2(op, a, b)
        yield from self._rule3(op, a, b)
        yield from self._rule4(op, a, b, within)
        yield from self._rule5(op, a, b, within)

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

    def _rule3(self, op: str, a: int, b: int) -> Iterator[int | None]:
        """X+E = X-(-E), X-E = X+(-E), E*F = (-E)*(-F), E/F = (-E)/(-F); -0 is 0."""
        if op == "+":
            for x, e in self._orders(a, b):
                for f in self.flips(e):
                    yield self.mk("-", x, f)
        elif op == "-":
            for f in self.flips(b) or ((b,) if self.is_zero_term(b) and "-" not in self.text(b)
                                       else ()):
                yield self.mk("+", a, f)  # a zero term with nothing to turn round is itself
        else:
            for f in self.flips(a):
                for g in self.flips(b):
                    yield self.mk(op, f, g)

    def _rule4(self, op: str, a: int, b: int, within: str) -> Iterator[int | None]:
        """Z a zero term, O a one factor: A/O = A*O; Z/A = Z*A; Z*Z' = Z+Z'; (A+Z)∘B =
        Z+(A∘B) for ∘ one of * /; (A*O)∘B = O*(A∘B) for ∘ any of + - * /, where a one may
        leave."""
        value = self.value
        if op == "/" and (self.is_one_factor(b) or value[a] == 0 or self.is_one_group(b)):
            yield self.mk("*", a, b)
        for x, y in self._orders(a, b):
            if op == "*" and (self.is_one_factor(y) or (value[x] == 0 and value[y] != 0)):
                yield self.mk("/", x, y)
        if op in "+*" and self.is_zero_term(a) and self.is_zero_term(b):  # Z*Z' = Z+Z'
            yield self.mk("*" if op == "+" else "+", a, b)
        if op in "*/":  # (A+Z)∘B -> Z+(A∘B) and B∘(A+Z) -> Z+(B∘A)
            for side, child in ((0, a), (1, b)):
                kids = self._kids(child, "+")
                other = b if side == 0 else a
                for keep, zero in self._orders(*kids) if kids else ():
                    if self.is_zero_term(zero):
                        inner = self.mk(op, keep, other) if side == 0 else self.mk(op, other, keep)
                        yield self.mk("+", zero, inner)
        if op == "+":  # Z+(A∘B) -> (A+Z)∘B or A∘(B+Z)
            for zero, rest in self._orders(a, b):
                if self.is_zero_term(zero) and self.node[rest][0] in ("*", "/"):
                    rop, p, q = self.node[rest]
                    yield self.mk(rop, self.mk("+", p, zero), q)
                    yield self.mk(rop, p, self.mk("+", q, zero))
        for side, child in ((0, a), (1, b)):  # (A*O)∘B -> O*(A∘B) and B∘(A*O) -> O*(B∘A)
            kids = self._kids(child, "*")
            other = b if side == 0 else a
            for keep, one in self._orders(*kids) if kids else ():
                inner = self.mk(op, keep, other) if side == 0 else self.mk(op, other, keep)
                if inner is not None and self._one_leaves(op, keep, one, other, child, inner,
                                                          within):
                    yield self.mk("*", one, inner)
        if op == "*":  # O*(A∘B) -> (A*O)∘B or A∘(B*O)
            for one, rest in self._orders(a, b):
                if self.is_one_factor(one) and self.node[rest][0] != LEAF:
                    rop, p, q = self.node[rest]
                    left, right = self.mk("*", p, one), self.mk("*", q, one)
                    if left is not None and self._one_leaves(rop, p, one, q, left, rest, within):
                        yield self.mk(rop, left, q)
                    if right is not None and self._one_leaves(rop, q, one, p, right, rest,
                                                              within):
                        yield self.mk(rop, p, right)

    def _one_leaves(self, op: str, keep: int, one: int, other: int, product: int,
                    whole: int, within: str) -> bool:
        """Whether the one factor of `product` = keep*one may leave it to multiply `whole`
        = keep op other (in either order); `within`: the operator around (rule 4)."""
        if not self.is_one_factor(one):
            return False
        if op in "*/":
            return True  # it stays in the same product
        if self.value[whole] == 0 and within in ("+", "-"):
            return False  # a zero among terms is no zero term: a one does not make it one
        if self.value[keep] == 0:  # the one leaves a zero's numbers, or joins them
            if self.kept_beside(one, other):
                return False  # what the one multiplies once the zero has left cancels with it
            return self.is_zero_term(keep) or (
                op == "+" and not within and self.is_pair(keep) and self.settled(keep)
                and self.adds_only(other) and self.settled(other)
                and self.chosen_term(whole) == self.signed_terms(keep)[0][0])
        # a product keeps its least one when nothing else is left in it, pairs cancelled
        return not (self.kept_beside(one, keep)
                    or (within in ("+", "-") and self.kept_beside(one, whole)))

    def _rule5(self, op: str, a: int, b: int, within: str) -> Iterator[int | None]:
        """X and Y of equal value: (A*X)/Y = (A+X)-Y; (A*X)/(B*Y) = ((A/B)+X)-Y;
        ((A+X)-Y)∘B = ((A∘B)+X)-Y for ∘ one of * /, on either side."""
        value = self.value
        mk = self.mk
        factor = within in ("*", "/")
        if op == "/" and not factor:
            left, right = self._kids(a, "*"), self._kids(b, "*")
            t = mk(op, a, b)
            for p, x in self._orders(*left) if left else ():
                if self._cancel(t, p, x, b, within):
                    yield mk("-", mk("+", p, x), b)
                for q, y in self._orders(*right) if right else ():
                    quotient = mk("/", p, q)
                    if quotient is not None and self._cancel(t, quotient, x, y, within):
                        yield mk("-", mk("+", quotient, x), y)
        if op == "-":
            left = self._kids(a, "+")
            for p, x in self._orders(*left) if left else ():
                if value[x] != value[b]:
                    continue
                if not factor and value[b] != 0:  # (A+X)-Y -> (A*X)/Y
                    product = mk("/", mk("*", p, x), b)
                    if product is not None and self._cancel(product, p, x, b, within):
                        yield product
                    quotient = self._kids(p, "/")
                    if quotient:  # ((A/B)+X)-Y -> (A*X)/(B*Y)
                        product = mk("/", mk("*", quotient[0], x), mk("*", quotient[1], b))
                        if product is not None and self._cancel(product, p, x, b, within):
                            yield product
                if self.node[p][0] in ("*", "/"):  # ((A∘B)+X)-Y -> ((A+X)-Y)∘B, A∘((B+X)-Y)
                    pop, u, w = self.node[p]
                    for keep, other, first in ((u, w, True), (w, u, False)):
                        inner = mk("-", mk("+", keep, x), b)
                        if inner is not None and self._lifts(inner, keep, x, b, other, p,
                                                             factor, mk(op, a, b)):
                            yield mk(pop, inner, other) if first else mk(pop, other, inner)
        if op in "*/":  # ((A+X)-Y)∘B -> ((A∘B)+X)-Y and B∘((A+X)-Y) -> ((B∘A)+X)-Y
            for side, child in ((0, a), (1, b)):
                kids = self._kids(child, "-")
                if not kids or self.node[kids[0]][0] != "+":
                    continue
                y, other = kids[1], (b if side == 0 else a)
                for p, x in self._orders(*self._kids(kids[0], "+")):  # type: ignore[misc]
                    inner = mk(op, p, other) if side == 0 else mk(op, other, p)
                    lifted = mk("-", mk("+", inner, x), y)
                    if lifted is not None and self._lifts(child, p, x, y, other, inner, factor,
                                                          lifted):
                        yield lifted

    def _cancel(self, product: int, rest: int, x: int, y: int, within: str) -> bool:
        """Whether the whole product (A*X)/Y and the sum (A+X)-Y may be one, A = rest:
        X cancels Y in the product (rule 5), and A is not worth zero. Two ones make a pair
        only in the whole solution, once every one has left for the top (rule 4)."""
        if self.value[rest] <= 0 or not self.value[x] == self.value[y] > 0 or not (
                self.settled(x) and self.settled(y)):
            return False
        ones = abs(self.value[x]) == 1
        if not (self.settled(rest) or (self.node[rest][0] in ("*", "/")
                                       and self.factors_settled(rest)
                                       and (not ones or self._one_term_left(rest)))):
            return False  # beside two ones, A is still one term once its ones have left
        if ones and (within or not self.factors_settled(product)):
            return False
        return self.pair_is_chosen(product, x, y)

    def _lifts(self, total: int, rest: int, x: int, y: int, other: int, joined: int,
               factor: bool, lifted: int | None) -> bool:
        """Whether the pair X-Y of the sum `total` = (A+X)-Y, A = rest, leaves it for the
        product around: X is its chosen term, A and Y only add and are settled, A and B are
        worth more than 0; where the sum it makes, `lifted` = ((A∘B)+X)-Y, is itself a factor,
        A∘B (joined) stays one term and X is the chosen term there too."""
        return (self.one_term(x) and self.adds_only(rest) and self.adds_only(y)
                and self.value[x] == self.value[y] > 0 and self.chosen_term(total) == x
                and self.settled(rest) and self.settled(x) and self.settled(y)
                and self.value[rest] > 0 and self.value[other] > 0
                and (not factor or (self._one_term_left(joined) and lifted is not None
                                    and self._plain_pair(*self._moved(joined)) is None
                                    and self.chosen_term(lifted) == x)))

    def _one_term_left(self, product: int) -> bool:
        """Whether a product stays one term of the sum around it once its ones have left
        (rule 4): it does unless all it keeps is a sum, which then joins the sum around."""
        num, den = self._moved(product)
        rest = [f for f in num if not self.is_unit(f)]
        return bool(den) or len(rest) != 1 or self.one_term(rest[0])


def _groups(items: list[int] | tuple[int, ...], most: int) -> Iterator[tuple[int, ...]]:
    """Every non-empty group of at most `most` items."""
    for size in range(1, min(most, len(items)) + 1):
        yield from combinations(items, size)


def _product(values: Iterable[Value]) -> Value:
    out: Value = 1
    for v in values:
        out *= v
    return out


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
    return (b in forest.neighbours(a) or b in _turned_whole(forest, a)
            or bool(set(forest.templates(a)) & set(forest.templates(b))))


def _turned_whole(forest: Forest, t: int) -> tuple[int, ...]:
    """Rule 3: a whole solution worth 0 turned round."""
    return forest.flips(t) if forest.value[t] == 0 else ()


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
        for n in _turned_whole(forest, t):
            if n in parent:
                union(t, n)
        for template in forest.templates(t):
            union(t, first_with.setdefault(template, t))
    groups: dict[int, list[int]] = {}
    for t in trees:
        groups.setdefault(find(t), []).append(t)
    return sorted(groups.values())
