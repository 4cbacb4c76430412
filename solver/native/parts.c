/* Parts of a key and how to put another part of the same value in a part's place
 * (solver/normal/canonical.py: parts, nodes). Python keeps a closure per part; here a part
 * keeps a chain of Steps, the innermost applied first. */
#include <stdlib.h>
#include <string.h>

#include "normal.h"

void push_found(Normal *normal, Q value, KeyId key, uint32_t step) {
    GROW(normal->found, normal->cap_found, normal->n_found + 1);
    normal->found[normal->n_found++] = (Valued){value, key, step};
}

void push_scratch(Normal *normal, KeyId key) {
    GROW(normal->scratch, normal->cap_scratch, normal->n_scratch + 1);
    normal->scratch[normal->n_scratch++] = key;
}

uint32_t add_step(Normal *normal, int kind, const Item *rest, int n, bool inverse, uint32_t inner) {
    if (normal->n_steps == 0) {  /* step 0 stands for "no step" */
        GROW(normal->steps, normal->cap_steps, 1);
        normal->steps[normal->n_steps++] = (Step){0};
    }
    KeyId up[MAX_ITEMS], down[MAX_ITEMS];
    int n_up, n_down;
    split(rest, n, up, &n_up, down, &n_down);
    GROW(normal->step_keys, normal->cap_step_keys, normal->n_step_keys + n);
    uint32_t at = normal->n_step_keys;
    memcpy(normal->step_keys + at, up, n_up * sizeof(KeyId));
    memcpy(normal->step_keys + at + n_up, down, n_down * sizeof(KeyId));
    normal->n_step_keys += n;
    GROW(normal->steps, normal->cap_steps, normal->n_steps + 1);
    normal->steps[normal->n_steps] = (Step){inner, at, (uint8_t)kind, inverse, (uint8_t)n_up,
                                            (uint8_t)n_down};
    return normal->n_steps++;
}

/* the new part put beside the rest of each node on the way up */
KeyId rebuild(Normal *normal, uint32_t step, KeyId new_part) {
    if (step == 0) return new_part;
    KeyId inner = rebuild(normal, normal->steps[step].inner, new_part);
    Step s = normal->steps[step];
    KeyId up[MAX_ITEMS], down[MAX_ITEMS];
    memcpy(up, normal->step_keys + s.rest, s.n_up * sizeof(KeyId));
    memcpy(down, normal->step_keys + s.rest + s.n_up, s.n_down * sizeof(KeyId));
    int n_up = s.n_up, n_down = s.n_down;
    if (s.inverse) down[n_down++] = inner;
    else up[n_up++] = inner;
    return make(normal->keys, s.kind, up, n_up, down, n_down);
}

static void found_part(Normal *normal, KeyId key, uint32_t step) {
    push_found(normal, value_of(normal->keys, key), key, step);
}

static int cmp_parts(const void *a, const void *b) {
    const Valued *x = a, *y = b;
    int c = q_cmp(x->value, y->value);
    if (c) return c;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->step > y->step) - (x->step < y->step);
}

/* keep the parts found since base (sorted by value if asked) for the key */
static uint32_t keep_parts(Normal *normal, KeyMemo *memo, KeyId key, uint32_t base, bool sort) {
    Valued *found = normal->found + base;
    uint32_t n = normal->n_found - base;
    if (sort) qsort(found, n, sizeof(Valued), cmp_parts);
    GROW(normal->parts, normal->cap_parts, normal->n_parts + n);
    for (uint32_t i = 0; i < n; i++) normal->parts[normal->n_parts + i] = (Part){found[i].key, found[i].step};
    GROW(normal->part_lists, normal->cap_part_lists, normal->n_part_lists + 1);
    normal->part_lists[normal->n_part_lists++] = (Parts){normal->n_parts, n};
    normal->n_parts += n;
    normal->n_found = base;
    memo_set(memo, key, normal->n_part_lists);
    return normal->n_part_lists - 1;
}

