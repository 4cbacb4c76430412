/* Every distinct solution of a hand, simplest first (see solutions.h). */
#include <stdlib.h>
#include <string.h>

#include "memo.h"
#include "reduce.h"
#include "solutions.h"

void own_canonical(Search *s, Q goal, Solutions *out) {
    out->list = expressions(s, whole_hand(&s->hand), goal);
    out->canonical = checked_realloc(NULL, (out->list.n + 1) * sizeof *out->canonical);
    for (uint32_t i = 0; i < out->list.n; i++) {
        KeyId key = s->pool[out->list.start + i];
        /* canonical.py: nothing is lifted, so nothing is put back; a zero may turn round */
        out->canonical[i] = !q_is_zero(goal) && is_plain(&s->keys, key) ? key : NO_KEY;
    }
}

void number_classes(Search *s, Solutions *out) {
    KeyMemo number = {0};  /* canonical key -> 1 + its class */
    out->classes = checked_realloc(NULL, (out->list.n + 1) * sizeof *out->classes);
    out->n_classes = 0;
    for (uint32_t i = 0; i < out->list.n; i++) {
        KeyId key = out->canonical[i];
        if (key == NO_KEY) fail(FAIL_INTERNAL);
        uint32_t known = memo_get(&number, key);
        if (!known) memo_set(&number, key, known = ++out->n_classes);
        out->classes[i] = known - 1;
    }
    (void)s;
    free(number.at);
}

static int cmp_ranks(const void *a, const void *b) { return rank_cmp(a, b); }

/* keep the text of a key if it is the simplest of its class so far */
static void offer(Solutions *out, const Keys *keys, KeyId key, uint32_t class) {
    size_t at = out->text.n;
    append_text(keys, key, &out->text);
    if (out->best_n[class]) {
        Rank mine = rank_of(out->text.s + at, out->text.n - at);
        Rank theirs = rank_of(out->text.s + out->best_at[class], out->best_n[class]);
        if (rank_cmp(&mine, &theirs) >= 0) {
            out->text.n = at;
            return;
        }
    }
    out->best_at[class] = at;
    out->best_n[class] = out->text.n - at;
}

void distinct_texts(Search *s, bool negative, Solutions *out) {
    Keys *keys = &s->keys;
    uint32_t n_classes = out->n_classes;
    out->best_at = checked_realloc(NULL, (n_classes + 1) * sizeof *out->best_at);
    out->best_n = checked_realloc(NULL, (n_classes + 1) * sizeof *out->best_n);
    memset(out->best_n, 0, (n_classes + 1) * sizeof *out->best_n);
    for (uint32_t i = 0; i < out->list.n; i++) {
        KeyId key = s->pool[out->list.start + i];
        if (!negative) offer(out, keys, key, out->classes[i]);
        else if (negatable(keys, key)) offer(out, keys, negated(keys, key), out->classes[i]);
    }
    out->rank = checked_realloc(NULL, (n_classes + 1) * sizeof *out->rank);
    for (uint32_t c = 0; c < n_classes; c++)  /* the texts no longer move */
        if (out->best_n[c]) out->rank[out->n++] = rank_of(out->text.s + out->best_at[c], out->best_n[c]);
    qsort(out->rank, out->n, sizeof *out->rank, cmp_ranks);
}

void solutions_free(Solutions *out) {
    free(out->canonical);
    free(out->classes);
    free(out->text.s);
    free(out->best_at);
    free(out->best_n);
    free(out->rank);
    memset(out, 0, sizeof *out);
}
