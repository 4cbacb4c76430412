/* Reduce a key (solver/normal/reduce.py, the same steps and names): zero terms, one factors and
 * cancelled pairs lifted out of where they sit; what is left is the core. */
#include <stdlib.h>
#include <string.h>

#include "groups.h"
#include "reduce.h"

/* a list of parts of at most MAX_NUMBERS keys: every part uses a number of the hand */
typedef struct {
    KeyId id[MAX_NUMBERS];
    int n;
} List;

static void put(List *list, KeyId key) {
    if (list->n == MAX_NUMBERS) fail(FAIL_INTERNAL);
    list->id[list->n++] = key;
}

static void put_all(List *list, const KeyId *keys, int n) {
    for (int i = 0; i < n; i++) put(list, keys[i]);
}

/* the sides of a key of this kind, or the key alone on the up side (groups.py: sides) */
static void put_sides(const Keys *keys, int kind, KeyId key, List *up, List *down) {
    const Key *k = key_at(keys, key);
    if (k->kind != kind) {
        put(up, key);
        return;
    }
    put_all(up, ups(keys, key), k->n_up);
    put_all(down, downs(keys, key), k->n_down);
}

/* part_order: of equal parts the lesser; fewer and smaller numbers first, then the key */
static int part_cmp(const Keys *keys, KeyId a, KeyId b) {
    int c = counts_cmp(keys->hand, key_at(keys, a)->counts, key_at(keys, b)->counts);
    return c ? c : key_cmp(keys, a, b);
}

static KeyId make_sum(Keys *keys, const List *plus, const List *minus, Q value) {
    if (!minus->n && plus->n <= 1) return plus->n ? plus->id[0] : NO_KEY;
    return make_sorted(keys, SUM, value, plus->id, plus->n, minus->id, minus->n);
}

static KeyId make_product(Keys *keys, const List *num, const List *den, Q value) {
    if (!den->n && num->n == 1) return num->id[0];
    return make_sorted(keys, PRODUCT, value, num->id, num->n, den->id, den->n);
}

static void remove_at(List *list, int at) {
    memmove(&list->id[at], &list->id[at + 1], (list->n - at - 1) * sizeof(KeyId));
    list->n--;
}

/* cancel_sum: one added term X cancels everything subtracted, (A+X)-Y with A only added, the
 * lesser X if several; otherwise the sum stays whole. Returns the pair or NO_KEY. */
static KeyId cancel_sum(Keys *keys, List *plus, const List *minus, Q value, KeyId *core) {
    if (minus->n && plus->n >= 2) {
        Q taken = total(keys, SUM, minus->id, minus->n, NULL, 0);
        int x = -1;
        for (int i = 0; i < plus->n; i++)
            if (q_eq(value_of(keys, plus->id[i]), taken) &&
                (x < 0 || part_cmp(keys, plus->id[i], plus->id[x]) < 0))
                x = i;
        if (x >= 0) {
            KeyId pair = make_raw(keys, SUM, q_int(0), &plus->id[x], 1, minus->id, minus->n);
            remove_at(plus, x);
            List none = {.n = 0};
            *core = make_sum(keys, plus, &none, value);
            return pair;
        }
    }
    *core = make_sum(keys, plus, minus, value);
    return NO_KEY;
}

/* whether a mask takes the first k of each run of equal neighbours (one mask per multiset) */
static bool first_of_runs(const KeyId *ids, int n, uint32_t mask) {
    for (int i = 1; i < n; i++)
        if (ids[i] == ids[i - 1] && (mask >> i & 1) && !(mask >> (i - 1) & 1)) return false;
    return true;
}

static Counts counts_in(const Keys *keys, const KeyId *ids, uint32_t mask) {
    Counts c = 0;
    for (int i = 0; mask; i++, mask >>= 1)
        if (mask & 1) c += key_at(keys, ids[i])->counts;
    return c;
}

/* the products of every group (mask) of the parts */
static void group_totals(const Keys *keys, const KeyId *ids, int n, Q *out) {
    out[0] = q_int(1);
    for (uint32_t mask = 1; mask < (1u << n); mask++) {
        int low = __builtin_ctz(mask);
        out[mask] = q_mul(out[mask & (mask - 1)], value_of(keys, ids[low]));
    }
}

/* x_group, y_group compared as Python compares tuples of keys (of equal lengths here) */
static int groups_cmp(const Keys *keys, const KeyId *a, uint32_t ma, const KeyId *b,
                      uint32_t mb) {
    for (; ma && mb; ma &= ma - 1, mb &= mb - 1) {
        int c = key_cmp(keys, a[__builtin_ctz(ma)], b[__builtin_ctz(mb)]);
        if (c) return c;
    }
    return (ma != 0) - (mb != 0);
}

