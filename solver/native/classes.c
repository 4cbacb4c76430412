/* The classes of a hand's keys (solver/normal/canonical.py): keys whose reductions are linked
 * by swaps are one solution. A swap puts a part of the core in place of an equal part of the
 * bag (or of another zero the numbers make) and lifts the part it displaced. */
#include <stdlib.h>
#include <string.h>

#include "normal.h"

void normal_init(Normal *normal, Keys *keys) {
    memset(normal, 0, sizeof *normal);
    normal->keys = keys;
}

void normal_free(Normal *normal) {
    KeyMemo *memos[] = {&normal->reduced, &normal->forms, &normal->sides, &normal->splits,
                        &normal->literal, &normal->part_memo, &normal->node_memo};
    for (size_t i = 0; i < sizeof memos / sizeof *memos; i++) free(memos[i]->at);
    for (uint32_t i = 0; i < normal->n_pools; i++) {
        free(normal->pools[i].value);
        free(normal->pools[i].keys);
    }
    free(normal->lifted);
    free(normal->spans);
    free(normal->lists.id);
    free(normal->part_lists);
    free(normal->parts);
    free(normal->steps);
    free(normal->step_keys);
    qmap_free(&normal->pool_index);
    free(normal->pools);
    free(normal->mark);
    free(normal->found);
    free(normal->scratch);
    States *st = &normal->states;
    free(st->state), free(st->parent), free(st->seen), free(st->known), free(st->table);
    free(st->met), free(st->todo), free(st->starts), free(st->number);
    memset(normal, 0, sizeof *normal);
}

/* ---- states ---- */

static bool empty_bag(State s) { return s.one == NO_KEY && s.zero == NO_KEY && s.pool == 0; }

/* the reduction of a core, with more lifted parts added to its bag */
static State state_of(Normal *normal, KeyId core, const KeyId *ones, int n_ones,
                      const KeyId *zeros, int n_zeros, Counts pool) {
    if (core == NO_KEY) {
        Bag bag = bag_of(normal, ones, n_ones, zeros, n_zeros, pool, false);
        return (State){NO_KEY, bag.one, bag.zero, bag.pool};
    }
    Lifted lifted = reduce(normal, core);
    if (lifted.n_ones + n_ones > MAX_LIFTED || lifted.n_zeros + n_zeros > MAX_LIFTED)
        fail(FAIL_INTERNAL);
    memcpy(lifted.ones + lifted.n_ones, ones, n_ones * sizeof(KeyId));
    memcpy(lifted.zeros + lifted.n_zeros, zeros, n_zeros * sizeof(KeyId));
    Bag bag = bag_of(normal, lifted.ones, lifted.n_ones + n_ones, lifted.zeros,
                     lifted.n_zeros + n_zeros, lifted.pool + pool, lifted.core != NO_KEY);
    return (State){lifted.core, bag.one, bag.zero, bag.pool};
}

State first_reduction(Normal *normal, KeyId key) { return state_of(normal, key, NULL, 0, NULL, 0, 0); }

static uint32_t state_hash(State s) {
    uint64_t h = (uint64_t)s.core * 0x9E3779B97F4A7C15ull ^ (uint64_t)s.one * 0xC2B2AE3D27D4EB4Full;
    h ^= ((uint64_t)s.zero << 32 | s.pool) * 0x165667B19E3779F9ull;
    return (uint32_t)(h ^ h >> 32);
}

static bool same_state(State a, State b) {
    return a.core == b.core && a.one == b.one && a.zero == b.zero && a.pool == b.pool;
}

static void grow_states(States *s) {
    uint32_t cap = s->table_cap ? s->table_cap * 2 : 256;
    uint32_t *table = checked_realloc(NULL, cap * sizeof *table);
    memset(table, 0, cap * sizeof *table);
    for (uint32_t id = 0; id < s->n; id++) {
        uint32_t i = state_hash(s->state[id]) & (cap - 1);
        while (table[i]) i = (i + 1) & (cap - 1);
        table[i] = id + 1;
    }
    free(s->table);
    s->table = table, s->table_cap = cap;
}

