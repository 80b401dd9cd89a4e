# SPDX-License-Identifier: MIT OR Apache-2.0
"""The C ABI of libtensorcast.so.0 through ctypes: the structs of include/tensorcast.h,
the functions with their argument types, and the error -> exception mapping.

Nothing here is public; pytensorcast's functions are the API.
"""

from __future__ import annotations

import ctypes
import os
from typing import NoReturn

HERE = os.path.dirname(os.path.abspath(__file__))
LIB_PATH = os.environ.get("PYTENSORCAST_LIB") or os.path.join(HERE, "libtensorcast.so.0")
ORT_LIB_PATH = os.path.join(HERE, "libtensorcast_ort.so")

MAX_NDIM = 64
ERROR_MESSAGE_BYTES = 256


class Error(ctypes.Structure):
    """struct tcast_error."""

    _fields_ = [
        ("status", ctypes.c_int32),
        ("index", ctypes.c_int64),
        ("message", ctypes.c_char * ERROR_MESSAGE_BYTES),
    ]


class Tensor(ctypes.Structure):
    """struct tcast_tensor."""

    _fields_ = [
        ("data", ctypes.c_void_p),
        ("data_bytes", ctypes.c_uint64),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("ndim", ctypes.c_int32),
        ("dtype", ctypes.c_int32),
    ]


class CastOptions(ctypes.Structure):
    """struct tcast_cast_options (the executor is always NULL here)."""

    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("saturate", ctypes.c_int32),
        ("round_mode", ctypes.c_int32),
        ("string_format", ctypes.c_int32),
        ("casting", ctypes.c_int32),
        ("threads", ctypes.c_int32),
        ("executor", ctypes.c_void_p),
    ]


class QdqOptions(ctypes.Structure):
    """struct tcast_qdq_options."""

    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("saturate", ctypes.c_int32),
        ("axis", ctypes.c_int64),
        ("block_size", ctypes.c_int64),
        ("precision", ctypes.c_int32),
        ("reserved", ctypes.c_int32),
    ]


class MxOptions(ctypes.Structure):
    """struct tcast_mx_options."""

    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("scale_rule", ctypes.c_int32),
        ("axis", ctypes.c_int64),
        ("block_size", ctypes.c_int64),
        ("reserved0", ctypes.c_int32),
        ("reserved1", ctypes.c_int32),
    ]


class String(ctypes.Structure):
    """struct tcast_string: a view of `len` bytes."""

    _fields_ = [("data", ctypes.c_void_p), ("len", ctypes.c_uint64)]


class Arena(ctypes.Structure):
    """struct tcast_string_arena."""

    _fields_ = [("data", ctypes.c_void_p), ("capacity", ctypes.c_uint64), ("used", ctypes.c_uint64)]


lib = ctypes.CDLL(LIB_PATH)

_P = ctypes.POINTER
_i32, _u32, _i64, _u64 = ctypes.c_int32, ctypes.c_uint32, ctypes.c_int64, ctypes.c_uint64