typedef struct {
    uint32_t x, y;  /* masks over the plain factors and over den */
} Choice;

/* rank of chosen_pair: the whole divisor first, then the fewest divisors, the fewest factors,
 * the fewest and smallest numbers, then the keys */
static int choice_cmp(const Keys *keys, const KeyId *plain, const KeyId *den, int n_den,
                      Choice a, Choice b) {
    int full = (1 << n_den) - 1, c;
    if ((c = (a.y != (uint32_t)full) - (b.y != (uint32_t)full))) return c;
    if ((c = mask_size(a.y) - mask_size(b.y))) return c;
    if ((c = mask_size(a.x) - mask_size(b.x))) return c;
    if ((c = counts_cmp(keys->hand, counts_in(keys, plain, a.x), counts_in(keys, plain, b.x))))
        return c;
    if ((c = counts_cmp(keys->hand, counts_in(keys, den, a.y), counts_in(keys, den, b.y))))
        return c;
    if ((c = groups_cmp(keys, plain, a.x, plain, b.x))) return c;
    return groups_cmp(keys, den, a.y, den, b.y);
}

/* chosen_pair: which factors (never a one) cancel which divisors; false when none can */
static bool chosen_pair(Keys *keys, const List *num, const List *den, List *x, List *y) {
    if (!den->n || num->n < 2) return false;
    List plain = {.n = 0};
    for (int i = 0; i < num->n; i++)
        if (!q_eq(value_of(keys, num->id[i]), q_int(1))) put(&plain, num->id[i]);
    Q den_totals[1 << MAX_NUMBERS], num_totals[1 << MAX_NUMBERS];
    group_totals(keys, den->id, den->n, den_totals);
    group_totals(keys, plain.id, plain.n, num_totals);
    Choice best = {0, 0};
    for (uint32_t xm = 1; xm < (1u << plain.n); xm++) {
        if (mask_size(xm) > num->n - 1 || !first_of_runs(plain.id, plain.n, xm)) continue;
        for (uint32_t ym = 1; ym < (1u << den->n); ym++) {
            if (!q_eq(num_totals[xm], den_totals[ym]) || !first_of_runs(den->id, den->n, ym))
                continue;
            Choice c = {xm, ym};
            if (!best.x || choice_cmp(keys, plain.id, den->id, den->n, c, best) < 0) best = c;
        }
    }
    if (!best.x) return false;
    x->n = y->n = 0;
    for (int i = 0; i < plain.n; i++)
        if (best.x >> i & 1) put(x, plain.id[i]);
    for (int i = 0; i < den->n; i++)
        if (best.y >> i & 1) put(y, den->id[i]);
    return true;
}

/* one_group: a group of two divisors or more whose product is one (rule 4: dividing by it is
 * multiplying by it), the fewest, then the fewest and smallest numbers, then the keys; false
 * when none is. den is sorted. */
static bool one_group(const Keys *keys, const List *den, List *group) {
    if (den->n < 2) return false;
    Q totals[1 << MAX_NUMBERS];
    group_totals(keys, den->id, den->n, totals);
    uint32_t best = 0;
    for (uint32_t m = 1; m < (1u << den->n); m++) {
        if (mask_size(m) < 2 || !q_eq(totals[m], q_int(1)) || !first_of_runs(den->id, den->n, m))
            continue;
        int c = !best ? -1 : mask_size(m) - mask_size(best);
        if (!c) c = counts_cmp(keys->hand, counts_in(keys, den->id, m), counts_in(keys, den->id, best));
        if (!c) c = groups_cmp(keys, den->id, m, den->id, best);
        if (c < 0) best = m;
    }
    group->n = 0;
    for (int i = 0; i < den->n; i++)
        if (best >> i & 1) put(group, den->id[i]);
    return best != 0;
}

static void remove_keys(List *list, const List *taken) {
    for (int t = 0; t < taken->n; t++)
        for (int i = 0; i < list->n; i++)
            if (list->id[i] == taken->id[t]) {
                remove_at(list, i);
                break;
            }
}

/* divided_group: a group of factors whose product is one that lets factors cancel divisors
 * once it divides (rule 4 read back, then rule 5), only when nothing cancels as it is; the
 * fewest, then the fewest and smallest numbers, then the keys. num and den are sorted. */
