/* The reduction of a key (solver/normal/reduce.py: lift), as far as the core needs it.
 *
 * The flat keys ask whether a factor worth one is plain (nothing moves out of it), and a
 * solution's key that is plain and not worth zero is its own canonical key (canonical.py puts
 * nothing back); every other solution key is sent to the Python rules (solutions.c). So this
 * keeps a reduction's core, pairs and one factors, and only whether zero terms were lifted.
 */
#ifndef SOLVER_REDUCE_H
#define SOLVER_REDUCE_H

#include "memo.h"

typedef struct {
    KeyId core;       /* NO_KEY: the key is a zero term */
    uint32_t at;      /* offset in Lifts.parts.id: the pairs (sorted), then the ones (sorted) */
    uint8_t n_pairs, n_ones;
    bool zeros;       /* whether zero terms were lifted (which ones, the core never needs) */
} Lifted;

struct Lifts {
    KeyMemo memo;     /* key -> 1 + index in lifted */
    Lifted *lifted;
    uint32_t n, cap;
    KeyLists parts;
};

Lifted lift(Keys *keys, KeyId key);
/* whether nothing moves out of a key (reduce.py: is_plain) */
bool is_plain(Keys *keys, KeyId key);

static inline const KeyId *lifted_pairs(const Keys *keys, Lifted l) {
    return keys->lifts->parts.id + l.at;
}
static inline const KeyId *lifted_ones(const Keys *keys, Lifted l) {
    return keys->lifts->parts.id + l.at + l.n_pairs;
}

#endif
