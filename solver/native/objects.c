/* Keys and values as Python objects and back (see objects.h). */
#include "objects.h"

#include <stdlib.h>

/* ---- from the core to Python ---- */

bool read_int64(PyObject *number, int64_t *out) {
    int overflow;
    long long n = PyLong_AsLongLongAndOverflow(number, &overflow);
    if (n == -1 && PyErr_Occurred()) return false;
    if (overflow || n == INT64_MIN) {
        PyErr_SetString(PyExc_OverflowError, "a number past 64 bits");
        return false;
    }
    *out = n;
    return true;
}

PyObject *value_object(Q v) {
    if (v.den == 1) return PyLong_FromLongLong(v.num);
    PyObject *fractions = PyImport_ImportModule("fractions");
    if (fractions == NULL) return NULL;
    PyObject *out = PyObject_CallMethod(fractions, "Fraction", "LL", (long long)v.num,
                                        (long long)v.den);
    Py_DECREF(fractions);
    return out;
}

PyObject *text_object(Keys *keys, KeyId key, bool negative) {
    Text text = {0};
    jmp_buf here, *outer = fail_target;
    fail_target = &here;
    PyObject *out = NULL;
    if (setjmp(here) == 0) {
        append_text(keys, negative ? negated(keys, key) : key, &text);
        out = PyUnicode_FromStringAndSize(text.s, (Py_ssize_t)text.n);
    } else {
        PyErr_NoMemory();
    }
    fail_target = outer;
    free(text.s);
    return out;
}

static PyObject *parts_object(const Keys *keys, const KeyId *ids, int n, PyObject *kinds) {
    PyObject *tuple = PyTuple_New(n);
    for (int i = 0; tuple && i < n; i++) {
        PyObject *part = key_object(keys, ids[i], kinds);
        if (part == NULL) Py_CLEAR(tuple);
        else PyTuple_SET_ITEM(tuple, i, part);
    }
    return tuple;
}

static PyObject *numbers_object(const Keys *keys, Counts counts) {
    int64_t numbers[MAX_NUMBERS];
    int n = numbers_of(keys->hand, counts, numbers);
    PyObject *tuple = PyTuple_New(n);
    for (int i = 0; tuple && i < n; i++) {
        PyObject *number = PyLong_FromLongLong(numbers[i]);
        if (number == NULL) Py_CLEAR(tuple);
        else PyTuple_SET_ITEM(tuple, i, number);
    }
    return tuple;
}

/* the solver.normal.keys NamedTuple of a key; kinds = (Leaf, Sum, Product, ZeroProduct) */
PyObject *key_object(const Keys *keys, KeyId id, PyObject *kinds) {
    const Key *k = key_at(keys, id);
    PyObject *kind = PyTuple_GET_ITEM(kinds, k->kind);
    PyObject *value = value_object(k->value), *a = NULL, *b = NULL, *out = NULL;
    if (value == NULL) return NULL;
    if (k->kind == LEAF) {
        out = PyObject_CallFunctionObjArgs(kind, value, NULL);
        Py_DECREF(value);
        return out;
    }
    if (k->kind == ZERO_TIMES) {
        a = key_object(keys, zero_of_times(keys, id), kinds);
        b = numbers_object(keys, times_of(keys, id));
    } else {
        a = parts_object(keys, ups(keys, id), k->n_up, kinds);
        b = parts_object(keys, downs(keys, id), k->n_down, kinds);
    }
    const char *op = k->kind == SUM ? "+" : k->kind == PRODUCT ? "*" : "0*";
    if (a && b) out = PyObject_CallFunction(kind, "OsOO", value, op, a, b);
    Py_DECREF(value);
    Py_XDECREF(a);
    Py_XDECREF(b);
    return out;
}

