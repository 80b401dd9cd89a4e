/* SPDX-License-Identifier: MIT OR Apache-2.0
 *
 * pytensorcast._fast: the compiled fast path of pytensorcast.cast (docs/python.md, "Speed").
 *
 * One function, cast(x, dtype), for the common call: x an exact numpy.ndarray,
 * C-contiguous, whose (dtype object, target) pair pytensorcast registered before with
 * register(); default options. It allocates the result with numpy.empty and calls
 * tcast_cast through the function pointer that init() hands it (the ctypes function's
 * address), so the module links against neither libtensorcast nor numpy nor libpython.
 * Anything else, and any call tcast_cast refuses, returns None: the caller then runs the
 * ctypes path, which does the same cast (or raises its error).
 *
 * Built against CPython's limited API of 3.9 (one cp39-abi3 module). The ndarray's data
 * pointer, rank, extents and flags are read from numpy's PyArrayObject_fields, whose
 * leading fields are numpy's public ABI since numpy 1.0 (PyArray_DATA and friends compile
 * to these loads in every numpy extension, so numpy keeps them in place: numpy 2 did).
 * The dtype is compared by identity with the registered dtype objects, never read.
 */
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* numpy's PyArrayObject_fields, the leading fields (numpy/ndarraytypes.h). */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
} np_array;
#define NPY_ARRAY_C_CONTIGUOUS 0x0001

/* include/tensorcast.h */
typedef struct {
    void *data;
    uint64_t data_bytes;
    const int64_t *shape;
    const int64_t *strides;
    int32_t ndim;
    int32_t dtype;
} tcast_tensor;
typedef struct {
    int32_t status;
    int64_t index;
    char message[256];
} tcast_error;
typedef int32_t (*tcast_cast_fn)(const tcast_tensor *, const tcast_tensor *, const void *, tcast_error *);

#define MAX_NDIM 64
#define MAX_PAIRS 256
/* Above this many source bytes the C call runs without the GIL. */
#define GIL_RELEASE_BYTES (64 * 1024)

typedef struct {
    PyObject *src;    /* the source's dtype object */
    PyObject *target; /* the target as the caller spells it (dtype, type or name) */
    PyObject *dst;    /* the result's dtype object */
    int32_t src_code, dst_code;
    int64_t src_size, dst_size;
} pair;

static tcast_cast_fn cast_fn;
static const void *options;     /* the default tcast_cast_options, owned by the caller */
static PyObject *ndarray_type;  /* numpy.ndarray */
static PyObject *np_empty;      /* numpy.empty */
static pair pairs[MAX_PAIRS];
static int n_pairs;

/* init(tcast_cast address, options address, numpy.ndarray, numpy.empty) */
static PyObject *fast_init(PyObject *self, PyObject *args) {
    unsigned long long fn, opts;
    PyObject *type, *empty;
    (void)self;
    if (!PyArg_ParseTuple(args, "KKOO", &fn, &opts, &type, &empty)) return NULL;
    if (!fn || !opts) {
        PyErr_SetString(PyExc_ValueError, "init: the tcast_cast and options addresses must not be 0");
        return NULL;
    }
    Py_INCREF(type);
    Py_INCREF(empty);
    Py_XDECREF(ndarray_type);
    Py_XDECREF(np_empty);
    ndarray_type = type;
    np_empty = empty;
    cast_fn = (tcast_cast_fn)(uintptr_t)fn;
    options = (const void *)(uintptr_t)opts;
    Py_RETURN_NONE;
}

/* register(src dtype, target, dst dtype, src code, dst code, src size, dst size) -> bool */
static PyObject *fast_register(PyObject *self, PyObject *args) {
    pair p;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOiiLL", &p.src, &p.target, &p.dst, &p.src_code, &p.dst_code,
                          &p.src_size, &p.dst_size))
        return NULL;
    if (p.src_size <= 0 || p.dst_size <= 0) {
        PyErr_SetString(PyExc_ValueError, "register: item sizes must be > 0");
        return NULL;
    }
    if (n_pairs == MAX_PAIRS) Py_RETURN_FALSE;
    Py_INCREF(p.src);
    Py_INCREF(p.target);
    Py_INCREF(p.dst);
    pairs[n_pairs++] = p;
    Py_RETURN_TRUE;
}

