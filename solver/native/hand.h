/* A hand and its sub-hands.
 *
 * The hand's numbers are sorted; a sub-hand is a sub-multiset, written two ways: as a Mask of
 * positions (the first k of each run of equal numbers, so one multiset has one mask) to index
 * arrays, and as Counts (4 bits per distinct number) that add up when parts are put together.
 */
#ifndef SOLVER_HAND_H
#define SOLVER_HAND_H

#include <stdint.h>

#define MAX_NUMBERS 8
#define MASKS (1 << MAX_NUMBERS)

typedef uint8_t Mask;
typedef uint32_t Counts;

typedef struct {
    Mask left, right;
} Split;

typedef struct {
    int n, distinct;
    int64_t number[MAX_NUMBERS];           /* sorted */
    int64_t value[MAX_NUMBERS];            /* the distinct numbers, ascending */
    int first[MAX_NUMBERS], count[MAX_NUMBERS];  /* each distinct number's run */
    struct Shape *shape;                   /* the splits of every hand with these runs */
} Hand;

/* A failure to get memory for the hand's shape jumps (fail.h); nothing is left to free. */
void hand_init(Hand *hand, const int64_t *sorted, int n);
/* the shapes this thread kept, freed (when the thread ends: module.c) */
void free_shapes(void);

/* how many numbers a mask holds (bit counting by hand: no popcount instruction is assumed) */
static inline int mask_size(unsigned m) {
    m = m - ((m >> 1) & 0x55);
    m = (m & 0x33) + ((m >> 2) & 0x33);
    return (int)((m + (m >> 4)) & 0x0F);
}
static inline int counts_size(Counts c) {
    int size = 0;
    for (; c; c >>= 4) size += c & 15;
    return size;
}
static inline int count_at(Counts c, int i) { return (c >> (4 * i)) & 15; }

Counts counts_of(const Hand *hand, Mask m);
Mask mask_of(const Hand *hand, Counts c);
Mask whole_hand(const Hand *hand);

/* the numbers of a sub-hand, sorted; returns how many */
int numbers_of(const Hand *hand, Counts c, int64_t *out);

/* lexicographic order of the sorted numbers of two sub-hands, as Python orders tuples */
int counts_cmp(const Hand *hand, Counts a, Counts b);

/* every way to cut a sub-hand in two, each unordered pair once, in the Python solver's order:
 * (left, right) with left <= right as sorted tuples, chosen counts in itertools.product order.
 * They depend on the runs of equal numbers only, so they are worked out once per shape of hand
 * (how many numbers, where the runs start) and kept for the thread's later hands. */
const Split *splits_of(Hand *hand, Mask m, int *count);

#endif
