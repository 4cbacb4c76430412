/* The key store: interning, Python's order of keys, and the flat keys the search builds. */
#include <stdlib.h>
#include <string.h>

#include "keys.h"
#include "reduce.h"

void keys_free(Keys *keys) {
    free(keys->key);
    free(keys->item);
    free(keys->table);
    lifts_free(keys->lifts);
    memset(keys, 0, sizeof *keys);
}

void keys_clear(Keys *keys) {
    if (keys->n && keys->table_cap) memset(keys->table, 0, keys->table_cap * sizeof *keys->table);
    keys->n = keys->n_items = 0;
    lifts_clear(keys->lifts);
}

size_t keys_bytes(const Keys *keys) {
    return keys->cap * sizeof(Key) + keys->cap_items * sizeof(KeyId) +
           keys->table_cap * sizeof *keys->table + lifts_bytes(keys->lifts);
}

/* "*" < "+" < "0*", the operators' order as Python strings */
static int op_rank(int kind) { return kind == PRODUCT ? 0 : kind == SUM ? 1 : 2; }

static int cmp_parts(const Keys *keys, const KeyId *a, int na, const KeyId *b, int nb) {
    for (int i = 0; i < na && i < nb; i++) {
        int c = key_cmp(keys, a[i], b[i]);
        if (c) return c;
    }
    return (na > nb) - (na < nb);
}

int key_cmp(const Keys *keys, KeyId a, KeyId b) {
    if (a == b) return 0;
    const Key *x = key_at(keys, a), *y = key_at(keys, b);
    int c = q_cmp(x->value, y->value);
    if (c) return c;
    if (x->kind == LEAF || y->kind == LEAF) return (x->kind != LEAF) - (y->kind != LEAF);
    if (x->kind != y->kind) return op_rank(x->kind) < op_rank(y->kind) ? -1 : 1;
    if (x->kind == ZERO_TIMES) {
        c = key_cmp(keys, zero_of_times(keys, a), zero_of_times(keys, b));
        return c ? c : counts_cmp(keys->hand, times_of(keys, a), times_of(keys, b));
    }
    c = cmp_parts(keys, ups(keys, a), x->n_up, ups(keys, b), y->n_up);
    return c ? c : cmp_parts(keys, downs(keys, a), x->n_down, downs(keys, b), y->n_down);
}

void sort_keys(const Keys *keys, KeyId *ids, int n) {
    for (int i = 1; i < n; i++) {
        KeyId k = ids[i];
        int j = i - 1;
        for (; j >= 0 && key_cmp(keys, ids[j], k) > 0; j--) ids[j + 1] = ids[j];
        ids[j + 1] = k;
    }
}

/* ---- interning ---- */

static uint32_t hash_key(const Key *k, const KeyId *items) {
    uint64_t h = q_hash(k->value) ^ ((uint64_t)k->kind << 56) ^ ((uint64_t)k->counts << 8);
    for (int i = 0; i < k->n_up + k->n_down; i++) {
        h = (h ^ items[i]) * 0x100000001B3ull;
        if (i == k->n_up - 1) h ^= 0x5bd1e995u;  /* where the up side ends matters */
    }
    h ^= h >> 33;  /* mix every bit into the low ones, which pick the slot */
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ull;
    return (uint32_t)(h ^ (h >> 33));
}

static bool same_key(const Keys *keys, KeyId id, const Key *k, const KeyId *items) {
    const Key *o = key_at(keys, id);
    return o->hash == k->hash && o->kind == k->kind && o->n_up == k->n_up &&
           o->n_down == k->n_down && o->counts == k->counts && q_eq(o->value, k->value) &&
           memcmp(&keys->item[o->items], items, (k->n_up + k->n_down) * sizeof(KeyId)) == 0;
}

