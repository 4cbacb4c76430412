/* Every distinct solution of a hand, simplest first (solver.solutions.solve): the search's keys,
 * their canonical keys, a class per canonical key, the simplest text of each class, in the
 * order of _rank.
 *
 * A key that is plain (reduce.h) and not worth zero is its own canonical key; the others are
 * left NO_KEY by own_canonical and their canonical keys come from the Python rules
 * (solver.normal.canonical_key, called by module.c), interned among the same keys.
 */
#ifndef SOLVER_SOLUTIONS_H
#define SOLVER_SOLUTIONS_H

#include "display.h"
#include "search.h"

typedef struct {
    KeyList list;             /* the search's keys, in s->pool */
    KeyId *canonical;         /* per key: its canonical key; NO_KEY: still to be asked */
    uint32_t *classes;        /* per key: its class, numbered as the keys come */
    uint32_t n_classes;
    Text text;                /* texts, one after another */
    size_t *best_at, *best_n; /* per class: its simplest text in `text` (best_n 0: none yet) */
    Rank *rank;               /* the solutions, simplest first (pointing into text) */
    uint32_t n;
} Solutions;

/* the keys of the whole hand worth goal, and the canonical keys that need no rules */
void own_canonical(Search *s, Q goal, Solutions *out);
/* the classes, once every key has its canonical key */
void number_classes(Search *s, Solutions *out);
/* the simplest text of each class, simplest first (negated for a target below zero) */
void distinct_texts(Search *s, bool negative, Solutions *out);
void solutions_free(Solutions *out);

#endif
