/* Every distinct solution of a hand, simplest first (see solutions.h). */
#include <stdlib.h>
#include <string.h>

#include "memo.h"
#include "reduce.h"
#include "solutions.h"

/* the sides of a key as a sum's terms (canonical.py: _sides), added to plus and minus */
static void add_sides(const Keys *keys, KeyId key, KeyId *plus, int *n_plus, KeyId *minus,
                      int *n_minus) {
    const Key *k = key_at(keys, key);
    int n_up = k->kind == SUM ? k->n_up : 1, n_down = k->kind == SUM ? k->n_down : 0;
    if (*n_plus + n_up > MAX_NUMBERS || *n_minus + n_down > MAX_NUMBERS) fail(FAIL_INTERNAL);
    if (k->kind != SUM) {
        plus[(*n_plus)++] = key;
        return;
    }
    for (int i = 0; i < n_up; i++) plus[(*n_plus)++] = ups(keys, key)[i];
    for (int i = 0; i < n_down; i++) minus[(*n_minus)++] = downs(keys, key)[i];
}

KeyId settled(Keys *keys, KeyId key) {
    Q value = value_of(keys, key);
    Lifted l = lift(keys, key);
    if (q_is_zero(value) || l.zeros || l.core == NO_KEY) return NO_KEY;  /* a zero may turn */
    KeyId parts[2 * MAX_NUMBERS];
    int n_up = 0, n_down = 0;
    if (l.n_ones == 0) {  /* _top, _join: the pairs' terms join the core's, whichever cancels */
        if (l.n_pairs == 0) return l.core;
        KeyId pairs[MAX_NUMBERS], minus[MAX_NUMBERS];
        memcpy(pairs, lifted_pairs(keys, l), l.n_pairs * sizeof(KeyId));
        add_sides(keys, l.core, parts, &n_up, minus, &n_down);
        for (int i = 0; i < l.n_pairs; i++) add_sides(keys, pairs[i], parts, &n_up, minus, &n_down);
        return make_sorted(keys, SUM, value, parts, n_up, minus, n_down);
    }
    const Key *core = key_at(keys, l.core);
    if (l.n_ones > 1 || l.n_pairs || q_eq(value, q_int(1)) || (core->kind == PRODUCT && core->n_down))
        return NO_KEY;
    parts[n_up++] = lifted_ones(keys, l)[0];  /* _times: one one multiplies the core */
    if (core->kind != PRODUCT) parts[n_up++] = l.core;
    else for (int i = 0; i < core->n_up; i++) parts[n_up++] = ups(keys, l.core)[i];
    if (n_up > MAX_NUMBERS) fail(FAIL_INTERNAL);
    return make_sorted(keys, PRODUCT, value_of(keys, l.core), parts, n_up, NULL, 0);
}

void own_canonical(Search *s, Q goal, Solutions *out) {
    out->list = expressions(s, whole_hand(&s->hand), goal);
    GROW(out->canonical, out->cap_canonical, out->list.n + 1);
    for (uint32_t i = 0; i < out->list.n; i++)
        out->canonical[i] = settled(&s->keys, s->pool[out->list.start + i]);
}

void number_classes(Search *s, Solutions *out) {
    KeyMemo number = {0};  /* canonical key -> 1 + its class */
    GROW(out->classes, out->cap_classes, out->list.n + 1);
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
    GROW(out->best_at, out->cap_best_at, n_classes + 1);
    GROW(out->best_n, out->cap_best_n, n_classes + 1);
    memset(out->best_n, 0, (n_classes + 1) * sizeof *out->best_n);
    for (uint32_t i = 0; i < out->list.n; i++) {
        KeyId key = s->pool[out->list.start + i];
        if (!negative) offer(out, keys, key, out->classes[i]);
        else if (negatable(keys, key)) offer(out, keys, negated(keys, key), out->classes[i]);
    }
    GROW(out->rank, out->cap_rank, n_classes + 1);
    out->n = 0;
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

void solutions_clear(Solutions *out) {
    if (out->cap_canonical > (1u << 16) || out->text.cap > (1u << 20)) {
        solutions_free(out);
        return;
    }
    out->list = (KeyList){0, 0};
    out->n_classes = out->n = 0;
    out->text.n = 0;
}
