# SPDX-License-Identifier: MIT OR Apache-2.0
"""A small ctypes binding of the tensorcast C API, for the oracle tests.

The library is loaded from the path in the ``TCAST_LIB`` environment variable, or from
``target/release/libtensorcast.so`` under the repository root when it is not set.

Only what the oracle tests need is bound: the structs of ``include/tensorcast.h``
(``tcast_tensor``, ``tcast_error``, ``tcast_string``, ``tcast_string_arena``,
``tcast_cast_options``), ``tcast_cast``, ``tcast_cast_to_strings`` and
``tcast_string_max_bytes``, ``tcast_dtype_bits`` and ``tcast_tensor_bytes``, and these
batch helpers:

* ``to_strings(array, fmt)`` formats every element of a numpy array (one call) and
  returns the texts as a list of ``bytes`` in row-major order;
* ``from_strings(texts, dtype_code)`` parses a list of ``bytes`` (one call) into a new
  numpy array of the dtype with that ONNX code; ``parse_raw(texts, dtype_code, saturate,
  round_mode)`` does the same for any numeric dtype and returns the output's bytes;
* ``cast(array, from_code, to_code, shape, saturate=1, round_mode=ROUND_UP, threads=0)``
  casts the raw bytes of ``array`` (read as a contiguous tensor of ``from_code`` and
  ``shape``, packed for the sub-byte dtypes) and returns the output's bytes;
* ``pack_codes(codes, bits)`` / ``unpack_codes(data, bits, n)`` convert between one code
  per byte and the packed layout of docs/c-api.md section 4 (written here from the page, not
  taken from the library).

A failing call raises ``TcastError`` carrying the status, the element index and the
library's message.
"""

import ctypes

import ml_dtypes
import numpy as np

from capi_base import (  # noqa: F401  (re-exported for the tests)
    DEFAULT_LIB,
    ERR_BUFFER_TOO_SMALL,
    ERR_CASTING,
    ERR_INCOMPATIBLE_SHAPES,
    ERR_INTERNAL,
    ERR_INVALID_ARGUMENT,
    ERR_INVALID_DTYPE,
    ERR_INVALID_SHAPE,
    ERR_NULL_ARGUMENT,
    ERR_PARSE,
    ERR_UNSUPPORTED,
    OK,
    REPO_ROOT,
    library_path,
    tcast_error,
)

# ---------------------------------------------------------------------------- constants

FORMAT_SHORTEST = 0
FORMAT_PRINTF_8G = 1

ROUND_UP = 0
ROUND_DOWN = 1
ROUND_NEAREST = 2


# ONNX TensorProto.DataType codes (the subset with a numpy storage type here).
FLOAT = 1
UINT8 = 2
INT8 = 3
UINT16 = 4
INT16 = 5
INT32 = 6
INT64 = 7
STRING = 8
BOOL = 9
FLOAT16 = 10
DOUBLE = 11
UINT32 = 12
UINT64 = 13
COMPLEX64 = 14
COMPLEX128 = 15
BFLOAT16 = 16
FLOAT8E4M3FN = 17
FLOAT8E4M3FNUZ = 18
FLOAT8E5M2 = 19
FLOAT8E5M2FNUZ = 20
UINT4 = 21
INT4 = 22
FLOAT4E2M1 = 23
FLOAT8E8M0 = 24
UINT2 = 25
INT2 = 26
FLOAT6E2M3 = 27
FLOAT6E3M2 = 28

NUMPY_DTYPES = {
    FLOAT: np.dtype(np.float32),
    UINT8: np.dtype(np.uint8),
    INT8: np.dtype(np.int8),
    UINT16: np.dtype(np.uint16),
    INT16: np.dtype(np.int16),
    INT32: np.dtype(np.int32),
    INT64: np.dtype(np.int64),
    BOOL: np.dtype(np.bool_),
    FLOAT16: np.dtype(np.float16),
    DOUBLE: np.dtype(np.float64),
    UINT32: np.dtype(np.uint32),
    UINT64: np.dtype(np.uint64),
    COMPLEX64: np.dtype(np.complex64),
    COMPLEX128: np.dtype(np.complex128),
    BFLOAT16: np.dtype(ml_dtypes.bfloat16),
}
CODES = {dt: code for code, dt in NUMPY_DTYPES.items()}

