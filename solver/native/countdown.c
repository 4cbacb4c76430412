/* Countdown's search in C: the twin of solver/countdown_search.py (module solver.native._countdown).

   One `Search` per game answers what the scan in solver/countdown.py asks: does sub-hand m make
   w (`reaches`), which values of m lie in [lo, hi] (`window`), the largest value (`ceiling`),
   and one expression for a value (`expression`, chosen the same way as the pure twin's, so both
   print the same text). Sub-hands are bit masks over the sorted hand; small ones get their whole
   value set, bigger ones are asked single values by meeting in the middle, as in the Python.

   Values are 64-bit: every value of a sub-hand is at most the product of max(n, 2) over its
   numbers (x + y <= x * y and x - y, x / y <= x when x, y >= 2), and a Search is only made when
   that product for the whole hand is below 2^62 (OverflowError otherwise: the pure twin answers).
   Every product or sum below is taken only when its operands are within the bound, so no step
   passes 2^63. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t Value;

enum { MAX_NUMBERS = 8, MASKS = 1 << MAX_NUMBERS, MAX_CUTS = MASKS / 2 };
enum { BUILD = 4, WINDOW_BUILD = 5, FEW = 20, PATIENCE = 48 };
#define LIMIT ((Value)1 << 62)

/* -- growable arrays and sets of values ------------------------------------------------------ */

typedef struct {
    Value *at;
    size_t len, cap;
} Vec;

static int vec_push(Vec *v, Value x) {
    if (v->len == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 16;
        Value *at = realloc(v->at, cap * sizeof *at);
        if (!at) {
            PyErr_NoMemory();
            return -1;
        }
        v->at = at;
        v->cap = cap;
    }
    v->at[v->len++] = x;
    return 0;
}

static int compare_values(const void *a, const void *b) {
    Value x = *(const Value *)a, y = *(const Value *)b;
    return (x > y) - (x < y);
}

static void vec_sort_unique(Vec *v) {
    if (v->len < 2)
        return;
    qsort(v->at, v->len, sizeof *v->at, compare_values);
    size_t kept = 1;
    for (size_t i = 1; i < v->len; i++)
        if (v->at[i] != v->at[kept - 1])
            v->at[kept++] = v->at[i];
    v->len = kept;
}

/* The positive values of a set by open addressing (-1 marks an empty slot), with their list in
   insertion order beside; 0 is a flag apart. */
typedef struct {
    Value *slot;
    size_t mask;  /* capacity - 1, a power of two minus one */
    Vec list;
    int zero;
} Set;

static inline size_t hash_value(Value v, size_t mask) {
    return (size_t)(((uint64_t)v * 0x9E3779B97F4A7C15ull) >> 20) & mask;
}

static int set_init(Set *s, size_t expected) {
    size_t cap = 16;
    while (cap < 2 * expected)
        cap *= 2;
    s->slot = malloc(cap * sizeof *s->slot);
    if (!s->slot) {
        PyErr_NoMemory();
        return -1;
    }
    memset(s->slot, 0xff, cap * sizeof *s->slot);
    s->mask = cap - 1;
    s->list = (Vec){0};
    s->zero = 0;
    return 0;
}

static void set_free(Set *s) {
    free(s->slot);
    free(s->list.at);
    memset(s, 0, sizeof *s);
}

static inline int set_has(const Set *s, Value v) {
    if (v <= 0)
        return v == 0 && s->zero;
    for (size_t i = hash_value(v, s->mask);; i = (i + 1) & s->mask) {
        if (s->slot[i] == v)
            return 1;
        if (s->slot[i] < 0)
            return 0;
    }
}

static int set_grow(Set *s) {
    size_t cap = 2 * (s->mask + 1);
    Value *slot = malloc(cap * sizeof *slot);
    if (!slot) {
        PyErr_NoMemory();
        return -1;
    }
    memset(slot, 0xff, cap * sizeof *slot);
    s->mask = cap - 1;
    for (size_t k = 0; k < s->list.len; k++) {
        Value v = s->list.at[k];
        size_t i = hash_value(v, s->mask);
        while (slot[i] >= 0)
            i = (i + 1) & s->mask;
        slot[i] = v;
    }
    free(s->slot);
    s->slot = slot;
    return 0;
}

