/* The search over sub-hands with exact rationals (see search.h). */
#include <stdlib.h>
#include <string.h>

#include "display.h"
#include "search.h"

void search_init(Search *s, const int64_t *sorted, int n, bool integer_only) {
    hand_init(&s->hand, sorted, n);
    s->keys.hand = &s->hand;
    s->integer_only = integer_only;
    trim_value_cache();
}

void search_free(Search *s) {
    for (int m = 0; m < MASKS; m++)
        if (s->owned[m]) value_set_free(s->values[m]);
    qmap_free(&s->made);
    qmap_free(&s->listed);
    free(s->lists);
    free(s->pool);
    free(s->stack);
    free(s->mark);
    keys_free(&s->keys);
    memset(s, 0, sizeof *s);
}

/* the bytes of the buffers a search keeps for the next hand */
static size_t kept_bytes(const Search *s) {
    return (s->made.cap + s->listed.cap) * sizeof(Slot) + s->cap_lists * sizeof(KeyList) +
           (s->cap_pool + s->cap_stack + s->cap_mark) * sizeof(KeyId) + keys_bytes(&s->keys);
}

void search_clear(Search *s) {
    if (kept_bytes(s) > SEARCH_KEEP_BYTES) {
        search_free(s);
        return;
    }
    for (int m = 0; m < (1 << s->hand.n); m++) {  /* no other sub-hand has values */
        if (s->owned[m]) value_set_free(s->values[m]);
        s->values[m] = NULL, s->owned[m] = false;
    }
    qmap_clear(&s->made);
    qmap_clear(&s->listed);
    s->n_lists = s->n_pool = s->n_stack = 0;
    if (s->serial > UINT32_MAX / 2) {  /* marks are told apart by serial: start them again */
        if (s->cap_mark) memset(s->mark, 0, s->cap_mark * sizeof *s->mark);
        s->serial = 0;
    }
    keys_clear(&s->keys);
}

/* ---- value sets of small sub-hands ---- */

static void add_divided(ValueSet *set, Q a, Q b, bool integer_only) {
    Q q = q_div(a, b);
    if (!integer_only || q_is_int(q)) add_value(set, q);
}

/* every non-negative value one operation makes of a and b */
static void add_combined(ValueSet *set, Q a, Q b, bool integer_only) {
    add_value(set, q_add(a, b));
    add_value(set, q_cmp(a, b) >= 0 ? q_sub(a, b) : q_sub(b, a));
    add_value(set, q_mul(a, b));
    if (!q_is_zero(b)) add_divided(set, a, b, integer_only);
    if (!q_is_zero(a)) add_divided(set, b, a, integer_only);
}

static void build_values(Search *s, Mask m, ValueSet *set) {
    if (mask_size(m) == 1) {
        add_value(set, q_int(s->hand.number[__builtin_ctz(m)]));
        return;
    }
    int n;
    const Split *split = splits_of(&s->hand, m, &n);
    for (int i = 0; i < n; i++) {
        const ValueSet *left = values_of(s, split[i].left), *right = values_of(s, split[i].right);
        for (uint32_t x = 0; x < left->n; x++)
            for (uint32_t y = 0; y < right->n; y++)
                add_combined(set, left->value[x], right->value[y], s->integer_only);
    }
}

const ValueSet *values_of(Search *s, Mask m) {
    if (s->values[m]) return s->values[m];
    int64_t numbers[MAX_NUMBERS] = {0};  /* the sub-hand's numbers, ascending as the hand's are */
    int n = 0;
    for (unsigned bits = m; bits; bits &= bits - 1)
        numbers[n++] = s->hand.number[__builtin_ctz(bits)];
    ValueSet *set = n <= CACHED ? cached_values(numbers, n, s->integer_only) : NULL;
    if (set == NULL) {
        set = s->values[m] = value_set_new();
        s->owned[m] = true;  /* until the cache has it: a failure midway frees it */
        build_values(s, m, set);
        if (n <= CACHED) {
            cache_values(numbers, n, s->integer_only, set);
            s->owned[m] = false;
        }
    }
    return s->values[m] = set;
}

