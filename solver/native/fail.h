/* Leaving a solve early: a value past 64 bits, memory that cannot be had, or a case the port
 * of the normal form cannot follow (a bug: the caller raises RuntimeError, never guesses).
 *
 * The entry point (module.c) sets a jump target with setjmp; fail() jumps back to it from any
 * depth. Everything a solve allocates hangs off its Solver, which the entry point frees, so a
 * jump leaks nothing. The target is per thread: solves on several threads do not meet. A jump
 * never skips the release of a Python object: where one is alive while the store may fail
 * (module.c: ask_rules), it is held in a volatile variable and released after the jump too.
 */
#ifndef SOLVER_FAIL_H
#define SOLVER_FAIL_H

#include <setjmp.h>
#include <stddef.h>

enum { FAIL_OVERFLOW = 1, FAIL_MEMORY = 2, FAIL_INTERNAL = 3 };

extern _Thread_local jmp_buf *fail_target;
extern _Thread_local int fail_reason;  /* set by fail() before it jumps */

_Noreturn void fail(int why);

/* malloc/realloc that fail(FAIL_MEMORY) instead of returning NULL */
void *checked_realloc(void *block, size_t size);

/* grow a dynamic array so that it holds at least `need` items (new items not cleared) */
#define GROW(array, cap, need)                                                              \
    do {                                                                                    \
        if ((size_t)(need) > (size_t)(cap)) {                                               \
            size_t grown_ = (cap) ? (size_t)(cap) * 2 : 16;                                 \
            while (grown_ < (size_t)(need)) grown_ *= 2;                                    \
            (array) = checked_realloc((array), grown_ * sizeof *(array));                   \
            (cap) = grown_;                                                                 \
        }                                                                                   \
    } while (0)

#endif
