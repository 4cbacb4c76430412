/* Bags: what a reduction lifted, put in order, and the numbers a zero multiplies
 * (solver/normal/bags.py). A bag is empty, or one part worth one, or one zero atom times
 * (maybe) some numbers, its pool. Also every flat key over a few numbers (pool_keys). */
#include <stdlib.h>
#include <string.h>

#include "normal.h"

/* ---- every flat key over a few numbers, by value ---- */

static bool is_pair(const Keys *keys, KeyId key) {
    const Key *k = key_at(keys, key);
    return k->kind == PRODUCT && k->n_up && k->n_down;
}

/* the next non-empty sub-multiset of pool after *sub (start from 0); false after the last */
static bool next_sub_pool(const Keys *keys, Counts pool, Counts *sub) {
    for (int i = 0; i < keys->hand->distinct; i++) {
        if (count_at(*sub, i) < count_at(pool, i)) {
            *sub += (Counts)1 << (4 * i);
            return true;
        }
        *sub -= (Counts)count_at(*sub, i) << (4 * i);
    }
    return false;
}

static int cmp_valued(const void *a, const void *b) {
    const Valued *x = a, *y = b;
    int c = q_cmp(x->value, y->value);
    return c ? c : (x->key > y->key) - (x->key < y->key);
}

/* keep a key among those of the pool being listed (marked with its serial), once */
static void take(Normal *normal, uint32_t serial, KeyId key) {
    if (key >= normal->cap_mark) {
        uint32_t old = normal->cap_mark;
        GROW(normal->mark, normal->cap_mark, key + 1);
        memset(normal->mark + old, 0, (normal->cap_mark - old) * sizeof *normal->mark);
    }
    if (normal->mark[key] == serial) return;
    normal->mark[key] = serial;
    push_found(normal, value_of(normal->keys, key), key, 0);
}

/* bags.py _one_step: every key one operation makes of a and b */
static void one_step(Normal *normal, uint32_t found, KeyId a, KeyId b) {
    Keys *keys = normal->keys;
    Q va = value_of(keys, a), vb = value_of(keys, b);
    take(normal, found, flat_add(keys, a, b, q_add(va, vb)));
    take(normal, found, q_cmp(va, vb) >= 0 ? flat_sub(keys, a, b, q_sub(va, vb))
                                           : flat_sub(keys, b, a, q_sub(vb, va)));
    take(normal, found, flat_mul(keys, a, b, q_mul(va, vb)));
    if (!q_is_zero(vb)) take(normal, found, flat_div(keys, a, b, q_div(va, vb)));
    if (!q_is_zero(va)) take(normal, found, flat_div(keys, b, a, q_div(vb, va)));
}

static uint32_t pool_index(Normal *normal, Counts pool);

/* split in two as Python's itertools.combinations does: every distinct sub-multiset of up to
 * half the numbers on the left */
static void find_pool_keys(Normal *normal, Counts pool, uint32_t found) {
    const Keys *keys = normal->keys;
    int size = counts_size(pool);
    if (size == 1) {
        int64_t number;
        numbers_of(keys->hand, pool, &number);
        take(normal, found, leaf(normal->keys, number));
        return;
    }
    Counts left = 0;
    while (next_sub_pool(keys, pool, &left)) {
        if (counts_size(left) > size / 2) continue;
        uint32_t li = pool_index(normal, left), ri = pool_index(normal, pool - left);
        for (uint32_t i = 0; i < normal->pools[li].n; i++)
            for (uint32_t j = 0; j < normal->pools[ri].n; j++) {
                Span la = normal->pools[li].keys[i], lb = normal->pools[ri].keys[j];
                for (uint32_t x = 0; x < la.n; x++)
                    for (uint32_t y = 0; y < lb.n; y++)
                        one_step(normal, found, normal->lists.id[la.start + x],
                                 normal->lists.id[lb.start + y]);
            }
    }
}

static uint32_t pool_index(Normal *normal, Counts pool) {
    uint32_t *known = qmap_find(&normal->pool_index, pool, q_int(0));
    if (known) return *known - 1;
    uint32_t base = normal->n_found;
    find_pool_keys(normal, pool, ++normal->serial);  /* sub-pools are found first: their keys differ */
    Valued *found = normal->found + base;
    uint32_t n = normal->n_found - base;
    qsort(found, n, sizeof(Valued), cmp_valued);
    GROW(normal->pools, normal->cap_pools, normal->n_pools + 1);
    PoolKeys *keys = &normal->pools[normal->n_pools++];
    *keys = (PoolKeys){checked_realloc(NULL, (n + 1) * sizeof(Q)), NULL, 0};
    keys->keys = checked_realloc(NULL, (n + 1) * sizeof(Span));
    for (uint32_t i = 0, j; i < n; i = j) {
        uint32_t start = normal->lists.n;
        for (j = i; j < n && q_eq(found[j].value, found[i].value); j++) {
            GROW(normal->lists.id, normal->lists.cap, normal->lists.n + 1);
            normal->lists.id[normal->lists.n++] = found[j].key;
        }
        keys->value[keys->n] = found[i].value;
        keys->keys[keys->n++] = (Span){start, j - i};
    }
    normal->n_found = base;
    *qmap_put(&normal->pool_index, pool, q_int(0), NULL) = normal->n_pools;
    return normal->n_pools - 1;
}