static bool divided_group(Keys *keys, const List *num, const List *den, List *group) {
    List plain = {.n = 0}, x, y;
    bool fraction = false;
    for (int i = 0; i < num->n; i++) {
        Q v = value_of(keys, num->id[i]);
        if (q_eq(v, q_int(1))) continue;
        put(&plain, num->id[i]);
        fraction |= v.den != 1;
    }
    if (plain.n < 3 || !fraction || chosen_pair(keys, num, den, &x, &y)) return false;
    Q totals[1 << MAX_NUMBERS];
    group_totals(keys, plain.id, plain.n, totals);
    uint32_t best = 0;
    for (uint32_t m = 1; m < (1u << plain.n); m++) {
        if (mask_size(m) < 2 || mask_size(m) > plain.n - 1 || !q_eq(totals[m], q_int(1)) ||
            !first_of_runs(plain.id, plain.n, m))
            continue;
        List g = {.n = 0}, rest = *num, more = *den;
        for (int i = 0; i < plain.n; i++)
            if (m >> i & 1) put(&g, plain.id[i]);
        remove_keys(&rest, &g);
        put_all(&more, g.id, g.n);
        sort_keys(keys, more.id, more.n);
        if (!chosen_pair(keys, &rest, &more, &x, &y)) continue;
        int c = !best ? -1 : mask_size(m) - mask_size(best);
        if (!c) c = counts_cmp(keys->hand, counts_in(keys, plain.id, m), counts_in(keys, plain.id, best));
        if (!c) c = groups_cmp(keys, plain.id, m, plain.id, best);
        if (c < 0) best = m;
    }
    group->n = 0;
    for (int i = 0; i < plain.n; i++)
        if (best >> i & 1) put(group, plain.id[i]);
    return best != 0;
}

/* cancel_product: the pairs X/Y cancel one at a time while any is left, (A*X)/(B*Y) is
 * ((A/B)+X)-Y; then the one factors leave, but the product keeps its least one when it
 * multiplies nothing else. The pairs are added to `pairs`, the ones put in `ones`. */
static KeyId cancel_product(Keys *keys, List *num, List *den, Q value, List *pairs,
                            List *ones) {
    List x, y;
    while (chosen_pair(keys, num, den, &x, &y)) {
        KeyId xs = make(keys, PRODUCT, x.id, x.n, NULL, 0), ys = make(keys, PRODUCT, y.id, y.n, NULL, 0);
        put(pairs, make_valued(keys, SUM, &xs, 1, &ys, 1, q_int(0)));
        remove_keys(num, &x);
        remove_keys(den, &y);
    }
    List rest = {.n = 0};
    ones->n = 0;
    for (int i = 0; i < num->n; i++) {
        KeyId k = num->id[i];
        put(q_eq(value_of(keys, k), q_int(1)) ? ones : &rest, k);
    }
    if (!rest.n && ones->n) {
        int least = 0;
        for (int i = 1; i < ones->n; i++)
            if (part_cmp(keys, ones->id[i], ones->id[least]) < 0) least = i;
        put(&rest, ones->id[least]);
        remove_at(ones, least);
    }
    return make_product(keys, &rest, den, value);
}

typedef struct {
    List up, down, pairs, ones;
    bool zeros;
} Gathered;

/* the parts of a sum or product, each lifted: their cores joined (rule 2), what they lift
 * gathered (the ones of a product's parts multiply it: its `up` gets them) */
static void gather_parts(Keys *keys, KeyId key, int kind, Gathered *g) {
    const Key *k = key_at(keys, key);
    int n_up = k->n_up, n = k->n_up + k->n_down;
    KeyId parts[2 * MAX_NUMBERS];
    memcpy(parts, ups(keys, key), n * sizeof(KeyId));  /* lifting may move keys->item */
    for (int i = 0; i < n; i++) {
        Lifted l = lift(keys, parts[i]);
        bool inverse = i >= n_up;
        List *to_up = inverse ? &g->down : &g->up, *to_down = inverse ? &g->up : &g->down;
        put_all(kind == SUM ? &g->ones : &g->up, lifted_ones(keys, l), l.n_ones);
        g->zeros |= l.zeros;
        for (int p = 0; p < l.n_pairs; p++) {
            KeyId pair = lifted_pairs(keys, l)[p];
            if (kind == SUM) put_sides(keys, SUM, pair, to_up, to_down);
            else put(&g->pairs, pair);
        }
        if (l.core != NO_KEY) put_sides(keys, kind, l.core, to_up, to_down);
    }
}

