/* Keys: one expression up to the rules the search applies as it builds (solver/normal/keys.py).
 *
 * A key is a number of the hand (LEAF), a sum of terms added and subtracted (SUM), a product
 * of factors multiplied and divided (PRODUCT), or a part worth zero times whatever some
 * numbers make (ZERO_TIMES). Keys are interned: equal keys have one id, so equality is ==.
 * key_cmp orders keys exactly as Python orders the NamedTuples of solver.normal.keys (value,
 * then the operator "*" < "+" < "0*", then the parts), because the Python solver picks the
 * least of several keys in places and sorts parts for display.
 */
#ifndef SOLVER_KEYS_H
#define SOLVER_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hand.h"
#include "rational.h"

typedef uint32_t KeyId;
#define NO_KEY UINT32_MAX

enum Kind { LEAF, SUM, PRODUCT, ZERO_TIMES };

typedef struct {
    Q value;
    uint32_t items;   /* offset in Keys.item: the up parts, then the down ones; ZERO_TIMES: the zero */
    Counts counts;    /* the numbers the key uses (ZERO_TIMES: the zero's and the multiplied ones) */
    uint32_t hash;
    uint8_t kind, n_up, n_down;
} Key;

typedef struct {
    Hand *hand;
    Key *key;
    uint32_t n, cap;
    KeyId *item;
    uint32_t n_items, cap_items;
    uint64_t *table;  /* interning: the key's hash << 32 | KeyId + 1, or 0 for an empty slot */
    uint32_t table_cap;
    struct Lifts *lifts;  /* the reductions of keys, when asked (reduce.h) */
} Keys;

void keys_free(Keys *keys);
/* no key left (the store's memory kept for the next hand's keys) */
void keys_clear(Keys *keys);
/* the bytes the store holds */
size_t keys_bytes(const Keys *keys);
void lifts_free(struct Lifts *lifts);
void lifts_clear(struct Lifts *lifts);
size_t lifts_bytes(const struct Lifts *lifts);

static inline const Key *key_at(const Keys *keys, KeyId id) { return &keys->key[id]; }
static inline Q value_of(const Keys *keys, KeyId id) { return keys->key[id].value; }
static inline const KeyId *ups(const Keys *keys, KeyId id) {
    return &keys->item[keys->key[id].items];
}
static inline const KeyId *downs(const Keys *keys, KeyId id) {
    return &keys->item[keys->key[id].items + keys->key[id].n_up];
}
static inline KeyId zero_of_times(const Keys *keys, KeyId id) { return keys->item[keys->key[id].items]; }
/* the numbers a ZERO_TIMES key multiplies its zero by */
static inline Counts times_of(const Keys *keys, KeyId id) {
    return keys->key[id].counts - keys->key[zero_of_times(keys, id)].counts;
}

int key_cmp(const Keys *keys, KeyId a, KeyId b);
void sort_keys(const Keys *keys, KeyId *ids, int n);

KeyId leaf(Keys *keys, int64_t number);
/* a sum (kind SUM) or product (PRODUCT) of these parts, kept in the order given */
KeyId make_raw(Keys *keys, int kind, Q value, const KeyId *up, int n_up, const KeyId *down,
               int n_down);
/* the same with each side sorted, as every key of the normal form is */
KeyId make_sorted(Keys *keys, int kind, Q value, const KeyId *up, int n_up, const KeyId *down,
                  int n_down);
KeyId zero_times(Keys *keys, KeyId zero, Counts times);
/* a zero times some numbers as written, none or a zero times numbers included (for keys the
 * Python rules build: a ZeroProduct is never folded into another there) */
KeyId zero_times_raw(Keys *keys, KeyId zero, Counts times);
/* -Z written as a zero (keys.py: turned): a sum's sides swapped, its terms worth zero turned
 * and kept added; a zero times numbers with its zero turned; the number 0 is itself */
KeyId turned(Keys *keys, KeyId zero);

/* Flat keys (solver/normal/flat.py), for values the caller already knows; a factor worth one
 * leaves the divisors only when it is plain (reduce.h) */
KeyId flat_add(Keys *keys, KeyId a, KeyId b, Q value);
KeyId flat_sub(Keys *keys, KeyId a, KeyId b, Q value);
KeyId flat_mul(Keys *keys, KeyId a, KeyId b, Q value);
KeyId flat_div(Keys *keys, KeyId a, KeyId b, Q value);

#endif