static void grow_table(Keys *keys) {
    uint32_t cap = keys->table_cap ? keys->table_cap * 2 : 256;
    uint64_t *table = checked_realloc(NULL, cap * sizeof *table);
    memset(table, 0, cap * sizeof *table);
    for (KeyId id = 0; id < keys->n; id++) {
        uint32_t hash = keys->key[id].hash, i = hash & (cap - 1);
        while (table[i]) i = (i + 1) & (cap - 1);
        table[i] = (uint64_t)hash << 32 | (id + 1);
    }
    free(keys->table);
    keys->table = table;
    keys->table_cap = cap;
}

/* the id of the key k whose parts are items (already at the end of keys->item); a slot keeps
 * the hash beside the id, so a slot of another key is passed by without reading that key */
static KeyId intern(Keys *keys, Key k) {
    const KeyId *items = &keys->item[k.items];
    k.hash = hash_key(&k, items);
    if (2 * (keys->n + 1) > keys->table_cap) grow_table(keys);
    uint32_t mask = keys->table_cap - 1, i = k.hash & mask;
    for (; keys->table[i]; i = (i + 1) & mask) {
        if ((uint32_t)(keys->table[i] >> 32) != k.hash) continue;
        KeyId id = (KeyId)keys->table[i] - 1;
        if (same_key(keys, id, &k, items)) {
            keys->n_items = k.items;  /* the parts were already stored with the old key */
            return id;
        }
    }
    GROW(keys->key, keys->cap, keys->n + 1);
    keys->key[keys->n] = k;
    keys->table[i] = (uint64_t)k.hash << 32 | (keys->n + 1);
    return keys->n++;
}

static uint32_t push_items(Keys *keys, const KeyId *items, int n) {
    GROW(keys->item, keys->cap_items, keys->n_items + n);
    uint32_t at = keys->n_items;
    memcpy(&keys->item[at], items, n * sizeof(KeyId));
    keys->n_items += n;
    return at;
}

KeyId leaf(Keys *keys, int64_t number) {
    const Hand *hand = keys->hand;
    int i = 0;
    while (hand->value[i] != number) i++;
    Key k = {.value = q_int(number), .items = keys->n_items, .counts = (Counts)1 << (4 * i),
             .kind = LEAF};
    return intern(keys, k);
}

KeyId make_raw(Keys *keys, int kind, Q value, const KeyId *up, int n_up, const KeyId *down,
               int n_down) {
    Key k = {.value = value, .kind = (uint8_t)kind, .n_up = (uint8_t)n_up,
             .n_down = (uint8_t)n_down};
    k.items = push_items(keys, up, n_up);
    push_items(keys, down, n_down);
    for (int i = 0; i < n_up; i++) k.counts += keys->key[up[i]].counts;
    for (int i = 0; i < n_down; i++) k.counts += keys->key[down[i]].counts;
    return intern(keys, k);
}

KeyId make_sorted(Keys *keys, int kind, Q value, const KeyId *up, int n_up, const KeyId *down,
                  int n_down) {
    KeyId u[MAX_NUMBERS], d[MAX_NUMBERS];
    memcpy(u, up, n_up * sizeof(KeyId));
    memcpy(d, down, n_down * sizeof(KeyId));
    sort_keys(keys, u, n_up);
    sort_keys(keys, d, n_down);
    return make_raw(keys, kind, value, u, n_up, d, n_down);
}

KeyId zero_times(Keys *keys, KeyId zero, Counts times) {
    if (times == 0) return zero;
    Key k = {.value = q_int(0), .kind = ZERO_TIMES, .n_up = 1,
             .counts = key_at(keys, zero)->counts + times};
    if (key_at(keys, zero)->kind == ZERO_TIMES) zero = zero_of_times(keys, zero);
    k.items = push_items(keys, &zero, 1);
    return intern(keys, k);
}

KeyId zero_times_raw(Keys *keys, KeyId zero, Counts times) {
    Key k = {.value = q_int(0), .kind = ZERO_TIMES, .n_up = 1,
             .counts = key_at(keys, zero)->counts + times};
    k.items = push_items(keys, &zero, 1);
    return intern(keys, k);
}

