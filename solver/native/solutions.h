/* Every distinct solution of a hand, simplest first (solver.solutions.solve): the search's keys,
 * their classes (normal.h), the simplest text of each class, in the order of _rank. */
#ifndef SOLVER_SOLUTIONS_H
#define SOLVER_SOLUTIONS_H

#include "display.h"
#include "normal.h"
#include "search.h"

typedef struct {
    Text text;                /* texts, one after another */
    size_t *best_at, *best_n; /* per class: its simplest text in `text` (best_n 0: none yet) */
    Rank *rank;               /* the solutions, simplest first (pointing into text) */
    uint32_t n;
    uint32_t *classes;        /* per key of the search */
    Normal normal;
} Solutions;

void distinct_solutions(Search *s, Q goal, bool negative, Solutions *out);
void solutions_free(Solutions *out);

#endif