# ---------------------------------------------------------------------------- structs


class tcast_tensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("data_bytes", ctypes.c_uint64),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("ndim", ctypes.c_int32),
        ("dtype", ctypes.c_int32),
    ]


class tcast_string(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("len", ctypes.c_uint64)]


class tcast_string_arena(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("capacity", ctypes.c_uint64),
        ("used", ctypes.c_uint64),
    ]


class tcast_cast_options(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("saturate", ctypes.c_int32),
        ("round_mode", ctypes.c_int32),
        ("string_format", ctypes.c_int32),
        ("casting", ctypes.c_int32),
        ("threads", ctypes.c_int32),
        # const tcast_executor *: the struct must be the header's whole size, since
        # tcast_cast_options_default() returns (and fills) all of it.
        ("executor", ctypes.c_void_p),
    ]


# A tcast_string as numpy sees an array of them: pointer and length, 16 bytes.
VIEW_DTYPE = np.dtype([("data", np.uint64), ("len", np.uint64)])
assert VIEW_DTYPE.itemsize == ctypes.sizeof(tcast_string)

# ---------------------------------------------------------------------------- library


def _load():
    path = library_path()
    lib = ctypes.CDLL(path)
    lib.tcast_status_name.restype = ctypes.c_char_p
    lib.tcast_status_name.argtypes = [ctypes.c_int32]
    lib.tcast_cast_options_default.restype = tcast_cast_options
    lib.tcast_cast_options_default.argtypes = []
    lib.tcast_string_max_bytes.restype = ctypes.c_uint64
    lib.tcast_string_max_bytes.argtypes = [ctypes.c_int32]
    lib.tcast_dtype_bits.restype = ctypes.c_uint32
    lib.tcast_dtype_bits.argtypes = [ctypes.c_int32]
    lib.tcast_tensor_bytes.restype = ctypes.c_int32
    lib.tcast_tensor_bytes.argtypes = [
        ctypes.c_int32,
        ctypes.POINTER(ctypes.c_int64),
        ctypes.c_int32,
        ctypes.POINTER(ctypes.c_uint64),
        ctypes.POINTER(tcast_error),
    ]
    lib.tcast_cast.restype = ctypes.c_int32
    lib.tcast_cast.argtypes = [
        ctypes.POINTER(tcast_tensor),
        ctypes.POINTER(tcast_tensor),
        ctypes.POINTER(tcast_cast_options),
        ctypes.POINTER(tcast_error),
    ]
    lib.tcast_cast_to_strings.restype = ctypes.c_int32
    lib.tcast_cast_to_strings.argtypes = [
        ctypes.POINTER(tcast_tensor),
        ctypes.POINTER(tcast_tensor),
        ctypes.POINTER(tcast_string_arena),
        ctypes.POINTER(tcast_cast_options),
        ctypes.POINTER(tcast_error),
    ]
    return path, lib


LIB_PATH, lib = _load()


class TcastError(Exception):
    """A tensorcast call failed: ``status``, ``index`` (or -1) and ``message``."""

    def __init__(self, call, err):
        self.status = err.status
        self.index = err.index
        self.message = err.message.decode("utf-8", "replace")
        name = lib.tcast_status_name(err.status).decode()
        super().__init__(f"{call}: {name} (index {self.index}): {self.message}")


def status_name(status):
    return lib.tcast_status_name(status).decode()


def max_bytes(dtype_code):
    """``tcast_string_max_bytes``."""
    return lib.tcast_string_max_bytes(dtype_code)


def options(fmt=FORMAT_SHORTEST):
    opts = lib.tcast_cast_options_default()
    opts.string_format = fmt
    return opts


