/* The lean loop of `python -m solver batch` (solver/cli.py), module solver.native._batch.

   `row(line, target, solve, *args)` reads a line of 1 to 8 plain numbers (ASCII digits, at most
   7 each, up to 1,000,000, separated by ASCII blanks), asks `solve(hand, *args)` for the sorted
   hand's solutions (the core's solve itself, so no Python frame runs per hand) and writes the
   line's JSON object as json.dumps writes it. Any other line, a solution text that JSON would
   escape, or a solve that raised OverflowError (a value past the core's 64 bits) gives None: the
   Python path answers it, with the same bytes for the rest (tests/solver/test_batch_output.py). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

enum { MAX_NUMBERS = 8, MAX_DIGITS = 7 };
#define MAX_NUMBER 1000000L

static int blank(Py_UCS1 c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* The numbers of a plain line, in order, and how many (0: not a plain line). */
static int read_numbers(const Py_UCS1 *text, Py_ssize_t len, long *numbers) {
    int count = 0;
    Py_ssize_t i = 0;
    while (i < len) {
        if (blank(text[i])) {
            i++;
            continue;
        }
        long value = 0;
        Py_ssize_t start = i;
        while (i < len && text[i] >= '0' && text[i] <= '9')
            value = value * 10 + (text[i++] - '0');
        if (i == start || i - start > MAX_DIGITS || (i < len && !blank(text[i])) ||
            value > MAX_NUMBER || count == MAX_NUMBERS)
            return 0;
        numbers[count++] = value;
    }
    return count;
}

/* Whether json.dumps writes the str as it is, between quotes. */
static int plain_text(PyObject *text) {
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text))
        return 0;
    const Py_UCS1 *c = PyUnicode_1BYTE_DATA(text);
    for (Py_ssize_t i = 0, n = PyUnicode_GET_LENGTH(text); i < n; i++)
        if (c[i] < 0x20 || c[i] == '"' || c[i] == '\\')
            return 0;
    return 1;
}

static char *put(char *at, const char *text, size_t len) {
    memcpy(at, text, len);
    return at + len;
}

/* the decimal digits of n >= 0 at `at`; returns how many */
static int put_number(char *at, long long n) {
    char digits[24];
    int width = 0;
    do {
        digits[width++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    for (int i = 0; i < width; i++) at[i] = digits[width - 1 - i];
    return width;
}

enum { MAX_EXTRA = 4 };  /* the arguments passed on to solve after the hand */

static PyObject *row(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs < 3 || nargs > 3 + MAX_EXTRA || !PyUnicode_Check(args[0]) ||
        !PyUnicode_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "row(line: str, target: str, solve, *args)");
        return NULL;
    }
    PyObject *line = args[0], *target = args[1], *solve = args[2];
    if (!PyUnicode_IS_ASCII(line) || !PyUnicode_IS_ASCII(target))
        Py_RETURN_NONE;
    long numbers[MAX_NUMBERS], sorted[MAX_NUMBERS];
    int count = read_numbers(PyUnicode_1BYTE_DATA(line), PyUnicode_GET_LENGTH(line), numbers);
    if (!count)
        Py_RETURN_NONE;
    for (int i = 0; i < count; i++) {  /* insertion sort: at most 8 */
        long v = numbers[i];
        int j = i;
        for (; j > 0 && sorted[j - 1] > v; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = v;
    }
    PyObject *hand = PyTuple_New(count);
    if (!hand)
        return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *n = PyLong_FromLong(sorted[i]);
        if (!n) {
            Py_DECREF(hand);
            return NULL;
        }
        PyTuple_SET_ITEM(hand, i, n);
    }
    PyObject *call[1 + MAX_EXTRA] = {hand};
    for (Py_ssize_t i = 3; i < nargs; i++)
        call[i - 2] = args[i];
    PyObject *found = PyObject_Vectorcall(solve, call, (size_t)(nargs - 2), NULL);
    Py_DECREF(hand);
    if (!found) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError))
            return NULL;
        PyErr_Clear();  /* the Python path answers, with Python's integers */
        Py_RETURN_NONE;
    }
    if (!PyList_CheckExact(found)) {
        Py_DECREF(found);
        PyErr_SetString(PyExc_TypeError, "solve must return a list of str");
        return NULL;
    }
    Py_ssize_t solutions = PyList_GET_SIZE(found);
    char digits[MAX_NUMBERS][24], total[24];
    int widths[MAX_NUMBERS];
    size_t size = 0;
    for (int i = 0; i < count; i++) {
        widths[i] = put_number(digits[i], numbers[i]);
        size += (size_t)widths[i] + (i ? 2 : 0);  /* ", " before all but the first */
    }
    int total_width = put_number(total, solutions);
    for (Py_ssize_t k = 0; k < solutions; k++) {
        PyObject *text = PyList_GET_ITEM(found, k);
        if (!plain_text(text)) {
            Py_DECREF(found);
            Py_RETURN_NONE;
        }
        size += (size_t)PyUnicode_GET_LENGTH(text) + (k ? 4 : 2);  /* quoted, ", " between */
    }
    static const char head[] = "{\"numbers\": [", mid[] = "], \"target\": ",
                      counted[] = ", \"count\": ", listed[] = ", \"solutions\": [",
                      end[] = "]}\n";
    size_t target_len = (size_t)PyUnicode_GET_LENGTH(target);
    size += sizeof head + sizeof mid + sizeof counted + sizeof listed + sizeof end - 5 +
            target_len + (size_t)total_width;  /* exactly the line's length */
    PyObject *out = PyUnicode_New((Py_ssize_t)size, 127);  /* written in place: ASCII */
    if (!out) {
        Py_DECREF(found);
        return NULL;
    }
    char *buffer = (char *)PyUnicode_1BYTE_DATA(out), *at = buffer;
    at = put(at, head, sizeof head - 1);
    for (int i = 0; i < count; i++) {
        if (i)
            at = put(at, ", ", 2);
        at = put(at, digits[i], (size_t)widths[i]);
    }
    at = put(at, mid, sizeof mid - 1);
    at = put(at, (const char *)PyUnicode_1BYTE_DATA(target), target_len);
    at = put(at, counted, sizeof counted - 1);
    at = put(at, total, (size_t)total_width);
    at = put(at, listed, sizeof listed - 1);
    for (Py_ssize_t k = 0; k < solutions; k++) {
        PyObject *text = PyList_GET_ITEM(found, k);
        if (k)
            at = put(at, ", ", 2);
        *at++ = '"';
        at = put(at, (const char *)PyUnicode_1BYTE_DATA(text),
                 (size_t)PyUnicode_GET_LENGTH(text));
        *at++ = '"';
    }
    at = put(at, end, sizeof end - 1);
    Py_DECREF(found);
    if ((size_t)(at - buffer) != size) {  /* never: the sizes above are the writes below */
        Py_DECREF(out);
        PyErr_SetString(PyExc_SystemError, "batch.c: a row's length was miscounted");
        return NULL;
    }
    return out;
}

static PyMethodDef batch_methods[] = {
    {"row", (PyCFunction)(void (*)(void))row, METH_FASTCALL,
     "row(line, target, solve, *args): the JSON line of a plain hand, or None for the Python "
     "path."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef batch_module = {
    PyModuleDef_HEAD_INIT, "_batch", "The lean loop of `python -m solver batch`.", -1,
    batch_methods,
};

PyMODINIT_FUNC PyInit__batch(void) { return PyModule_Create(&batch_module); }
