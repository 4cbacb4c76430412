/* Value sets: every non-negative value a few numbers make, and a cache of the small ones.
 *
 * The values of up to CACHED numbers are kept across solves on one thread (the Python solver
 * keeps them in an lru_cache): a run of many four-number hands meets the same triples again
 * and again. The cache is per thread, so no lock is needed while the GIL is released; it is
 * emptied at the start of a solve once it holds more than CACHE_VALUES values.
 */
#ifndef SOLVER_VALUES_H
#define SOLVER_VALUES_H

#include "table.h"

#define CACHED 3
#define CACHE_VALUES (1 << 18)

typedef struct {
    Q *value;  /* in the order found; ascending once sorted */
    uint32_t n, cap;
    Q *slot;   /* the same values, for membership: open addressing, den 0 an empty slot; only
                  the values, no tag or payload, so more of the sets a search asks stay in cache */
    uint32_t slot_cap;
    bool sorted;
    Q *ascending;  /* a sorted copy, made when first asked (sorted_copy) */
    /* a bit per hash of the values held (their hash's high bits): most values asked for are
     * not in the set, and this line answers them without reaching for the slots */
    uint64_t filter[8];
} ValueSet;

/* a value's bit in a set's filter: its hash's top bits (the low ones pick its slot) */
static inline int filter_word(uint64_t hash) { return (int)(hash >> 61); }
static inline uint64_t filter_bit(uint64_t hash) { return 1ull << ((hash >> 55) & 63); }

ValueSet *value_set_new(void);
void value_set_free(ValueSet *set);
void add_value(ValueSet *set, Q v);

static inline bool has_value(const ValueSet *set, Q v) {
    uint64_t hash = q_hash(v);
    if (!(set->filter[filter_word(hash)] & filter_bit(hash))) return false;  /* no slot read */
    uint32_t mask = set->slot_cap - 1;
    for (uint32_t i = (uint32_t)hash & mask;; i = (i + 1) & mask) {
        if (set->slot[i].den == 0) return false;
        if (q_eq(set->slot[i], v)) return true;
    }
}
void sort_values(ValueSet *set);
/* the values ascending, without moving them: a copy, made once and kept with the set (a
 * cached set is shared by every sub-hand of the same numbers, whose loops must not see its
 * order change; most cached sets are never listed in order at all) */
const Q *sorted_copy(ValueSet *set);

/* the cached values of these numbers, or NULL */
ValueSet *cached_values(const int64_t *numbers, int n, bool integer_only);
/* keep a set in the cache, which then owns it */
void cache_values(const int64_t *numbers, int n, bool integer_only, ValueSet *set);
/* empty the cache if it has grown past CACHE_VALUES values, or at once (never while a solve
 * runs on this thread) */
void trim_value_cache(void);
void clear_value_cache(void);
/* the same, and the cache's own table freed (when the thread ends: module.c) */
void free_value_cache(void);

#endif