class _Described:
    """A tcast_tensor describing a numpy array (kept alive with its shape and strides)."""

    def __init__(self, array, code):
        self.array = array
        n = array.ndim
        self.shape = (ctypes.c_int64 * max(n, 1))(*array.shape)
        item = array.dtype.itemsize
        if array.flags.c_contiguous:
            strides = None
            span = array.nbytes
        else:
            if any(s < 0 or s % item for s in array.strides):
                raise ValueError("only non-negative whole-element strides are described")
            strides = (ctypes.c_int64 * max(n, 1))(*(s // item for s in array.strides))
            span = 0 if array.size == 0 else item * (
                1 + sum((d - 1) * (s // item) for d, s in zip(array.shape, array.strides)))
        self.strides = strides
        self.tensor = tcast_tensor(
            ctypes.c_void_p(array.ctypes.data if array.size else None),
            span,
            ctypes.cast(self.shape, ctypes.POINTER(ctypes.c_int64)),
            None if strides is None else ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64)),
            n,
            code,
        )


def _code_of(array):
    try:
        return CODES[array.dtype]
    except KeyError:
        raise TypeError(f"no tensorcast dtype for numpy {array.dtype}") from None


def to_strings(array, fmt=FORMAT_SHORTEST):
    """Formats every element of ``array`` with ``tcast_cast_to_strings`` (one call).

    Returns the texts as ``bytes``, in row-major order. Non-contiguous arrays with
    non-negative strides are passed with their strides.
    """
    array = np.asarray(array)
    code = _code_of(array)
    source = _Described(array, code)
    n = array.size
    views = np.zeros(array.shape, dtype=VIEW_DTYPE)
    target = _Described(views, STRING)
    capacity = max(1, n * max_bytes(code))
    arena_buf = ctypes.create_string_buffer(capacity)
    arena = tcast_string_arena(ctypes.addressof(arena_buf), capacity, 0)
    opts = options(fmt)
    err = tcast_error()
    status = lib.tcast_cast_to_strings(
        ctypes.byref(source.tensor), ctypes.byref(target.tensor), ctypes.byref(arena),
        ctypes.byref(opts), ctypes.byref(err))
    if status != OK:
        raise TcastError("tcast_cast_to_strings", err)
    raw = ctypes.string_at(arena_buf, arena.used)
    flat = views.reshape(-1)
    starts = (flat["data"] - np.uint64(ctypes.addressof(arena_buf))).astype(np.int64)
    ends = starts + flat["len"].astype(np.int64)
    if n and (starts.min() < 0 or ends.max() > arena.used):
        raise AssertionError("a view points outside the arena's used bytes")
    return [raw[s:e] for s, e in zip(starts.tolist(), ends.tolist())]


def parse_raw(texts, dtype_code, saturate=1, round_mode=ROUND_UP):
    """Parses a list of ``bytes`` into a 1-D tensor of any numeric dtype with ``tcast_cast``
    (one call) and returns the output's bytes (packed for the sub-byte dtypes)."""
    texts = [bytes(t) for t in texts]
    n = len(texts)
    blob = b"".join(texts)
    buf = ctypes.create_string_buffer(blob, max(1, len(blob)))
    base = ctypes.addressof(buf)
    lengths = np.fromiter((len(t) for t in texts), dtype=np.uint64, count=n)
    offsets = np.zeros(n, dtype=np.uint64)
    if n > 1:
        np.cumsum(lengths[:-1], out=offsets[1:])
    views = np.empty(n, dtype=VIEW_DTYPE)
    views["data"] = offsets + np.uint64(base)
    views["len"] = lengths
    source = _Described(views, STRING)
    shape, dims = _shape_array((n,))
    out_bytes = tensor_bytes(dtype_code, shape)
    out = np.zeros(max(out_bytes, 1), dtype=np.uint8)
    target = tcast_tensor(ctypes.c_void_p(out.ctypes.data if out_bytes else None), out_bytes,
                          ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64)), None, 1,
                          dtype_code)
    opts = lib.tcast_cast_options_default()
    opts.saturate = saturate
    opts.round_mode = round_mode
    err = tcast_error()
    status = lib.tcast_cast(ctypes.byref(source.tensor), ctypes.byref(target),
                            ctypes.byref(opts), ctypes.byref(err))
    if status != OK:
        raise TcastError("tcast_cast", err)
    return out[:out_bytes].tobytes()


def from_strings(texts, dtype_code):
    """Parses a list of ``bytes`` into a new numpy array with ``tcast_cast`` (one call)."""
    raw = parse_raw(texts, dtype_code)
    return np.frombuffer(raw, dtype=NUMPY_DTYPES[dtype_code]).copy()


# ---------------------------------------------------------------------------- raw casts


def dtype_bits(dtype_code):
    """``tcast_dtype_bits``: bits per element (0 for an unknown code)."""
    return lib.tcast_dtype_bits(dtype_code)


def _shape_array(shape):
    shape = tuple(int(d) for d in shape)
    return shape, (ctypes.c_int64 * max(len(shape), 1))(*shape)


def tensor_bytes(dtype_code, shape):
    """``tcast_tensor_bytes``: the bytes of a contiguous tensor, sub-byte dtypes packed."""
    shape, dims = _shape_array(shape)
    out = ctypes.c_uint64()
    err = tcast_error()
    status = lib.tcast_tensor_bytes(dtype_code, dims, len(shape), ctypes.byref(out),
                                    ctypes.byref(err))
    if status != OK:
        raise TcastError("tcast_tensor_bytes", err)
    return out.value


def cast(array, from_code, to_code, shape=None, saturate=1, round_mode=ROUND_UP, threads=0):
    """Casts the bytes of ``array`` as a contiguous tensor of ``from_code`` and ``shape``
    (default: the array's shape) to ``to_code`` with one ``tcast_cast`` call and returns
    the output bytes (packed for the sub-byte dtypes).

    ``array`` may be any numpy array or bytes-like object: only its raw bytes count, so a
    packed input is passed as its packed bytes together with the element shape.
    """
    if isinstance(array, (bytes, bytearray, memoryview)):
        raw = np.frombuffer(bytes(array), dtype=np.uint8)
        if shape is None:
            raise ValueError("a bytes input needs its shape")
    else:
        array = np.ascontiguousarray(array)
        if shape is None:
            shape = array.shape
        raw = array.reshape(-1).view(np.uint8)
    shape, dims = _shape_array(shape)
    in_bytes = tensor_bytes(from_code, shape)
    if raw.size != in_bytes:
        raise ValueError(f"{raw.size} input bytes for a tensor of {in_bytes}")
    out_bytes = tensor_bytes(to_code, shape)
    source = np.array(raw, dtype=np.uint8)  # a private copy, checked unchanged below
    out = np.full(max(out_bytes, 1), 0xFF, dtype=np.uint8)
    tin = tcast_tensor(ctypes.c_void_p(source.ctypes.data if in_bytes else None), in_bytes,
                       ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64)), None, len(shape),
                       from_code)
    tout = tcast_tensor(ctypes.c_void_p(out.ctypes.data if out_bytes else None), out_bytes,
                        ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64)), None, len(shape),
                        to_code)
    opts = lib.tcast_cast_options_default()
    opts.saturate = saturate
    opts.round_mode = round_mode
    opts.threads = threads
    err = tcast_error()
    status = lib.tcast_cast(ctypes.byref(tin), ctypes.byref(tout), ctypes.byref(opts),
                            ctypes.byref(err))
    if status != OK:
        raise TcastError("tcast_cast", err)
    if not np.array_equal(source, raw):
        raise AssertionError("tcast_cast wrote to its input")
    return out[:out_bytes].tobytes()


