/* Small stores the normal form keeps per solve: answers per key, and lists of keys. */
#ifndef SOLVER_MEMO_H
#define SOLVER_MEMO_H

#include <string.h>

#include "keys.h"

/* a 32-bit answer per key; 0 means not known yet */
typedef struct {
    uint32_t *at;
    uint32_t cap;
} KeyMemo;

static inline uint32_t memo_get(const KeyMemo *memo, KeyId key) {
    return key < memo->cap ? memo->at[key] : 0;
}

static inline void memo_set(KeyMemo *memo, KeyId key, uint32_t answer) {
    if (key >= memo->cap) {
        uint32_t old = memo->cap;
        GROW(memo->at, memo->cap, key + 1);
        memset(memo->at + old, 0, (memo->cap - old) * sizeof *memo->at);
    }
    memo->at[key] = answer;
}

/* keys one list after another; a Span names one list */
typedef struct {
    uint32_t start, n;
} Span;

typedef struct {
    KeyId *id;
    uint32_t n, cap;
} KeyLists;

static inline Span push_list(KeyLists *lists, const KeyId *ids, uint32_t n) {
    GROW(lists->id, lists->cap, lists->n + n);
    if (n) memcpy(lists->id + lists->n, ids, n * sizeof *ids);
    Span span = {lists->n, n};
    lists->n += n;
    return span;
}

#endif
