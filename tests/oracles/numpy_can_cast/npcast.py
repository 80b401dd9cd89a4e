# SPDX-License-Identifier: MIT OR Apache-2.0
"""ctypes binding of tensorcast's numpy casting functions (docs/c-api.md section 7).

The library is loaded on first use (not at import, so the numpy-side case generation in
``npside`` can run without it) from the path in ``TCAST_LIB``, or from
``target/release/libtensorcast.so`` under the repository root.

``tests/oracles/numpy/tcast.py`` is not imported: it imports ml_dtypes and binds the whole cast
API at import time, and this suite also runs in a numpy 1.26 venv without ml_dtypes and
before section 7 exists in the library. The pieces both bindings need (the error struct,
the status codes, the loading rule) come from ``tests/oracles/numpy/capi_base.py``, which
imports only the standard library.

Every wrapper returns a Python value, or raises ``NpCastError`` carrying ``status``,
``index`` and ``message`` (and ``call``, the C function's name). ``outcome(fn, *args)``
turns a call into ``("ok", value)`` or ``("err", status, message)`` for tests that expect
failures.
"""

import ctypes
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "numpy"))
from capi_base import (  # noqa: E402,F401  (shared with tests/oracles/numpy; re-exported)
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
    STATUS_NAMES,
    library_path,
    tcast_error,
)

NUMPY_1 = 1  # TCAST_NUMPY_1: numpy 1.x as documented for 1.22
NUMPY_2 = 2  # TCAST_NUMPY_2: numpy >= 2 (NEP 50)

# casting levels (TCAST_CASTING_*), and 5 = no level allows the cast
NO, EQUIV, SAFE, SAME_KIND, UNSAFE, IMPOSSIBLE = range(6)
CASTING_NAMES = ("no", "equiv", "safe", "same_kind", "unsafe")
LEVEL_NAMES = CASTING_NAMES + ("impossible",)

# tensorcast dtype codes (ONNX TensorProto.DataType, plus TensorFlow's quantized types)
DTYPE_CODES = {
    "FLOAT": 1, "UINT8": 2, "INT8": 3, "UINT16": 4, "INT16": 5, "INT32": 6, "INT64": 7,
    "STRING": 8, "BOOL": 9, "FLOAT16": 10, "DOUBLE": 11, "UINT32": 12, "UINT64": 13,
    "COMPLEX64": 14, "COMPLEX128": 15, "BFLOAT16": 16, "FLOAT8E4M3FN": 17,
    "FLOAT8E4M3FNUZ": 18, "FLOAT8E5M2": 19, "FLOAT8E5M2FNUZ": 20, "UINT4": 21, "INT4": 22,
    "FLOAT4E2M1": 23, "FLOAT8E8M0": 24, "UINT2": 25, "INT2": 26, "FLOAT6E2M3": 27,
    "FLOAT6E3M2": 28,
    "QINT8": 100, "QUINT8": 101, "QINT16": 102, "QUINT16": 103, "QINT32": 104,
}

# ---------------------------------------------------------------------------- structs


class NpCastError(Exception):
    """A tensorcast call failed: ``call``, ``status``, ``index`` (or -1), ``message``."""

    def __init__(self, call, status, index, message):
        self.call = call
        self.status = status
        self.index = index
        self.message = message
        name = STATUS_NAMES.get(status, f"status {status}")
        super().__init__(f"{call}: {name} (index {index}): {message}")


# ---------------------------------------------------------------------------- loading

_c = ctypes
_P_ERR = _c.POINTER(tcast_error)
_P_I32 = _c.POINTER(_c.c_int32)
_STR = _c.c_char_p
_I32 = _c.c_int32
_U64 = _c.c_uint64
_P_U64 = _c.POINTER(_c.c_uint64)
_DBL = _c.c_double
_VP = _c.c_void_p



class _Handle:
    """ctypes argtype of ``const tcast_np_dtype *``: an ``NpDtype``, None (NULL) or an
    address."""

    @classmethod
    def from_param(cls, obj):
        if isinstance(obj, NpDtype):
            return _VP(obj.ptr)
        return _VP.from_param(obj)


_H = _Handle

