/* The slow paths of rational arithmetic, and leaving a solve early (see fail.h). */
#include <stdlib.h>

#include "rational.h"

_Thread_local jmp_buf *fail_target;
_Thread_local int fail_reason;

void fail(int why) {
    fail_reason = why;
    longjmp(*fail_target, 1);
}

void *checked_realloc(void *block, size_t size) {
    void *grown = realloc(block, size);
    if (grown == NULL) fail(FAIL_MEMORY);
    return grown;
}

typedef unsigned __int128 UWide;

static int ctz_wide(UWide x) {
    uint64_t low = (uint64_t)x;
    return low ? __builtin_ctzll(low) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

static UWide gcd_wide(UWide a, UWide b) {
    if (a == 0) return b;
    if (b == 0) return a;
    int shift = ctz_wide(a | b);
    a >>= ctz_wide(a);
    do {
        b >>= ctz_wide(b);
        if (a > b) { UWide t = a; a = b; b = t; }
        b -= a;
    } while (b);
    return a << shift;
}

Q q_reduce_wide(Wide n, Wide d) {
    UWide size = n < 0 ? -(UWide)n : (UWide)n;
    if (size <= INT64_MAX && d <= INT64_MAX) return q_reduce((int64_t)n, (int64_t)d);
    UWide g = gcd_wide(size, (UWide)d);
    return (Q){narrow(n / (Wide)g), narrow(d / (Wide)g)};
}
