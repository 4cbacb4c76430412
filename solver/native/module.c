/* solver.native._core: the Python face of the compiled core.
 *
 * Hand-written C-API rather than Cython: the core is plain C over its own structs (no Python
 * object is touched while it searches, and the GIL is released meanwhile), so the binding is
 * only this file (and objects.c, the conversions), and the build needs nothing beyond
 * setuptools and a C compiler.
 *
 * Each function takes a hand the Python side has validated and sorted (1 to 8 whole numbers),
 * a target (int or Fraction) and integer_only. OverflowError means a value went past 64 bits
 * somewhere: the caller then answers with the pure-Python solver.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>
#include <stdlib.h>

#include "display.h"
#include "objects.h"
#include "search.h"
#include "reduce.h"
#include "solutions.h"

typedef struct {
    int64_t numbers[MAX_NUMBERS];
    int n;
    Q goal;  /* the target's absolute value */
    bool negative, integer_only;
} Request;

/* a validated hand (a sorted tuple of whole numbers from 0) and a target (int or Fraction) */
static bool make_request(PyObject *hand, PyObject *target, int integer_only, Request *r) {
    r->n = (int)PyTuple_GET_SIZE(hand);
    if (r->n < 1 || r->n > MAX_NUMBERS) {
        PyErr_SetString(PyExc_ValueError, "a hand holds 1 to 8 numbers");
        return false;
    }
    for (int i = 0; i < r->n; i++) {
        if (!read_int64(PyTuple_GET_ITEM(hand, i), &r->numbers[i])) return false;
        if (r->numbers[i] < 0 || (i && r->numbers[i] < r->numbers[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "a hand is sorted whole numbers from 0");
            return false;
        }
    }
    if (PyLong_CheckExact(target)) {  /* the common target, without two attribute look-ups */
        if (!read_int64(target, &r->goal.num)) return false;
        r->goal.den = 1;
    } else {
        PyObject *num = PyObject_GetAttrString(target, "numerator");
        PyObject *den = num ? PyObject_GetAttrString(target, "denominator") : NULL;
        bool ok = den && read_int64(num, &r->goal.num) && read_int64(den, &r->goal.den);
        Py_XDECREF(num);
        Py_XDECREF(den);
        if (!ok) return false;
    }
    r->negative = r->goal.num < 0;
    if (r->negative) r->goal.num = -r->goal.num;
    r->integer_only = integer_only;
    return true;
}

static bool read_request(PyObject *args, Request *r) {
    PyObject *hand, *target;
    int integer_only;
    return PyArg_ParseTuple(args, "O!Op", &PyTuple_Type, &hand, &target, &integer_only) &&
           make_request(hand, target, integer_only, r);
}

/* ---- running a solve: the GIL released, failures caught (fail.h) ---- */

typedef void (*Work)(Search *s, const Request *r, void *result);

static void raise_failure(int why) {
    if (why == FAIL_OVERFLOW) PyErr_SetString(PyExc_OverflowError, "a value past 64 bits");
    else if (why == FAIL_INTERNAL) PyErr_SetString(PyExc_RuntimeError, "the native core lost its way");
    else PyErr_NoMemory();
}

/* The last search done on this thread, emptied, its buffers kept for the next solve: a run of
 * small hands then costs no allocation of the search's stores (a solve is ~4 us). Per thread,
 * as solves run with the GIL released; a nested solve (none today) would just make its own.
 * What a thread keeps (this, the solutions' buffers below, the value cache, the shapes of
 * hands) is freed when the thread ends: a pthread key's destructor, registered on its first
 * solve, runs before the thread's own variables go. */
static _Thread_local Search *spare;
static _Thread_local Solutions *spare_found;
static pthread_key_t thread_end;
static bool thread_end_made;

static void free_kept(void *unused) {
    (void)unused;
    if (spare != NULL) {
        search_free(spare);
        free(spare);
        spare = NULL;
    }
    if (spare_found != NULL) {
        solutions_free(spare_found);
        free(spare_found);
        spare_found = NULL;
    }
    free_value_cache();
    free_shapes();
}

static void free_at_thread_end(void) {
    if (thread_end_made && pthread_getspecific(thread_end) == NULL)
        pthread_setspecific(thread_end, &thread_end);  /* any non-NULL value: the key is set */
}

static Search *new_search(void) {
    Search *s = spare;
    spare = NULL;
    return s != NULL ? s : calloc(1, sizeof(Search));
}

static void finish(Search *s) {
    search_clear(s);
    if (spare == NULL) {
        spare = s;
        free_at_thread_end();
    } else {
        search_free(s);
        free(s);
    }
}

/* work on a search already started (start: a new one first), the GIL released; false with a
 * Python error set (and the search freed) when it failed */
static bool resume(Search *s, const Request *r, Work work, void *result, bool start) {
    volatile int why = 0;
    Py_BEGIN_ALLOW_THREADS
    jmp_buf here, *outer = fail_target;
    fail_target = &here;
    if (setjmp(here) == 0) {
        if (start) search_init(s, r->numbers, r->n, r->integer_only);
        work(s, r, result);
    } else {
        why = fail_reason;
    }
    fail_target = outer;
    Py_END_ALLOW_THREADS
    if (why == 0) return true;
    finish(s);
    raise_failure(why);
    return false;
}

static Search *run(const Request *r, Work work, void *result) {
    Search *s = new_search();
    if (s == NULL) return (Search *)PyErr_NoMemory();
    return resume(s, r, work, result, true) ? s : NULL;
}

/* the same for the solutions' buffers (solutions.h) */
static Solutions *new_solutions(void) {
    Solutions *found = spare_found;
    spare_found = NULL;
    return found != NULL ? found : calloc(1, sizeof(Solutions));
}

static void done_solutions(Solutions *found) {
    solutions_clear(found);
    if (spare_found == NULL) {
        spare_found = found;
        free_at_thread_end();
    } else {
        solutions_free(found);
        free(found);
    }
}

/* ---- the functions ---- */

static void work_list(Search *s, const Request *r, void *result) {
    *(KeyList *)result = expressions(s, whole_hand(&s->hand), r->goal);
}

/* expressions(hand, target, integer_only) -> list of flat keys (solver.normal.keys), in the
 * pure search's order: for tests that compare the two searches key by key */
static PyObject *py_expressions(PyObject *self, PyObject *args) {
    (void)self;
    Request r;
    KeyList list;
    if (!read_request(args, &r)) return NULL;
    Search *s = run(&r, work_list, &list);
    if (s == NULL) return NULL;
    PyObject *kinds = key_kinds(), *out = kinds ? PyList_New(list.n) : NULL;
    for (uint32_t i = 0; out && i < list.n; i++) {
        PyObject *key = key_object(&s->keys, s->pool[list.start + i], kinds);
        if (key == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, key);
    }
    Py_XDECREF(kinds);
    finish(s);
    return out;
}

/* texts(hand, target, integer_only) -> the text of each key of expressions(), None for one
 * that cannot be written negated when the target is below zero */
static PyObject *py_texts(PyObject *self, PyObject *args) {
    (void)self;
    Request r;
    KeyList list;
    if (!read_request(args, &r)) return NULL;
    Search *s = run(&r, work_list, &list);
    if (s == NULL) return NULL;
    PyObject *out = PyList_New(list.n);
    for (uint32_t i = 0; out && i < list.n; i++) {
        KeyId key = s->pool[list.start + i];
        PyObject *text = Py_None;
        if (!r.negative || negatable(&s->keys, key)) text = text_object(&s->keys, key, r.negative);
        else Py_INCREF(text);
        if (text == NULL) Py_CLEAR(out);
        else PyList_SET_ITEM(out, i, text);
    }
    finish(s);
    return out;
}

static void work_first(Search *s, const Request *r, void *result) {
    Mask whole = whole_hand(&s->hand);
    *(KeyId *)result = r->negative ? first_negatable(s, whole, r->goal) : first_key(s, whole, r->goal);
}

static PyObject *py_first_solution(PyObject *self, PyObject *args) {
    (void)self;
    Request r;
    KeyId key;
    if (!read_request(args, &r)) return NULL;
    Search *s = run(&r, work_first, &key);
    if (s == NULL) return NULL;
    PyObject *out = key == NO_KEY ? Py_NewRef(Py_None) : text_object(&s->keys, key, r.negative);
    finish(s);
    return out;
}

static void work_solvable(Search *s, const Request *r, void *result) {
    Mask whole = whole_hand(&s->hand);
    *(bool *)result = r->negative ? first_negatable(s, whole, r->goal) != NO_KEY
                                  : reaches(s, whole, r->goal);
}

static PyObject *py_is_solvable(PyObject *self, PyObject *args) {
    (void)self;
    Request r;
    bool solvable;
    if (!read_request(args, &r)) return NULL;
    Search *s = run(&r, work_solvable, &solvable);
    if (s == NULL) return NULL;
    finish(s);
    return PyBool_FromLong(solvable);
}

/* ---- the canonical keys of the Python rules, interned among the search's keys ---- */

/* the canonical key of each key still without one, from canonical (the Python rules), with the
 * GIL held; false with a Python error set (and the search freed) when that failed */
static bool ask_rules(Search *s, Solutions *found, PyObject *canonical) {
    PyObject *kinds = key_kinds();
    if (kinds == NULL) {
        finish(s);
        return false;
    }
    volatile bool ok = true;
    /* the objects of the key being converted: volatile, so that after a jump (the store
     * failed, fail.h) they are still known here and released below */
    PyObject *volatile key = NULL, *volatile answer = NULL;
    jmp_buf here, *outer = fail_target;
    fail_target = &here;
    if (setjmp(here) == 0) {
        for (uint32_t i = 0; ok && i < found->list.n; i++) {
            if (found->canonical[i] != NO_KEY) continue;
            key = key_object(&s->keys, s->pool[found->list.start + i], kinds);
            answer = key ? PyObject_CallOneArg(canonical, key) : NULL;
            found->canonical[i] = answer ? key_from_object(&s->keys, answer, kinds) : NO_KEY;
            ok = found->canonical[i] != NO_KEY;
            Py_XDECREF(key);
            Py_XDECREF(answer);
            key = answer = NULL;
        }
    } else {  /* the store failed (memory) */
        raise_failure(fail_reason);
        ok = false;
    }
    fail_target = outer;
    Py_XDECREF(key);
    Py_XDECREF(answer);
    Py_DECREF(kinds);
    if (!ok) finish(s);
    return ok;
}

static void work_own(Search *s, const Request *r, void *result) {
    own_canonical(s, r->goal, result);
}

static void work_classes(Search *s, const Request *r, void *result) {
    (void)r;
    number_classes(s, result);
}

static void work_texts(Search *s, const Request *r, void *result) {
    number_classes(s, result);
    distinct_texts(s, r->negative, result);
}

/* the search and the classes of its keys (then the texts, with texts_too); NULL with a Python
 * error set when it failed */
static Search *classify(PyObject *args, Request *r, Solutions *found, bool texts_too) {
    PyObject *hand, *target, *canonical;
    int integer_only;
    if (!PyArg_ParseTuple(args, "O!OpO", &PyTuple_Type, &hand, &target, &integer_only,
                          &canonical) ||
        !make_request(hand, target, integer_only, r))
        return NULL;
    Search *s = run(r, work_own, found);
    if (s == NULL || !ask_rules(s, found, canonical) ||
        !resume(s, r, texts_too ? work_texts : work_classes, found, false))
        return NULL;
    return s;
}

/* solve(hand, target, integer_only, canonical_key) -> every distinct solution, simplest first */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    Request r;
    Solutions *found = new_solutions();
    if (found == NULL) return PyErr_NoMemory();
    PyObject *out = NULL;
    Search *s = classify(args, &r, found, true);
    if (s != NULL) {
        out = PyList_New(found->n);
        for (uint32_t i = 0; out && i < found->n; i++) {
            PyObject *text = PyUnicode_FromStringAndSize(found->rank[i].s, (Py_ssize_t)found->rank[i].n);
            if (text == NULL) Py_CLEAR(out);
            else PyList_SET_ITEM(out, i, text);
        }
        finish(s);
    }
    done_solutions(found);
    return out;
}