static uint32_t intern_state(States *s, State state) {
    if (2 * (s->n + 1) > s->table_cap) grow_states(s);
    uint32_t i = state_hash(state) & (s->table_cap - 1);
    for (; s->table[i]; i = (i + 1) & (s->table_cap - 1))
        if (same_state(s->state[s->table[i] - 1], state)) return s->table[i] - 1;
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 1024;
        s->state = checked_realloc(s->state, cap * sizeof *s->state);
        s->parent = checked_realloc(s->parent, cap * sizeof *s->parent);
        s->seen = checked_realloc(s->seen, cap * sizeof *s->seen);
        s->known = checked_realloc(s->known, cap * sizeof *s->known);
        s->cap = cap;
    }
    s->state[s->n] = state;
    s->parent[s->n] = s->n;
    s->seen[s->n] = 0;
    s->known[s->n] = false;
    s->table[i] = s->n + 1;
    return s->n++;
}

static uint32_t find(States *s, uint32_t id) {
    while (s->parent[id] != id) id = s->parent[id] = s->parent[s->parent[id]];
    return id;
}

/* ---- swaps: from one reduction to the others ---- */

typedef struct {
    Normal *normal;
    States *states;
} Explore;

/* a state one swap reaches: met once per exploration, explored if no earlier one met it */
static void reach(Explore *x, State state) {
    States *s = x->states;
    uint32_t id = intern_state(s, state);
    if (s->seen[id] == s->exploration) return;
    s->seen[id] = s->exploration;
    GROW(s->met, s->cap_met, s->n_met + 1);
    s->met[s->n_met++] = id;
    if (!s->known[id]) {
        GROW(s->todo, s->cap_todo, s->n_todo + 1);
        s->todo[s->n_todo++] = id;
    }
}

static void reach_with(Explore *x, KeyId core, KeyId one, KeyId zero, Counts pool) {
    reach(x, state_of(x->normal, core, &one, one != NO_KEY, &zero, zero != NO_KEY, pool));
}

/* a zero sum read the other way round: -Z is Z (its sides swapped, value still 0) */
static KeyId flipped(Keys *keys, KeyId form) {
    const Key *k = key_at(keys, form);
    KeyId plus[MAX_NUMBERS], minus[MAX_NUMBERS];
    int n_plus = k->n_up, n_minus = k->n_down;
    memcpy(plus, ups(keys, form), n_plus * sizeof(KeyId));
    memcpy(minus, downs(keys, form), n_minus * sizeof(KeyId));
    return make_raw(keys, SUM, q_int(0), minus, n_minus, plus, n_plus);
}

/* what beside() found: a group worth a wanted total, taken from a node and a lifted part */
typedef void (*Beside)(Explore *x, int kind, Part node, const Item *picked, int n_picked,
                       const Item *rest, int n_rest, void *context);

/* a lifted part (form) put back beside each node of the core, as terms or factors; then every
 * group worth one of the wanted totals taking from both the node and the lifted part */
static void beside(Explore *x, KeyId core, int kind, KeyId form, const Q *wanted, int n_wanted,
                   Beside found, void *context) {
    Normal *normal = x->normal;
    Keys *keys = normal->keys;
    Item lifted[MAX_ITEMS];
    int m = items_of(keys, kind, form, lifted);
    Q lifted_totals[1 << MAX_NUMBERS];
    lifted_totals[0] = unit_of(kind);
    for (uint32_t mask = 1; mask < (1u << m); mask++) {
        int low = __builtin_ctz(mask);
        Q v = value_of(keys, lifted[low].key), t = lifted_totals[mask & (mask - 1)];
        lifted_totals[mask] = lifted[low].inverse ? uncombine(kind, t, v) : combine(kind, t, v);
    }
    Parts nodes = nodes_of(normal, core);
    for (uint32_t p = 0; p < nodes.n; p++) {
        Part node = normal->parts[nodes.start + p];
        Item items[MAX_ITEMS];
        int n = items_of(keys, kind, node.key, items);
        Q totals[1 << MAX_NUMBERS];
        totals[0] = unit_of(kind);
        for (uint32_t mask = 1; mask < (1u << n); mask++) {
            int low = __builtin_ctz(mask);
            Q v = value_of(keys, items[low].key), t = totals[mask & (mask - 1)];
            totals[mask] = items[low].inverse ? uncombine(kind, t, v) : combine(kind, t, v);
            for (int w = 0; w < n_wanted; w++) {
                Q need = uncombine(kind, wanted[w], totals[mask]);
                for (uint32_t lm = 1; lm < (1u << m); lm++) {
                    if (!q_eq(lifted_totals[lm], need)) continue;
                    if (mask == (1u << n) - 1 && lm == (1u << m) - 1) continue;  /* nothing left */
                    Item picked[MAX_ITEMS], rest[MAX_ITEMS];
                    int n_picked = masked(items, n, mask, picked);
                    n_picked += masked(lifted, m, lm, picked + n_picked);
                    int n_rest = masked(items, n, ~mask, rest);
                    n_rest += masked(lifted, m, ~lm, rest + n_rest);
                    found(x, kind, node, picked, n_picked, rest, n_rest, context);
                }
            }
        }
    }
}

