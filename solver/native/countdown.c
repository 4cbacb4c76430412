/* Countdown's search in C: the twin of solver/countdown_search.py (module solver.native._countdown).

   One `Search` per game answers what the scan in solver/countdown.py asks: does sub-hand m make
   w (`reaches`), which values of m lie in [lo, hi] (`window`), the largest value (`ceiling`),
   and one expression for a value (`expression`, chosen the same way as the pure twin's, so both
   print the same text). Sub-hands are bit masks over the sorted hand; small ones get their whole
   value set, bigger ones are asked single values by meeting in the middle, as in the Python.

   Values are 64-bit: every value of a sub-hand is at most the product of max(n, 2) over its
   numbers (x + y <= x * y and x - y, x / y <= x when x, y >= 2), and a Search is only made when
   that product for the whole hand is below 2^62 (OverflowError otherwise: the pure twin answers).
   Every product or sum in countdown_search.c is taken only when its operands are within the
   bound, so no step passes 2^63. The containers are in countdown_values.c. */

#include "countdown.h"

#include <structmember.h>

/* -- the Python face ------------------------------------------------------------------------ */

static int mask_argument(Search *s, PyObject *arg, int *m) {
    long value = PyLong_AsLong(arg);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (value < 1 || value > s->full) {
        PyErr_SetString(PyExc_ValueError, "not a sub-hand of this hand");
        return -1;
    }
    *m = (int)value;
    return 0;
}

/* A whole number, clamped to +-2^62: beyond, no value of the hand lies. */
static int value_argument(PyObject *arg, Value *v) {
    int overflow;
    long long value = PyLong_AsLongLongAndOverflow(arg, &overflow);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (overflow)
        value = overflow < 0 ? -LIMIT : LIMIT;
    else if (value > LIMIT || value < -LIMIT)
        value = value < 0 ? -LIMIT : LIMIT;
    *v = value;
    return 0;
}

static PyObject *Search_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *hand;
    int subset;
    static char *names[] = {"hand", "subset", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!p", names, &PyTuple_Type, &hand, &subset))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(hand);
    if (n < 1 || n > MAX_NUMBERS)
        return PyErr_Format(PyExc_ValueError, "between 1 and %d numbers", MAX_NUMBERS);
    Search *s = (Search *)type->tp_alloc(type, 0);
    if (!s)
        return NULL;
    s->n = (int)n;
    s->subset = subset;
    s->low = subset ? 1 : 0;
    s->full = ((Py_ssize_t)1 << n) - 1;
    s->distinct = 1;
    for (int i = 0; i < s->n; i++) {
        long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(hand, i));
        if (v == -1 && PyErr_Occurred())
            goto fail;
        if (v < 1 || v > 1000000 || (i && v < s->hand[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "a sorted hand of whole numbers from 1");
            goto fail;
        }
        s->hand[i] = v;
        if (i && v == s->hand[i - 1])
            s->distinct = 0;
    }
    s->bound[0] = 1;
    for (int m = 1; m <= s->full; m++) {
        int i = __builtin_ctz((unsigned)m);
        Value n_i = s->hand[i], factor = n_i > 2 ? n_i : 2;
        int rest = m & (m - 1);
        s->count[m] = (uint8_t)(s->count[rest] + 1);
        s->sum[m] = s->sum[rest] + n_i;
        if (s->bound[rest] > (LIMIT - 1) / factor) {
            PyErr_SetString(PyExc_OverflowError, "values may pass 2^62: the pure search answers");
            goto fail;
        }
        s->bound[m] = s->bound[rest] * factor;
    }
    /* equal multisets share the first mask that holds them */
    for (int m = 0; m <= s->full; m++) {
        s->same[m] = (uint8_t)m;
        if (s->distinct)
            continue;
        for (int k = 0; k < m; k++) {
            if (s->count[k] != s->count[m] || s->sum[k] != s->sum[m] || s->same[k] != k)
                continue;
            Value mine[MAX_NUMBERS], theirs[MAX_NUMBERS];
            int p = 0, q = 0;
            for (int i = 0; i < s->n; i++) {
                if (m >> i & 1)
                    mine[p++] = s->hand[i];
                if (k >> i & 1)
                    theirs[q++] = s->hand[i];
            }
            if (!memcmp(mine, theirs, (size_t)p * sizeof *mine)) {
                s->same[m] = (uint8_t)k;
                break;
            }
        }
    }
    for (int count = 0; count <= MAX_NUMBERS; count++)
        s->patience[count] = (long)PATIENCE << 2 * (count > BUILD + 1 ? count - BUILD - 1 : 0);
    if (answers_init(&s->answers, 256) < 0)
        goto fail;
    return (PyObject *)s;
fail:
    Py_DECREF(s);
    return NULL;
}