/* classes(hand, target, integer_only, canonical_key) -> a class number for each key of
 * expressions() */
static PyObject *py_classes(PyObject *self, PyObject *args) {
    (void)self;
    Request r;
    Solutions *found = new_solutions();
    if (found == NULL) return PyErr_NoMemory();
    PyObject *out = NULL;
    Search *s = classify(args, &r, found, false);
    if (s != NULL) {
        out = PyList_New(found->list.n);
        for (uint32_t i = 0; out && i < found->list.n; i++) {
            PyObject *number = PyLong_FromUnsignedLong(found->classes[i]);
            if (number == NULL) Py_CLEAR(out);
            else PyList_SET_ITEM(out, i, number);
        }
        finish(s);
    }
    done_solutions(found);
    return out;
}

typedef struct {
    KeyList list;
    bool *plain;  /* per key of the list */
} PlainList;

static void work_plain(Search *s, const Request *r, void *result) {
    PlainList *out = result;
    out->list = expressions(s, whole_hand(&s->hand), r->goal);
    out->plain = checked_realloc(NULL, (out->list.n + 1) * sizeof *out->plain);
    for (uint32_t i = 0; i < out->list.n; i++)
        out->plain[i] = is_plain(&s->keys, s->pool[out->list.start + i]);
}

/* plain(hand, target, integer_only) -> whether nothing moves out of each key of expressions()
 * (reduce.py: is_plain), the part of the rules the core follows itself */