static inline int set_add(Set *s, Value v) {
    if (v == 0) {
        s->zero = 1;
        return 0;
    }
    size_t i = hash_value(v, s->mask);
    while (s->slot[i] >= 0) {
        if (s->slot[i] == v)
            return 0;
        i = (i + 1) & s->mask;
    }
    s->slot[i] = v;
    if (vec_push(&s->list, v) < 0)
        return -1;
    return 2 * s->list.len > s->mask + 1 ? set_grow(s) : 0;
}

/* -- the questions already answered: (sub-hand, value) -> made or not ------------------------ */

typedef struct {
    Value w;
    int16_t m;  /* -1: empty */
    int8_t made;
} Answer;

typedef struct {
    Answer *slot;
    size_t mask, len;
} Answers;

static inline size_t hash_answer(int m, Value w, size_t mask) {
    return (size_t)((((uint64_t)w * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)m * 0xC2B2AE3D27D4EB4Full))
                    >> 24) & mask;
}

static Answer *answer_slot(Answers *t, int m, Value w) {
    size_t i = hash_answer(m, w, t->mask);
    while (t->slot[i].m >= 0 && (t->slot[i].m != m || t->slot[i].w != w))
        i = (i + 1) & t->mask;
    return &t->slot[i];
}

static int answers_init(Answers *t, size_t cap) {
    t->slot = malloc(cap * sizeof *t->slot);
    if (!t->slot) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        t->slot[i].m = -1;
    t->mask = cap - 1;
    t->len = 0;
    return 0;
}

static int answers_put(Answers *t, int m, Value w, int made) {
    if (2 * (t->len + 1) > t->mask + 1) {
        Answers bigger;
        if (answers_init(&bigger, 2 * (t->mask + 1)) < 0)
            return -1;
        for (size_t i = 0; i <= t->mask; i++)
            if (t->slot[i].m >= 0)
                *answer_slot(&bigger, t->slot[i].m, t->slot[i].w) = t->slot[i];
        bigger.len = t->len;
        free(t->slot);
        *t = bigger;
    }
    Answer *a = answer_slot(t, m, w);
    *a = (Answer){w, (int16_t)m, (int8_t)made};
    t->len++;
    return 0;
}

/* -- the search --------------------------------------------------------------------------- */

typedef struct {
    uint8_t a, b;  /* the bigger side A, the smaller side B */
} Cut;

typedef struct {
    Cut *at;
    int len;
} Cuts;

typedef struct {
    PyObject_HEAD
    int n, subset, distinct;
    Py_ssize_t full;
    long long low;
    Value hand[MAX_NUMBERS];
    uint8_t count[MASKS], same[MASKS];
    Value bound[MASKS], sum[MASKS];
    char built[MASKS], has_cuts[MASKS], has_largest[MASKS], has_ordered[MASKS], has_few[MASKS];
    Set sets[MASKS];
    Vec ordered[MASKS], few[MASKS];
    Cuts cuts[MASKS], other[MASKS];
    Value largest[MASKS];
    long asked[MASKS];
    long patience[MAX_NUMBERS + 1];
    Answers answers;
} Search;

static Cuts *cuts_of(Search *s, int m);

/* Whether w is one of sub-hand m's own numbers. */
static int holds(const Search *s, int m, Value w) {
    for (int i = 0; i < s->n; i++)
        if (m >> i & 1 && s->hand[i] == w)
            return 1;
    return 0;
}

