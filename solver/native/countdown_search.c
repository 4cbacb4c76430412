/* Countdown's compiled search: sub-hands' value sets, single values by meeting in the middle,
   ranges of values, the largest value and one expression (see countdown.h). */

#include "countdown.h"

#include <string.h>

/* Whether w is one of sub-hand m's own numbers. */
static int holds(const Search *s, int m, Value w) {
    for (int i = 0; i < s->n; i++)
        if (m >> i & 1 && s->hand[i] == w)
            return 1;
    return 0;
}

static int combine(Search *s, int a, int b, Set *out) {
    if (build(s, a) < 0 || build(s, b) < 0)
        return -1;
    const Vec *big = &s->sets[a].list, *small = &s->sets[b].list;
    if (big->len < small->len) {
        const Vec *t = big;
        big = small;
        small = t;
    }
    for (size_t j = 0; j < small->len; j++) {
        Value y = small->at[j];
        for (size_t i = 0; i < big->len; i++) {
            Value x = big->at[i];
            if (set_add(out, x + y) < 0 || set_add(out, x * y) < 0)
                return -1;
            Value hi = x >= y ? x : y, lo = x >= y ? y : x;
            if (set_add(out, hi - lo) < 0)
                return -1;
            if (hi % lo == 0 && set_add(out, hi / lo) < 0)
                return -1;
        }
    }
    int zero_a = s->sets[a].zero, zero_b = s->sets[b].zero;
    if (zero_a || zero_b)
        out->zero = 1;  /* x * 0, 0 / x */
    for (int side = 0; side < 2; side++) {
        const Set *from = side == 0 ? (zero_b ? &s->sets[a] : NULL) : (zero_a ? &s->sets[b] : NULL);
        if (!from)
            continue;  /* x + 0, x - 0 make x */
        for (size_t i = 0; i < from->list.len; i++)
            if (set_add(out, from->list.at[i]) < 0)
                return -1;
    }
    return 0;
}

/* Every value of sub-hand m (canonical), once. */
int build(Search *s, int m) {
    if (s->built[m])
        return 0;
    Set *out = &s->sets[m];
    if (set_init(out, s->count[m] <= 2 ? 8 : 64) < 0)
        return -1;
    if (s->count[m] == 1 || s->subset) {
        for (int i = 0; i < s->n; i++)
            if (m >> i & 1 && set_add(out, s->hand[i]) < 0)
                return -1;
    }
    if (s->count[m] > 1) {
        Cuts *cuts = cuts_of(s, m);
        if (!cuts)
            return -1;
        for (int k = 0; k < cuts->len; k++)
            if (combine(s, cuts->at[k].a, cuts->at[k].b, out) < 0)
                return -1;
        if (s->subset)
            out->zero = 0;  /* a - a, not a step of the TV game */
    }
    s->built[m] = 1;
    return 0;
}

/* The cuts of m into (A, B), B the smaller side, once per pair of multisets, bigger B first. */
Cuts *cuts_of(Search *s, int m) {
    if (s->has_cuts[m])
        return &s->cuts[m];
    Cut raw[MAX_CUTS];
    int len = 0;
    for (int b = (m - 1) & m; b; b = (b - 1) & m) {
        int a = m ^ b;
        if (s->count[b] < s->count[a] || (s->count[b] == s->count[a] && b < a))
            raw[len++] = (Cut){(uint8_t)a, (uint8_t)b};
    }
    Cut *at = malloc((len ? len : 1) * sizeof *at);
    if (!at) {
        PyErr_NoMemory();
        return NULL;
    }
    int kept = 0;
    for (int size = s->count[m] / 2; size >= 1; size--)  /* stable, by the size of B */
        for (int k = 0; k < len; k++) {
            if (s->count[raw[k].b] != size)
                continue;
            Cut cut = {s->same[raw[k].a], s->same[raw[k].b]};
            int seen = 0;
            for (int j = 0; j < kept && !seen && !s->distinct; j++)
                seen = (at[j].a == cut.a && at[j].b == cut.b) ||
                       (at[j].a == cut.b && at[j].b == cut.a);
            if (!seen)
                at[kept++] = cut;
        }
    s->cuts[m] = (Cuts){at, kept};
    s->has_cuts[m] = 1;
    return &s->cuts[m];
}

