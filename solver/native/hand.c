/* Sub-hands of a hand and the ways to split them (see hand.h). */
#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "hand.h"

/* The splits of each sub-hand of hands of one shape, computed when first asked. */
struct Shape {
    Split *splits[MASKS];
    int n_splits[MASKS];
};

/* per thread (solves run with the GIL released): by number of numbers, then by which places
 * start a new run; kept for good, like the value cache (values.h): at most 255 shapes */
#define SHAPE_RUNS (1 << (MAX_NUMBERS - 1))
static _Thread_local struct Shape **shapes;

static struct Shape *shape_of(int n, unsigned runs) {
    if (shapes == NULL) {
        size_t size = (MAX_NUMBERS + 1) * SHAPE_RUNS * sizeof *shapes;
        struct Shape **made = checked_realloc(NULL, size);
        memset(made, 0, size);
        shapes = made;
    }
    struct Shape **at = &shapes[n * SHAPE_RUNS + runs];
    if (*at == NULL) {
        struct Shape *made = checked_realloc(NULL, sizeof *made);
        memset(made, 0, sizeof *made);
        *at = made;
    }
    return *at;
}

void free_shapes(void) {
    if (shapes == NULL) return;
    for (int i = 0; i < (MAX_NUMBERS + 1) * SHAPE_RUNS; i++) {
        if (shapes[i] == NULL) continue;
        for (int m = 0; m < MASKS; m++) free(shapes[i]->splits[m]);
        free(shapes[i]);
    }
    free(shapes);
    shapes = NULL;
}

void hand_init(Hand *hand, const int64_t *sorted, int n) {
    hand->n = n;
    hand->distinct = 0;
    unsigned runs = 0;  /* bit i - 1: place i starts a run */
    for (int i = 0; i < n; i++) {
        hand->number[i] = sorted[i];
        if (i == 0 || sorted[i] != sorted[i - 1]) {
            if (i) runs |= 1u << (i - 1);
            hand->value[hand->distinct] = sorted[i];
            hand->first[hand->distinct] = i;
            hand->count[hand->distinct++] = 0;
        }
        hand->count[hand->distinct - 1]++;
    }
    hand->shape = NULL;
    hand->shape = shape_of(n, runs);
}

Counts counts_of(const Hand *hand, Mask m) {
    Counts c = 0;
    for (int i = 0; i < hand->distinct; i++) {
        Counts run = (Mask)(((1u << hand->count[i]) - 1) << hand->first[i]);
        c |= (Counts)mask_size(m & run) << (4 * i);
    }
    return c;
}

Mask mask_of(const Hand *hand, Counts c) {
    Mask m = 0;
    for (int i = 0; i < hand->distinct; i++)
        m |= (Mask)(((1u << count_at(c, i)) - 1) << hand->first[i]);
    return m;
}

Mask whole_hand(const Hand *hand) { return (Mask)((1u << hand->n) - 1); }

int numbers_of(const Hand *hand, Counts c, int64_t *out) {
    int n = 0;
    for (int i = 0; i < hand->distinct; i++)
        for (int k = count_at(c, i); k > 0; k--) out[n++] = hand->value[i];
    return n;
}

int counts_cmp(const Hand *hand, Counts a, Counts b) {
    int64_t x[MAX_NUMBERS], y[MAX_NUMBERS];
    int nx = numbers_of(hand, a, x), ny = numbers_of(hand, b, y);
    for (int i = 0; i < nx && i < ny; i++)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return (nx > ny) - (nx < ny);
}

/* The order of two sub-hands' sorted numbers is the order of their runs' places (the
 * distinct numbers ascend), so the splits found for this hand hold for its whole shape. */
static void compute_splits(Hand *hand, Mask m) {
    Counts whole = counts_of(hand, m);
    int total = mask_size(m), present[MAX_NUMBERS], k = 0;
    for (int i = 0; i < hand->distinct; i++)
        if (count_at(whole, i)) present[k++] = i;
    int chosen[MAX_NUMBERS] = {0};
    Split found[MASKS / 2];
    int n = 0;
    for (;;) {
        Counts left = 0;
        for (int j = 0; j < k; j++) left += (Counts)chosen[j] << (4 * present[j]);
        int size = counts_size(left);
        if (size > 0 && size < total && counts_cmp(hand, left, whole - left) <= 0)
            found[n++] = (Split){mask_of(hand, left), mask_of(hand, whole - left)};
        int j = k - 1;  /* itertools.product: the last place turns fastest */
        while (j >= 0 && chosen[j] == count_at(whole, present[j])) chosen[j--] = 0;
        if (j < 0) break;
        chosen[j]++;
    }
    Split *out = checked_realloc(NULL, (n ? n : 1) * sizeof(Split));
    memcpy(out, found, n * sizeof(Split));
    hand->shape->n_splits[m] = n;
    hand->shape->splits[m] = out;  /* last: a failed allocation leaves it still to compute */
}

const Split *splits_of(Hand *hand, Mask m, int *count) {
    if (hand->shape->splits[m] == NULL) compute_splits(hand, m);
    *count = hand->shape->n_splits[m];
    return hand->shape->splits[m];
}