/* cast(x, target) -> the result, or None for the ctypes path */
static PyObject *fast_cast(PyObject *self, PyObject *args) {
    PyObject *x, *target, *shape, *res;
    const pair *p = NULL;
    int i;
    (void)self;
    /* No PyArg_ParseTuple: it costs a tenth of the whole call. */
    if (!PyTuple_Check(args) || PyTuple_Size(args) != 2) {
        PyErr_SetString(PyExc_TypeError, "cast(x, target) takes 2 arguments");
        return NULL;
    }
    x = PyTuple_GetItem(args, 0);
    target = PyTuple_GetItem(args, 1);
    if (cast_fn == NULL || (PyObject *)Py_TYPE(x) != ndarray_type) Py_RETURN_NONE;
    const np_array *a = (const np_array *)x;
    if (!(a->flags & NPY_ARRAY_C_CONTIGUOUS) || a->nd > MAX_NDIM) Py_RETURN_NONE;
    for (i = 0; i < n_pairs; i++) {
        if (pairs[i].src == a->descr && pairs[i].target == target) {
            p = &pairs[i];
            break;
        }
    }
    if (p == NULL) Py_RETURN_NONE;

    int64_t dims[MAX_NDIM];
    int64_t n = 1;
    int nd = a->nd;
    if (nd == 1) {
        dims[0] = a->dimensions[0];
        n = dims[0];
        shape = PyLong_FromSsize_t(a->dimensions[0]);
    } else {
        shape = PyTuple_New(nd);
        for (i = 0; shape != NULL && i < nd; i++) {
            PyObject *d = PyLong_FromSsize_t(a->dimensions[i]);
            if (d == NULL) {
                Py_CLEAR(shape);
                break;
            }
            PyTuple_SetItem(shape, i, d); /* steals d */
            dims[i] = a->dimensions[i];
            n *= dims[i];
        }
    }
    if (shape == NULL) return NULL;
    res = PyObject_CallFunctionObjArgs(np_empty, shape, p->dst, NULL);
    Py_DECREF(shape);
    if (res == NULL) return NULL;
    if (n == 0) return res;
    if ((PyObject *)Py_TYPE(res) != ndarray_type) {
        Py_DECREF(res);
        Py_RETURN_NONE;
    }
    tcast_tensor in = {a->data, (uint64_t)(n * p->src_size), dims, NULL, nd, p->src_code};
    tcast_tensor out = {((np_array *)res)->data, (uint64_t)(n * p->dst_size), dims, NULL, nd, p->dst_code};
    tcast_error err;
    int32_t status;
    if (n * p->src_size > GIL_RELEASE_BYTES) {
        Py_BEGIN_ALLOW_THREADS
        status = cast_fn(&in, &out, options, &err);
        Py_END_ALLOW_THREADS
    } else {
        status = cast_fn(&in, &out, options, &err);
    }
    if (status != 0) {
        Py_DECREF(res);
        Py_RETURN_NONE; /* the ctypes path raises tensorcast's error */
    }
    return res;
}

static PyMethodDef methods[] = {
    {"init", fast_init, METH_VARARGS, "init(tcast_cast address, options address, numpy.ndarray, numpy.empty)"},
    {"register", fast_register, METH_VARARGS,
     "register(src dtype, target, dst dtype, src code, dst code, src size, dst size) -> bool"},
    {"cast", fast_cast, METH_VARARGS, "cast(x, target) -> ndarray, or None for the ctypes path"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pytensorcast._fast",
    "pytensorcast's compiled fast path for cast (internal).", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fast(void) { return PyModule_Create(&module); }
