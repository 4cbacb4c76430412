/* Sums and products as one structure (see groups.h). */
#include <string.h>

#include "groups.h"

static inline Q unit_of(int kind) { return q_int(kind == SUM ? 0 : 1); }

Q combine(int kind, Q a, Q b) { return kind == SUM ? q_add(a, b) : q_mul(a, b); }
Q uncombine(int kind, Q a, Q b) { return kind == SUM ? q_sub(a, b) : q_div(a, b); }

Q total(const Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down, int n_down) {
    Q value = unit_of(kind);
    for (int i = 0; i < n_up; i++) value = combine(kind, value, value_of(keys, up[i]));
    for (int i = 0; i < n_down; i++) value = uncombine(kind, value, value_of(keys, down[i]));
    return value;
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