def unpack_codes(data, bits, n):
    """The ``n`` codes of ``bits`` bits (2, 4, 6 or 8) in ``data``, one per byte (uint8).

    Element i occupies bits [i * bits, (i + 1) * bits) of ``data`` read as one
    little-endian bit stream (docs/c-api.md section 4).
    """
    raw = np.frombuffer(bytes(data), dtype=np.uint8)
    if bits == 8:
        return raw[:n].copy()
    stream = np.unpackbits(raw, bitorder="little")
    if stream.size < n * bits:
        raise ValueError(f"{raw.size} bytes hold fewer than {n} codes of {bits} bits")
    fields = stream[: n * bits].reshape(n, bits).astype(np.uint8)
    weights = (1 << np.arange(bits)).astype(np.uint8)
    return (fields * weights).sum(axis=1, dtype=np.uint32).astype(np.uint8)


def pack_codes(codes, bits):
    """Packs codes (each below 2**bits) into the layout ``unpack_codes`` reads, the unused
    high bits of the last byte 0."""
    codes = np.asarray(codes, dtype=np.uint8).reshape(-1)
    if bits == 8:
        return codes.tobytes()
    if codes.size and int(codes.max()) >> bits:
        raise ValueError(f"a code does not fit in {bits} bits")
    fields = (codes[:, None] >> np.arange(bits, dtype=np.uint8)) & 1
    return np.packbits(fields.reshape(-1), bitorder="little").tobytes()


