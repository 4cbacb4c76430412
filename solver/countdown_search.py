"""Which whole numbers a Countdown hand makes, and how: one `HandSearch` per game.

A sub-hand is a bit mask over the sorted hand. Sub-hands of up to BUILD numbers get their whole
value set; bigger ones are asked about single values by meeting in the middle: w comes from a
cut of the sub-hand into A and B when, for some value y of the smaller side B, the value x that
`x op y = w` needs is one A makes. A sub-hand asked often gets its value set too; a scan over
sparse values asks for ranges instead. Nothing is capped: values are exact Python integers.
solver/native/countdown.c is the compiled twin (solver.countdown_native picks one); it gives
the same answers and the same expressions (tests/solver/test_countdown_twin.py).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import cache

from solver.expr import BinOp, Expr, Num

Hand = tuple[int, ...]  # sorted
Cut = tuple[int, int]  # (mask of the bigger side A, mask of the smaller side B)
BUILD = 4  # sub-hands up to this size get their whole value set at once
# A bigger sub-hand gets it once asked about this many values, which grows 4-fold per number
# like the cost of building (ski rental: never more than about twice the better choice).
PATIENCE = 48
WINDOW_BUILD = 5  # sub-hands up to this size are built once a range of values is asked
FEW = 20  # for ranges, a cut whose sides have fewer values is combined once, not bisected


def patience(count: int) -> int:
    """How many values a sub-hand of `count` numbers is asked about before it is built."""
    return PATIENCE << 2 * max(count - BUILD - 1, 0)


PATIENCE_BY_COUNT = [patience(count) for count in range(10)]


@cache
def _counts(n: int) -> list[int]:
    """How many numbers each mask over n numbers holds."""
    return [bin(m).count("1") for m in range(1 << n)]


@cache
def _identity(n: int) -> list[int]:
    """Each mask stands for itself when the hand's numbers are all different."""
    return list(range(1 << n))


@cache
def _cuts(n: int, m: int) -> list[Cut]:
    """The cuts of mask m into (A, B), B the smaller side, each pair of masks once; bigger B
    first, since a balanced cut has small sides whose value sets are cheap to build."""
    count = _counts(n)
    cuts = []
    b = (m - 1) & m
    while b:
        a = m ^ b
        if count[b] < count[a] or (count[b] == count[a] and b < a):
            cuts.append((a, b))
        b = (b - 1) & m
    cuts.sort(key=lambda cut: -count[cut[1]])
    return cuts


