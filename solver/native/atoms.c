/* Zero atoms: a lifted part worth zero that no rewrite splits in two (solver/normal/atoms.py).
 * One atom has several forms: a sum worth zero, or a pair X/Y of equal parts. */
#include <stdlib.h>
#include <string.h>

#include "normal.h"

uint32_t keep_span(Normal *normal, const KeyId *ids, uint32_t n) {
    GROW(normal->spans, normal->cap_spans, normal->n_spans + 1);
    normal->spans[normal->n_spans] = push_list(&normal->lists, ids, n);
    return normal->n_spans++;
}

KeyId zero_of(Normal *normal, KeyId x, KeyId y) { return oriented(normal->keys, SUM, &x, 1, &y, 1); }

/* (X, Y) of equal value such that this form of the atom is X-Y (or X/Y, for a pair) */
static int two_sides(Normal *normal, KeyId atom, KeyId *xs, KeyId *ys) {
    Keys *keys = normal->keys;
    if (!is_group(keys, atom)) return 0;
    int kind = key_at(keys, atom)->kind, count = 0;
    Item items[MAX_ITEMS], picked[MAX_ITEMS], rest[MAX_ITEMS];
    int n = items_of(keys, kind, atom, items);
    for (uint32_t mask = 1; mask < (1u << n) - 1; mask++) {
        if (!first_of_runs(items, n, mask)) continue;
        int n_picked = masked(items, n, mask, picked), n_rest = masked(items, n, ~mask, rest);
        KeyId p_up[MAX_ITEMS], p_down[MAX_ITEMS], r_up[MAX_ITEMS], r_down[MAX_ITEMS];
        int n_pu, n_pd, n_ru, n_rd;
        split(picked, n_picked, p_up, &n_pu, p_down, &n_pd);
        split(rest, n_rest, r_up, &n_ru, r_down, &n_rd);
        bool side = kind == SUM ? q_cmp(total_of(keys, SUM, picked, n_picked), q_int(0)) > 0
                                : n_pu && n_rd;
        if (!side) continue;
        xs[count] = make(keys, kind, p_up, n_pu, p_down, n_pd);
        ys[count++] = make(keys, kind, r_down, n_rd, r_up, n_ru);
    }
    return count;
}

#define MAX_SIDES (1 << MAX_NUMBERS)

/* every way to write the atom: sums worth zero, and pairs X/Y of equal parts (rule 5) */
Span atom_forms(Normal *normal, KeyId atom) {
    uint32_t known = memo_get(&normal->forms, atom);
    if (known) return normal->spans[known - 1];
    uint32_t base = normal->n_scratch, next = base;
    push_scratch(normal, atom);
    while (next < normal->n_scratch) {  /* each form is expanded once, in the order found */
        KeyId current = normal->scratch[next++], xs[MAX_SIDES], ys[MAX_SIDES];
        int other = key_at(normal->keys, current)->kind == SUM ? PRODUCT : SUM;
        int n = two_sides(normal, current, xs, ys);
        for (int i = 0; i < n; i++) {
            KeyId form = oriented(normal->keys, other, &xs[i], 1, &ys[i], 1);
            bool seen = false;
            for (uint32_t j = base; j < normal->n_scratch && !seen; j++) seen = normal->scratch[j] == form;
            if (!seen) push_scratch(normal, form);
        }
    }
    uint32_t at = keep_span(normal, normal->scratch + base, normal->n_scratch - base);
    normal->n_scratch = base;
    memo_set(&normal->forms, atom, at + 1);
    return normal->spans[at];
}

/* every (X, Y) of equal value such that the atom is X-Y or Y-X, over all its forms */
Span atom_sides(Normal *normal, KeyId atom) {
    uint32_t known = memo_get(&normal->sides, atom);
    if (known) return normal->spans[known - 1];
    Span forms = atom_forms(normal, atom);
    uint32_t base = normal->n_scratch;
    for (uint32_t f = 0; f < forms.n; f++) {
        KeyId xs[MAX_SIDES], ys[MAX_SIDES];
        int count = two_sides(normal, span_keys(normal, forms)[f], xs, ys);
        for (int i = 0; i < count; i++)
            for (int turn = 0; turn < 2; turn++) {
                KeyId x = turn ? ys[i] : xs[i], y = turn ? xs[i] : ys[i];
                bool seen = false;
                for (uint32_t j = base; j < normal->n_scratch && !seen; j += 2)
                    seen = normal->scratch[j] == x && normal->scratch[j + 1] == y;
                if (seen) continue;
                push_scratch(normal, x);
                push_scratch(normal, y);
            }
    }
    uint32_t at = keep_span(normal, normal->scratch + base, normal->n_scratch - base);
    normal->n_scratch = base;
    memo_set(&normal->sides, atom, at + 1);
    return normal->spans[at];
}