def _fn(name: str, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


version = _fn("tcast_version", ctypes.c_char_p)
dtype_name = _fn("tcast_dtype_name", ctypes.c_char_p, _i32)
dtype_bits = _fn("tcast_dtype_bits", _u32, _i32)
dtype_from_name = _fn("tcast_dtype_from_name", _i32, ctypes.c_char_p, _P(_i32), _P(Error))
tensor_bytes = _fn("tcast_tensor_bytes", _i32, _i32, _P(_i64), _i32, _P(_u64), _P(Error))
cast_options_init = _fn("tcast_cast_options_init", _i32, _P(CastOptions), ctypes.c_size_t)
can_cast_fn = _fn("tcast_can_cast", _i32, _i32, _i32, _i32, _P(_i32), _P(Error))
string_max_bytes = _fn("tcast_string_max_bytes", _u64, _i32)
cast_to_strings = _fn(
    "tcast_cast_to_strings", _i32, _P(Tensor), _P(Tensor), _P(Arena), _P(CastOptions), _P(Error)
)
expand_shape = _fn(
    "tcast_expand_shape", _i32, _P(_i64), _i32, _P(_i64), _i32, _P(_i64), _i32, _P(_i32), _P(Error)
)
expand_ex = _fn("tcast_expand_ex", _i32, _P(Tensor), _P(Tensor), _P(CastOptions), _P(Error))
bitcast_fn = _fn("tcast_bitcast", _i32, _P(Tensor), _i32, _i32, _P(Tensor), _P(_i64), _i32, _P(Error))
np_can_cast_str = _fn("tcast_np_can_cast_str", _i32, ctypes.c_char_p, ctypes.c_char_p, _i32, _i32, _P(_i32), _P(Error))
np_casting_from_name = _fn("tcast_np_casting_from_name", _i32, ctypes.c_char_p, _P(_i32), _P(Error))
qdq_options_init = _fn("tcast_qdq_options_init", _i32, _P(QdqOptions), ctypes.c_size_t)
quantize_linear_fn = _fn(
    "tcast_quantize_linear", _i32, _P(Tensor), _P(Tensor), _P(Tensor), _P(Tensor), _P(QdqOptions), _P(Error)
)
dequantize_linear_fn = _fn(
    "tcast_dequantize_linear", _i32, _P(Tensor), _P(Tensor), _P(Tensor), _P(Tensor), _P(QdqOptions), _P(Error)
)
mx_options_init = _fn("tcast_mx_options_init", _i32, _P(MxOptions), ctypes.c_size_t)
mx_quantize_fn = _fn(
    "tcast_mx_quantize", _i32, _P(Tensor), _P(Tensor), _P(Tensor), _P(Tensor), _P(MxOptions), _P(Error)
)
mx_dequantize_fn = _fn(
    "tcast_mx_dequantize", _i32, _P(Tensor), _P(Tensor), _P(Tensor), _P(Tensor), _P(MxOptions), _P(Error)
)
mx_repack_fn = _fn(
    "tcast_mx_repack", _i32, _i32, _P(Tensor), _P(Tensor), _i32, _P(Tensor), _P(Tensor), _P(MxOptions),
    _P(Error),
)
cpu_info_fn = _fn("tcast_cpu_info", _i32, ctypes.c_char_p, _u64, _P(_u64), _P(Error))

# tcast_cast without argtypes: the fast path passes ready-made byref() objects, which
# ctypes hands on without per-argument conversion.
cast_raw = lib.tcast_cast
cast_raw.restype = ctypes.c_int32
cast_raw.argtypes = None

OK = 0
STATUS_NAMES = {
    1: "TCAST_ERR_NULL_ARGUMENT",
    2: "TCAST_ERR_INVALID_DTYPE",
    3: "TCAST_ERR_UNSUPPORTED",
    4: "TCAST_ERR_INVALID_SHAPE",
    5: "TCAST_ERR_INCOMPATIBLE_SHAPES",
    6: "TCAST_ERR_BUFFER_TOO_SMALL",
    7: "TCAST_ERR_PARSE",
    8: "TCAST_ERR_INVALID_ARGUMENT",
    9: "TCAST_ERR_CASTING",
    10: "TCAST_ERR_OUT_OF_MEMORY",
    99: "TCAST_ERR_INTERNAL",
}
# The statuses that say the types do not fit (numpy raises TypeError for those).
_TYPE_STATUSES = {2, 3, 9}


class TensorcastValueError(ValueError):
    """A tensorcast error about values, shapes or arguments (parse errors, shapes)."""

    status: int
    index: int


class TensorcastTypeError(TypeError):
    """A tensorcast error about dtypes: an unknown dtype, an unsupported or refused cast."""

    status: int
    index: int


def raise_error(err: Error, status: int) -> NoReturn:
    """Raises the exception for a failed call: tensorcast's message, the status's name,
    the element index (also as attributes `status` and `index`)."""
    message = err.message.decode("utf-8", "replace")
    name = STATUS_NAMES.get(status, f"status {status}")
    if status == 10:
        raise MemoryError(f"tensorcast: {name}: {message}")
    cls = TensorcastTypeError if status in _TYPE_STATUSES else TensorcastValueError
    exc = cls(f"tensorcast: {name}: {message}")
    exc.status = status
    exc.index = err.index
    raise exc


def check(status: int, err: Error) -> None:
    if status != OK:
        raise_error(err, status)


def default_options() -> CastOptions:
    opts = CastOptions()
    status = cast_options_init(ctypes.byref(opts), ctypes.sizeof(opts))
    if status != OK:  # pragma: no cover - only a size below 24 fails
        raise RuntimeError(f"tcast_cast_options_init: status {status}")
    return opts
