/* The containers of Countdown's compiled search (see countdown_values.h). */

#include "countdown_values.h"

#include <string.h>

int vec_push(Vec *v, Value x) {
    if (v->len == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 16;
        Value *at = realloc(v->at, cap * sizeof *at);
        if (!at) {
            PyErr_NoMemory();
            return -1;
        }
        v->at = at;
        v->cap = cap;
    }
    v->at[v->len++] = x;
    return 0;
}

static int compare_values(const void *a, const void *b) {
    Value x = *(const Value *)a, y = *(const Value *)b;
    return (x > y) - (x < y);
}

void vec_sort_unique(Vec *v) {
    if (v->len < 2)
        return;
    qsort(v->at, v->len, sizeof *v->at, compare_values);
    size_t kept = 1;
    for (size_t i = 1; i < v->len; i++)
        if (v->at[i] != v->at[kept - 1])
            v->at[kept++] = v->at[i];
    v->len = kept;
}

void vec_sort(Vec *v) {
    qsort(v->at, v->len, sizeof *v->at, compare_values);
}

int set_init(Set *s, size_t expected) {
    size_t cap = 16;
    while (cap < 2 * expected)
        cap *= 2;
    s->slot = malloc(cap * sizeof *s->slot);
    if (!s->slot) {
        PyErr_NoMemory();
        return -1;
    }
    memset(s->slot, 0xff, cap * sizeof *s->slot);
    s->mask = cap - 1;
    s->list = (Vec){0};
    s->zero = 0;
    return 0;
}

void set_free(Set *s) {
    free(s->slot);
    free(s->list.at);
    memset(s, 0, sizeof *s);
}

int set_grow(Set *s) {
    size_t cap = 2 * (s->mask + 1);
    Value *slot = malloc(cap * sizeof *slot);
    if (!slot) {
        PyErr_NoMemory();
        return -1;
    }
    memset(slot, 0xff, cap * sizeof *slot);
    s->mask = cap - 1;
    for (size_t k = 0; k < s->list.len; k++) {
        Value v = s->list.at[k];
        size_t i = hash_value(v, s->mask);
        while (slot[i] >= 0)
            i = (i + 1) & s->mask;
        slot[i] = v;
    }
    free(s->slot);
    s->slot = slot;
    return 0;
}

static inline size_t hash_answer(int m, Value w, size_t mask) {
    return (size_t)((((uint64_t)w * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)m * 0xC2B2AE3D27D4EB4Full))
                    >> 24) & mask;
}

Answer *answer_slot(Answers *t, int m, Value w) {
    size_t i = hash_answer(m, w, t->mask);
    while (t->slot[i].m >= 0 && (t->slot[i].m != m || t->slot[i].w != w))
        i = (i + 1) & t->mask;
    return &t->slot[i];
}

int answers_init(Answers *t, size_t cap) {
    t->slot = malloc(cap * sizeof *t->slot);
    if (!t->slot) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        t->slot[i].m = -1;
    t->mask = cap - 1;
    t->len = 0;
    return 0;
}

int answers_put(Answers *t, int m, Value w, int made) {
    if (2 * (t->len + 1) > t->mask + 1) {
        Answers bigger;
        if (answers_init(&bigger, 2 * (t->mask + 1)) < 0)
            return -1;
        for (size_t i = 0; i <= t->mask; i++)
            if (t->slot[i].m >= 0)
                *answer_slot(&bigger, t->slot[i].m, t->slot[i].w) = t->slot[i];
        bigger.len = t->len;
        free(t->slot);
        *t = bigger;
    }
    Answer *a = answer_slot(t, m, w);
    *a = (Answer){w, (int16_t)m, (int8_t)made};
    t->len++;
    return 0;
}