const Q *ordered_values(Search *s, Mask m, uint32_t *n) {
    values_of(s, m);
    ValueSet *set = s->values[m];
    *n = set->n;
    if (!s->owned[m]) return sorted_copy(set);  /* a cached set, shared: its order stays */
    sort_values(set);  /* the search's own set, sorted in place */
    return set->value;
}

static bool in_values(Search *s, Mask m, Q v) { return has_value(values_of(s, m), v); }

/* ---- hits: the ways to reach v != 0 from two sides of a split ---- */

typedef enum { A_PLUS_B, A_MINUS_B, B_MINUS_A, A_TIMES_B, A_OVER_B, B_OVER_A } Op;

typedef struct {
    Op op;
    Mask small, big;
    Q a, b;
} Hit;

typedef struct {
    Q v;
    const Split *splits;
    int n_splits, split;
    Mask small, big;
    const Q *small_values;  /* ascending */
    uint32_t n_small;
    const ValueSet *big_values;  /* NULL past SMALL numbers */
    uint32_t next_a;
    Q a;
    Op op[6];
    Q b[6];
    int n_wanted, w;
} Hits;

/* for a side worth a, each operation and the value b the other side needs to make v */
/* one wanted (op, b), unless integer_only rules out a fraction; written a word at a time (a
 * Q copied whole from a fresh array stalls: its two halves were just stored separately) */
static inline int want(Op *op, Q *b, int n, Op o, int64_t num, int64_t den, bool integer_only) {
    if (integer_only && den != 1) return n;
    op[n] = o, b[n].num = num, b[n].den = den;
    return n + 1;
}

static int wanted(Q v, Q a, bool integer_only, Op *op, Q *b) {
    int n = 0, c = q_cmp(v, a);
    if (c >= 0) op[n] = A_PLUS_B, b[n++] = q_sub(v, a);
    if (c <= 0) op[n] = A_MINUS_B, b[n++] = q_sub(a, v);
    op[n] = B_MINUS_A, b[n++] = q_add(v, a);
    if (q_is_zero(a)) return n;
    if (q_is_int(v) && q_is_int(a) && v.num > 0 && a.num > 0) {  /* one gcd, not six */
        int64_t g = (int64_t)gcd64((uint64_t)v.num, (uint64_t)a.num), x = v.num, y = a.num;
        if (g != 1) x /= g, y /= g;
        n = want(op, b, n, A_TIMES_B, x, y, integer_only);  /* a * b = v: b = v / a */
        n = want(op, b, n, A_OVER_B, y, x, integer_only);   /* a / b = v: b = a / v */
        Q p = q_mul(v, a);
        return want(op, b, n, B_OVER_A, p.num, p.den, integer_only);  /* b / a = v: b = v * a */
    }
    Q times = q_div(v, a), over = q_div(a, v), under = q_mul(v, a);
    n = want(op, b, n, A_TIMES_B, times.num, times.den, integer_only);
    n = want(op, b, n, A_OVER_B, over.num, over.den, integer_only);
    return want(op, b, n, B_OVER_A, under.num, under.den, integer_only);
}

static void hits_start(Search *s, Hits *h, Mask m, Q v) {
    memset(h, 0, sizeof *h);
    h->v = v;
    h->splits = splits_of(&s->hand, m, &h->n_splits);
    h->split = -1;
}

/* the next split: the side with fewer numbers (or fewer values) is the one whose values are
 * listed, the other is asked */
static bool next_split(Search *s, Hits *h) {
    if (++h->split >= h->n_splits) return false;
    Mask small = h->splits[h->split].left, big = h->splits[h->split].right;
    if (mask_size(small) > mask_size(big)) small = h->splits[h->split].right, big = h->splits[h->split].left;
    if (mask_size(big) <= SMALL && values_of(s, big)->n < values_of(s, small)->n) {
        Mask t = small;
        small = big, big = t;
    }
    h->small = small, h->big = big;
    h->small_values = ordered_values(s, small, &h->n_small);
    h->big_values = mask_size(big) <= SMALL ? values_of(s, big) : NULL;
    h->next_a = 0, h->n_wanted = h->w = 0;
    return true;
}