static void relift(Explore *x, int kind, Part node, const Item *picked, int n_picked,
                   const Item *rest, int n_rest, void *context) {
    (void)context;
    Normal *normal = x->normal;
    KeyId up[MAX_ITEMS], down[MAX_ITEMS];
    int n_up, n_down;
    split(rest, n_rest, up, &n_up, down, &n_down);
    if (kind == PRODUCT && !n_up) return;  /* nothing left multiplied to lift the group from */
    Lifted lifted = lifted_unit(normal, kind, picked, n_picked);
    KeyId core = rebuild(normal, node.step, make(normal->keys, kind, up, n_up, down, n_down));
    reach(x, state_of(normal, core, lifted.ones, lifted.n_ones, lifted.zeros, lifted.n_zeros, 0));
}

/* another group worth the unit lifted from a node of the core and a lifted part put
 * together: 2*5/(2*(2-6/4)) is 2*5*(2*(2-6/4)) with the one 2*(2-6/4) lifted (rules 4, 5) */
static void relifts_beside(Explore *x, KeyId core, int kind, KeyId form) {
    Q unit = unit_of(kind);
    beside(x, core, kind, form, &unit, 1, relift, NULL);
}

/* the same for each form of a zero atom, where it goes: a sum among terms (either way round:
 * -Z is Z), a pair among factors */
static void relifts_beside_zero(Explore *x, KeyId core, KeyId atom) {
    Normal *normal = x->normal;
    Span forms = atom_forms(normal, atom);
    for (uint32_t i = 0; i < forms.n; i++) {
        KeyId form = span_keys(normal, forms)[i];
        int kind = key_at(normal->keys, form)->kind;
        if (kind == SUM) {
            relifts_beside(x, core, SUM, form);
            relifts_beside(x, core, SUM, flipped(normal->keys, form));
        } else if (kind == PRODUCT) {
            relifts_beside(x, core, PRODUCT, form);
        }
    }
}

/* swaps with a zero that nothing else holds: it can be put anywhere (rule 4) */
static void free_zero_swaps(Explore *x, KeyId core, KeyId zero) {
    Normal *normal = x->normal;
    Span sides = atom_sides(normal, zero);
    Parts in_core = parts_of(normal, core);
    for (uint32_t i = 0; i < sides.n; i += 2) {  /* rule 5: (X-Y)+(...u...), u = X: u-Y is zero */
        KeyId side_x = span_keys(normal, sides)[i], side_y = span_keys(normal, sides)[i + 1];
        Parts equal = parts_worth(normal, in_core, value_of(normal->keys, side_x));
        for (uint32_t p = 0; p < equal.n; p++) {
            Part part = normal->parts[equal.start + p];
            if (part.key == side_x) continue;
            reach_with(x, rebuild(normal, part.step, side_x), NO_KEY,
                       zero_of(normal, part.key, side_y), 0);
        }
    }
    Span forms = atom_forms(normal, zero);  /* rule 5: ...or the one X/Y, and u is lifted */
    Parts ones = parts_worth(normal, in_core, q_int(1));
    for (uint32_t f = 0; f < forms.n; f++) {
        KeyId pair = span_keys(normal, forms)[f];
        if (key_at(normal->keys, pair)->kind != PRODUCT) continue;
        for (uint32_t p = 0; p < ones.n; p++) {
            Part part = normal->parts[ones.start + p];
            reach_with(x, rebuild(normal, part.step, pair), part.key, NO_KEY, 0);
        }
    }
    relifts_beside_zero(x, core, zero);
}

