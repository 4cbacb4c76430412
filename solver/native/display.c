/* Keys as text: the display order of parts, minimal parentheses, negation (see display.h). */
#include <string.h>

#include "display.h"

/* ---- the display order of parts ---- */

/* in a sum: compound terms first (larger first), then numbers (smaller first), zeros last */
static int term_cmp(const Keys *keys, KeyId a, KeyId b) {
    const Key *x = key_at(keys, a), *y = key_at(keys, b);
    int cx = x->kind == LEAF ? 1 : q_is_zero(x->value) ? 2 : 0;
    int cy = y->kind == LEAF ? 1 : q_is_zero(y->value) ? 2 : 0;
    if (cx != cy) return cx < cy ? -1 : 1;
    int c = cx == 1 ? q_cmp(x->value, y->value) : cx == 0 ? q_cmp(y->value, x->value) : 0;
    return c ? c : key_cmp(keys, a, b);
}

/* in a product: numbers first, then compound factors */
static int factor_cmp(const Keys *keys, KeyId a, KeyId b) {
    int cx = key_at(keys, a)->kind != LEAF, cy = key_at(keys, b)->kind != LEAF;
    return cx != cy ? cx - cy : key_cmp(keys, a, b);
}

typedef int (*Order)(const Keys *, KeyId, KeyId);

static void sort_by(const Keys *keys, KeyId *ids, int n, Order order) {
    for (int i = 1; i < n; i++) {
        KeyId k = ids[i];
        int j = i - 1;
        for (; j >= 0 && order(keys, ids[j], k) > 0; j--) ids[j + 1] = ids[j];
        ids[j + 1] = k;
    }
}

/* ---- text ---- */

static void put(Text *t, const char *s, size_t n) {
    GROW(t->s, t->cap, t->n + n + 1);
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = '\0';
}

static void put_char(Text *t, char c) { put(t, &c, 1); }

static void put_number(Text *t, int64_t n) {
    char digits[24];
    int at = sizeof digits;
    uint64_t rest = n < 0 ? -(uint64_t)n : (uint64_t)n;
    do digits[--at] = (char)('0' + rest % 10);
    while (rest /= 10);
    if (n < 0) digits[--at] = '-';
    put(t, digits + at, sizeof digits - at);
}

/* 3 for a number, 2 for a product, 1 for a sum: how tightly the key's text binds */
static int precedence(const Keys *keys, KeyId id) {
    const Key *k = key_at(keys, id);
    if (k->kind == LEAF) return 3;
    if (k->kind == ZERO_TIMES) return 2;
    if (k->n_up + k->n_down == 1) return precedence(keys, ups(keys, id)[0]);
    return k->kind == SUM ? 1 : 2;
}

/* one operand of a chain of precedence p after the operator op (0 for the first one) */
static void operand(const Keys *keys, KeyId id, int p, char op, Text *out) {
    int q = precedence(keys, id);
    bool parens = q < p || (q == p && (op == '-' || op == '/'));
    if (parens) put_char(out, '(');
    append_text(keys, id, out);
    if (parens) put_char(out, ')');
}

static void append_chain(const Keys *keys, KeyId id, Text *out) {
    const Key *k = key_at(keys, id);
    int n_up = k->n_up, n_down = k->n_down, p = k->kind == SUM ? 1 : 2;
    KeyId up[MAX_NUMBERS], down[MAX_NUMBERS];
    memcpy(up, ups(keys, id), n_up * sizeof(KeyId));
    memcpy(down, downs(keys, id), n_down * sizeof(KeyId));
    Order order = k->kind == SUM ? term_cmp : factor_cmp;
    sort_by(keys, up, n_up, order);
    sort_by(keys, down, n_down, order);
    char plus = k->kind == SUM ? '+' : '*', minus = k->kind == SUM ? '-' : '/';
    operand(keys, up[0], p, 0, out);
    for (int i = 1; i < n_up; i++) {
        put_char(out, plus);
        operand(keys, up[i], p, plus, out);
    }
    for (int i = 0; i < n_down; i++) {
        put_char(out, minus);
        operand(keys, down[i], p, minus, out);
    }
}

/* Z*(a+b+c): a zero times whatever the numbers make */
static void append_zero_times(const Keys *keys, KeyId id, Text *out) {
    int64_t times[MAX_NUMBERS];
    int n = numbers_of(keys->hand, times_of(keys, id), times);
    operand(keys, zero_of_times(keys, id), 2, 0, out);
    put_char(out, '*');
    if (n > 1) put_char(out, '(');
    for (int i = 0; i < n; i++) {
        if (i) put_char(out, '+');
        put_number(out, times[i]);
    }
    if (n > 1) put_char(out, ')');
}

