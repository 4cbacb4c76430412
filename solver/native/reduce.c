/* Reduce a key: lift every group of terms worth zero and of factors worth one to the top
 * (solver/normal/reduce.py). What stays is the core; what was lifted goes to the bag. */
#include <stdlib.h>
#include <string.h>

#include "normal.h"

static void add_lifted(KeyId *to, int *n, const KeyId *from, int count) {
    if (*n + count > MAX_LIFTED) fail(FAIL_INTERNAL);
    for (int i = 0; i < count; i++) to[(*n)++] = from[i];
}

static Lifted plain(KeyId key) { return (Lifted){.core = key}; }

bool is_plain(Normal *normal, KeyId key) {
    Lifted r = reduce(normal, key);
    return r.core == key && !r.n_ones && !r.n_zeros && !r.pool;
}

/* ---- may some parts cancel? A quick test before the full search ---- */

/* the totals of every non-empty group of the parts; returns how many */
static int group_totals(const Keys *keys, int kind, const KeyId *parts, int n, Q *out) {
    int count = 0;
    for (int i = 0; i < n; i++) {
        Q v = value_of(keys, parts[i]);
        for (int j = 0, before = count; j < before; j++) out[count++] = combine(kind, out[j], v);
        out[count++] = v;
    }
    return count;
}

static int cmp_q(const void *a, const void *b) { return q_cmp(*(const Q *)a, *(const Q *)b); }

static bool meet(Q *a, int na, Q *b, int nb) {
    qsort(a, na, sizeof(Q), cmp_q);
    qsort(b, nb, sizeof(Q), cmp_q);
    for (int i = 0, j = 0; i < na && j < nb;) {
        int c = q_cmp(a[i], b[j]);
        if (c == 0) return true;
        if (c < 0) i++;
        else j++;
    }
    return false;
}

static bool may_cancel(const Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down,
                       int n_down) {
    if (kind == SUM && n_down == 0) return false;
    if (kind == PRODUCT && n_down == 0) {
        bool all_above_one = true;
        for (int i = 0; i < n_up; i++) all_above_one &= q_cmp(value_of(keys, up[i]), q_int(1)) > 0;
        if (all_above_one) return false;
    }
    if (n_up > MAX_NUMBERS || n_down > MAX_NUMBERS) fail(FAIL_INTERNAL);
    Q ups[1 << MAX_NUMBERS], downs[1 << MAX_NUMBERS];
    int nu = group_totals(keys, kind, up, n_up, ups), nd = group_totals(keys, kind, down, n_down, downs);
    if (kind == PRODUCT) {
        for (int i = 0; i < nu; i++) if (q_eq(ups[i], q_int(1))) return true;
        for (int i = 0; i < nd; i++) if (q_eq(downs[i], q_int(1))) return true;
    }
    return meet(ups, nu, downs, nd);
}

/* ---- products: other ways to sign the same factors ---- */

/* whether some factors, at least one of them multiplied, make one (the whole included) */
static bool has_unit(const Keys *keys, const Item *items, int n) {
    if (n > MAX_NUMBERS) fail(FAIL_INTERNAL);  /* every part uses a number of the hand */
    Q totals[1 << MAX_NUMBERS];
    totals[0] = q_int(1);
    for (uint32_t mask = 1; mask < (1u << n); mask++) {
        int low = __builtin_ctz(mask);
        Q v = value_of(keys, items[low].key), t = totals[mask & (mask - 1)];
        totals[mask] = items[low].inverse ? q_div(t, v) : q_mul(t, v);
        if (q_eq(totals[mask], q_int(1)))
            for (int i = 0; i < n; i++)
                if ((mask >> i & 1) && !items[i].inverse) return true;
    }
    return false;
}

static int items_cmp(const Keys *keys, const Item *a, const Item *b, int n) {
    for (int i = 0; i < n; i++) {
        int c = item_cmp(keys, a[i], b[i]);
        if (c) return c;
    }
    return 0;
}

/* Where no group worth one can be lifted only because nothing would be left multiplied, as in
 * ((6/3)/2)/2, the least other signing of the same factors that lifts one: (2/(6/3))/2 */