/* the plain keys worth one that some numbers make */
static int plain_ones(Normal *normal, Counts pool, KeyId *out, int cap) {
    Span ones = pool_keys_worth(normal, pool, q_int(1));
    int n = 0;
    for (uint32_t i = 0; i < ones.n; i++) {
        KeyId one = normal->lists.id[ones.start + i];
        if (!is_plain(normal, one)) continue;
        if (n == cap) fail(FAIL_INTERNAL);
        out[n++] = one;
    }
    return n;
}

typedef struct {
    const KeyId *ones;
    int n_ones;
} SwapOne;

static void swap_one_beside(Explore *x, int kind, Part node, const Item *picked, int n_picked,
                            const Item *rest, int n_rest, void *context) {
    (void)kind;
    const SwapOne *with = context;
    Normal *normal = x->normal;
    Keys *keys = normal->keys;
    bool plus = q_eq(total_of(keys, SUM, picked, n_picked), q_int(1));
    KeyId p_up[MAX_ITEMS], p_down[MAX_ITEMS], r_up[MAX_ITEMS + 1], r_down[MAX_ITEMS + 1];
    int n_pu, n_pd, n_ru, n_rd;
    split(picked, n_picked, p_up, &n_pu, p_down, &n_pd);
    split(rest, n_rest, r_up, &n_ru, r_down, &n_rd);
    KeyId taken = plus ? make(keys, SUM, p_up, n_pu, p_down, n_pd)
                       : make(keys, SUM, p_down, n_pd, p_up, n_pu);
    for (int i = 0; i < with->n_ones; i++) {
        KeyId new_part;
        if (plus) {
            r_up[n_ru] = with->ones[i];
            new_part = make(keys, SUM, r_up, n_ru + 1, r_down, n_rd);
        } else {
            r_down[n_rd] = with->ones[i];
            new_part = make(keys, SUM, r_up, n_ru, r_down, n_rd + 1);
        }
        reach_with(x, rebuild(normal, node.step, new_part), taken, NO_KEY, 0);
    }
}

/* a one the numbers make swapped with a group worth one taken from the core and the zero put
 * together: (5+5)*(2-1)+(4-4) is (5+4+(2-1))*(5-4) (rule 4) */
static void swaps_beside(Explore *x, KeyId core, KeyId atom, Counts pool) {
    KeyId ones[4096];
    SwapOne with = {ones, plain_ones(x->normal, pool, ones, 4096)};
    Q wanted[2] = {q_int(1), q_int(-1)};
    Span forms = atom_forms(x->normal, atom);
    for (uint32_t i = 0; i < forms.n; i++) {
        KeyId form = span_keys(x->normal, forms)[i];
        if (key_at(x->normal->keys, form)->kind != SUM) continue;
        beside(x, core, SUM, form, wanted, 2, swap_one_beside, &with);
        beside(x, core, SUM, flipped(x->normal->keys, form), wanted, 2, swap_one_beside, &with);
    }
}

/* the numbers make a one O, so the zero is free beside it: a side of the zero swapped with an
 * equal part of O. (2+4-6)*(6-5) is (6-6)*(2+4-5) (rule 5) */
static void swaps_with_one(Explore *x, KeyId core, KeyId atom, Counts pool) {
    Normal *normal = x->normal;
    KeyId ones[4096];
    int n_ones = plain_ones(normal, pool, ones, 4096);
    Span sides = atom_sides(normal, atom);
    for (int o = 0; o < n_ones; o++) {
        Parts in_one = parts_of(normal, ones[o]);
        for (uint32_t i = 0; i < sides.n; i += 2) {
            KeyId side_x = span_keys(normal, sides)[i], side_y = span_keys(normal, sides)[i + 1];
            Parts equal = parts_worth(normal, in_one, value_of(normal->keys, side_x));
            for (uint32_t p = 0; p < equal.n; p++) {
                Part part = normal->parts[equal.start + p];
                if (part.key == side_x) continue;
                reach_with(x, core, rebuild(normal, part.step, side_x),
                           zero_of(normal, part.key, side_y), 0);
            }
        }
    }
}

