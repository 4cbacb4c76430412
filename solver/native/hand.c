/* Sub-hands of a hand and the ways to split them (see hand.h). */
#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "hand.h"

void hand_init(Hand *hand, const int64_t *sorted, int n) {
    memset(hand, 0, sizeof *hand);
    hand->n = n;
    for (int i = 0; i < n; i++) {
        hand->number[i] = sorted[i];
        if (i == 0 || sorted[i] != sorted[i - 1]) {
            hand->value[hand->distinct] = sorted[i];
            hand->first[hand->distinct++] = i;
        }
        hand->count[hand->distinct - 1]++;
    }
}

void hand_free(Hand *hand) {
    for (int m = 0; m < MASKS; m++) free(hand->splits[m]);
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

static void compute_splits(Hand *hand, Mask m) {
    Counts whole = counts_of(hand, m);
    int total = mask_size(m), present[MAX_NUMBERS], k = 0;
    for (int i = 0; i < hand->distinct; i++)
        if (count_at(whole, i)) present[k++] = i;
    int chosen[MAX_NUMBERS] = {0};
    Split *out = checked_realloc(NULL, 128 * sizeof(Split));
    int n = 0;
    for (;;) {
        Counts left = 0;
        for (int j = 0; j < k; j++) left += (Counts)chosen[j] << (4 * present[j]);
        int size = counts_size(left);
        if (size > 0 && size < total && counts_cmp(hand, left, whole - left) <= 0)
            out[n++] = (Split){mask_of(hand, left), mask_of(hand, whole - left)};
        int j = k - 1;  /* itertools.product: the last place turns fastest */
        while (j >= 0 && chosen[j] == count_at(whole, present[j])) chosen[j--] = 0;
        if (j < 0) break;
        chosen[j]++;
    }
    hand->splits[m] = out;
    hand->n_splits[m] = n;
}

const Split *splits_of(Hand *hand, Mask m, int *count) {
    if (hand->splits[m] == NULL) compute_splits(hand, m);
    *count = hand->n_splits[m];
    return hand->splits[m];
}