/* Whether w = x op y for x of A (built) and y of B (built). */
static int meets(Search *s, Value w, int a, int b) {
    const Set *xs = &s->sets[a];
    const Vec *ys = &s->sets[b].list;
    Value top = s->bound[a];
    for (size_t j = 0; j < ys->len; j++) {
        Value y = ys->at[j];
        if (set_has(xs, w - y) || set_has(xs, w + y) || set_has(xs, y - w) ||
            (w <= top / y && set_has(xs, w * y)))
            return 1;  /* x + y, x - y, y - x, x / y (and x * y = 0 with x = 0) */
        if (w && ((w % y == 0 && set_has(xs, w / y)) || (y % w == 0 && set_has(xs, y / w))))
            return 1;  /* x * y, y / x */
    }
    return s->sets[b].zero && (w == 0 || set_has(xs, w));
}

/* The values x of A with x op y = w for some nonzero value y of B (within A's bound). */
static int wanted(Search *s, Value w, int a, int b, Vec *out) {
    const Vec *ys = &s->sets[b].list;
    for (size_t j = 0; j < ys->len; j++) {
        Value y = ys->at[j];
        if (vec_push(out, w - y) < 0 || vec_push(out, w + y) < 0 || vec_push(out, y - w) < 0)
            return -1;
        if (w <= s->bound[a] / y && vec_push(out, w * y) < 0)
            return -1;
        if (w && w % y == 0 && vec_push(out, w / y) < 0)
            return -1;
        if (w && y % w == 0 && vec_push(out, y / w) < 0)
            return -1;
    }
    return 0;
}

/* Whether the cut A|B of a sub-hand makes w: 1, 0, or -1 on error. `later` set: A is big and
   unbuilt, answered value by value (or built once asked too often). */
static int cut_makes(Search *s, Value w, int a, int b) {
    if (build(s, b) < 0)
        return -1;
    if (!s->built[a] && s->count[a] <= BUILD && build(s, a) < 0)
        return -1;
    if (s->built[a])
        return meets(s, w, a, b);
    Vec want = {0};
    int made = 0;
    if (wanted(s, w, a, b, &want) < 0)
        goto fail;
    if (s->asked[a] + (long)want.len > s->patience[s->count[a]]) {
        if (build(s, a) < 0)
            goto fail;
        made = meets(s, w, a, b);
    } else {
        for (size_t i = 0; i < want.len && !made; i++)
            if ((made = reaches(s, a, want.at[i])) < 0)
                goto fail;
        if (!made && s->sets[b].zero && (made = w == 0 || reaches(s, a, w)) < 0)
            goto fail;  /* x + 0, x - 0 make x; x * 0 and 0 / x make 0 */
    }
    free(want.at);
    return made;
fail:
    free(want.at);
    return -1;
}

/* A cut of m that makes w (its index), -1 if none, -2 on error. Cuts whose sides are built go
   first (cheap), then the others. */
static int search_cut(Search *s, int m, Value w) {
    Cuts *cuts = cuts_of(s, m);
    if (!cuts)
        return -2;
    char later[MAX_CUTS];
    for (int k = 0; k < cuts->len; k++) {
        int a = cuts->at[k].a;
        later[k] = !s->built[a] && s->count[a] > BUILD;
        int made = later[k] ? 0 : cut_makes(s, w, a, cuts->at[k].b);
        if (made)
            return made < 0 ? -2 : k;
    }
    for (int k = 0; k < cuts->len; k++) {
        int made = later[k] ? cut_makes(s, w, cuts->at[k].a, cuts->at[k].b) : 0;
        if (made)
            return made < 0 ? -2 : k;
    }
    return -1;
}