# name -> argtypes (every one returns tcast_status except tcast_np_dtype_free)
_SIGNATURES = {
    "tcast_np_dtype_parse": [_STR, _c.POINTER(_VP), _P_ERR],
    "tcast_np_dtype_str": [_H, _c.c_char_p, _U64, _P_U64, _P_ERR],
    "tcast_np_casting_from_name": [_STR, _P_I32, _P_ERR],
    "tcast_np_casting_level": [_H, _H, _I32, _P_I32, _P_ERR],
    "tcast_np_can_cast": [_H, _H, _I32, _I32, _P_I32, _P_ERR],
    "tcast_np_can_cast_str": [_STR, _STR, _STR, _I32, _P_I32, _P_ERR],
    "tcast_np_can_cast_pyint": [_STR, _STR, _I32, _I32, _P_I32, _P_ERR],
    "tcast_np_can_cast_pyfloat": [_DBL, _STR, _I32, _I32, _P_I32, _P_ERR],
    "tcast_np_can_cast_pycomplex": [_DBL, _DBL, _STR, _I32, _I32, _P_I32, _P_ERR],
    "tcast_np_can_cast_pybool": [_I32, _STR, _I32, _I32, _P_I32, _P_ERR],
    "tcast_np_can_cast_scalar": [_STR, _VP, _U64, _I32, _STR, _I32, _I32, _P_I32, _P_ERR],
    "tcast_np_promote_types": [_STR, _STR, _c.c_char_p, _U64, _P_U64, _P_ERR],
    "tcast_np_min_scalar_type_pyint": [_STR, _c.c_char_p, _U64, _P_U64, _P_ERR],
    "tcast_np_min_scalar_type_pyfloat": [_DBL, _c.c_char_p, _U64, _P_U64, _P_ERR],
    "tcast_np_min_scalar_type_pycomplex": [_DBL, _DBL, _c.c_char_p, _U64, _P_U64, _P_ERR],
    "tcast_can_cast": [_I32, _I32, _I32, _P_I32, _P_ERR],
}

_lib = None
LIB_PATH = None
DRYRUN = False  # True when npfake has replaced the wrappers (TCAST_NP_ORACLE_DRYRUN=1)


def lib():
    """The loaded library with every section-7 function bound (loaded on first call)."""
    global _lib, LIB_PATH
    if _lib is not None:
        return _lib
    path = library_path()
    handle = ctypes.CDLL(path)
    missing = [name for name in _SIGNATURES if not hasattr(handle, name)]
    if missing:
        raise RuntimeError(f"{path} lacks the section-7 functions {', '.join(missing)}")
    for name, argtypes in _SIGNATURES.items():
        fn = getattr(handle, name)
        fn.argtypes = argtypes
        fn.restype = _I32
    handle.tcast_np_dtype_free.argtypes = [_VP]
    handle.tcast_np_dtype_free.restype = None
    LIB_PATH = path
    _lib = handle
    return handle


def _bytes(text):
    return text.encode("utf-8") if isinstance(text, str) else bytes(text)


def _check(call, status, err):
    if status != OK:
        message = err.message.decode("utf-8", "replace")
        if err.status != status:  # docs/c-api.md section 1: *err carries the returned status
            raise AssertionError(f"{call} returned status {status} but wrote "
                                 f"err.status {err.status} (message {message!r})")
        raise NpCastError(call, status, err.index, message)


def _casting(casting):
    """A casting given as a name ("safe") or an int level -> the int32 the C API takes."""
    if isinstance(casting, str):
        return CASTING_NAMES.index(casting)
    return int(casting)


def _bool_call(name, *args):
    result = _I32(-1)
    err = tcast_error()
    status = getattr(lib(), name)(*args, ctypes.byref(result), ctypes.byref(err))
    _check(name, status, err)
    if result.value not in (0, 1):
        raise AssertionError(f"{name} wrote result {result.value}, not 0 or 1")
    return bool(result.value)


STR_CAPACITY = 1024


def _str_call(name, *args, capacity=STR_CAPACITY):
    buf = ctypes.create_string_buffer(max(capacity, 1))
    err = tcast_error()
    needed = ctypes.c_uint64(0)
    status = getattr(lib(), name)(*args, buf, capacity, ctypes.byref(needed), ctypes.byref(err))
    _check(name, status, err)
    text = buf.value
    if needed.value != len(text) + 1:
        raise AssertionError(f"{name}: wrote {len(text)} bytes of text but reported "
                             f"{needed.value} needed (with the NUL)")
    return text.decode("utf-8")


# ---------------------------------------------------------------------------- dtype handles


class NpDtype:
    """A parsed numpy dtype (``tcast_np_dtype *``), freed when garbage collected."""

    def __init__(self, spec):
        self.spec = spec
        self.ptr = None
        out = _VP()
        err = tcast_error()
        status = lib().tcast_np_dtype_parse(_bytes(spec), ctypes.byref(out), ctypes.byref(err))
        _check("tcast_np_dtype_parse", status, err)
        if not out.value:
            raise AssertionError(f"tcast_np_dtype_parse({spec!r}) returned OK and NULL")
        self.ptr = out.value

    def __del__(self):
        if self.ptr is not None and _lib is not None:
            _lib.tcast_np_dtype_free(self.ptr)
            self.ptr = None

    def __repr__(self):
        return f"NpDtype({self.spec!r})"