# ---------------------------------------------------------------------------- expand
#
# ``expand_shape(input_shape, shape)`` is ``tcast_expand_shape`` (a tuple, or raises
# TcastError); ``expand_into(array, out_shape)`` runs ``tcast_expand`` from ``array``
# (passed with its real strides, in elements) into a new contiguous array of
# ``out_shape`` and returns it, after checking the input was not written.

lib.tcast_expand_shape.restype = ctypes.c_int32
lib.tcast_expand_shape.argtypes = [
    ctypes.POINTER(ctypes.c_int64),
    ctypes.c_int32,
    ctypes.POINTER(ctypes.c_int64),
    ctypes.c_int32,
    ctypes.POINTER(ctypes.c_int64),
    ctypes.c_int32,
    ctypes.POINTER(ctypes.c_int32),
    ctypes.POINTER(tcast_error),
]
lib.tcast_expand.restype = ctypes.c_int32
lib.tcast_expand.argtypes = [
    ctypes.POINTER(tcast_tensor),
    ctypes.POINTER(tcast_tensor),
    ctypes.POINTER(tcast_error),
]

MAX_NDIM = 64


def expand_shape(input_shape, shape):
    """``tcast_expand_shape``: the broadcast of the two shapes, as a tuple."""
    input_shape, in_dims = _shape_array(input_shape)
    shape, dims = _shape_array(shape)
    out = (ctypes.c_int64 * MAX_NDIM)()
    ndim = ctypes.c_int32(-1)
    err = tcast_error()
    status = lib.tcast_expand_shape(in_dims, len(input_shape), dims, len(shape), out,
                                    MAX_NDIM, ctypes.byref(ndim), ctypes.byref(err))
    if status != OK:
        raise TcastError("tcast_expand_shape", err)
    return tuple(out[i] for i in range(ndim.value))


def expand_into(array, out_shape, code=None):
    """``tcast_expand`` of ``array`` into a new array of ``out_shape`` (same dtype)."""
    if code is None:
        code = _code_of(array)
    before = np.array(array, copy=True)
    out = np.empty(tuple(out_shape), dtype=array.dtype)
    source = _Described(array, code)
    target = _Described(out, code)
    err = tcast_error()
    status = lib.tcast_expand(ctypes.byref(source.tensor), ctypes.byref(target.tensor),
                              ctypes.byref(err))
    if status != OK:
        raise TcastError("tcast_expand", err)
    if before.tobytes() != np.ascontiguousarray(array).tobytes():
        raise AssertionError("tcast_expand wrote to its input")
    return out


