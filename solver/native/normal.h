/* The normal form (solver/normal in C): which flat keys are one solution.
 *
 * This port follows the Python rules step for step, with the same names: reduce.c (lift parts
 * worth zero and one), atoms.c (the forms of a zero), bags.c (what a reduction lifted),
 * parts.c (parts of a core and how to put another in their place), classes.c (the swaps
 * between reductions, and the classes of a hand's keys). Keys are interned, so where Python
 * asks `is` or `==` of two keys, this asks `==` of two ids. Every answer the rules give per
 * key is kept for the solve (Python keeps them in lru_caches).
 */
#ifndef SOLVER_NORMAL_H
#define SOLVER_NORMAL_H

#include "groups.h"
#include "memo.h"
#include "table.h"

#define MAX_LIFTED 16
#define POOL_LIMIT 5  /* swaps through the numbers a zero multiplies: up to this many */

/* a reduction before its bag is put in order (reduce.py: Lifted) */
typedef struct {
    KeyId core;  /* NO_KEY when it is all worth zero */
    int n_ones, n_zeros;
    KeyId ones[MAX_LIFTED], zeros[MAX_LIFTED];
    Counts pool;
} Lifted;

/* what a reduction lifted, in order (bags.py: Bag): NO_KEY for an empty place */
typedef struct {
    KeyId one, zero;
    Counts pool;
} Bag;

/* a reduction: the core and the bag (canonical.py: Canonical) */
typedef struct {
    KeyId core, one, zero;
    Counts pool;
} State;

/* how to put a new part where an old one was: make(kind, rest + new) around the step inside */
typedef struct {
    uint32_t inner;  /* the step applied first; 0: none */
    uint32_t rest;   /* offset in Normal.step_keys: the up parts, then the down ones */
    uint8_t kind, inverse, n_up, n_down;
} Step;

typedef struct {
    KeyId key;
    uint32_t step;  /* 0: the part is the whole key */
} Part;

typedef struct {
    uint32_t start, n;  /* in Normal.parts, sorted by value */
} Parts;

/* every flat key over some numbers, by value (bags.py: expressions_of) */
typedef struct {
    Q *value;        /* ascending */
    Span *keys;      /* the keys worth each value, in Normal.lists */
    uint32_t n;
} PoolKeys;

/* the reductions met while classes are found, with a union-find over them */
typedef struct {
    State *state;
    uint32_t *parent, *seen;  /* seen: the last exploration that met the state */
    bool *known;              /* met by an exploration that is over (Python: in `parent`) */
    uint32_t n, cap;
    uint32_t *table, table_cap;
    uint32_t exploration;
    uint32_t *met, n_met, cap_met;   /* the states the current exploration met */
    uint32_t *todo, n_todo, cap_todo;
    uint32_t *starts, *number;       /* per key: its first reduction; per state: its class */
} States;

/* a value with a key or a part, for sorting by value */
typedef struct {
    Q value;
    KeyId key;
    uint32_t step;
} Valued;

typedef struct {
    Keys *keys;
    KeyMemo reduced;    /* key -> 1 + index in lifted */
    Lifted *lifted;
    uint32_t n_lifted, cap_lifted;
    KeyMemo forms, sides, splits, literal;  /* key -> 1 + index in spans (atoms.c) */
    KeyMemo part_memo, node_memo;           /* key -> 1 + index in part_lists */
    Span *spans;
    uint32_t n_spans, cap_spans;
    KeyLists lists;
    Parts *part_lists;
    uint32_t n_part_lists, cap_part_lists;
    Part *parts;
    uint32_t n_parts, cap_parts;
    Step *steps;
    uint32_t n_steps, cap_steps;
    KeyId *step_keys;
    uint32_t n_step_keys, cap_step_keys;
    QMap pool_index;    /* (counts, 0) -> 1 + index in pools */
    PoolKeys *pools;
    uint32_t n_pools, cap_pools;
    uint32_t *mark;     /* per key: the list that last took it */
    uint32_t cap_mark, serial;
    Valued *found;      /* scratch, used as a stack by nested calls (freed with the solve) */
    uint32_t n_found, cap_found;
    KeyId *scratch;
    uint32_t n_scratch, cap_scratch;
    States states;
} Normal;

/* push onto the scratch stacks (their tops are restored by the caller that pushed first) */
void push_found(Normal *normal, Q value, KeyId key, uint32_t step);
void push_scratch(Normal *normal, KeyId key);

void normal_init(Normal *normal, Keys *keys);
void normal_free(Normal *normal);

/* a span of keys kept for the solve, and the keys of a span */
uint32_t keep_span(Normal *normal, const KeyId *ids, uint32_t n);
static inline const KeyId *span_keys(const Normal *normal, Span span) {
    return normal->lists.id + span.start;
}

/* reduce.c */
Lifted reduce(Normal *normal, KeyId key);
bool is_plain(Normal *normal, KeyId key);
Lifted reduce_group(Normal *normal, int kind, const Item *items, int n, KeyId key);
Lifted lifted_unit(Normal *normal, int kind, const Item *unit, int n);

/* atoms.c */
Span atom_forms(Normal *normal, KeyId atom);
Span atom_sides(Normal *normal, KeyId atom);  /* x0, y0, x1, y1, ...: each zero X-Y */
void split_zero(Normal *normal, KeyId zero, Span *ones, Span *atoms);
void literal_atoms(Normal *normal, KeyId zero, Span *ones, Span *atoms);
KeyId zero_of(Normal *normal, KeyId x, KeyId y);

/* bags.c */
Bag bag_of(Normal *normal, const KeyId *ones, int n_ones, const KeyId *zeros, int n_zeros,
           Counts pool, bool has_core);
bool frees(Normal *normal, Counts pool, bool has_core);
const PoolKeys *pool_keys(Normal *normal, Counts pool);
Span pool_keys_worth(Normal *normal, Counts pool, Q value);
bool pool_makes(Normal *normal, Counts pool, Q value);

/* parts.c */
Parts parts_of(Normal *normal, KeyId key);
Parts nodes_of(Normal *normal, KeyId key);
Parts parts_worth(Normal *normal, Parts parts, Q value);
KeyId rebuild(Normal *normal, uint32_t step, KeyId new_part);
uint32_t add_step(Normal *normal, int kind, const Item *rest, int n, bool inverse, uint32_t inner);

/* classes.c */
State first_reduction(Normal *normal, KeyId key);
/* a class number for each key: keys whose reductions swaps link get the same number */
void solution_classes(Normal *normal, const KeyId *keys, uint32_t n, uint32_t *classes);

#endif
