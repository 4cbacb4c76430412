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
    QMap set;  /* the same values, for membership */
    bool sorted;
} ValueSet;

ValueSet *value_set_new(void);
void value_set_free(ValueSet *set);
void add_value(ValueSet *set, Q v);
static inline bool has_value(const ValueSet *set, Q v) { return qmap_find(&set->set, 0, v) != NULL; }
void sort_values(ValueSet *set);

/* the cached values of these numbers (sorted), or NULL */
ValueSet *cached_values(const int64_t *numbers, int n, bool integer_only);
/* keep a sorted set in the cache, which then owns it */
void cache_values(const int64_t *numbers, int n, bool integer_only, ValueSet *set);
/* empty the cache if it has grown past CACHE_VALUES values, or at once (never while a solve
 * runs on this thread) */
void trim_value_cache(void);
void clear_value_cache(void);

#endif