# ---------------------------------------------------------------------------- bitcast
#
# ``bitcast_shape(from_code, shape, to_code, rules)`` is ``tcast_bitcast_shape`` (a tuple,
# or raises TcastError); ``bitcast(array, to_code, rules)`` runs ``tcast_bitcast`` on
# ``array`` (passed with its real strides, in elements, when it is not C-contiguous) and
# returns a ``BitcastView`` of the descriptor the library wrote.

BITCAST_TF = 0
BITCAST_ONNX = 1
BITCAST_NUMPY_VIEW = 2

_BITCAST_CAPACITY = 66  # TCAST_MAX_NDIM + 2: room for any view shape and then some

lib.tcast_bitcast_shape.restype = ctypes.c_int32
lib.tcast_bitcast_shape.argtypes = [
    ctypes.c_int32,
    ctypes.POINTER(ctypes.c_int64),
    ctypes.c_int32,
    ctypes.c_int32,
    ctypes.c_int32,
    ctypes.POINTER(ctypes.c_int64),
    ctypes.c_int32,
    ctypes.POINTER(ctypes.c_int32),
    ctypes.POINTER(tcast_error),
]
lib.tcast_bitcast.restype = ctypes.c_int32
lib.tcast_bitcast.argtypes = [
    ctypes.POINTER(tcast_tensor),
    ctypes.c_int32,
    ctypes.c_int32,
    ctypes.POINTER(tcast_tensor),
    ctypes.POINTER(ctypes.c_int64),
    ctypes.c_int32,
    ctypes.POINTER(tcast_error),
]


def bitcast_shape(from_code, shape, to_code, rules):
    """``tcast_bitcast_shape``: the view shape of a contiguous tensor, as a tuple."""
    shape, dims = _shape_array(shape)
    out = (ctypes.c_int64 * _BITCAST_CAPACITY)()
    ndim = ctypes.c_int32(-1)
    err = tcast_error()
    status = lib.tcast_bitcast_shape(from_code, dims, len(shape), to_code, rules, out,
                                     _BITCAST_CAPACITY, ctypes.byref(ndim), ctypes.byref(err))
    if status != OK:
        raise TcastError("tcast_bitcast_shape", err)
    return tuple(out[i] for i in range(ndim.value))


class BitcastView:
    """What ``tcast_bitcast`` wrote into its view descriptor.

    ``data`` (an address, or None for NULL), ``data_bytes``, ``shape`` (a tuple read
    through ``view.shape``), ``dtype``, ``strides_null`` and ``shape_is_storage`` (whether
    ``view.shape`` points at the shape_storage passed in); ``input_data`` and
    ``input_bytes`` are what the input descriptor held. ``raw()`` reads the view's
    ``data_bytes`` bytes at ``data``.
    """

    def __init__(self, view, storage, source):
        self.data = view.data
        self.data_bytes = view.data_bytes
        self.dtype = view.dtype
        self.ndim = view.ndim
        self.strides_null = not bool(view.strides)
        self.shape_is_storage = (
            ctypes.cast(view.shape, ctypes.c_void_p).value == ctypes.addressof(storage))
        self.shape = tuple(view.shape[i] for i in range(view.ndim)) if view.ndim else ()
        self.input_data = source.tensor.data
        self.input_bytes = source.tensor.data_bytes

    def raw(self):
        if self.data_bytes == 0:
            return b""
        return ctypes.string_at(self.data, self.data_bytes)


def bitcast(array, to_code, rules, code=None):
    """``tcast_bitcast`` of ``array`` as dtype ``to_code`` under ``rules``."""
    if code is None:
        code = _code_of(array)
    source = _Described(array, code)
    storage = (ctypes.c_int64 * _BITCAST_CAPACITY)()
    view = tcast_tensor()
    err = tcast_error()
    status = lib.tcast_bitcast(ctypes.byref(source.tensor), to_code, rules, ctypes.byref(view),
                               storage, _BITCAST_CAPACITY, ctypes.byref(err))
    if status != OK:
        raise TcastError("tcast_bitcast", err)
    return BitcastView(view, storage, source)