static void Search_dealloc(Search *s) {
    for (int m = 0; m < MASKS; m++) {
        set_free(&s->sets[m]);
        free(s->ordered[m].at);
        free(s->few[m].at);
        free(s->cuts[m].at);
        free(s->other[m].at);
    }
    free(s->answers.slot);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *Search_reaches(Search *s, PyObject *const *args, Py_ssize_t nargs) {
    int m;
    Value w;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "reaches(m, w)");
        return NULL;
    }
    if (mask_argument(s, args[0], &m) < 0 || value_argument(args[1], &w) < 0)
        return NULL;
    if (w >= LIMIT || w <= -LIMIT)
        Py_RETURN_FALSE;
    int made = reaches(s, m, w);
    if (made < 0)
        return NULL;
    return PyBool_FromLong(made);
}

static PyObject *list_of(Vec *v) {
    PyObject *out = PyList_New((Py_ssize_t)v->len);
    for (size_t i = 0; out && i < v->len; i++) {
        PyObject *item = PyLong_FromLongLong(v->at[i]);
        if (!item) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, (Py_ssize_t)i, item);
    }
    return out;
}

static PyObject *Search_window(Search *s, PyObject *const *args, Py_ssize_t nargs) {
    int m;
    Value lo, hi;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "window(m, lo, hi)");
        return NULL;
    }
    if (mask_argument(s, args[0], &m) < 0 || value_argument(args[1], &lo) < 0 ||
        value_argument(args[2], &hi) < 0)
        return NULL;
    Vec out = {0};
    if (window(s, m, lo, hi, &out) < 0) {
        free(out.at);
        return NULL;
    }
    vec_sort_unique(&out);
    PyObject *list = list_of(&out);
    free(out.at);
    return list;
}

static PyObject *Search_values(Search *s, PyObject *arg) {
    int m;
    if (mask_argument(s, arg, &m) < 0)
        return NULL;
    const Vec *v = ordered(s, s->same[m]);
    return v ? list_of((Vec *)v) : NULL;
}

static PyObject *Search_build_parts(Search *s, PyObject *Py_UNUSED(ignored)) {
    Cuts *cuts = cuts_of(s, (int)s->full);
    if (!cuts)
        return NULL;
    for (int k = 0; k < cuts->len; k++)
        if (s->count[cuts->at[k].a] <= WINDOW_BUILD && build(s, cuts->at[k].a) < 0)
            return NULL;
    Py_RETURN_NONE;
}

static PyObject *Search_ceiling(Search *s, PyObject *arg) {
    Value enough;
    if (value_argument(arg, &enough) < 0)
        return NULL;
    if (s->bound[s->full] > enough)
        return PyLong_FromLongLong(s->bound[s->full]);
    Value top = largest(s, (int)s->full);
    return top < 0 ? NULL : PyLong_FromLongLong(top);
}

static PyObject *Search_expression(Search *s, PyObject *const *args, Py_ssize_t nargs) {
    int m;
    Value w;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "expression(m, w)");
        return NULL;
    }
    if (mask_argument(s, args[0], &m) < 0 || value_argument(args[1], &w) < 0)
        return NULL;
    return expression(s, m, w);
}

static PyMethodDef Search_methods[] = {
    {"reaches", (PyCFunction)(void (*)(void))Search_reaches, METH_FASTCALL,
     "reaches(m, w): whether sub-hand m makes w."},
    {"window", (PyCFunction)(void (*)(void))Search_window, METH_FASTCALL,
     "window(m, lo, hi): the values of sub-hand m from lo to hi, sorted."},
    {"values", (PyCFunction)Search_values, METH_O, "values(m): every value of m, sorted."},
    {"build_parts", (PyCFunction)Search_build_parts, METH_NOARGS,
     "build_parts(): build the value sets of the whole hand's parts of up to 5 numbers."},
    {"ceiling", (PyCFunction)Search_ceiling, METH_O,
     "ceiling(enough): the largest value, or a bound above `enough`."},
    {"expression", (PyCFunction)(void (*)(void))Search_expression, METH_FASTCALL,
     "expression(m, w): one expression of m worth w, as nested (op, left, right)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Search_members[] = {
    {"full", T_PYSSIZET, offsetof(Search, full), READONLY, "the mask of the whole hand"},
    {"low", T_LONGLONG, offsetof(Search, low), READONLY, "the smallest legal step"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.native._countdown.Search",
    .tp_doc = "Search(hand, subset): which whole numbers a sorted Countdown hand makes.",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Search_new,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_members = Search_members,
};

static struct PyModuleDef countdown_module = {
    PyModuleDef_HEAD_INIT, "_countdown",
    "Countdown's search in C, the twin of solver.countdown_search.", -1, NULL,
};

PyMODINIT_FUNC PyInit__countdown(void) {
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&countdown_module);
    if (!module)
        return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(module, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(module);
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "LIMIT_BITS", 62) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
