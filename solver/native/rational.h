/* Exact rationals in two 64-bit words, with every operation checked.
 *
 * A value is num/den in lowest terms with den > 0 and |num|, den <= INT64_MAX. Products and
 * sums are formed in 128 bits and reduced; a result that does not fit raises an overflow
 * (fail(FAIL_OVERFLOW), a long jump out of the whole solve): the caller then answers with the
 * pure-Python solver, whose integers never wrap. No value is ever silently wrong.
 */
#ifndef SOLVER_RATIONAL_H
#define SOLVER_RATIONAL_H

#include <stdbool.h>
#include <stdint.h>

#include "fail.h"

typedef struct {
    int64_t num, den;
} Q;

typedef __int128 Wide;

static inline Q q_int(int64_t n) { return (Q){n, 1}; }
static inline bool q_is_int(Q a) { return a.den == 1; }
static inline bool q_is_zero(Q a) { return a.num == 0; }
static inline bool q_eq(Q a, Q b) { return a.num == b.num && a.den == b.den; }
static inline Q q_neg(Q a) { return (Q){-a.num, a.den}; }

static inline uint64_t gcd64(uint64_t a, uint64_t b) {
    if (a == 0) return b;
    if (b == 0) return a;
    int shift = __builtin_ctzll(a | b);
    a >>= __builtin_ctzll(a);
    do {
        b >>= __builtin_ctzll(b);
        if (a > b) { uint64_t t = a; a = b; b = t; }
        b -= a;
    } while (b);
    return a << shift;
}

static inline uint64_t magnitude(int64_t n) { return n < 0 ? -(uint64_t)n : (uint64_t)n; }

static inline int64_t narrow(Wide n) {
    if (n > INT64_MAX || n < -INT64_MAX) fail(FAIL_OVERFLOW);
    return (int64_t)n;
}

/* n/d in lowest terms, d > 0; the wide path only runs when a value is past 64 bits. */
Q q_reduce_wide(Wide n, Wide d);

static inline Q q_reduce(int64_t n, int64_t d) {
    uint64_t g = gcd64(magnitude(n), (uint64_t)d);
    if (g == 1) return (Q){n, d};  /* the common case, without two divisions */
    return (Q){n / (int64_t)g, d / (int64_t)g};
}

static inline int q_cmp(Q a, Q b) {
    if (a.den == b.den) return (a.num > b.num) - (a.num < b.num);
    Wide l = (Wide)a.num * b.den, r = (Wide)b.num * a.den;
    return (l > r) - (l < r);
}

static inline Q q_add(Q a, Q b) {
    if (a.den == 1 && b.den == 1) return q_int(narrow((Wide)a.num + b.num));
    Wide n = (Wide)a.num * b.den + (Wide)b.num * a.den, d = (Wide)a.den * b.den;
    if (n >= -INT64_MAX && n <= INT64_MAX && d <= INT64_MAX)  /* the common case, inline */
        return q_reduce((int64_t)n, (int64_t)d);
    return q_reduce_wide(n, d);
}

static inline Q q_sub(Q a, Q b) { return q_add(a, q_neg(b)); }

static inline Q q_mul(Q a, Q b) {
    if (a.den == 1 && b.den == 1) return q_int(narrow((Wide)a.num * b.num));
    /* cross-reduce first: the result is then in lowest terms */
    uint64_t g1 = gcd64(magnitude(a.num), (uint64_t)b.den);
    uint64_t g2 = gcd64(magnitude(b.num), (uint64_t)a.den);
    int64_t an = a.num, bn = b.num, ad = a.den, bd = b.den;
    if (g1 != 1) an /= (int64_t)g1, bd /= (int64_t)g1;  /* divisions are dear: skip them by one */
    if (g2 != 1) bn /= (int64_t)g2, ad /= (int64_t)g2;
    Wide n = (Wide)an * bn, d = (Wide)ad * bd;
    return (Q){narrow(n), narrow(d)};
}

/* a / b; b is never 0 (the search and the rules never divide by a zero) */
static inline Q q_div(Q a, Q b) {
    if (b.num == 0) fail(FAIL_INTERNAL);
    Q inverse = b.num < 0 ? (Q){-b.den, -b.num} : (Q){b.den, b.num};
    return q_mul(a, inverse);
}

static inline uint64_t q_hash(Q a) {
    uint64_t h = (uint64_t)a.num * 0x9E3779B97F4A7C15ull ^ (uint64_t)a.den * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 29);
}

#endif
