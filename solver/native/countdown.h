/* Countdown's compiled search (countdown_search.c), the twin of solver/countdown_search.py:
   one Search per hand and rule set; the Python face is countdown.c. Sub-hands are bit masks over
   the sorted hand; every value is below 2^62 (see countdown.c). Functions returning int give -1
   (or NULL) with a Python error set when an allocation failed. */

#ifndef COUNTDOWN_H
#define COUNTDOWN_H

#include "countdown_values.h"

enum { MAX_NUMBERS = 8, MASKS = 1 << MAX_NUMBERS, MAX_CUTS = MASKS / 2 };
enum { BUILD = 4, WINDOW_BUILD = 5, FEW = 20, PATIENCE = 48 };
#define LIMIT ((Value)1 << 62)

typedef struct {
    uint8_t a, b;  /* the bigger side A, the smaller side B */
} Cut;

typedef struct {
    Cut *at;
    int len;
} Cuts;

typedef struct {
    PyObject_HEAD
    int n, subset, distinct;
    Py_ssize_t full;
    long long low;
    Value hand[MAX_NUMBERS];
    uint8_t count[MASKS], same[MASKS];
    Value bound[MASKS], sum[MASKS];
    char built[MASKS], has_cuts[MASKS], has_largest[MASKS], has_ordered[MASKS], has_few[MASKS];
    Set sets[MASKS];
    Vec ordered[MASKS], few[MASKS];
    Cuts cuts[MASKS], other[MASKS];
    Value largest[MASKS];
    long asked[MASKS];
    long patience[MAX_NUMBERS + 1];
    Answers answers;
} Search;

/* The cuts of m into (A, B), B the smaller side, once per pair of multisets, bigger B first. */
Cuts *cuts_of(Search *s, int m);
/* Every value of sub-hand m (canonical), once. */
int build(Search *s, int m);
/* Whether sub-hand m makes w: 1, 0, or -1 on error. */
int reaches(Search *s, int m, Value w);
/* Append the values of sub-hand m from lo to hi, with repeats. */
int window(Search *s, int m, Value lo, Value hi, Vec *out);
/* The sorted values of sub-hand m (canonical), built once. */
const Vec *ordered(Search *s, int m);
/* The largest value of sub-hand m, or -1 on error. */
Value largest(Search *s, int m);
/* One expression of sub-hand m worth w: nested (op, left, right) tuples, ints for numbers. */
PyObject *expression(Search *s, int m, Value w);

#endif
