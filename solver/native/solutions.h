/* Every distinct solution of a hand, simplest first (solver.solutions.solve): the search's keys,
 * their canonical keys, a class per canonical key, the simplest text of each class, in the
 * order of _rank.
 *
 * The core settles the common keys itself (settled): not worth zero, nothing lifted but
 * cancelled pairs, or one factor worth one and nothing else; the others are left NO_KEY and
 * their canonical keys come from the Python rules (solver.normal.canonical_key, called by
 * module.c), interned among the same keys.
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
    /* the buffers' sizes: module.c keeps one Solutions per thread, its buffers reused */
    uint32_t cap_canonical, cap_classes, cap_best_at, cap_best_n, cap_rank;
} Solutions;

/* the canonical key of a key (canonical.py: canonical_key) where only cores, pairs and one
 * factor were lifted (reduce.h) and the value is neither 0 nor 1, else NO_KEY: then nothing
 * turns round, no bag is made and no one is left to pair:
 *   pairs only  -> the top sum of the core's terms and the pairs' (_join), whichever cancels;
 *   one one     -> the one times the core's factors (_times), the core no quotient. */
KeyId settled(Keys *keys, KeyId key);
/* the keys of the whole hand worth goal, and the canonical keys settled without the rules */
void own_canonical(Search *s, Q goal, Solutions *out);
/* the classes, once every key has its canonical key */
void number_classes(Search *s, Solutions *out);
/* the simplest text of each class, simplest first (negated for a target below zero) */
void distinct_texts(Search *s, bool negative, Solutions *out);
void solutions_free(Solutions *out);
/* ready for the next hand: nothing in it, its buffers kept (freed if they grew big) */
void solutions_clear(Solutions *out);

#endif