static bool resigned(const Keys *keys, Item *items, int n) {
    bool any_inverse = false;
    for (int i = 0; i < n; i++) any_inverse |= items[i].inverse;
    if (!any_inverse || !has_unit(keys, items, n)) return false;
    Q value = total_of(keys, PRODUCT, items, n);
    Item best[MAX_ITEMS], signed_items[MAX_ITEMS];
    bool found = false;
    for (uint32_t signs = 0; signs < (1u << n) - 1; signs++) {  /* all divided: never */
        for (int i = 0; i < n; i++) signed_items[i] = (Item){items[i].key, signs >> i & 1};
        if (!q_eq(total_of(keys, PRODUCT, signed_items, n), value)) continue;
        if (!smallest_unit(keys, PRODUCT, signed_items, n)) continue;
        if (!found || items_cmp(keys, signed_items, best, n) < 0) {
            memcpy(best, signed_items, n * sizeof(Item));
            found = true;
        }
    }
    if (found) memcpy(items, best, n * sizeof(Item));
    return found;
}

/* Rule 5 where nothing is left to lift a pair from, as in ((1+1)/2)/2: the least way to
 * multiply and divide the same factors with the same result */
static KeyId least_signing(Keys *keys, const Item *items, int n, Q value) {
    KeyId best = NO_KEY;
    for (uint32_t signs = 0; signs < (1u << n); signs++) {
        KeyId num[MAX_ITEMS], den[MAX_ITEMS];
        int n_num = 0, n_den = 0;
        for (int i = 0; i < n; i++) {
            if (signs >> i & 1) den[n_den++] = items[i].key;
            else num[n_num++] = items[i].key;
        }
        if (!n_num || !q_eq(total(keys, PRODUCT, num, n_num, den, n_den), value)) continue;
        KeyId candidate = make_valued(keys, PRODUCT, num, n_num, den, n_den, value);
        if (best == NO_KEY || key_cmp(keys, candidate, best) < 0) best = candidate;
    }
    if (best == NO_KEY) fail(FAIL_INTERNAL);
    return best;
}

/* ---- lifting ---- */

/* the groups worth the unit, smallest first, and what is left (in items, n) */
static int lift_units(const Keys *keys, int kind, Item *items, int *n, Item units[][MAX_ITEMS],
                      int *unit_sizes) {
    int count = 0;
    while (*n > 1) {
        uint32_t unit = smallest_unit(keys, kind, items, *n);
        if (!unit && kind == PRODUCT && resigned(keys, items, *n)) continue;
        if (!unit) break;
        unit_sizes[count] = masked(items, *n, unit, units[count]);
        Item rest[MAX_ITEMS];  /* as Python's `without`: the first of equal items go */
        *n = without(items, *n, units[count], unit_sizes[count], rest);
        memcpy(items, rest, *n * sizeof(Item));
        count++;
    }
    if (kind == SUM && *n && q_is_zero(total_of(keys, kind, items, *n))) {
        unit_sizes[count] = *n;
        memcpy(units[count++], items, *n * sizeof(Item));
        *n = 0;
    }
    return count;
}

Lifted lifted_unit(Normal *normal, int kind, const Item *unit, int n) {
    KeyId up[MAX_ITEMS], down[MAX_ITEMS];
    int n_up, n_down;
    split(unit, n, up, &n_up, down, &n_down);
    Lifted out = {.core = NO_KEY};
    if (kind == SUM || (n_up && n_down)) {
        out.zeros[out.n_zeros++] = oriented(normal->keys, kind, up, n_up, down, n_down);
    } else {
        for (int i = 0; i < n_down; i++) up[n_up++] = down[i];
        out.ones[out.n_ones++] = make(normal->keys, PRODUCT, up, n_up, NULL, 0);
    }
    return out;
}