KeyId turned(Keys *keys, KeyId zero) {
    const Key *k = key_at(keys, zero);
    if (k->kind == ZERO_TIMES)
        return zero_times_raw(keys, turned(keys, zero_of_times(keys, zero)), times_of(keys, zero));
    if (k->kind != SUM) return zero;
    KeyId plus[MAX_NUMBERS], minus[MAX_NUMBERS], parts[2 * MAX_NUMBERS];
    int n_plus = 0, n_minus = 0, n_up = k->n_up, n_down = k->n_down;
    memcpy(parts, ups(keys, zero), (n_up + n_down) * sizeof(KeyId));
    for (int i = 0; i < n_down; i++) plus[n_plus++] = parts[n_up + i];
    for (int i = 0; i < n_up; i++) {
        if (q_is_zero(value_of(keys, parts[i]))) plus[n_plus++] = turned(keys, parts[i]);
        else minus[n_minus++] = parts[i];
    }
    sort_keys(keys, plus, n_plus);
    return make_raw(keys, SUM, q_int(0), plus, n_plus, minus, n_minus);
}

/* ---- flat keys (solver/normal/flat.py) ---- */

/* the parts of x as seen from a sum (product): its own parts if it is one, else x itself */
static void gather(const Keys *keys, int kind, KeyId x, bool inverse, KeyId *up, int *n_up,
                   KeyId *down, int *n_down) {
    KeyId *to_up = inverse ? down : up, *to_down = inverse ? up : down;
    int *at_up = inverse ? n_down : n_up, *at_down = inverse ? n_up : n_down;
    const Key *k = key_at(keys, x);
    if (k->kind != kind) {
        to_up[(*at_up)++] = x;
        return;
    }
    for (int i = 0; i < k->n_up; i++) to_up[(*at_up)++] = ups(keys, x)[i];
    for (int i = 0; i < k->n_down; i++) to_down[(*at_down)++] = downs(keys, x)[i];
}

/* whether a divisor (term subtracted) moves up: A-Z is A+(-Z) for a zero term Z (rule 3), A/O
 * is A*O for a one O that nothing moves out of (rule 4) */
static bool moves_up(Keys *keys, int kind, KeyId part) {
    if (kind == SUM) return q_is_zero(value_of(keys, part));
    return q_eq(value_of(keys, part), q_int(1)) && is_plain(keys, part);
}

/* a o b or a o^-1 b, rules 1 and 2; a part worth the unit moves off the down side (moves_up) */
static KeyId join(Keys *keys, int kind, KeyId a, KeyId b, bool inverse, Q value) {
    KeyId up[MAX_NUMBERS], down[MAX_NUMBERS];
    int n_up = 0, n_down = 0;
    gather(keys, kind, a, false, up, &n_up, down, &n_down);
    gather(keys, kind, b, inverse, up, &n_up, down, &n_down);
    int kept = 0;
    for (int i = 0; i < n_down; i++) {
        if (moves_up(keys, kind, down[i])) up[n_up++] = kind == SUM ? turned(keys, down[i]) : down[i];
        else down[kept++] = down[i];
    }
    return make_sorted(keys, kind, value, up, n_up, down, kept);
}

KeyId flat_add(Keys *keys, KeyId a, KeyId b, Q value) { return join(keys, SUM, a, b, false, value); }
KeyId flat_sub(Keys *keys, KeyId a, KeyId b, Q value) { return join(keys, SUM, a, b, true, value); }

KeyId flat_mul(Keys *keys, KeyId a, KeyId b, Q value) {
    if (q_is_zero(value_of(keys, a))) return zero_times(keys, a, key_at(keys, b)->counts);
    if (q_is_zero(value_of(keys, b))) return zero_times(keys, b, key_at(keys, a)->counts);
    return join(keys, PRODUCT, a, b, false, value);
}

KeyId flat_div(Keys *keys, KeyId a, KeyId b, Q value) {
    if (q_is_zero(value_of(keys, a))) return zero_times(keys, a, key_at(keys, b)->counts);
    return join(keys, PRODUCT, a, b, true, value);
}
