/* Sums and products as one structure (see groups.h). */
#include <string.h>

#include "groups.h"

Q combine(int kind, Q a, Q b) { return kind == SUM ? q_add(a, b) : q_mul(a, b); }
Q uncombine(int kind, Q a, Q b) { return kind == SUM ? q_sub(a, b) : q_div(a, b); }

int items_of(const Keys *keys, int kind, KeyId key, Item *out) {
    const Key *k = key_at(keys, key);
    if (k->kind != kind) {
        out[0] = (Item){key, false};
        return 1;
    }
    int n = 0;
    for (int i = 0; i < k->n_up; i++) out[n++] = (Item){ups(keys, key)[i], false};
    for (int i = 0; i < k->n_down; i++) out[n++] = (Item){downs(keys, key)[i], true};
    return n;
}

Q total_of(const Keys *keys, int kind, const Item *items, int n) {
    Q value = unit_of(kind);
    for (int i = 0; i < n; i++) {
        Q v = value_of(keys, items[i].key);
        value = items[i].inverse ? uncombine(kind, value, v) : combine(kind, value, v);
    }
    return value;
}

Q total(const Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down, int n_down) {
    Q value = unit_of(kind);
    for (int i = 0; i < n_up; i++) value = combine(kind, value, value_of(keys, up[i]));
    for (int i = 0; i < n_down; i++) value = uncombine(kind, value, value_of(keys, down[i]));
    return value;
}

void split(const Item *items, int n, KeyId *up, int *n_up, KeyId *down, int *n_down) {
    *n_up = *n_down = 0;
    for (int i = 0; i < n; i++) {
        if (items[i].inverse) down[(*n_down)++] = items[i].key;
        else up[(*n_up)++] = items[i].key;
    }
}

/* the parts of up and down with parts of this kind flattened in (rules 1 and 2) */
static void flatten(const Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down,
                    int n_down, KeyId *ups_out, int *n_ups, KeyId *downs_out, int *n_downs) {
    *n_ups = *n_downs = 0;
    for (int side = 0; side < 2; side++) {
        const KeyId *parts = side ? down : up;
        KeyId *same = side ? downs_out : ups_out, *other = side ? ups_out : downs_out;
        int *n_same = side ? n_downs : n_ups, *n_other = side ? n_ups : n_downs;
        for (int i = 0; i < (side ? n_down : n_up); i++) {
            const Key *k = key_at(keys, parts[i]);
            if (k->kind != kind) {
                if (*n_same == MAX_NUMBERS) fail(FAIL_INTERNAL);
                same[(*n_same)++] = parts[i];
                continue;
            }
            if (*n_same + k->n_up > MAX_NUMBERS || *n_other + k->n_down > MAX_NUMBERS)
                fail(FAIL_INTERNAL);
            for (int j = 0; j < k->n_up; j++) same[(*n_same)++] = ups(keys, parts[i])[j];
            for (int j = 0; j < k->n_down; j++) other[(*n_other)++] = downs(keys, parts[i])[j];
        }
    }
}

static KeyId make_flat(Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down,
                       int n_down, const Q *value) {
    KeyId u[MAX_NUMBERS], d[MAX_NUMBERS];
    int n_u, n_d;
    flatten(keys, kind, up, n_up, down, n_down, u, &n_u, d, &n_d);
    if (n_u == 1 && n_d == 0) return u[0];
    Q v = value ? *value : total(keys, kind, u, n_u, d, n_d);
    return make_sorted(keys, kind, v, u, n_u, d, n_d);
}

KeyId make_valued(Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down,
                  int n_down, Q value) {
    return make_flat(keys, kind, up, n_up, down, n_down, &value);
}

KeyId make(Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down, int n_down) {
    return make_flat(keys, kind, up, n_up, down, n_down, NULL);
}

KeyId make_items(Keys *keys, int kind, const Item *items, int n) {
    KeyId up[MAX_ITEMS], down[MAX_ITEMS];
    int n_up, n_down;
    split(items, n, up, &n_up, down, &n_down);
    return make(keys, kind, up, n_up, down, n_down);
}

KeyId oriented(Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down, int n_down) {
    if (n_up == 0 || n_down == 0)
        return n_up ? make(keys, kind, up, n_up, down, n_down) : make(keys, kind, down, n_down, up, n_up);
    KeyId a = make(keys, kind, up, n_up, down, n_down), b = make(keys, kind, down, n_down, up, n_up);
    return key_cmp(keys, a, b) <= 0 ? a : b;
}

int item_cmp(const Keys *keys, Item a, Item b) {
    int c = key_cmp(keys, a.key, b.key);
    return c ? c : (int)a.inverse - (int)b.inverse;
}

int without(const Item *items, int n, const Item *taken, int n_taken, Item *out) {
    bool gone[MAX_ITEMS] = {false};
    for (int t = 0; t < n_taken; t++)
        for (int i = 0; i < n; i++)
            if (!gone[i] && items[i].key == taken[t].key && items[i].inverse == taken[t].inverse) {
                gone[i] = true;
                break;
            }
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (!gone[i]) out[kept++] = items[i];
    return kept;
}

int masked(const Item *items, int n, uint32_t mask, Item *out) {
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (mask >> i & 1) out[kept++] = items[i];
    return kept;
}

bool first_of_runs(const Item *items, int n, uint32_t mask) {
    for (int i = 1; i < n; i++) {
        bool same = items[i].key == items[i - 1].key && items[i].inverse == items[i - 1].inverse;
        if (same && (mask >> i & 1) && !(mask >> (i - 1) & 1)) return false;
    }
    return true;
}

uint32_t smallest_unit(const Keys *keys, int kind, const Item *items, int n) {
    bool any_inverse = false, all_above_one = true;
    for (int i = 0; i < n; i++) {
        any_inverse |= items[i].inverse;
        all_above_one &= q_cmp(value_of(keys, items[i].key), q_int(1)) > 0;
    }
    if (n > 12 || (!any_inverse && (kind == SUM || all_above_one))) return 0;
    if (n > MAX_NUMBERS) fail(FAIL_INTERNAL);  /* every part uses a number of the hand */
    Q totals[1 << MAX_NUMBERS];
    totals[0] = unit_of(kind);
    uint32_t full = (1u << n) - 1, best = 0, multiplied = 0;
    int best_size = n + 1;
    for (int i = 0; i < n; i++)
        if (!items[i].inverse) multiplied |= 1u << i;
    for (uint32_t mask = 1; mask < full; mask++) {
        int low = __builtin_ctz(mask);
        Q v = value_of(keys, items[low].key);
        Q t = totals[mask & (mask - 1)];
        totals[mask] = items[low].inverse ? uncombine(kind, t, v) : combine(kind, t, v);
        int size = mask_size(mask);  /* n <= MAX_NUMBERS: a mask fits in 8 bits */
        if (size < best_size && q_eq(totals[mask], unit_of(kind)) &&
            (kind == SUM || (multiplied & ~mask & full))) {
            best = mask;
            best_size = size;
        }
    }
    return best;
}