void append_text(const Keys *keys, KeyId id, Text *out) {
    const Key *k = key_at(keys, id);
    if (k->kind == LEAF) put_number(out, k->value.num);
    else if (k->kind == ZERO_TIMES) append_zero_times(keys, id, out);
    else append_chain(keys, id, out);
}

/* ---- negation ---- */

static bool zero_term(const Keys *keys, KeyId id) {
    const Key *k = key_at(keys, id);
    return k->kind == ZERO_TIMES || (k->kind == LEAF && q_is_zero(k->value));
}

bool negatable(const Keys *keys, KeyId id) {
    const Key *k = key_at(keys, id);
    if (k->kind == SUM && k->n_down) return true;
    if (k->kind != SUM && k->kind != PRODUCT) return false;
    const KeyId *parts = ups(keys, id);
    int n = k->kind == SUM ? k->n_up : k->n_up + k->n_down;
    for (int i = 0; i < n; i++)
        if ((k->kind == SUM && zero_term(keys, parts[i])) || negatable(keys, parts[i])) return true;
    return false;
}

/* the first part (in display order) that can be negated */
static KeyId first_negatable_part(const Keys *keys, const KeyId *parts, int n, Order order) {
    KeyId sorted[MAX_NUMBERS];
    memcpy(sorted, parts, n * sizeof(KeyId));
    sort_by(keys, sorted, n, order);
    for (int i = 0; i < n; i++)
        if (negatable(keys, sorted[i])) return sorted[i];
    return NO_KEY;
}

/* -(A+Z-B) is (B+Z')-A, Z' the zero turned round (rule 3); with nothing subtracted, the first
 * term is negated */
static KeyId negated_sum(Keys *keys, KeyId id) {
    const Key *k = key_at(keys, id);
    int n_up = k->n_up, n_down = k->n_down, n_plus = 0, n_minus = 0;
    Q value = q_neg(k->value);
    KeyId up[MAX_NUMBERS], plus[MAX_NUMBERS], minus[MAX_NUMBERS];
    memcpy(up, ups(keys, id), n_up * sizeof(KeyId));
    memcpy(plus, downs(keys, id), n_down * sizeof(KeyId));
    n_plus = n_down;
    for (int i = 0; i < n_up; i++)
        if (zero_term(keys, up[i])) plus[n_plus++] = turned(keys, up[i]);
    if (n_plus) {
        for (int i = 0; i < n_up; i++)
            if (!zero_term(keys, up[i])) minus[n_minus++] = up[i];
        return make_raw(keys, SUM, value, plus, n_plus, minus, n_minus);
    }
    KeyId first = first_negatable_part(keys, up, n_up, term_cmp);
    bool removed = false;
    for (int i = 0; i < n_up; i++) {
        if (up[i] == first && !removed) removed = true;
        else minus[n_minus++] = up[i];
    }
    KeyId turned = negated(keys, first);
    return make_raw(keys, SUM, value, &turned, 1, minus, n_minus);
}

static KeyId negated_product(Keys *keys, KeyId id) {
    const Key *k = key_at(keys, id);
    int n_up = k->n_up, n_down = k->n_down;
    Q value = q_neg(k->value);
    KeyId up[MAX_NUMBERS], down[MAX_NUMBERS];
    memcpy(up, ups(keys, id), n_up * sizeof(KeyId));
    memcpy(down, downs(keys, id), n_down * sizeof(KeyId));
    bool on_top = false;
    for (int i = 0; i < n_up; i++) on_top = on_top || negatable(keys, up[i]);
    KeyId *factors = on_top ? up : down;
    int n = on_top ? n_up : n_down;
    KeyId first = first_negatable_part(keys, factors, n, factor_cmp);
    int at = 0;
    while (factors[at] != first) at++;
    factors[at] = negated(keys, first);
    return make_raw(keys, PRODUCT, value, up, n_up, down, n_down);
}

KeyId negated(Keys *keys, KeyId id) {
    return key_at(keys, id)->kind == SUM ? negated_sum(keys, id) : negated_product(keys, id);
}

/* ---- rank ---- */

Rank rank_of(const char *s, size_t n) {
    Rank r = {0, 0, 0, n, s};
    for (size_t i = 0; i < n; i++) {
        r.slashes += s[i] == '/';
        r.parens += s[i] == '(';
        r.minuses += s[i] == '-';
    }
    return r;
}

int rank_cmp(const Rank *a, const Rank *b) {
    if (a->slashes != b->slashes) return a->slashes < b->slashes ? -1 : 1;
    if (a->parens != b->parens) return a->parens < b->parens ? -1 : 1;
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    if (a->minuses != b->minuses) return a->minuses < b->minuses ? -1 : 1;
    return memcmp(a->s, b->s, a->n);
}