class HandSearch:
    """The values of one hand under one rule set.

    "all": `f(m)`, the values of expressions using every number of sub-hand m, steps >= 0.
    "subset": `g(m)`, the values of expressions using some of the numbers of m, steps >= 1;
    then g(m) is m's numbers plus, over the cuts A|B of m, every `a op b` with a in g(A) and
    b in g(B) (an expression over fewer numbers puts the unused ones on A's side).
    """

    def __init__(self, hand: Hand, subset: bool) -> None:
        self.hand = hand
        self.subset = subset
        self.low = 1 if subset else 0
        size = 1 << len(hand)
        self.full = size - 1
        self.count = _counts(len(hand))
        keys: list[Hand] = [()] * size
        bound = [1] * size  # the product of max(n, 2): no value of the sub-hand exceeds it
        for m in range(1, size):
            bit = m & -m
            n = hand[bit.bit_length() - 1]
            keys[m] = (n, *keys[m ^ bit])
            bound[m] = bound[m ^ bit] * max(n, 2)
        self.keys, self.bound = keys, bound
        # equal multisets share one mask, so each is searched once
        self.distinct = len(set(hand)) == len(hand)
        if self.distinct:
            self.same = _identity(len(hand))
        else:
            first: dict[Hand, int] = {}
            self.same = [first.setdefault(key, m) for m, key in enumerate(keys)]
        self.sets: list[set[int] | None] = [None] * size
        self.nonzero: list[tuple[int, ...]] = [()] * size  # once built, without 0
        self.zero: list[bool] = [False] * size
        self.asked: dict[tuple[int, int], bool] = {}
        self.times_asked = [0] * size
        self.patience = PATIENCE_BY_COUNT  # by the number of numbers in a sub-hand
        self.cut_lists: dict[int, list[Cut]] = {}
        self.largest: dict[int, int] = {}
        self.ordered: dict[int, list[int]] = {}
        self.few_values: dict[int, tuple[list[int], list[Cut]]] = {}

    def ceiling(self, enough: int) -> int:
        """The largest value of the whole hand, or a bound above `enough` when that is cheaper."""
        if self.bound[self.full] > enough:
            return self.bound[self.full]
        return self._largest(self.full)

    def _largest(self, m: int) -> int:
        """The largest value of sub-hand m: only sums and products reach it."""
        found = self.largest.get(m)
        if found is None:
            if self.count[m] == 1:
                found = self.keys[m][0]
            else:
                found = max(max(x * y, x + y) for a, b in self.cuts(m)
                            for x, y in [(self._largest(a), self._largest(b))])
            self.largest[m] = found
        return found

    def build_parts(self) -> None:
        """Build the value sets of the whole hand's biggest parts (up to WINDOW_BUILD numbers):
        a scan that keeps missing will ask them often."""
        for a, _ in self.cuts(self.full):
            if self.count[a] <= WINDOW_BUILD:
                self.values(a)

    # -- the cuts of a sub-hand ------------------------------------------------------------

    def cuts(self, m: int) -> list[Cut]:
        """Each way to cut m in two, once per pair of multisets, the smaller side second."""
        found = self.cut_lists.get(m)
        if found is None:
            found = _cuts(len(self.hand), m)
            if not self.distinct:
                same = self.same
                unique: dict[Cut, None] = {}
                for a, b in found:
                    if (same[b], same[a]) not in unique:
                        unique[same[a], same[b]] = None
                found = list(unique)
            self.cut_lists[m] = found
        return found

    # -- whole value sets ------------------------------------------------------------------

    def values(self, m: int) -> set[int]:
        """Every value of sub-hand m (f or g, see the class), built once."""
        m = self.same[m]
        built = self.sets[m]
        if built is not None:
            return built
        if self.count[m] == 1:
            out = {self.keys[m][0]}
        else:
            out = set(self.keys[m]) if self.subset else set()
            for a, b in self.cuts(m):
                self._combine(a, b, out)
            if self.subset:
                out.discard(0)  # a - a, not a step of the TV game
        self.sets[m] = out
        self.zero[m] = 0 in out
        self.nonzero[m] = tuple(out - {0}) if self.zero[m] else tuple(out)
        return out

    def _combine(self, a: int, b: int, out: set[int]) -> None:
        """Add to `out` every `x op y` of a value of one side and one of the other."""
        self.values(a)
        self.values(b)
        big, small = self.nonzero[a], self.nonzero[b]
        if len(big) < len(small):
            big, small = small, big
        add = out.add
        for y in small:
            for x in big:
                add(x + y)
                add(x * y)
                if x >= y:
                    add(x - y)
                    if not x % y:
                        add(x // y)
                else:
                    add(y - x)
                    if not y % x:
                        add(y // x)
        if self.zero[a] or self.zero[b]:  # x + 0, x - 0, x * 0, 0 / x
            out.add(0)
            if self.zero[b]:
                out.update(self.values(a))
            if self.zero[a]:
                out.update(self.values(b))

    # -- single values ---------------------------------------------------------------------

    def reaches(self, m: int, w: int) -> bool:
        """Whether sub-hand m makes w (f or g, see the class)."""
        m = self.same[m]
        built = self.sets[m]
        if built is not None:
            return w in built
        if w < self.low or w > self.bound[m]:
            return False
        if self.count[m] <= BUILD:
            return w in self.values(m)
        self.times_asked[m] += 1
        if self.times_asked[m] > self.patience[self.count[m]]:
            return w in self.values(m)
        key = (m, w)
        known = self.asked.get(key)
        if known is None:
            known = self.asked[key] = (self.subset and w in self.keys[m]) \
                or self._search(m, w) is not None
        return known

    def _search(self, m: int, w: int) -> Cut | None:
        """A cut of m that makes w, or None. Cuts whose sides are built go first (cheap), then
        the others value by value."""
        later = []
        for a, b in self.cuts(m):
            if self.sets[a] is None and self.count[a] > BUILD:
                later.append((a, b))
            elif self._cut_makes(w, a, b):
                return a, b
        for a, b in later:
            if self._cut_makes(w, a, b):
                return a, b
        return None

    def _cut_makes(self, w: int, a: int, b: int) -> bool:
        """Whether `x op y = w` for some value x of A and y of B: by B's values against A's
        set when A is built or small, else value by value (A built once asked too often)."""
        self.values(b)
        a_values = self.sets[a]
        if a_values is None and self.count[a] <= BUILD:
            a_values = self.values(a)
        if a_values is not None:
            return self._meets(w, a_values, b)
        wanted = self._wanted(w, b)
        if self.times_asked[a] + len(wanted) > self.patience[self.count[a]]:
            return self._meets(w, self.values(a), b)
        if any(self.reaches(a, x) for x in wanted):
            return True
        return self.zero[b] and (w == 0 or self.reaches(a, w))  # x + 0, x - 0; x * 0, 0 / x

    def _meets(self, w: int, a_values: set[int], b: int) -> bool:
        """Whether `w = x op y` for some x of a_values and y of B (whose values are built).

        Plain loops: on CPython 3.11 they beat map() and set.isdisjoint() for these sizes.
        """
        for y in self.nonzero[b]:
            if w - y in a_values or w + y in a_values or y - w in a_values \
                    or w * y in a_values:
                return True  # x + y, x - y, y - x, x / y (and x * y = 0 with x = 0)
            if w and ((not w % y and w // y in a_values) or (not y % w and y // w in a_values)):
                return True  # x * y, y / x
        return self.zero[b] and (w == 0 or w in a_values)

    def _wanted(self, w: int, b: int) -> list[int]:
        """The values x of A with `x op y = w` for some nonzero value y of B."""
        wanted: list[int] = []
        for y in self.nonzero[b]:
            wanted += (w - y, w + y, y - w, w * y)
            if w:
                if not w % y:
                    wanted.append(w // y)
                if not y % w:
                    wanted.append(y // w)
        return wanted

    # -- values in a range -------------------------------------------------------------------

    def window(self, m: int, lo: int, hi: int) -> set[int]:
        """The values of sub-hand m from lo to hi: what a scan asks when values are sparse.

        Each side's values that can land in the range lie in a range too (x + y in [lo, hi]
        needs x in [lo - y, hi - y], x / y needs x in [lo * y, hi * y], ...), so a built side
        answers by bisection and an unbuilt one by the same question, one level down.
        Sub-hands below the whole hand are built: a range costs about what building does.
        """
        m = self.same[m]
        lo, hi = max(lo, self.low), min(hi, self.bound[m])
        if lo > hi:
            return set()
        if self.sets[m] is not None or self.count[m] <= WINDOW_BUILD:
            return set(self._span(m, lo, hi))
        few, other_cuts = self._few_and_other(m)
        out = set(few[bisect_left(few, lo):bisect_right(few, hi)])
        for a, b in other_cuts:
            span = self._span if self.sets[a] is not None or self.count[a] <= WINDOW_BUILD \
                else self.window
            for y in self.nonzero[b]:
                out.update([x + y for x in span(a, lo - y, hi - y)])
                out.update([x - y for x in span(a, lo + y, hi + y)])
                if y >= lo:
                    out.update([y - x for x in span(a, y - hi, y - lo)])
                if y >= lo and hi:  # y / x from lo to hi: x from y / hi to y / lo, dividing y
                    out.update([y // x for x in span(a, -(-y // hi), y // max(lo, 1))
                                if not y % x])
                out.update([x * y for x in span(a, -(-lo // y), hi // y)])
                out.update([x // y for x in span(a, lo * y, hi * y) if not x % y])
            if self.zero[b]:
                out.update(span(a, lo, hi))  # x + 0, x - 0
                if lo == 0:
                    out.add(0)  # x * 0
        return out

    def _few_and_other(self, m: int) -> tuple[list[int], list[Cut]]:
        """For ranges of m: the sorted values of the cuts whose sides have few values (cheaper
        to combine once than to bisect per value), and the other cuts."""
        found = self.few_values.get(m)
        if found is None:
            few = set(self.keys[m]) if self.subset else set()
            other_cuts = []
            for a, b in self.cuts(m):
                self.values(b)
                if self.count[a] <= WINDOW_BUILD and len(self.values(a)) < FEW:
                    self._combine(a, b, few)
                else:
                    other_cuts.append((a, b))
            if self.subset:
                few.discard(0)
            found = self.few_values[m] = (sorted(few), other_cuts)
        return found

    def _span(self, m: int, lo: int, hi: int) -> list[int]:
        """The values of sub-hand m from lo to hi, built and bisected."""
        ordered = self._ordered(m)
        return ordered[bisect_left(ordered, lo):bisect_right(ordered, hi)]

    def _ordered(self, m: int) -> list[int]:
        found = self.ordered.get(m)
        if found is None:
            found = self.ordered[m] = sorted(self.values(m))
        return found

    # -- one expression --------------------------------------------------------------------

    def expression(self, m: int, w: int) -> Expr:
        """One expression of sub-hand m worth w; the caller knows that m reaches w.

        The choice is fixed, so the compiled twin (solver/native/countdown.c) prints the same:
        the first cut (in `cuts` order) that makes w, its side B's values in increasing order,
        and for each the ways of `_ways` in order.
        """
        m = self.same[m]
        keys = self.keys[m]
        if self.count[m] == 1 or (self.subset and w in keys):
            assert w in keys
            return Num(w)
        for a, b in self.cuts(m):
            if not self._cut_makes(w, a, b):
                continue
            any_x = sum(self.keys[a])  # under "all" rules, for x * 0
            for y in self._ordered(b):
                for op, x, left_is_x in _ways(w, y, self.low, any_x):
                    if self.reaches(a, x):
                        x_expr, y_expr = self.expression(a, x), self.expression(b, y)
                        left, right = (x_expr, y_expr) if left_is_x else (y_expr, x_expr)
                        return BinOp(op, left, right)
            raise AssertionError(f"the cut of {keys} making {w} has no way to make it")
        raise ValueError(f"{keys} does not make {w}")


def _ways(w: int, y: int, low: int, any_x: int) -> list[tuple[str, int, bool]]:
    """Each (op, x, whether x is the left operand) with `x op y` or `y op x` equal to w.

    Steps must be >= low; `any_x` is a value the other side surely makes (for x * 0).
    """
    ways = [("+", w - y, True), ("-", w + y, True), ("-", y - w, False)]
    if y:
        ways.append(("/", w * y, True))
        if not w % y:
            ways.append(("*", w // y, True))
    elif w == 0:
        ways.append(("*", any_x, True))
    if w and y and not y % w:
        ways.append(("/", y // w, False))
    return [(op, x, left) for op, x, left in ways if x >= low]