/* Whether sub-hand m makes w: 1, 0, or -1 on error. */
int reaches(Search *s, int m, Value w) {
    m = s->same[m];
    if (s->built[m])
        return set_has(&s->sets[m], w);
    if (w < s->low || w > s->bound[m])
        return 0;
    if (s->count[m] <= BUILD || ++s->asked[m] > s->patience[s->count[m]])
        return build(s, m) < 0 ? -1 : set_has(&s->sets[m], w);
    Answer *known = answer_slot(&s->answers, m, w);
    if (known->m >= 0)
        return known->made;
    int made = s->subset && holds(s, m, w);
    if (!made) {
        int cut = search_cut(s, m, w);
        if (cut == -2)
            return -1;
        made = cut >= 0;
    }
    return answers_put(&s->answers, m, w, made) < 0 ? -1 : made;
}

/* -- ranges of values ------------------------------------------------------------------------ */

const Vec *ordered(Search *s, int m) {
    if (!s->has_ordered[m]) {
        if (build(s, m) < 0)
            return NULL;
        Vec *v = &s->ordered[m];
        const Set *set = &s->sets[m];
        if (set->zero && vec_push(v, 0) < 0)
            return NULL;
        for (size_t i = 0; i < set->list.len; i++)
            if (vec_push(v, set->list.at[i]) < 0)
                return NULL;
        vec_sort(v);
        s->has_ordered[m] = 1;
    }
    return &s->ordered[m];
}