def dtype_parse(spec):
    """``tcast_np_dtype_parse``: an ``NpDtype`` (raises NpCastError on failure)."""
    return NpDtype(spec)


def dtype_str(dtype, capacity=STR_CAPACITY):
    """``tcast_np_dtype_str``: what ``str(np.dtype(spec))`` prints."""
    return _str_call("tcast_np_dtype_str", dtype, capacity=capacity)


def casting_from_name(name):
    """``tcast_np_casting_from_name``: 0..4."""
    out = _I32(-1)
    err = tcast_error()
    status = lib().tcast_np_casting_from_name(_bytes(name), ctypes.byref(out),
                                              ctypes.byref(err))
    _check("tcast_np_casting_from_name", status, err)
    return out.value


def casting_level(a, b, rules):
    """``tcast_np_casting_level`` on two ``NpDtype``: 0..5."""
    out = _I32(-1)
    err = tcast_error()
    status = lib().tcast_np_casting_level(a, b, rules, ctypes.byref(out), ctypes.byref(err))
    _check("tcast_np_casting_level", status, err)
    return out.value


def can_cast(a, b, casting, rules):
    """``tcast_np_can_cast`` on two ``NpDtype``; ``casting`` a name or 0..4."""
    return _bool_call("tcast_np_can_cast", a, b, _casting(casting), rules)


def can_cast_str(a, b, casting, rules):
    """``tcast_np_can_cast_str``: all three arguments as strings."""
    return _bool_call("tcast_np_can_cast_str", _bytes(a), _bytes(b), _bytes(casting), rules)


def can_cast_pyint(value, to, casting, rules):
    """``tcast_np_can_cast_pyint``: ``value`` a Python int (passed as decimal text) or text."""
    text = str(value) if isinstance(value, int) else value
    return _bool_call("tcast_np_can_cast_pyint", _bytes(text), _bytes(to), _casting(casting),
                      rules)


def can_cast_pyfloat(value, to, casting, rules):
    return _bool_call("tcast_np_can_cast_pyfloat", float(value), _bytes(to), _casting(casting),
                      rules)


def can_cast_pycomplex(value, to, casting, rules):
    """``tcast_np_can_cast_pycomplex``: ``value`` a Python complex."""
    value = complex(value)
    return _bool_call("tcast_np_can_cast_pycomplex", value.real, value.imag, _bytes(to),
                      _casting(casting), rules)


def can_cast_pybool(value, to, casting, rules):
    return _bool_call("tcast_np_can_cast_pybool", 1 if value else 0, _bytes(to),
                      _casting(casting), rules)


def can_cast_scalar(dtype, value_bytes, is_array, to, casting, rules):
    """``tcast_np_can_cast_scalar``: ``value_bytes`` the value as numpy stores it in
    ``dtype`` (``np.array(v, dtype).tobytes()``)."""
    raw = bytes(value_bytes)
    buf = ctypes.create_string_buffer(raw, max(len(raw), 1))
    return _bool_call("tcast_np_can_cast_scalar", _bytes(dtype), ctypes.cast(buf, _VP),
                      len(raw), 1 if is_array else 0, _bytes(to), _casting(casting), rules)


def promote_types(a, b, capacity=STR_CAPACITY):
    """``tcast_np_promote_types``: ``str()`` of the promoted dtype."""
    return _str_call("tcast_np_promote_types", _bytes(a), _bytes(b), capacity=capacity)


def min_scalar_type_pyint(value):
    text = str(value) if isinstance(value, int) else value
    return _str_call("tcast_np_min_scalar_type_pyint", _bytes(text))


def min_scalar_type_pyfloat(value):
    return _str_call("tcast_np_min_scalar_type_pyfloat", float(value))


def min_scalar_type_pycomplex(value):
    value = complex(value)
    return _str_call("tcast_np_min_scalar_type_pycomplex", value.real, value.imag)


def tc_can_cast(from_code, to_code, casting):
    """``tcast_can_cast`` on two tensorcast dtype codes; ``casting`` a name or 0..4."""
    return _bool_call("tcast_can_cast", from_code, to_code, _casting(casting))


def outcome(fn, *args, **kwargs):
    """``("ok", value)`` or ``("err", status, message)``."""
    try:
        return ("ok", fn(*args, **kwargs))
    except NpCastError as e:
        return ("err", e.status, e.message)


def describe(result):
    """A short text for an ``outcome`` result, for mismatch reports."""
    if result[0] == "ok":
        return f"ok {result[1]!r}"
    return f"{STATUS_NAMES.get(result[1], result[1])} {result[2]!r}"