static bool next_hit(Search *s, Hits *h, Hit *out) {
    for (;;) {
        while (h->w < h->n_wanted) {
            int w = h->w++;
            bool made = h->big_values ? has_value(h->big_values, h->b[w])
                                      : can_make(s, h->big, h->b[w]);
            if (made) {
                *out = (Hit){h->op[w], h->small, h->big, h->a, h->b[w]};
                return true;
            }
        }
        if (h->next_a < h->n_small) {
            h->a = h->small_values[h->next_a++];
            h->n_wanted = wanted(h->v, h->a, s->integer_only, h->op, h->b);
            h->w = 0;
        } else if (!next_split(s, h)) {
            return false;
        }
    }
}

static KeyId combine(Keys *keys, Op op, KeyId ka, KeyId kb, Q v) {
    switch (op) {
    case A_PLUS_B: return flat_add(keys, ka, kb, v);
    case A_MINUS_B: return flat_sub(keys, ka, kb, v);
    case B_MINUS_A: return flat_sub(keys, kb, ka, v);
    case A_TIMES_B: return flat_mul(keys, ka, kb, v);
    case A_OVER_B: return flat_div(keys, ka, kb, v);
    default: return flat_div(keys, kb, ka, v);
    }
}

/* ---- whether a sub-hand makes a value ---- */

static bool any_hit(Search *s, Mask m, Q v) {
    Hits h;
    Hit hit;
    hits_start(s, &h, m, v);
    return next_hit(s, &h, &hit);
}

/* zero: a side that makes zero (times the other), or two sides that make one value */
static bool makes_zero(Search *s, Mask m) {
    int n;
    const Split *split = splits_of(&s->hand, m, &n);
    for (int i = 0; i < n; i++) {
        Mask left = split[i].left, right = split[i].right;
        if (can_make(s, left, q_int(0)) || can_make(s, right, q_int(0))) return true;
        Mask small = mask_size(left) <= mask_size(right) ? left : right, big = left ^ right ^ small;
        const ValueSet *values = values_of(s, small);
        for (uint32_t j = 0; j < values->n; j++)
            if (can_make(s, big, values->value[j])) return true;
    }
    return false;
}

bool can_make(Search *s, Mask m, Q v) {
    if (mask_size(m) <= SMALL) return in_values(s, m, v);
    uint32_t *memo = qmap_find(&s->made, m, v);
    if (memo) return *memo - 1;
    bool made = q_is_zero(v) ? makes_zero(s, m) : any_hit(s, m, v);
    *qmap_put(&s->made, m, v, NULL) = 1 + made;
    return made;
}

bool reaches(Search *s, Mask m, Q v) {
    if (mask_size(m) == 1 || q_is_zero(v)) return can_make(s, m, v);
    return any_hit(s, m, v);
}

/* ---- the keys of a sub-hand worth a value, in the pure solver's order ---- */

/* called on each key the search forms, in order; returns true to stop the walk */
typedef bool (*Visit)(Search *s, KeyId key, void *context);

static bool walk_pairs(Search *s, KeyList la, KeyList lb, Op op, Q v, Visit visit, void *context) {
    for (uint32_t i = 0; i < la.n; i++)
        for (uint32_t j = 0; j < lb.n; j++) {
            KeyId k = combine(&s->keys, op, s->pool[la.start + i], s->pool[lb.start + j], v);
            if (visit(s, k, context)) return true;
        }
    return false;
}