/* The kinds are looked up once and kept: a look-up by name costs more than a small solve. */
PyObject *key_kinds(void) {
    static PyObject *kinds;  /* only touched with the GIL held */
    if (kinds != NULL) return Py_NewRef(kinds);
    PyObject *module = PyImport_ImportModule("solver.normal.keys");
    if (module == NULL) return NULL;
    static const char *names[4] = {"Leaf", "Sum", "Product", "ZeroProduct"};  /* by kind */
    PyObject *found = PyTuple_New(4);
    for (int i = 0; found && i < 4; i++) {
        PyObject *kind = PyObject_GetAttrString(module, names[i]);
        if (kind == NULL) Py_CLEAR(found);
        else PyTuple_SET_ITEM(found, i, kind);
    }
    Py_DECREF(module);
    if (found != NULL) kinds = Py_NewRef(found);
    return found;
}

/* ---- from Python to the core ---- */

static bool read_value(PyObject *value, Q *out) {
    if (PyLong_Check(value)) {
        out->den = 1;
        return read_int64(value, &out->num);
    }
    PyObject *num = PyObject_GetAttrString(value, "numerator");
    PyObject *den = num ? PyObject_GetAttrString(value, "denominator") : NULL;
    bool ok = den && read_int64(num, &out->num) && read_int64(den, &out->den);
    Py_XDECREF(num);
    Py_XDECREF(den);
    return ok;
}

static bool read_number(const Hand *hand, PyObject *number, Counts *counts) {
    int64_t n;
    if (!read_int64(number, &n)) return false;
    for (int i = 0; i < hand->distinct; i++)
        if (hand->value[i] == n) {
            *counts += (Counts)1 << (4 * i);
            return true;
        }
    PyErr_SetString(PyExc_ValueError, "a key uses a number the hand does not have");
    return false;
}

static bool parts_from_object(Keys *keys, PyObject *tuple, KeyId *ids, int *n, PyObject *kinds) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) > MAX_NUMBERS) {
        PyErr_SetString(PyExc_ValueError, "a key's side is a tuple of at most 8 keys");
        return false;
    }
    *n = (int)PyTuple_GET_SIZE(tuple);
    for (int i = 0; i < *n; i++)
        if ((ids[i] = key_from_object(keys, PyTuple_GET_ITEM(tuple, i), kinds)) == NO_KEY)
            return false;
    return true;
}

/* the id of a solver.normal.keys NamedTuple (the inverse of key_object); NO_KEY with a Python
 * error set for what is not a key of this hand. A failure of the store jumps (fail.h). */
KeyId key_from_object(Keys *keys, PyObject *object, PyObject *kinds) {
    int kind = 0;
    while (kind < 4 && (PyObject *)Py_TYPE(object) != PyTuple_GET_ITEM(kinds, kind)) kind++;
    Q value;
    if (kind == 4) {
        PyErr_SetString(PyExc_TypeError, "not a key of solver.normal.keys");
        return NO_KEY;
    }
    if (!read_value(PyTuple_GET_ITEM(object, 0), &value)) return NO_KEY;
    if (kind == LEAF) {
        Counts counts = 0;
        return value.den == 1 && read_number(keys->hand, PyTuple_GET_ITEM(object, 0), &counts)
                   ? leaf(keys, value.num) : NO_KEY;
    }
    if (kind == ZERO_TIMES) {
        KeyId zero = key_from_object(keys, PyTuple_GET_ITEM(object, 2), kinds);
        PyObject *times = PyTuple_GET_ITEM(object, 3);
        Counts counts = 0;
        if (zero == NO_KEY || !PyTuple_Check(times)) return NO_KEY;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(times); i++)
            if (!read_number(keys->hand, PyTuple_GET_ITEM(times, i), &counts)) return NO_KEY;
        return zero_times_raw(keys, zero, counts);
    }
    KeyId up[MAX_NUMBERS], down[MAX_NUMBERS];
    int n_up, n_down;
    if (!parts_from_object(keys, PyTuple_GET_ITEM(object, 2), up, &n_up, kinds) ||
        !parts_from_object(keys, PyTuple_GET_ITEM(object, 3), down, &n_down, kinds))
        return NO_KEY;
    return make_raw(keys, kind, value, up, n_up, down, n_down);
}
