/* Sums and products as one structure (solver/normal/groups.py): parts combined by an operation
 * with a unit and an inverse. `kind` (SUM or PRODUCT) says which: unit 0 or 1, + and - or
 * * and /.
 */
#ifndef SOLVER_GROUPS_H
#define SOLVER_GROUPS_H

#include "keys.h"

Q combine(int kind, Q a, Q b);
Q uncombine(int kind, Q a, Q b);
Q total(const Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down, int n_down);

/* a key of this kind: parts of this kind flattened in, each side sorted, the value computed
 * (make_valued: given); one part alone on the up side is that part itself */
KeyId make(Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down, int n_down);
KeyId make_valued(Keys *keys, int kind, const KeyId *up, int n_up, const KeyId *down,
                  int n_down, Q value);

#endif