/* reduce a sum or product: its parts first, then its groups of parts worth the unit */
Lifted reduce_group(Normal *normal, int kind, const Item *items, int n, KeyId key) {
    Keys *keys = normal->keys;
    Lifted out = {.core = NO_KEY};
    Item kept[MAX_ITEMS];
    int n_kept = 0;
    bool changed = key == NO_KEY;
    for (int i = 0; i < n; i++) {
        Lifted inner = reduce(normal, items[i].key);
        if (inner.core == items[i].key && !inner.n_ones && !inner.n_zeros && !inner.pool) {
            kept[n_kept++] = items[i];
            continue;
        }
        changed = true;
        add_lifted(out.ones, &out.n_ones, inner.ones, inner.n_ones);
        add_lifted(out.zeros, &out.n_zeros, inner.zeros, inner.n_zeros);
        out.pool += inner.pool;
        if (inner.core == NO_KEY) continue;
        Item joined[MAX_ITEMS];  /* a core of the same kind joins this one (rules 1, 2) */
        int n_joined = items_of(keys, kind, inner.core, joined);
        if (n_kept + n_joined > MAX_ITEMS) fail(FAIL_INTERNAL);
        for (int j = 0; j < n_joined; j++)
            kept[n_kept++] = (Item){joined[j].key, joined[j].inverse != items[i].inverse};
    }
    Item units[MAX_ITEMS][MAX_ITEMS];
    int unit_sizes[MAX_ITEMS];
    int n_units = lift_units(keys, kind, kept, &n_kept, units, unit_sizes);
    for (int u = 0; u < n_units; u++) {
        Lifted lifted = lifted_unit(normal, kind, units[u], unit_sizes[u]);
        add_lifted(out.ones, &out.n_ones, lifted.ones, lifted.n_ones);
        add_lifted(out.zeros, &out.n_zeros, lifted.zeros, lifted.n_zeros);
    }
    Q value = key == NO_KEY ? total_of(keys, kind, items, n) : value_of(keys, key);
    KeyId up[MAX_ITEMS], down[MAX_ITEMS];
    int n_up, n_down;
    split(kept, n_kept, up, &n_up, down, &n_down);
    if (n_kept == 0) out.core = NO_KEY;
    else if (kind == PRODUCT && n_down && has_unit(keys, kept, n_kept))
        out.core = least_signing(keys, kept, n_kept, value);
    else if (!changed && !n_units) out.core = key;
    else out.core = make_valued(keys, kind, up, n_up, down, n_down, value);
    return out;
}

static Lifted reduce_fresh(Normal *normal, KeyId key) {
    Keys *keys = normal->keys;
    const Key *k = key_at(keys, key);
    if (k->kind == LEAF) {
        if (!q_is_zero(k->value)) return plain(key);
        return (Lifted){.core = NO_KEY, .n_zeros = 1, .zeros = {key}};
    }
    if (k->kind == ZERO_TIMES) {  /* rule 4: the numbers a zero multiplies count once */
        Lifted inner = reduce(normal, zero_of_times(keys, key));
        inner.core = NO_KEY;
        inner.pool += times_of(keys, key);
        return inner;
    }
    int kind = k->kind, n_up = k->n_up, n_down = k->n_down;
    KeyId up[MAX_NUMBERS], down[MAX_NUMBERS];
    memcpy(up, ups(keys, key), n_up * sizeof(KeyId));
    memcpy(down, downs(keys, key), n_down * sizeof(KeyId));
    bool all_plain = true;
    for (int i = 0; i < n_up + n_down && all_plain; i++)
        all_plain = is_plain(normal, i < n_up ? up[i] : down[i - n_up]);
    if (all_plain && !may_cancel(keys, kind, up, n_up, down, n_down)) return plain(key);
    Item items[MAX_ITEMS];
    int n = items_of(keys, kind, key, items);
    return reduce_group(normal, kind, items, n, key);
}

Lifted reduce(Normal *normal, KeyId key) {
    uint32_t known = memo_get(&normal->reduced, key);
    if (known) return normal->lifted[known - 1];
    Lifted out = reduce_fresh(normal, key);
    GROW(normal->lifted, normal->cap_lifted, normal->n_lifted + 1);
    normal->lifted[normal->n_lifted++] = out;
    memo_set(&normal->reduced, key, normal->n_lifted);
    return out;
}