/* (ones, zeros) one form of a zero falls into, reduced like any other part */
static Lifted pieces(Normal *normal, KeyId form) {
    Keys *keys = normal->keys;
    int kind = key_at(keys, form)->kind;
    Item items[MAX_ITEMS];
    int n = items_of(keys, kind, form, items);
    Lifted lifted = reduce_group(normal, kind, items, n, NO_KEY);
    KeyId core = lifted.core;
    if (core != NO_KEY) {  /* what a pair keeps: itself a pair, or a part worth one */
        const Key *k = key_at(keys, core);
        bool pair = k->kind == PRODUCT && k->n_up && k->n_down;
        KeyId *to = pair ? lifted.zeros : lifted.ones;
        int *count = pair ? &lifted.n_zeros : &lifted.n_ones;
        if (*count == MAX_LIFTED) fail(FAIL_INTERNAL);
        to[(*count)++] = core;
    }
    return lifted;
}

static void keep_split(Normal *normal, KeyId zero, const KeyId *ones, int n_ones,
                       const KeyId *atoms, int n_atoms) {
    uint32_t at = keep_span(normal, ones, n_ones);
    keep_span(normal, atoms, n_atoms);
    memo_set(&normal->splits, zero, at + 1);
}

/* (ones, atoms) a free part worth zero falls into, each atom in its least form */
void split_zero(Normal *normal, KeyId zero, Span *ones, Span *atoms) {
    uint32_t known = memo_get(&normal->splits, zero);
    if (!known) {
        Span found = atom_forms(normal, zero);
        if (found.n > 4096) fail(FAIL_INTERNAL);
        KeyId forms[4096];
        memcpy(forms, span_keys(normal, found), found.n * sizeof(KeyId));
        sort_keys(normal->keys, forms, (int)found.n);
        bool done = false;
        for (uint32_t f = 0; f < found.n && !done; f++) {
            if (!is_group(normal->keys, forms[f])) continue;
            Lifted piece = pieces(normal, forms[f]);
            if (!piece.n_zeros || (piece.n_zeros == 1 && !piece.n_ones)) continue;
            KeyId out_ones[MAX_LIFTED * MAX_LIFTED], out_atoms[MAX_LIFTED * MAX_LIFTED];
            int n_ones = piece.n_ones, n_atoms = 0;
            memcpy(out_ones, piece.ones, n_ones * sizeof(KeyId));
            for (int z = 0; z < piece.n_zeros; z++) {
                Span more_ones, more_atoms;
                split_zero(normal, piece.zeros[z], &more_ones, &more_atoms);
                memcpy(out_ones + n_ones, span_keys(normal, more_ones), more_ones.n * sizeof(KeyId));
                memcpy(out_atoms + n_atoms, span_keys(normal, more_atoms), more_atoms.n * sizeof(KeyId));
                n_ones += more_ones.n, n_atoms += more_atoms.n;
            }
            keep_split(normal, zero, out_ones, n_ones, out_atoms, n_atoms);
            done = true;
        }
        if (!done) keep_split(normal, zero, NULL, 0, &forms[0], 1);  /* the least form */
        known = memo_get(&normal->splits, zero);
    }
    *ones = normal->spans[known - 1];
    *atoms = normal->spans[known];
}

/* (ones, atoms) of a part worth zero, split only where its terms regroup (rule 2) */
void literal_atoms(Normal *normal, KeyId zero, Span *ones, Span *atoms) {
    uint32_t known = memo_get(&normal->literal, zero);
    if (!known) {
        Keys *keys = normal->keys;
        if (key_at(keys, zero)->kind == SUM) {
            Item items[MAX_ITEMS];
            int n = items_of(keys, SUM, zero, items);
            Lifted lifted = reduce_group(normal, SUM, items, n, NO_KEY);
            known = keep_span(normal, lifted.ones, lifted.n_ones) + 1;
            keep_span(normal, lifted.zeros, lifted.n_zeros);
        } else {
            known = keep_span(normal, NULL, 0) + 1;
            keep_span(normal, &zero, 1);
        }
        memo_set(&normal->literal, zero, known);
    }
    *ones = normal->spans[known - 1];
    *atoms = normal->spans[known];
}