static Lifted keep(Keys *keys, KeyId core, const List *pairs, const List *ones, bool zeros) {
    struct Lifts *lifts = keys->lifts;
    KeyId parts[2 * MAX_NUMBERS];
    memcpy(parts, pairs->id, pairs->n * sizeof(KeyId));
    memcpy(parts + pairs->n, ones->id, ones->n * sizeof(KeyId));
    sort_keys(keys, parts, pairs->n);
    sort_keys(keys, parts + pairs->n, ones->n);
    Span span = push_list(&lifts->parts, parts, pairs->n + ones->n);
    return (Lifted){.core = core, .at = span.start, .n_pairs = (uint8_t)pairs->n,
                    .n_ones = (uint8_t)ones->n, .zeros = zeros};
}

static Lifted lift_sum(Keys *keys, KeyId key) {
    Gathered g = {0};
    gather_parts(keys, key, SUM, &g);
    sort_keys(keys, g.up.id, g.up.n);
    sort_keys(keys, g.down.id, g.down.n);
    KeyId core, pair = cancel_sum(keys, &g.up, &g.down, value_of(keys, key), &core);
    List pairs = {.n = 0};
    if (pair != NO_KEY) put(&pairs, pair);
    return keep(keys, core, &pairs, &g.ones, g.zeros);
}

static Lifted lift_product(Keys *keys, KeyId key) {
    Gathered g = {0};
    gather_parts(keys, key, PRODUCT, &g);
    List den = {.n = 0};  /* rule 4: A/O = A*O */
    for (int i = 0; i < g.down.n; i++)
        put(q_eq(value_of(keys, g.down.id[i]), q_int(1)) ? &g.up : &den, g.down.id[i]);
    sort_keys(keys, den.id, den.n);
    List group;
    while (one_group(keys, &den, &group)) {  /* rule 4: A/(X*Y) = A*X*Y when X*Y is one */
        put_all(&g.up, group.id, group.n);
        remove_keys(&den, &group);
    }
    sort_keys(keys, g.up.id, g.up.n);
    if (divided_group(keys, &g.up, &den, &group)) {  /* rule 5 before rule 4: A*X*(Y*Z) is */
        remove_keys(&g.up, &group);                   /* (A*X)/(Y*Z), X cancels Y */
        put_all(&den, group.id, group.n);
        sort_keys(keys, den.id, den.n);
    }
    KeyId core = cancel_product(keys, &g.up, &den, value_of(keys, key), &g.pairs, &g.ones);
    return keep(keys, core, &g.pairs, &g.ones, g.zeros);
}

static Lifted lift_fresh(Keys *keys, KeyId key) {
    const Key *k = key_at(keys, key);
    if (k->kind == LEAF && !q_is_zero(k->value)) return (Lifted){.core = key};
    if (k->kind == LEAF || k->kind == ZERO_TIMES) return (Lifted){.core = NO_KEY, .zeros = true};
    return k->kind == SUM ? lift_sum(keys, key) : lift_product(keys, key);
}

Lifted lift(Keys *keys, KeyId key) {
    if (keys->lifts == NULL) {
        keys->lifts = checked_realloc(NULL, sizeof *keys->lifts);
        memset(keys->lifts, 0, sizeof *keys->lifts);
    }
    uint32_t known = memo_get(&keys->lifts->memo, key);
    if (known) return keys->lifts->lifted[known - 1];
    Lifted out = lift_fresh(keys, key);
    struct Lifts *lifts = keys->lifts;
    GROW(lifts->lifted, lifts->cap, lifts->n + 1);
    lifts->lifted[lifts->n++] = out;
    memo_set(&lifts->memo, key, lifts->n);
    return out;
}

bool is_plain(Keys *keys, KeyId key) {
    Lifted l = lift(keys, key);
    return l.core == key && !l.n_pairs && !l.n_ones && !l.zeros;
}

void lifts_free(struct Lifts *lifts) {
    if (lifts == NULL) return;
    free(lifts->memo.at);
    free(lifts->lifted);
    free(lifts->parts.id);
    free(lifts);
}

void lifts_clear(struct Lifts *lifts) {
    if (lifts == NULL) return;
    if (lifts->n) memset(lifts->memo.at, 0, lifts->memo.cap * sizeof *lifts->memo.at);
    lifts->n = lifts->parts.n = 0;
}

size_t lifts_bytes(const struct Lifts *lifts) {
    return lifts == NULL ? 0
                         : lifts->memo.cap * sizeof *lifts->memo.at + lifts->cap * sizeof(Lifted) +
                               lifts->parts.cap * sizeof(KeyId);
}