/* zero: equal sides subtracted (zeros added), and a zero times whatever the rest makes */
static bool walk_zero(Search *s, Mask m, Visit visit, void *context) {
    int n;
    const Split *split = splits_of(&s->hand, m, &n);
    for (int i = 0; i < n; i++) {
        Mask left = split[i].left, right = split[i].right;
        Mask small = mask_size(left) <= mask_size(right) ? left : right, big = left ^ right ^ small;
        uint32_t n_values;
        const Q *values = ordered_values(s, small, &n_values);
        for (uint32_t j = 0; j < n_values; j++) {
            Q a = values[j];
            if (!can_make(s, big, a)) continue;
            KeyList la = expressions(s, small, a), lb = expressions(s, big, a);
            if (walk_pairs(s, la, lb, q_is_zero(a) ? A_PLUS_B : A_MINUS_B, q_int(0), visit, context))
                return true;
        }
        Mask sides[2][2] = {{left, right}, {right, left}};
        for (int t = 0; t < 2; t++) {
            Mask zero_side = sides[t][0];
            Counts other = counts_of(&s->hand, sides[t][1]);
            if (can_make(s, zero_side, q_int(0))) {
                KeyList lz = expressions(s, zero_side, q_int(0));
                for (uint32_t j = 0; j < lz.n; j++)
                    if (visit(s, zero_times(&s->keys, s->pool[lz.start + j], other), context))
                        return true;
            }
            if (left == right) break;
        }
    }
    return false;
}

static bool walk(Search *s, Mask m, Q v, Visit visit, void *context) {
    if (mask_size(m) == 1) {
        int64_t number = s->hand.number[__builtin_ctz(m)];
        return q_eq(v, q_int(number)) && visit(s, leaf(&s->keys, number), context);
    }
    if (q_is_zero(v)) return walk_zero(s, m, visit, context);
    Hits h;
    Hit hit;
    hits_start(s, &h, m, v);
    while (next_hit(s, &h, &hit)) {
        KeyList la = expressions(s, hit.small, hit.a), lb = expressions(s, hit.big, hit.b);
        if (walk_pairs(s, la, lb, hit.op, v, visit, context)) return true;
    }
    return false;
}

/* keep a key in the list being built, unless it is there already */
static bool take(Search *s, KeyId key, void *context) {
    uint32_t serial = *(uint32_t *)context;
    if (key >= s->cap_mark) {
        uint32_t old = s->cap_mark;
        GROW(s->mark, s->cap_mark, key + 1);
        memset(s->mark + old, 0, (s->cap_mark - old) * sizeof *s->mark);
    }
    if (s->mark[key] == serial) return false;
    s->mark[key] = serial;
    GROW(s->stack, s->cap_stack, s->n_stack + 1);
    s->stack[s->n_stack++] = key;
    return false;
}

KeyList expressions(Search *s, Mask m, Q v) {
    uint32_t *memo = qmap_find(&s->listed, m, v);
    if (memo) return s->lists[*memo - 1];
    /* Lists built meanwhile are of smaller sub-hands, so they never hold this list's keys. */
    uint32_t base = s->n_stack, serial = ++s->serial;
    walk(s, m, v, take, &serial);
    KeyList list = {s->n_pool, s->n_stack - base};
    GROW(s->pool, s->cap_pool, s->n_pool + list.n);
    memcpy(s->pool + s->n_pool, s->stack + base, list.n * sizeof(KeyId));
    s->n_pool += list.n;
    s->n_stack = base;
    GROW(s->lists, s->cap_lists, s->n_lists + 1);
    s->lists[s->n_lists++] = list;
    *qmap_put(&s->listed, m, v, NULL) = s->n_lists;
    return list;
}

static bool stop_at_first(Search *s, KeyId key, void *context) {
    (void)s;
    *(KeyId *)context = key;
    return true;
}

static bool stop_at_negatable(Search *s, KeyId key, void *context) {
    if (!negatable(&s->keys, key)) return false;
    *(KeyId *)context = key;
    return true;
}

KeyId first_key(Search *s, Mask m, Q v) {
    KeyId found = NO_KEY;
    if (mask_size(m) == 1 || q_is_zero(v)) {
        walk(s, m, v, stop_at_first, &found);
        return found;
    }
    Hits h;
    Hit hit;
    hits_start(s, &h, m, v);
    while (next_hit(s, &h, &hit)) {
        KeyId ka = first_key(s, hit.small, hit.a), kb = first_key(s, hit.big, hit.b);
        if (ka != NO_KEY && kb != NO_KEY) return combine(&s->keys, hit.op, ka, kb, v);
    }
    return NO_KEY;
}

KeyId first_negatable(Search *s, Mask m, Q v) {
    KeyId found = NO_KEY;
    walk(s, m, v, stop_at_negatable, &found);
    return found;
}
