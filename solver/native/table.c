/* The hash map of table.h: growth and insertion. */
#include <stdlib.h>
#include <string.h>

#include "table.h"

static void grow(QMap *map) {
    QMap bigger = {NULL, map->cap ? map->cap * 2 : 16, 0};
    bigger.slot = checked_realloc(NULL, bigger.cap * sizeof(Slot));
    memset(bigger.slot, 0, bigger.cap * sizeof(Slot));
    for (uint32_t i = 0; i < map->cap; i++) {
        Slot *s = &map->slot[i];
        if (s->v.den != 0) *qmap_put(&bigger, s->tag, s->v, NULL) = s->val;
    }
    free(map->slot);
    *map = bigger;
}

uint32_t *qmap_put(QMap *map, uint32_t tag, Q v, int *added) {
    if (2 * (map->used + 1) > map->cap) grow(map);
    uint32_t mask = map->cap - 1;
    for (uint32_t i = (uint32_t)(q_hash(v) ^ tag * 0x9E3779B9u) & mask;; i = (i + 1) & mask) {
        Slot *s = &map->slot[i];
        if (s->v.den == 0) {
            *s = (Slot){v, tag, 0};
            map->used++;
            if (added) *added = 1;
            return &s->val;
        }
        if (s->tag == tag && q_eq(s->v, v)) {
            if (added) *added = 0;
            return &s->val;
        }
    }
}

void qmap_free(QMap *map) {
    free(map->slot);
    *map = (QMap){0};
}

void qmap_clear(QMap *map) {
    if (map->used) memset(map->slot, 0, map->cap * sizeof(Slot));
    map->used = 0;
}