static int build(Search *s, int m);

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
static int build(Search *s, int m) {
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
static Cuts *cuts_of(Search *s, int m) {
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

static int reaches(Search *s, int m, Value w);

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
static int reaches(Search *s, int m, Value w) {
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

static const Vec *ordered(Search *s, int m) {
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
        qsort(v->at, v->len, sizeof *v->at, compare_values);
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

static int window(Search *s, int m, Value lo, Value hi, Vec *out);

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
    qsort(sorted->at, sorted->len, sizeof *sorted->at, compare_values);
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
static int window(Search *s, int m, Value lo, Value hi, Vec *out) {
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

static Value largest(Search *s, int m) {
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

static PyObject *expression(Search *s, int m, Value w);

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
static PyObject *expression(Search *s, int m, Value w) {
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

/* -- the Python face ------------------------------------------------------------------------ */

static int mask_argument(Search *s, PyObject *arg, int *m) {
    long value = PyLong_AsLong(arg);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (value < 1 || value > s->full) {
        PyErr_SetString(PyExc_ValueError, "not a sub-hand of this hand");
        return -1;
    }
    *m = (int)value;
    return 0;
}

/* A whole number, clamped to +-2^62: beyond, no value of the hand lies. */
static int value_argument(PyObject *arg, Value *v) {
    int overflow;
    long long value = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (overflow)
        value = overflow < 0 ? -LIMIT : LIMIT;
    else if (value > LIMIT || value < -LIMIT)
        value = value < 0 ? -LIMIT : LIMIT;
    *v = value;
    return 0;
}

static PyObject *Search_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *hand;
    int subset;
    static char *names[] = {"hand", "subset", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!p", names, &PyTuple_Type, &hand, &subset))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(hand);
    if (n < 1 || n > MAX_NUMBERS)
        return PyErr_Format(PyExc_ValueError, "between 1 and %d numbers", MAX_NUMBERS);
    Search *s = (Search *)type->tp_alloc(type, 0);
    if (!s)
        return NULL;
    s->n = (int)n;
    s->subset = subset;
    s->low = subset ? 1 : 0;
    s->full = ((Py_ssize_t)1 << n) - 1;
    s->distinct = 1;
    for (int i = 0; i < s->n; i++) {
        long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(hand, i));
        if (v == -1 && PyErr_Occurred())
            goto fail;
        if (v < 1 || v > 1000000 || (i && v < s->hand[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "a sorted hand of whole numbers from 1");
            goto fail;
        }
        s->hand[i] = v;
        if (i && v == s->hand[i - 1])
            s->distinct = 0;
    }
    s->bound[0] = 1;
    for (int m = 1; m <= s->full; m++) {
        int i = __builtin_ctz((unsigned)m);
        Value n_i = s->hand[i], factor = n_i > 2 ? n_i : 2;
        int rest = m & (m - 1);
        s->count[m] = (uint8_t)(s->count[rest] + 1);
        s->sum[m] = s->sum[rest] + n_i;
        if (s->bound[rest] > (LIMIT - 1) / factor) {
            PyErr_SetString(PyExc_OverflowError, "values may pass 2^62: the pure search answers");
            goto fail;
        }
        s->bound[m] = s->bound[rest] * factor;
    }
    /* equal multisets share the first mask that holds them */
    for (int m = 0; m <= s->full; m++) {
        s->same[m] = (uint8_t)m;
        if (s->distinct)
            continue;
        for (int k = 0; k < m; k++) {
            if (s->count[k] != s->count[m] || s->sum[k] != s->sum[m] || s->same[k] != k)
                continue;
            Value mine[MAX_NUMBERS], theirs[MAX_NUMBERS];
            int p = 0, q = 0;
            for (int i = 0; i < s->n; i++) {
                if (m >> i & 1)
                    mine[p++] = s->hand[i];
                if (k >> i & 1)
                    theirs[q++] = s->hand[i];
            }
            if (!memcmp(mine, theirs, (size_t)p * sizeof *mine)) {
                s->same[m] = (uint8_t)k;
                break;
            }
        }
    }
    for (int count = 0; count <= MAX_NUMBERS; count++)
        s->patience[count] = (long)PATIENCE << 2 * (count > BUILD + 1 ? count - BUILD - 1 : 0);
    if (answers_init(&s->answers, 256) < 0)
        goto fail;
    return (PyObject *)s;
fail:
    Py_DECREF(s);
    return NULL;
}

static void Search_dealloc(Search *s) {
    for (int m = 0; m < MASKS; m++) {
        set_free(&s->sets[m]);
        free(s->ordered[m].at);
        free(s->few[m].at);
        free(s->cuts[m].at);
        free(s->other[m].at);
    }
    free(s->answers.slot);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *Search_reaches(Search *s, PyObject *const *args, Py_ssize_t nargs) {
    int m;
    Value w;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "reaches(m, w)");
        return NULL;
    }
    if (mask_argument(s, args[0], &m) < 0 || value_argument(args[1], &w) < 0)
        return NULL;
    if (w >= LIMIT || w <= -LIMIT)
        Py_RETURN_FALSE;
    int made = reaches(s, m, w);
    if (made < 0)
        return NULL;
    return PyBool_FromLong(made);
}

static PyObject *list_of(Vec *v) {
    PyObject *out = PyList_New((Py_ssize_t)v->len);
    for (size_t i = 0; out && i < v->len; i++) {
        PyObject *item = PyLong_FromLongLong(v->at[i]);
        if (!item) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, item);
    }
    return out;
}

static PyObject *Search_window(Search *s, PyObject *const *args, Py_ssize_t nargs) {
    int m;
    Value lo, hi;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "window(m, lo, hi)");
        return NULL;
    }
    if (mask_argument(s, args[0], &m) < 0 || value_argument(args[1], &lo) < 0 ||
        value_argument(args[2], &hi) < 0)
        return NULL;
    Vec out = {0};
    if (window(s, m, lo, hi, &out) < 0) {
        free(out.at);
        return NULL;
    }
    vec_sort_unique(&out);
    PyObject *list = list_of(&out);
    free(out.at);
    return list;
}

static PyObject *Search_values(Search *s, PyObject *arg) {
    int m;
    if (mask_argument(s, arg, &m) < 0)
        return NULL;
    const Vec *v = ordered(s, s->same[m]);
    return v ? list_of((Vec *)v) : NULL;
}

static PyObject *Search_build_parts(Search *s, PyObject *Py_UNUSED(ignored)) {
    Cuts *cuts = cuts_of(s, (int)s->full);
    if (!cuts)
        return NULL;
    for (int k = 0; k < cuts->len; k++)
        if (s->count[cuts->at[k].a] <= WINDOW_BUILD && build(s, cuts->at[k].a) < 0)
            return NULL;
    Py_RETURN_NONE;
}

static PyObject *Search_ceiling(Search *s, PyObject *arg) {
    Value enough;
    if (value_argument(arg, &enough) < 0)
        return NULL;
    if (s->bound[s->full] > enough)
        return PyLong_FromLongLong(s->bound[s->full]);
    Value top = largest(s, (int)s->full);
    return top < 0 ? NULL : PyLong_FromLongLong(top);
}

static PyObject *Search_expression(Search *s, PyObject *const *args, Py_ssize_t nargs) {
    int m;
    Value w;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "expression(m, w)");
        return NULL;
    }
    if (mask_argument(s, args[0], &m) < 0 || value_argument(args[1], &w) < 0)
        return NULL;
    return expression(s, m, w);
}

static PyMethodDef Search_methods[] = {
    {"reaches", (PyCFunction)(void (*)(void))Search_reaches, METH_FASTCALL,
     "reaches(m, w): whether sub-hand m makes w."},
    {"window", (PyCFunction)(void (*)(void))Search_window, METH_FASTCALL,
     "window(m, lo, hi): the values of sub-hand m from lo to hi, sorted."},
    {"values", (PyCFunction)Search_values, METH_O, "values(m): every value of m, sorted."},
    {"build_parts", (PyCFunction)Search_build_parts, METH_NOARGS,
     "build_parts(): build the value sets of the whole hand's parts of up to 5 numbers."},
    {"ceiling", (PyCFunction)Search_ceiling, METH_O,
     "ceiling(enough): the largest value, or a bound above `enough`."},
    {"expression", (PyCFunction)(void (*)(void))Search_expression, METH_FASTCALL,
     "expression(m, w): one expression of m worth w, as nested (op, left, right)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Search_members[] = {
    {"full", T_PYSSIZET, offsetof(Search, full), READONLY, "the mask of the whole hand"},
    {"low", T_LONGLONG, offsetof(Search, low), READONLY, "the smallest legal step"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.native._countdown.Search",
    .tp_doc = "Search(hand, subset): which whole numbers a sorted Countdown hand makes.",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Search_new,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_members = Search_members,
};

static struct PyModuleDef countdown_module = {
    PyModuleDef_HEAD_INIT, "_countdown",
    "Countdown's search in C, the twin of solver.countdown_search.", -1, NULL,
};

PyMODINIT_FUNC PyInit__countdown(void) {
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&countdown_module);
    if (!module)
        return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(module, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(module);
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "LIMIT_BITS", 62) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
