/* The core's keys and values as Python objects, and back: solver.normal.keys NamedTuples
 * (kinds = (Leaf, Sum, Product, ZeroProduct), from key_kinds), ints and Fractions. Each
 * function returns NULL / false / NO_KEY with a Python error set when it fails. */
#ifndef OBJECTS_H
#define OBJECTS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>

#include "display.h"
#include "keys.h"

/* a Python int as 64 bits; OverflowError past them */
bool read_int64(PyObject *number, int64_t *out);
PyObject *value_object(Q v);
/* the key as text, negated if asked (a failed allocation: MemoryError) */
PyObject *text_object(Keys *keys, KeyId key, bool negative);
PyObject *key_object(const Keys *keys, KeyId id, PyObject *kinds);
/* (Leaf, Sum, Product, ZeroProduct), a new reference; looked up once, then kept */
PyObject *key_kinds(void);
/* the id of a NamedTuple key of this hand (the inverse of key_object); NO_KEY with a Python
 * error set for what is not one. A failure of the store jumps (fail.h). */
KeyId key_from_object(Keys *keys, PyObject *object, PyObject *kinds);

#endif