static size_t lower_bound(const Vec *v, Value x) {
    size_t lo = 0, hi = v->len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v->at[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Append the sorted values of v from lo to hi. */
static int slice(const Vec *v, Value lo, Value hi, Vec *out) {
    for (size_t i = lower_bound(v, lo); i < v->len && v->at[i] <= hi; i++)
        if (vec_push(out, v->at[i]) < 0)
            return -1;
    return 0;
}

/* Append the values of sub-hand m from lo to hi: bisected when built (or small), else a window. */
static int part(Search *s, int m, Value lo, Value hi, Vec *out) {
    if (s->built[m] || s->count[m] <= WINDOW_BUILD) {
        if (lo < s->low)
            lo = s->low;
        if (hi > s->bound[m])
            hi = s->bound[m];
        if (lo > hi)
            return 0;
        const Vec *v = ordered(s, m);
        return v ? slice(v, lo, hi, out) : -1;
    }
    return window(s, m, lo, hi, out);
}

/* For ranges of m: the sorted values of the cuts whose sides have few values, and the others. */
static int few_and_other(Search *s, int m) {
    if (s->has_few[m])
        return 0;
    Cuts *cuts = cuts_of(s, m);
    if (!cuts)
        return -1;
    Set few;
    if (set_init(&few, 64) < 0)
        return -1;
    Cut *other = malloc((cuts->len ? cuts->len : 1) * sizeof *other);
    int others = 0;
    if (!other) {
        PyErr_NoMemory();
        goto fail;
    }
    if (s->subset)
        for (int i = 0; i < s->n; i++)
            if (m >> i & 1 && set_add(&few, s->hand[i]) < 0)
                goto fail;
    for (int k = 0; k < cuts->len; k++) {
        int a = cuts->at[k].a, b = cuts->at[k].b;
        if (build(s, b) < 0)
            goto fail;
        if (s->count[a] <= WINDOW_BUILD) {
            if (build(s, a) < 0)
                goto fail;
            const Set *xs = &s->sets[a];
            if (xs->list.len + (size_t)xs->zero < FEW) {
                if (combine(s, a, b, &few) < 0)
                    goto fail;
                continue;
            }
        }
        other[others++] = cuts->at[k];
    }
    if (s->subset)
        few.zero = 0;
    Vec *sorted = &s->few[m];
    if ((few.zero && vec_push(sorted, 0) < 0))
        goto fail;
    for (size_t i = 0; i < few.list.len; i++)
        if (vec_push(sorted, few.list.at[i]) < 0)
            goto fail;
    vec_sort(sorted);
    set_free(&few);
    s->other[m] = (Cuts){other, others};
    s->has_few[m] = 1;
    return 0;
fail:
    set_free(&few);
    free(other);
    return -1;
}

static inline Value ceil_div(Value a, Value b) { /* b > 0 */
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/* Append the values of sub-hand m from lo to hi (with repeats): each side's values that can
   land in the range lie in a range too, asked one level down. */
int window(Search *s, int m, Value lo, Value hi, Vec *out) {
    m = s->same[m];
    if (lo < s->low)
        lo = s->low;
    if (hi > s->bound[m])
        hi = s->bound[m];
    if (lo > hi)
        return 0;
    if (s->built[m] || s->count[m] <= WINDOW_BUILD)
        return part(s, m, lo, hi, out);
    if (few_and_other(s, m) < 0 || slice(&s->few[m], lo, hi, out) < 0)
        return -1;
    Vec xs = {0};
    const Cuts *other = &s->other[m];
    for (int k = 0; k < other->len; k++) {
        int a = other->at[k].a, b = other->at[k].b;
        Value top = s->bound[a];
        const Vec *ys = &s->sets[b].list;
        for (size_t j = 0; j < ys->len; j++) {
            Value y = ys->at[j];
            size_t i;
            xs.len = 0;
            if (part(s, a, lo - y, hi - y, &xs) < 0)
                goto fail;
            for (i = 0; i < xs.len; i++)
                if (vec_push(out, xs.at[i] + y) < 0)
                    goto fail;
            xs.len = 0;
            if (part(s, a, lo + y, hi + y, &xs) < 0)
                goto fail;
            for (i = 0; i < xs.len; i++)
                if (vec_push(out, xs.at[i] - y) < 0)
                    goto fail;
            if (y >= lo) {
                xs.len = 0;
                if (part(s, a, y - hi, y - lo, &xs) < 0)
                    goto fail;
                for (i = 0; i < xs.len; i++)
                    if (vec_push(out, y - xs.at[i]) < 0)
                        goto fail;
                if (hi) {  /* y / x from lo to hi: x from y / hi to y / lo, dividing y */
                    xs.len = 0;
                    if (part(s, a, ceil_div(y, hi), y / (lo > 1 ? lo : 1), &xs) < 0)
                        goto fail;
                    for (i = 0; i < xs.len; i++)
                        if (xs.at[i] && y % xs.at[i] == 0 && vec_push(out, y / xs.at[i]) < 0)
                            goto fail;
                }
            }
            xs.len = 0;
            if (part(s, a, ceil_div(lo, y), hi / y, &xs) < 0)
                goto fail;
            for (i = 0; i < xs.len; i++)
                if (vec_push(out, xs.at[i] * y) < 0)
                    goto fail;
            if (lo <= top / y) {  /* x / y: x from lo * y to hi * y, within A's bound */
                xs.len = 0;
                if (part(s, a, lo * y, hi <= top / y ? hi * y : top, &xs) < 0)
                    goto fail;
                for (i = 0; i < xs.len; i++)
                    if (xs.at[i] % y == 0 && vec_push(out, xs.at[i] / y) < 0)
                        goto fail;
            }
        }
        if (s->sets[b].zero) {
            if (part(s, a, lo, hi, out) < 0)  /* x + 0, x - 0 */
                goto fail;
            if (lo == 0 && vec_push(out, 0) < 0)  /* x * 0 */
                goto fail;
        }
    }
    free(xs.at);
    return 0;
fail:
    free(xs.at);
    return -1;
}

/* -- the largest value ------------------------------------------------------------------------ */

Value largest(Search *s, int m) {
    if (!s->has_largest[m]) {
        Value found = 0;
        if (s->count[m] == 1) {
            for (int i = 0; i < s->n; i++)
                if (m >> i & 1)
                    found = s->hand[i];
        } else {
            Cuts *cuts = cuts_of(s, m);
            if (!cuts)
                return -1;
            for (int k = 0; k < cuts->len; k++) {
                Value x = largest(s, cuts->at[k].a), y = largest(s, cuts->at[k].b);
                if (x < 0 || y < 0)
                    return -1;
                Value v = x * y > x + y ? x * y : x + y;
                if (v > found)
                    found = v;
            }
        }
        s->largest[m] = found;
        s->has_largest[m] = 1;
    }
    return s->largest[m];
}

/* -- one expression --------------------------------------------------------------------------- */

typedef struct {
    char op;
    Value x;
    int left, ok;  /* whether x is the left operand; whether this way applies */
} Way;

static PyObject *node(Search *s, char op, int a, Value x, int b, Value y, int left_is_x) {
    PyObject *left = expression(s, a, x);
    PyObject *right = left ? expression(s, b, y) : NULL;
    PyObject *out = NULL;
    if (right)
        out = left_is_x ? Py_BuildValue("(COO)", op, left, right)
                        : Py_BuildValue("(COO)", op, right, left);
    Py_XDECREF(left);
    Py_XDECREF(right);
    return out;
}

/* One expression of sub-hand m worth w, as nested (op, left, right) with ints for numbers: the
   first cut (in cuts_of's order) that makes w, its side B's values in increasing order, and for
   each the ways to make w in a fixed order. The pure twin chooses the same way. */
PyObject *expression(Search *s, int m, Value w) {
    m = s->same[m];
    if (s->count[m] == 1 || (s->subset && holds(s, m, w))) {
        if (!holds(s, m, w))
            return PyErr_Format(PyExc_AssertionError, "%lld is not a number of the hand",
                                (long long)w);
        return PyLong_FromLongLong(w);
    }
    Cuts *cuts = cuts_of(s, m);
    if (!cuts)
        return NULL;
    for (int k = 0; k < cuts->len; k++) {
        int a = cuts->at[k].a, b = cuts->at[k].b;
        int made = cut_makes(s, w, a, b);
        if (made < 0)
            return NULL;
        if (!made)
            continue;
        const Vec *ys = ordered(s, b);
        if (!ys)
            return NULL;
        for (size_t j = 0; j < ys->len; j++) {
            Value y = ys->at[j];
            Way ways[6] = {
                {'+', w - y, 1, 1}, {'-', w + y, 1, 1}, {'-', y - w, 0, 1},
                {'/', 0, 1, 0}, {'*', 0, 1, 0}, {'/', 0, 0, 0}};
            if (y) {
                if (w <= s->bound[a] / y)
                    ways[3] = (Way){'/', w * y, 1, 1};
                if (w % y == 0)
                    ways[4] = (Way){'*', w / y, 1, 1};
            } else if (w == 0) {
                ways[4] = (Way){'*', s->sum[a], 1, 1};  /* x * 0, any x of A */
            }
            if (w && y && y % w == 0)
                ways[5] = (Way){'/', y / w, 0, 1};
            for (int i = 0; i < 6; i++) {
                if (!ways[i].ok || ways[i].x < s->low)
                    continue;
                int found = reaches(s, a, ways[i].x);
                if (found < 0)
                    return NULL;
                if (found)
                    return node(s, ways[i].op, a, ways[i].x, b, y, ways[i].left);
            }
        }
        return PyErr_Format(PyExc_AssertionError, "a cut making %lld has no way to make it",
                            (long long)w);
    }
    return PyErr_Format(PyExc_ValueError, "the sub-hand does not make %lld", (long long)w);
}
