/* Value sets and the per-thread cache of small ones (see values.h). */
#include <stdlib.h>
#include <string.h>

#include "values.h"

ValueSet *value_set_new(void) {
    ValueSet *set = checked_realloc(NULL, sizeof *set);
    memset(set, 0, sizeof *set);
    return set;
}

void value_set_free(ValueSet *set) {
    if (set == NULL) return;
    free(set->value);
    free(set->slot);
    free(set->ascending);
    free(set);
}

/* the slot of v, or the empty one where it goes */
static Q *slot_for(Q *slot, uint32_t cap, Q v) {
    uint32_t mask = cap - 1, i = (uint32_t)q_hash(v) & mask;
    while (slot[i].den != 0 && !q_eq(slot[i], v)) i = (i + 1) & mask;
    return &slot[i];
}

static void grow_slots(ValueSet *set) {
    uint32_t cap = set->slot_cap ? set->slot_cap * 2 : 16;
    Q *slot = checked_realloc(NULL, cap * sizeof *slot);
    memset(slot, 0, cap * sizeof *slot);
    for (uint32_t i = 0; i < set->n; i++) *slot_for(slot, cap, set->value[i]) = set->value[i];
    free(set->slot);
    set->slot = slot, set->slot_cap = cap;
}

void add_value(ValueSet *set, Q v) {
    if (2 * (set->n + 1) > set->slot_cap) grow_slots(set);
    Q *at = slot_for(set->slot, set->slot_cap, v);
    if (at->den != 0) return;  /* there already */
    GROW(set->value, set->cap, set->n + 1);
    *at = v;
    uint64_t hash = q_hash(v);
    set->filter[filter_word(hash)] |= filter_bit(hash);
    set->value[set->n++] = v;
}

/* quicksort around the middle value, insertion sort for short runs */
static void sort_range(Q *v, uint32_t n) {
    while (n > 16) {
        Q pivot = v[n / 2];
        uint32_t i = 0, j = n - 1;
        for (;;) {
            while (q_cmp(v[i], pivot) < 0) i++;
            while (q_cmp(v[j], pivot) > 0) j--;
            if (i >= j) break;
            Q t = v[i];
            v[i++] = v[j], v[j--] = t;
        }
        sort_range(v, j + 1);
        v += j + 1, n -= j + 1;
    }
    for (uint32_t i = 1; i < n; i++) {
        Q x = v[i];
        uint32_t j = i;
        for (; j > 0 && q_cmp(v[j - 1], x) > 0; j--) v[j] = v[j - 1];
        v[j] = x;
    }
}

void sort_values(ValueSet *set) {
    if (!set->sorted) sort_range(set->value, set->n);
    set->sorted = true;
}

const Q *sorted_copy(ValueSet *set) {
    if (set->sorted) return set->value;
    if (set->ascending == NULL) {
        Q *copy = checked_realloc(NULL, (set->n ? set->n : 1) * sizeof *copy);
        memcpy(copy, set->value, set->n * sizeof *copy);
        sort_range(copy, set->n);
        set->ascending = copy;
    }
    return set->ascending;
}

/* ---- the cache ---- */

typedef struct {
    int64_t numbers[CACHED];
    int n;
    bool integer_only;
    ValueSet *set;  /* NULL: an empty slot */
} Entry;

static _Thread_local struct {
    Entry *entry;
    uint32_t cap, used;
    size_t values;
} cache;

static uint32_t slot_of(const int64_t *numbers, int n, bool integer_only, uint32_t cap) {
    uint64_t h = (uint64_t)n * 0x9E3779B97F4A7C15ull + integer_only;
    for (int i = 0; i < n; i++) h = (h ^ (uint64_t)numbers[i]) * 0x100000001B3ull;
    h ^= h >> 31;
    return (uint32_t)h & (cap - 1);
}

static bool same_entry(const Entry *e, const int64_t *numbers, int n, bool integer_only) {
    return e->n == n && e->integer_only == integer_only &&
           memcmp(e->numbers, numbers, n * sizeof *numbers) == 0;
}

ValueSet *cached_values(const int64_t *numbers, int n, bool integer_only) {
    if (cache.cap == 0) return NULL;
    for (uint32_t i = slot_of(numbers, n, integer_only, cache.cap); cache.entry[i].set;
         i = (i + 1) & (cache.cap - 1))
        if (same_entry(&cache.entry[i], numbers, n, integer_only)) return cache.entry[i].set;
    return NULL;
}

static void put_entry(Entry *entries, uint32_t cap, Entry e) {
    uint32_t i = slot_of(e.numbers, e.n, e.integer_only, cap);
    while (entries[i].set) i = (i + 1) & (cap - 1);
    entries[i] = e;
}

void cache_values(const int64_t *numbers, int n, bool integer_only, ValueSet *set) {
    if (2 * (cache.used + 1) > cache.cap) {
        uint32_t cap = cache.cap ? cache.cap * 2 : 256;
        Entry *entries = checked_realloc(NULL, cap * sizeof(Entry));
        memset(entries, 0, cap * sizeof(Entry));
        for (uint32_t i = 0; i < cache.cap; i++)
            if (cache.entry[i].set) put_entry(entries, cap, cache.entry[i]);
        free(cache.entry);
        cache.entry = entries, cache.cap = cap;
    }
    Entry e = {.n = n, .integer_only = integer_only, .set = set};
    memcpy(e.numbers, numbers, n * sizeof *numbers);
    put_entry(cache.entry, cache.cap, e);
    cache.used++;
    cache.values += set->n;
}

void trim_value_cache(void) {
    if (cache.values > CACHE_VALUES) clear_value_cache();
}

void clear_value_cache(void) {
    for (uint32_t i = 0; i < cache.cap; i++) value_set_free(cache.entry[i].set);
    if (cache.cap) memset(cache.entry, 0, cache.cap * sizeof(Entry));
    cache.used = 0, cache.values = 0;
}

void free_value_cache(void) {
    clear_value_cache();
    free(cache.entry);
    cache.entry = NULL, cache.cap = 0;
}