static bool next_sub_pool(const Keys *keys, Counts pool, Counts *sub) {
    for (int i = 0; i < keys->hand->distinct; i++) {
        if (count_at(*sub, i) < count_at(pool, i)) {
            *sub += (Counts)1 << (4 * i);
            return true;
        }
        *sub -= (Counts)count_at(*sub, i) << (4 * i);
    }
    return false;
}

/* rule 4: Z*(Z'*A) is Z'*(Z*A): a zero the numbers make takes the atom's place */
static void zeros_within(Explore *x, KeyId core, KeyId atom, Counts pool) {
    Normal *normal = x->normal;
    Counts used = 0;
    while (next_sub_pool(normal->keys, pool, &used)) {
        Span zeros = pool_keys_worth(normal, used, q_int(0));
        for (uint32_t i = 0; i < zeros.n; i++) {
            Lifted lifted = reduce(normal, normal->lists.id[zeros.start + i]);
            Bag bag = bag_of(normal, lifted.ones, lifted.n_ones, lifted.zeros, lifted.n_zeros,
                             lifted.pool, true);
            if (bag.zero != NO_KEY && !bag.pool)
                reach_with(x, core, NO_KEY, bag.zero,
                           pool - used + key_at(normal->keys, atom)->counts);
        }
    }
}

static bool has_part_worth(Normal *normal, Parts parts, Q value) {
    return parts_worth(normal, parts, value).n > 0;
}

/* the numbers make a value that a part of the core or of the zero is worth: one swapped for
 * the other (a pair needs both of its parts among the numbers) */
static void makes_within(Explore *x, KeyId core, KeyId atom, Counts pool) {
    Normal *normal = x->normal;
    Parts in_core = core == NO_KEY ? (Parts){0, 0} : parts_of(normal, core);
    Parts in_zero = parts_of(normal, atom);
    Counts used = 0;
    while (next_sub_pool(normal->keys, pool, &used)) {
        uint32_t n_values = pool_keys(normal, used)->n;
        for (uint32_t v = 0; v < n_values; v++) {
            const PoolKeys *made = pool_keys(normal, used);
            Q value = made->value[v];
            Span keys = made->keys[v];
            if (!has_part_worth(normal, in_core, value) && !has_part_worth(normal, in_zero, value))
                continue;
            KeyId plain[4096];
            int n_plain = 0;
            for (uint32_t i = 0; i < keys.n; i++) {
                KeyId k = normal->lists.id[keys.start + i];
                if (is_plain(normal, k)) {
                    if (n_plain == 4096) fail(FAIL_INTERNAL);
                    plain[n_plain++] = k;
                }
            }
            Counts rest = pool - used;
            if (!n_plain || (!q_eq(value, q_int(1)) && !pool_makes(normal, rest, value))) continue;
            Parts equal = parts_worth(normal, in_core, value);
            for (uint32_t p = 0; p < equal.n; p++) {
                Part part = normal->parts[equal.start + p];
                Counts back = rest + key_at(normal->keys, part.key)->counts;
                for (int i = 0; i < n_plain; i++)
                    if (plain[i] != part.key)
                        reach_with(x, rebuild(normal, part.step, plain[i]), NO_KEY, atom, back);
            }
            equal = parts_worth(normal, in_zero, value);
            for (uint32_t p = 0; p < equal.n; p++) {
                Part part = normal->parts[equal.start + p];
                if (part.key == atom) continue;
                Counts back = rest + key_at(normal->keys, part.key)->counts;
                for (int i = 0; i < n_plain; i++)
                    if (plain[i] != part.key)
                        reach_with(x, core, NO_KEY, rebuild(normal, part.step, plain[i]), back);
            }
        }
    }
}

/* swaps through a zero times some numbers: the numbers can make another zero, a one, or a
 * pair of equal parts; each can be lifted out of the product (rules 4 and 5) and swapped */
