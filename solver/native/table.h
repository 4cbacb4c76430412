/* An open-addressing hash map from (tag, rational) to a 32-bit value.
 *
 * The search keeps its memos in it: tag = a sub-hand, the rational = a value it is asked to
 * make. A slot is empty while its den is 0 (a stored value always has den > 0). Pointers
 * into the map last only until the next put.
 */
#ifndef SOLVER_TABLE_H
#define SOLVER_TABLE_H

#include "rational.h"

typedef struct {
    Q v;
    uint32_t tag, val;
} Slot;

typedef struct {
    Slot *slot;
    uint32_t cap, used;
} QMap;

static inline uint32_t *qmap_find(const QMap *map, uint32_t tag, Q v) {
    if (map->cap == 0) return NULL;
    uint32_t mask = map->cap - 1;
    for (uint32_t i = (uint32_t)(q_hash(v) ^ tag * 0x9E3779B9u) & mask;; i = (i + 1) & mask) {
        Slot *s = &map->slot[i];
        if (s->v.den == 0) return NULL;
        if (s->tag == tag && q_eq(s->v, v)) return &s->val;
    }
}

/* the value slot of (tag, v), added with value 0 when absent (*added says which) */
uint32_t *qmap_put(QMap *map, uint32_t tag, Q v, int *added);
void qmap_free(QMap *map);
/* every slot empty again, the memory kept */
void qmap_clear(QMap *map);

#endif
