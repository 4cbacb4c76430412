/* The search (solver/search.py in C): every flat key of a sub-hand worth a value.
 *
 * Sub-hands of up to SMALL numbers get their whole value set; bigger ones are asked only for
 * the values a solution needs (can_make), and the answers are kept. Keys come out in the
 * Python solver's order: splits as it makes them, values ascending, the operations in the
 * order of _wanted, so the first solution and every list are the same as the pure path's.
 */
#ifndef SOLVER_SEARCH_H
#define SOLVER_SEARCH_H

#include "keys.h"
#include "table.h"
#include "values.h"

#define SMALL 4

typedef struct {
    uint32_t start, n;  /* in Search.pool */
} KeyList;

typedef struct {
    Hand hand;
    Keys keys;
    bool integer_only;
    ValueSet *values[MASKS];    /* per sub-hand, when first asked */
    bool owned[MASKS];          /* whether the search frees it (else the cache owns it) */
    QMap made;          /* (sub-hand, value) -> 1 + whether it makes it, for big sub-hands */
    QMap listed;        /* (sub-hand, value) -> 1 + index in lists */
    KeyList *lists;
    uint32_t n_lists, cap_lists;
    KeyId *pool;        /* the keys of every list, one list after another */
    uint32_t n_pool, cap_pool;
    KeyId *stack;       /* the lists being built */
    uint32_t n_stack, cap_stack;
    uint32_t *mark;     /* per key: the list that last took it (no key twice in a list) */
    uint32_t cap_mark, serial;
} Search;

/* Searches are made and kept by the caller: a new one is all zeros (calloc). A search that
 * search_clear emptied takes the next hand with the buffers it grew, so a run of small hands
 * allocates almost nothing; one that grew past SEARCH_KEEP_BYTES gives them back instead. */
#define SEARCH_KEEP_BYTES (1u << 20)

/* s: all zeros or emptied by search_clear; a failure midway jumps (fail.h), search_clear or
 * search_free still apply */
void search_init(Search *s, const int64_t *sorted, int n, bool integer_only);
/* ready for search_init again (the value sets it owns freed, its stores emptied) */
void search_clear(Search *s);
/* everything freed: all zeros again */
void search_free(Search *s);

const ValueSet *values_of(Search *s, Mask m);
/* its values ascending (the order the pure solver lists them in), *n of them */
const Q *ordered_values(Search *s, Mask m, uint32_t *n);
bool can_make(Search *s, Mask m, Q v);
/* whether the sub-hand makes v, asked once (no value set of the whole is built) */
bool reaches(Search *s, Mask m, Q v);
/* every flat key of the sub-hand worth v >= 0, in the pure solver's order */
KeyList expressions(Search *s, Mask m, Q v);
/* the first of them, found without listing them all; NO_KEY when there is none */
KeyId first_key(Search *s, Mask m, Q v);
/* the first of them that can be written negated (display.h), for targets below zero */
KeyId first_negatable(Search *s, Mask m, Q v);

#endif