static void pool_swaps(Explore *x, KeyId core, KeyId atom, Counts pool) {
    Normal *normal = x->normal;
    if (counts_size(pool) > POOL_LIMIT) return;
    zeros_within(x, core, atom, pool);
    makes_within(x, core, atom, pool);
    if (core == NO_KEY || !frees(normal, pool, true)) return;
    Span sides = atom_sides(normal, atom);  /* the zero is free: swap its sides too */
    Parts in_core = parts_of(normal, core);
    for (uint32_t i = 0; i < sides.n; i += 2) {
        KeyId side_x = span_keys(normal, sides)[i], side_y = span_keys(normal, sides)[i + 1];
        Parts equal = parts_worth(normal, in_core, value_of(normal->keys, side_x));
        for (uint32_t p = 0; p < equal.n; p++) {
            Part part = normal->parts[equal.start + p];
            if (part.key == side_x) continue;
            reach_with(x, rebuild(normal, part.step, side_x), NO_KEY,
                       zero_of(normal, part.key, side_y), pool);
        }
    }
    if (!pool_makes(normal, pool, q_int(1))) return;
    swaps_beside(x, core, atom, pool);
    swaps_with_one(x, core, atom, pool);
    /* the numbers make a one O and the atom has a form X/Y: O-X/Y is a zero of the whole bag */
    KeyId ones[4096];
    int n_ones = plain_ones(normal, pool, ones, 4096);
    Span forms = atom_forms(normal, atom);
    for (int o = 0; o < n_ones; o++)
        for (uint32_t f = 0; f < forms.n; f++) {
            KeyId pair = span_keys(normal, forms)[f];
            if (key_at(normal->keys, pair)->kind == PRODUCT)
                free_zero_swaps(x, core, zero_of(normal, ones[o], pair));
        }
}

static void swaps(Explore *x, State state) {
    Normal *normal = x->normal;
    if (state.one != NO_KEY && state.core != NO_KEY) {
        /* rule 4: O*(...u...) with u worth one: either is lifted */
        Parts ones = parts_worth(normal, parts_of(normal, state.core), q_int(1));
        for (uint32_t p = 0; p < ones.n; p++) {
            Part part = normal->parts[ones.start + p];
            reach_with(x, rebuild(normal, part.step, state.one), part.key, NO_KEY, 0);
        }
        relifts_beside(x, state.core, PRODUCT, state.one);
    }
    if (state.zero != NO_KEY && !state.pool && state.core != NO_KEY)
        free_zero_swaps(x, state.core, state.zero);
    if (state.pool) pool_swaps(x, state.core, state.zero, state.pool);
}

/* ---- the classes ---- */

static void explore(Explore *x, uint32_t start) {
    States *s = x->states;
    s->exploration++;
    s->n_met = s->n_todo = 0;
    s->seen[start] = s->exploration;
    GROW(s->todo, s->cap_todo, 1);
    s->todo[s->n_todo++] = start;
    while (s->n_todo) swaps(x, s->state[s->todo[--s->n_todo]]);
    for (uint32_t i = 0; i < s->n_met; i++) {  /* only now: Python adds them to `parent` after */
        uint32_t id = s->met[i];
        s->known[id] = true;
        s->parent[find(s, id)] = find(s, start);
    }
}

void solution_classes(Normal *normal, const KeyId *keys, uint32_t n, uint32_t *classes) {
    States *s = &normal->states;
    Explore x = {normal, s};
    s->starts = checked_realloc(s->starts, (n + 1) * sizeof *s->starts);
    for (uint32_t i = 0; i < n; i++) s->starts[i] = intern_state(s, first_reduction(normal, keys[i]));
    for (uint32_t i = 0; i < n; i++) {
        uint32_t start = s->starts[i];
        if (s->known[start]) continue;
        s->known[start] = true;
        if (!empty_bag(s->state[start])) explore(&x, start);
    }
    /* classes numbered in the order their first key comes */
    s->number = checked_realloc(s->number, (s->n + 1) * sizeof *s->number);
    memset(s->number, 0xff, (s->n + 1) * sizeof *s->number);
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t root = find(s, s->starts[i]);
        if (s->number[root] == UINT32_MAX) s->number[root] = count++;
        classes[i] = s->number[root];
    }
}