const PoolKeys *pool_keys(Normal *normal, Counts pool) {
    uint32_t at = pool_index(normal, pool);  /* first: it may move the pools */
    return &normal->pools[at];
}

Span pool_keys_worth(Normal *normal, Counts pool, Q value) {
    if (pool == 0) return (Span){0, 0};
    const PoolKeys *keys = pool_keys(normal, pool);
    uint32_t lo = 0, hi = keys->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (q_cmp(keys->value[mid], value) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < keys->n && q_eq(keys->value[lo], value) ? keys->keys[lo] : (Span){0, 0};
}

bool pool_makes(Normal *normal, Counts pool, Q value) {
    return pool_keys_worth(normal, pool, value).n > 0;
}

/* ---- bags ---- */

/* whether a zero times these numbers is free: they make another zero (Z*Z' is Z+Z'), or,
 * beside a core, they make one, which then multiplies the core instead (rule 4) */
bool frees(Normal *normal, Counts pool, bool has_core) {
    if (counts_size(pool) > POOL_LIMIT) return false;
    if (has_core && pool_makes(normal, pool, q_int(1))) return true;
    Counts part = 0;
    while (next_sub_pool(normal->keys, pool, &part))
        if (pool_makes(normal, part, q_int(0))) return true;
    return false;
}

static void append(KeyId *to, int *n, const KeyId *from, int count) {
    if (*n + count > MAX_LIFTED) fail(FAIL_INTERNAL);
    memcpy(to + *n, from, count * sizeof(KeyId));
    *n += count;
}

/* put lifted parts in order: at most one one, or one atom and the numbers it multiplies */
Bag bag_of(Normal *normal, const KeyId *ones, int n_ones, const KeyId *zeros, int n_zeros,
           Counts pool, bool has_core) {
    Keys *keys = normal->keys;
    KeyId out_ones[MAX_LIFTED], atoms[MAX_LIFTED];
    int n_out = 0, n_atoms = 0;
    for (int i = 0; i < n_ones; i++) {  /* a part X/Y worth one is the zero X-Y (rule 5) */
        if (is_pair(keys, ones[i])) append(atoms, &n_atoms, &ones[i], 1);
        else append(out_ones, &n_out, &ones[i], 1);
    }
    for (int i = 0; i < n_zeros; i++) {
        Span more_ones, more_atoms;
        literal_atoms(normal, zeros[i], &more_ones, &more_atoms);
        append(out_ones, &n_out, span_keys(normal, more_ones), more_ones.n);
        append(atoms, &n_atoms, span_keys(normal, more_atoms), more_atoms.n);
    }
    if (n_atoms == 0) {
        if (n_out <= 1) return (Bag){n_out ? out_ones[0] : NO_KEY, NO_KEY, 0};
        sort_keys(keys, out_ones, n_out);  /* rule 5: O*O' is (A+O)-O' */
        KeyId zero = zero_of(normal, out_ones[0], out_ones[1]);
        return bag_of(normal, out_ones + 2, n_out - 2, &zero, 1, pool, has_core);
    }
    Counts rest = pool;
    for (int i = 0; i < n_out; i++) rest += key_at(keys, out_ones[i])->counts;
    bool free = n_atoms > 1 || (rest ? frees(normal, rest, has_core) : has_core);
    if (!free) return (Bag){NO_KEY, atoms[0], rest};
    KeyId pieces[MAX_LIFTED * MAX_LIFTED];
    int n_pieces = 0;
    for (int i = 0; i < n_atoms; i++) {
        Span split_ones, split_atoms;
        split_zero(normal, atoms[i], &split_ones, &split_atoms);
        if (n_pieces + split_atoms.n > MAX_LIFTED * MAX_LIFTED) fail(FAIL_INTERNAL);
        memcpy(pieces + n_pieces, span_keys(normal, split_atoms), split_atoms.n * sizeof(KeyId));
        n_pieces += split_atoms.n;
        for (uint32_t j = 0; j < split_ones.n; j++)
            rest += key_at(keys, span_keys(normal, split_ones)[j])->counts;
    }
    sort_keys(keys, pieces, n_pieces);
    for (int i = 1; i < n_pieces; i++) rest += key_at(keys, pieces[i])->counts;
    return (Bag){NO_KEY, pieces[0], rest};
}
