/* The containers of Countdown's compiled search (countdown_values.c): growable arrays of values,
   sets of values by open addressing, and the table of single questions already answered. A
   failed allocation sets Python's MemoryError and returns -1. */

#ifndef COUNTDOWN_VALUES_H
#define COUNTDOWN_VALUES_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>

typedef int64_t Value;

typedef struct {
    Value *at;
    size_t len, cap;
} Vec;

int vec_push(Vec *v, Value x);
void vec_sort_unique(Vec *v);
void vec_sort(Vec *v);

/* The positive values of a set by open addressing (-1 marks an empty slot), with their list in
   insertion order beside; 0 is a flag apart. */
typedef struct {
    Value *slot;
    size_t mask;  /* capacity - 1, a power of two minus one */
    Vec list;
    int zero;
} Set;

int set_init(Set *s, size_t expected);
void set_free(Set *s);
int set_grow(Set *s);

static inline size_t hash_value(Value v, size_t mask) {
    return (size_t)(((uint64_t)v * 0x9E3779B97F4A7C15ull) >> 20) & mask;
}

static inline int set_has(const Set *s, Value v) {
    if (v <= 0)
        return v == 0 && s->zero;
    for (size_t i = hash_value(v, s->mask);; i = (i + 1) & s->mask) {
        if (s->slot[i] == v)
            return 1;
        if (s->slot[i] < 0)
            return 0;
    }
}

static inline int set_add(Set *s, Value v) {
    if (v == 0) {
        s->zero = 1;
        return 0;
    }
    size_t i = hash_value(v, s->mask);
    while (s->slot[i] >= 0) {
        if (s->slot[i] == v)
            return 0;
        i = (i + 1) & s->mask;
    }
    s->slot[i] = v;
    if (vec_push(&s->list, v) < 0)
        return -1;
    return 2 * s->list.len > s->mask + 1 ? set_grow(s) : 0;
}

typedef struct {
    Value w;
    int16_t m;  /* -1: empty */
    int8_t made;
} Answer;

typedef struct {
    Answer *slot;
    size_t mask, len;
} Answers;

Answer *answer_slot(Answers *t, int m, Value w);
int answers_init(Answers *t, size_t cap);
int answers_put(Answers *t, int m, Value w, int made);

#endif
