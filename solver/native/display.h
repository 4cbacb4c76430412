/* From keys back to the text people read (solver/normal/display.py and solver.expr.to_text),
 * and the order solutions are listed in (solver.solutions._rank). */
#ifndef SOLVER_DISPLAY_H
#define SOLVER_DISPLAY_H

#include <stddef.h>

#include "keys.h"

typedef struct {
    char *s;
    size_t n, cap;
} Text;

/* whether the key can be written with the opposite sign (it subtracts somewhere) */
bool negatable(const Keys *keys, KeyId id);
/* the key written with the opposite sign (for display only: its value is below zero) */
KeyId negated(Keys *keys, KeyId id);
/* append the text of a key, with only the parentheses its value needs */
void append_text(const Keys *keys, KeyId id, Text *out);

/* simplest first: fewer divisions, fewer parentheses, shorter, fewer minus signs, then
 * alphabetical, as Python compares the tuples of _rank */
typedef struct {
    int slashes, parens, minuses;
    size_t n;
    const char *s;
} Rank;

Rank rank_of(const char *s, size_t n);
int rank_cmp(const Rank *a, const Rank *b);

#endif
