/* Sums and products as one structure (solver/normal/groups.py): parts combined by an operation
 * with a unit and an inverse. `kind` (SUM or PRODUCT) says which: unit 0 or 1, + and - or
 * * and /. An Item is a part with the side it is on (inverse: subtracted or divided).
 */
#ifndef SOLVER_GROUPS_H
#define SOLVER_GROUPS_H

#include "keys.h"

#define MAX_ITEMS 16

typedef struct {
    KeyId key;
    bool inverse;
} Item;

static inline Q unit_of(int kind) { return q_int(kind == SUM ? 0 : 1); }
static inline bool is_group(const Keys *keys, KeyId key) {
    int kind = key_at(keys, key)->kind;
    return kind == SUM || kind == PRODUCT;
}

Q combine(int kind, Q a, Q b);
Q uncombine(int kind, Q a, Q b);

/* the parts of a key of this kind as items (the key alone otherwise); returns how many */
int items_of(const Keys *keys, int kind, KeyId key, Item *out);
Q total_of(const Keys *keys, int kind, const Item *items, int n);
Q total(const Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down, int n_down);
/* up and down of some items, in their order */
void split(const Item *items, int n, KeyId *up, int *n_up, KeyId *down, int *n_down);

/* a key of this kind: parts of this kind flattened in, each side sorted, the value computed
 * (make_valued: given); one part alone on the up side is that part itself */
KeyId make(Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down, int n_down);
KeyId make_valued(Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down,
                  int n_down, Q value);
KeyId make_items(Keys *keys, int kind, const Item *items, int n);
/* a part worth the unit, read either way round (X-Y or Y-X): the least of the two */
KeyId oriented(Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down, int n_down);

int item_cmp(const Keys *keys, Item a, Item b);
/* the items left when some are taken (equal items: as many as taken); returns how many */
int without(const Item *items, int n, const Item *taken, int n_taken, Item *out);
/* the items at the places set in mask */
int masked(const Item *items, int n, uint32_t mask, Item *out);
/* whether mask picks the first k of each run of equal neighbouring items: one mask per
 * sub-multiset of sorted items */
bool first_of_runs(const Item *items, int n, uint32_t mask);

/* the smallest proper group of items worth the unit (the first mask of least size), with
 * something multiplied left for a product; 0 when there is none */
uint32_t smallest_unit(const Keys *keys, int kind, const Item *items, int n);

#endif