static PyObject *py_plain(PyObject *self, PyObject *args) {
    (void)self;
    Request r;
    PlainList result = {{0, 0}, NULL};
    if (!read_request(args, &r)) return NULL;
    Search *s = run(&r, work_plain, &result);
    if (s == NULL) {
        free(result.plain);
        return NULL;
    }
    PyObject *out = PyList_New(result.list.n);
    for (uint32_t i = 0; out && i < result.list.n; i++)  /* a new reference to a singleton */
        PyList_SET_ITEM(out, i, Py_NewRef(result.plain[i] ? Py_True : Py_False));
    free(result.plain);
    finish(s);
    return out;
}

static void work_settled(Search *s, const Request *r, void *result) {
    own_canonical(s, r->goal, result);
}

/* settled(hand, target, integer_only) -> for each key of expressions(), the canonical key the
 * core settles without the Python rules, or None where it asks them */
static PyObject *py_settled(PyObject *self, PyObject *args) {
    (void)self;
    Request r;
    Solutions *found = new_solutions();
    if (found == NULL) return PyErr_NoMemory();
    PyObject *out = NULL, *kinds = NULL;
    Search *s = read_request(args, &r) ? run(&r, work_settled, found) : NULL;
    if (s != NULL) {
        kinds = key_kinds();
        out = kinds ? PyList_New(found->list.n) : NULL;
        for (uint32_t i = 0; out && i < found->list.n; i++) {
            KeyId key = found->canonical[i];
            PyObject *item = key == NO_KEY ? Py_NewRef(Py_None) : key_object(&s->keys, key, kinds);
            if (item == NULL) Py_CLEAR(out);
            else PyList_SET_ITEM(out, i, item);
        }
        Py_XDECREF(kinds);
        finish(s);
    }
    done_solutions(found);
    return out;
}