/* every part of a key, the key itself first: each group of its terms (factors) as it stands
 * or turned round, and the parts of each term, sorted by value */
Parts parts_of(Normal *normal, KeyId key) {
    uint32_t known = memo_get(&normal->part_memo, key);
    if (known) return normal->part_lists[known - 1];
    Keys *keys = normal->keys;
    uint32_t base = normal->n_found;
    found_part(normal, key, 0);
    if (is_group(keys, key)) {
        int kind = key_at(keys, key)->kind;
        Item items[MAX_ITEMS], picked[MAX_ITEMS], rest[MAX_ITEMS];
        int n = items_of(keys, kind, key, items);
        for (uint32_t mask = 1; mask < (1u << n) - 1; mask++) {
            if (!first_of_runs(items, n, mask)) continue;
            int n_picked = masked(items, n, mask, picked), n_rest = masked(items, n, ~mask, rest);
            KeyId up[MAX_ITEMS], down[MAX_ITEMS];
            int n_up, n_down;
            split(picked, n_picked, up, &n_up, down, &n_down);
            int sign = kind == SUM ? q_cmp(total_of(keys, SUM, picked, n_picked), q_int(0)) : 0;
            if (kind == SUM ? sign > 0 : n_up > 0)  /* the group as it stands */
                found_part(normal, make(keys, kind, up, n_up, down, n_down),
                           add_step(normal, kind, rest, n_rest, false, 0));
            if (kind == SUM ? sign < 0 : n_down > 0)  /* the group subtracted (divided) */
                found_part(normal, make(keys, kind, down, n_down, up, n_up),
                           add_step(normal, kind, rest, n_rest, true, 0));
            if (n_picked != 1) continue;
            Parts inner = parts_of(normal, picked[0].key);
            for (uint32_t i = 0; i < inner.n; i++) {
                Part p = normal->parts[inner.start + i];
                if (p.key == picked[0].key) continue;
                found_part(normal, p.key,
                           add_step(normal, kind, rest, n_rest, picked[0].inverse, p.step));
            }
        }
    }
    uint32_t at = keep_parts(normal, &normal->part_memo, key, base, true);
    return normal->part_lists[at];
}

/* the parts of a key that are nodes of it (no group taken out of a node) */
Parts nodes_of(Normal *normal, KeyId key) {
    uint32_t known = memo_get(&normal->node_memo, key);
    if (known) return normal->part_lists[known - 1];
    Keys *keys = normal->keys;
    uint32_t base = normal->n_found;
    found_part(normal, key, 0);
    if (is_group(keys, key)) {
        int kind = key_at(keys, key)->kind;
        Item items[MAX_ITEMS], rest[MAX_ITEMS];
        int n = items_of(keys, kind, key, items);
        for (int i = 0; i < n; i++) {
            int n_rest = masked(items, n, ~(1u << i), rest);
            Parts inner = nodes_of(normal, items[i].key);
            for (uint32_t j = 0; j < inner.n; j++) {
                Part p = normal->parts[inner.start + j];
                found_part(normal, p.key,
                           add_step(normal, kind, rest, n_rest, items[i].inverse, p.step));
            }
        }
    }
    uint32_t at = keep_parts(normal, &normal->node_memo, key, base, false);
    return normal->part_lists[at];
}

/* the parts worth a value (parts sorted by value) */
Parts parts_worth(Normal *normal, Parts parts, Q value) {
    uint32_t lo = 0, hi = parts.n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (q_cmp(value_of(normal->keys, normal->parts[parts.start + mid].key), value) < 0) lo = mid + 1;
        else hi = mid;
    }
    uint32_t end = lo;
    while (end < parts.n && q_eq(value_of(normal->keys, normal->parts[parts.start + end].key), value))
        end++;
    return (Parts){parts.start + lo, end - lo};
}