static PyObject *py_clear_cache(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    clear_value_cache();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"clear_cache", py_clear_cache, METH_NOARGS,
     "Forget the value sets kept across solves on this thread (for benchmarks that start cold)."},
    {"solve", py_solve, METH_VARARGS, "Every distinct solution, simplest first."},
    {"classes", py_classes, METH_VARARGS, "A class number for each key of expressions()."},
    {"plain", py_plain, METH_VARARGS, "Whether nothing moves out of each key of expressions()."},
    {"settled", py_settled, METH_VARARGS, "The canonical keys the core settles without the rules."},
    {"expressions", py_expressions, METH_VARARGS, "Every flat key of the hand worth the target."},
    {"texts", py_texts, METH_VARARGS, "The text of each key of expressions()."},
    {"first_solution", py_first_solution, METH_VARARGS, "One solution, or None."},
    {"is_solvable", py_is_solvable, METH_VARARGS, "Whether the hand has a solution."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "solver.native._core",
    "The compiled core of the 24 solver (see solver/native/module.c).", -1, methods,
    NULL, NULL, NULL, NULL,
};

/* The version of the rules (solver/normal, its RULES_VERSION) this port follows: bumped with
 * the Python one when a rule changes and is ported here. When the two differ, the core is not
 * used (the pure solver answers, solver.native.STATUS says why); tests/solver/test_native_twin.py
 * checks that they answer alike. */
#define RULES_VERSION 2

PyMODINIT_FUNC PyInit__core(void) {
    /* without the key (never seen), what a thread kept stays until the process ends */
    if (!thread_end_made) thread_end_made = pthread_key_create(&thread_end, free_kept) == 0;
    PyObject *core = PyModule_Create(&module);
    if (core != NULL && PyModule_AddIntConstant(core, "RULES_VERSION", RULES_VERSION) < 0) Py_CLEAR(core);
    return core;
}
