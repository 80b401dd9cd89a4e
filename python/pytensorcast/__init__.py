# SPDX-License-Identifier: MIT OR Apache-2.0
"""pytensorcast: tensorcast's exact, fast dtype conversions for numpy users.

ONNX Cast between every ONNX dtype (float8, float4, float6, int4, int2, bfloat16, strings
...), ONNX Expand, bitcasts with tf/ONNX/numpy rules and numpy's ``can_cast``, on arrays
of numpy and ml_dtypes, through tensorcast's Rust core, compiled into the extension
module ``pytensorcast._native`` (PyO3, CPython's limited API: one abi3 wheel for every
CPython >= 3.9).

>>> import numpy as np, pytensorcast as tc
>>> tc.cast(np.array([1.0, 500.0, np.nan], np.float32), "float8_e4m3fn")
array([1, 448, nan], dtype=float8_e4m3fn)

``ort_library_path()`` gives onnxruntime the library ``libtensorcast_ort.so``.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, Optional, Union

import ml_dtypes
import numpy as np

from . import _native
from ._native import TensorcastTypeError, TensorcastValueError

__all__ = [
    "cast",
    "expand",
    "bitcast",
    "can_cast",
    "quantize_linear",
    "dequantize_linear",
    "mx_quantize",
    "mx_dequantize",
    "mx_repack",
    "ort_library_path",
    "dtype_name",
    "numpy_dtype",
    "cpu_info",
    "astype",
    "promote_types",
    "result_type",
    "min_scalar_type",
    "finfo",
    "TensorcastTypeError",
    "TensorcastValueError",
    "__version__",
]

__version__: str = _native.__version__

_HERE = os.path.dirname(os.path.abspath(__file__))
_MAX_NDIM: int = _native.MAX_NDIM

DTypeLike = Union[str, type, np.dtype, Any]

STRING = 8
_NP1 = np.lib.NumpyVersion(np.__version__) < "2.0.0"
_STRING_DTYPE = np.dtype("U") if _NP1 else np.dtypes.StringDType()

# One table: tensorcast dtype code -> the numpy dtype that holds it (ml_dtypes' for the
# low-precision types; sub-byte types one element per byte, as ml_dtypes stores them).
_NUMPY_OF_CODE: dict[int, np.dtype] = {
    1: np.dtype(np.float32),
    2: np.dtype(np.uint8),
    3: np.dtype(np.int8),
    4: np.dtype(np.uint16),
    5: np.dtype(np.int16),
    6: np.dtype(np.int32),
    7: np.dtype(np.int64),
    9: np.dtype(np.bool_),
    10: np.dtype(np.float16),
    11: np.dtype(np.float64),
    12: np.dtype(np.uint32),
    13: np.dtype(np.uint64),
    14: np.dtype(np.complex64),
    15: np.dtype(np.complex128),
    16: np.dtype(ml_dtypes.bfloat16),
    17: np.dtype(ml_dtypes.float8_e4m3fn),
    18: np.dtype(ml_dtypes.float8_e4m3fnuz),
    19: np.dtype(ml_dtypes.float8_e5m2),
    20: np.dtype(ml_dtypes.float8_e5m2fnuz),
    21: np.dtype(ml_dtypes.uint4),
    22: np.dtype(ml_dtypes.int4),
    23: np.dtype(ml_dtypes.float4_e2m1fn),
    24: np.dtype(ml_dtypes.float8_e8m0fnu),
    25: np.dtype(ml_dtypes.uint2),
    26: np.dtype(ml_dtypes.int2),
    27: np.dtype(ml_dtypes.float6_e2m3fn),
    28: np.dtype(ml_dtypes.float6_e3m2fn),
}
_CODE_OF_NUMPY: dict[np.dtype, int] = {d: c for c, d in _NUMPY_OF_CODE.items()}
# Bits per element of the packed (sub-byte) types.
_SUB_BYTE_BITS: dict[int, int] = {21: 4, 22: 4, 23: 4, 25: 2, 26: 2, 27: 6, 28: 6}

_ROUND_MODES: dict[str, int] = _native.ROUND_MODES
_CASTINGS: dict[str, int] = _native.CASTINGS
_BITCAST_RULES = {"tf": 0, "onnx": 1, "numpy": 2}


def _is_string_dtype(d: Any) -> bool:
    return d is str or d is np.str_ or (isinstance(d, np.dtype) and d.kind in "UOT")


def _code(dtype: DTypeLike) -> int:
    """The tensorcast code of a numpy/ml_dtypes dtype, a Python type or a name."""
    if _is_string_dtype(dtype):
        return STRING
    if isinstance(dtype, str):
        code = _native.dtype_code(dtype)
        if code is not None:
            if code not in _NUMPY_OF_CODE and code != STRING:
                raise TypeError(f"dtype {dtype!r} ({_name(code)}) has no numpy dtype")
            return code
        try:
            d = np.dtype(dtype)
        except TypeError:
            raise TypeError(
                f"unknown dtype {dtype!r}: neither an ONNX name (\"FLOAT8E4M3FN\") nor a numpy or "
                "ml_dtypes dtype"
            ) from None
    else:
        try:
            d = np.dtype(dtype)
        except TypeError as e:
            raise TypeError(f"not a dtype: {dtype!r} ({e})") from None
    if d.kind in "UOT":
        return STRING
    code = _CODE_OF_NUMPY.get(d.newbyteorder("=") if d.byteorder not in "=|" else d)
    if code is None:
        raise TypeError(f"dtype {d} has no tensorcast dtype")
    return code


def _name(code: int) -> str:
    n = _native.dtype_name(code)
    return n if n else f"dtype {code}"


def dtype_name(dtype: DTypeLike) -> str:
    """The ONNX name of a dtype: ``dtype_name(ml_dtypes.float8_e4m3fn) == "FLOAT8E4M3FN"``."""
    return _name(_code(dtype))


def numpy_dtype(dtype: DTypeLike) -> np.dtype:
    """The numpy (or ml_dtypes) dtype that holds a tensorcast dtype:
    ``numpy_dtype("FLOAT4E2M1") == np.dtype(ml_dtypes.float4_e2m1fn)``; StringDType
    (``U`` on numpy 1) for STRING."""
    code = _code(dtype)
    return _STRING_DTYPE if code == STRING else _NUMPY_OF_CODE[code]


def ort_library_path() -> str:
    """The path of ``libtensorcast_ort.so``, for
    ``onnxruntime.SessionOptions.register_custom_ops_library`` (its kernels run in the
    ``ai.tensorcast`` domain) or ``onnxruntime.register_execution_provider_library``.

    The wheels carry it beside the package. A build from source (``pip install .``, the
    sdist) has none: build it (``cargo build --release -p tensorcast-ort``) and name it
    in ``PYTENSORCAST_ORT_LIB``, which is read first. Raises FileNotFoundError when
    neither is there."""
    path = os.environ.get("PYTENSORCAST_ORT_LIB") or os.path.join(_HERE, "libtensorcast_ort.so")
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"no tensorcast-ort library at {path}: this pytensorcast was built from source without it; "
            "build it with `cargo build --release -p tensorcast-ort` and set PYTENSORCAST_ORT_LIB to "
            "target/release/libtensorcast_ort.so"
        )
    return path


def _is_ml(d: np.dtype) -> bool:
    return d.num >= 256 and _CODE_OF_NUMPY.get(d) is not None


def promote_types(type1: DTypeLike, type2: DTypeLike) -> np.dtype:
    """``numpy.promote_types``: the smallest dtype both cast to safely, numpy 2's rules
    (tensorcast's numpy grammar for numpy's dtypes; ml_dtypes' registered promotions,
    through numpy, when either is an ML type)."""
    a, b = _np_dtype(type1), _np_dtype(type2)
    if _is_ml(a) or _is_ml(b):
        return np.promote_types(a, b)
    return np.dtype(_native.promote_types(a.str, b.str))


def result_type(*arrays_and_dtypes: Any) -> np.dtype:
    """``numpy.result_type`` of arrays and dtypes (numpy 2's rules: the promotion of
    their dtypes; Python scalars are numpy 2's weak scalars, which numpy resolves)."""
    if not arrays_and_dtypes:
        raise ValueError("at least one array or dtype is required")
    if any(isinstance(v, (bool, int, float, complex)) for v in arrays_and_dtypes):
        return np.result_type(*arrays_and_dtypes)
    dts = [v.dtype if hasattr(v, "dtype") and not isinstance(v, type) else _np_dtype(v) for v in arrays_and_dtypes]
    out = dts[0]
    for d in dts[1:]:
        out = promote_types(out, d)
    return out


def min_scalar_type(value: Any) -> np.dtype:
    """``numpy.min_scalar_type`` of a Python bool, int, float or complex (tensorcast's
    answer); arrays and numpy scalars go to numpy."""
    if isinstance(value, (bool, int, float, complex)):
        return np.dtype(_native.min_scalar_type(value))
    return np.min_scalar_type(value)


def finfo(dtype: DTypeLike) -> Any:
    """Machine limits of a float dtype, the ML types' included (ml_dtypes.finfo for
    bfloat16, the float8/float6/float4 types and float8_e8m0fnu; numpy.finfo else)."""
    d = _np_dtype(dtype)
    if _is_ml(d):
        if d.kind not in "fV" or d.name.startswith(("int", "uint")):
            raise ValueError(f"finfo is for floating dtypes, not {d}")
        return ml_dtypes.finfo(d)
    return np.finfo(d)


def _np_dtype(dtype: DTypeLike) -> np.dtype:
    """A numpy dtype of what ``cast`` takes as a dtype (ONNX names included)."""
    if isinstance(dtype, str):
        code = _native.dtype_code(dtype)
        if code is not None and code in _NUMPY_OF_CODE:
            return _NUMPY_OF_CODE[code]
    try:
        return np.dtype(dtype)
    except TypeError as e:
        raise TypeError(f"not a dtype: {dtype!r} ({e})") from None


def cpu_info() -> str:
    """One line on what the library runs on this CPU (architecture, SIMD families)."""
    return _native.cpu_info()


# ---- inputs ---------------------------------------------------------------------------


def _as_array(x: Any) -> np.ndarray:
    """A numpy view of x (no copy for arrays, buffers and DLPack producers)."""
    if isinstance(x, np.ndarray):
        a = x
    elif hasattr(x, "__dlpack__") and not isinstance(x, (bytes, bytearray, memoryview)):
        a = np.from_dlpack(x)
    else:
        a = np.asarray(x)
    if a.dtype.byteorder == (">" if np.little_endian else "<"):
        a = a.astype(a.dtype.newbyteorder("="))
    return a


def _pack(codes: np.ndarray, bits: int) -> np.ndarray:
    """Packs codes (one per byte, low bits) into tensorcast's layout, element 0 lowest."""
    flat = np.ascontiguousarray(codes).reshape(-1).view(np.uint8)
    per = {4: 2, 2: 4, 6: 4}[bits]
    n = flat.size
    pad = (-n) % per
    if pad:
        flat = np.concatenate([flat, np.zeros(pad, np.uint8)])
    mask = (1 << bits) - 1
    if bits == 6:
        g = (flat.reshape(-1, 4) & mask).astype(np.uint32)
        v = g[:, 0] | (g[:, 1] << 6) | (g[:, 2] << 12) | (g[:, 3] << 18)
        out = np.empty((v.size, 3), np.uint8)
        out[:, 0] = v & 0xFF
        out[:, 1] = (v >> 8) & 0xFF
        out[:, 2] = v >> 16
        return out.reshape(-1)[: (n * 6 + 7) // 8]
    g = flat.reshape(-1, per) & mask
    out = g[:, 0].copy()
    for i in range(1, per):
        out |= g[:, i] << (bits * i)
    return out


# Two codes of a packed 4-bit byte as one little-endian uint16 (low code first).
_NIBBLES = np.array([(b & 0xF) | ((b >> 4) << 8) for b in range(256)], "<u2")


def _unpack(packed: np.ndarray, bits: int, n: int, out: np.ndarray) -> None:
    """Writes n codes of packed bytes, one per byte, into the contiguous array out."""
    dst = out.reshape(-1).view(np.uint8)
    if bits == 4:
        if n % 2 == 0:
            np.take(_NIBBLES, packed[: n // 2], out=dst.view("<u2"))
        else:
            tmp = np.take(_NIBBLES, packed)
            dst[:] = tmp.view(np.uint8)[:n]
        return
    if bits == 2:
        parts = [(packed >> s) & 3 for s in (0, 2, 4, 6)]
        dst[:] = np.stack(parts, axis=1).reshape(-1)[:n]
        return
    m = (n + 3) // 4
    b = np.zeros(m * 3, np.uint8)
    b[: packed.size] = packed
    g = b.reshape(-1, 3).astype(np.uint32)
    v = g[:, 0] | (g[:, 1] << 8) | (g[:, 2] << 16)
    parts = [(v >> s) & 0x3F for s in (0, 6, 12, 18)]
    dst[:] = np.stack(parts, axis=1).astype(np.uint8).reshape(-1)[:n]


def _in(a: np.ndarray, code: int) -> tuple:
    """The (array, code, dims) triple _native reads: sub-byte arrays packed into
    tensorcast's layout first; negative or unaligned strides copied once."""
    if a.ndim > _MAX_NDIM:
        raise ValueError(f"rank {a.ndim} is above tensorcast's maximum, {_MAX_NDIM}")
    bits = _SUB_BYTE_BITS.get(code)
    if bits is not None:
        return (_pack(a, bits), code, a.shape)
    if not (a.flags.c_contiguous or a.size == 0):
        item = a.itemsize
        if not all(s >= 0 and s % item == 0 for s in a.strides):
            a = np.ascontiguousarray(a)
    return (a, code, None)


def _in_unpacked(a: np.ndarray) -> tuple:
    """As _in, with sub-byte arrays read in place (one element per byte)."""
    code = _code(a.dtype)
    if code in _SUB_BYTE_BITS:
        if a.ndim > _MAX_NDIM:
            raise ValueError(f"rank {a.ndim} is above tensorcast's maximum, {_MAX_NDIM}")
        if not (a.flags.c_contiguous or a.size == 0) and not all(s >= 0 for s in a.strides):
            a = np.ascontiguousarray(a)
        return (a, code, None)
    return _in(a, code)


def _int64(what: str, value: Any) -> int:
    """An integer argument as the core takes it (int64), or ValueError/TypeError naming it."""
    try:
        v = int(value)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be an integer, not {value!r}") from None
    if not -(2**63) <= v < 2**63:
        raise ValueError(f"{what} is {v}: outside int64")
    return v


def _bytes_of(code: int, shape: tuple) -> np.ndarray:
    """A buffer for a packed sub-byte tensor of `shape`."""
    return np.empty(_native.tensor_bytes(code, list(shape)), np.uint8)


def _options(saturate: bool, round_mode: str, casting: str, threads: Optional[int]) -> tuple:
    if round_mode not in _ROUND_MODES:
        raise ValueError(f"round_mode must be one of {sorted(_ROUND_MODES)}, not {round_mode!r}")
    if casting not in _CASTINGS:
        raise ValueError(f"casting must be one of {sorted(_CASTINGS)}, not {casting!r}")
    if threads is not None and (not isinstance(threads, int) or threads < 0 or threads > 2**31 - 1):
        raise ValueError(f"threads must be None or an int >= 0, not {threads!r}")
    return (bool(saturate), _ROUND_MODES[round_mode], _CASTINGS[casting], 1 if threads is None else threads)


def _register(src: np.dtype, dtype: Any) -> None:
    """Registers a (source dtype, target) pair of byte-sized numeric dtypes with the
    extension's fast path (a C-contiguous ndarray, default options)."""
    code = _CODE_OF_NUMPY.get(src)
    if code is None or code in _SUB_BYTE_BITS or not src.isnative:
        return
    try:
        to = _code(dtype)
        hash(dtype)
    except TypeError:
        return
    if to == STRING or to in _SUB_BYTE_BITS:
        return
    _native._register_pair(src, dtype, code, to, _NUMPY_OF_CODE[to])


# The extension's cast: a registered pair on a C-contiguous ndarray with default options
# is cast there; every other call comes back to _cast.
cast = _native.cast


def _cast(
    x: Any,
    dtype: DTypeLike,
    saturate: bool = True,
    round_mode: str = "up",
    casting: str = "unsafe",
    out: Optional[np.ndarray] = None,
    threads: Optional[int] = None,
    packed: bool = False,
) -> np.ndarray:
    """The general cast (every call the extension's fast path does not take)."""
    sat, rm, cm, nthreads = _options(saturate, round_mode, casting, threads)
    to = _code(dtype)
    a = _as_array(x)
    if a.dtype.kind == "O" and a.size and not any(isinstance(v, (str, bytes)) for v in a.flat):
        a = _numbers(a)
    from_code = _code(a.dtype)
    if (
        type(x) is np.ndarray
        and out is None
        and threads is None
        and saturate is True
        and packed is False
        and round_mode == "up"
        and casting == "unsafe"
    ):
        _register(a.dtype, dtype)
    shape = a.shape
    if to == STRING:
        if packed or out is not None:
            raise ValueError("a cast to strings takes neither out nor packed")
        if from_code == STRING:
            if casting != "unsafe":
                _check_can_cast(STRING, STRING, casting)
            return np.array(a, dtype=_STRING_DTYPE)
        texts = _native.format_strings(_in(a, from_code), cm)
        return np.array(texts, dtype=_STRING_DTYPE).reshape(shape)
    bits = _SUB_BYTE_BITS.get(to)
    out_dtype = _NUMPY_OF_CODE[to]
    if packed and bits is None:
        raise ValueError(f"packed=True is for the sub-byte dtypes, not {_name(to)}")
    if out is not None:
        if not isinstance(out, np.ndarray) or out.dtype != out_dtype or out.shape != shape:
            raise ValueError(
                f"out must be an ndarray of dtype {out_dtype} and shape {shape}, not "
                f"{getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}"
            )
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise ValueError("out must be C-contiguous and writeable")
        result = out
    else:
        result = np.empty(shape, out_dtype)
    # Sub-byte arrays are held one element per byte, as ml_dtypes stores them, and the
    # core reads and writes that layout itself; packed=True asks for ONNX's bytes.
    dst = _bytes_of(to, shape) if packed else result
    target = (dst, to, shape)
    if from_code == STRING:
        _parse(a, target, sat, cm, nthreads, not packed)
    elif packed and from_code in _SUB_BYTE_BITS:
        _native.cast_into(_in(a, from_code), target, sat, rm, cm, nthreads, False)
    else:
        _native.cast_into(_in_unpacked(a), target, sat, rm, cm, nthreads, not packed)
    return dst


_native._set_general(_cast)

from ._astype import astype  # noqa: E402 - after the names it uses


def _numbers(a: np.ndarray) -> np.ndarray:
    """An object array of Python numbers as the numeric array numpy makes of its values
    (ints -> int64, floats -> float64, ...), cast from there as any numeric array."""
    values = np.array(a.tolist())
    if values.dtype.kind not in "biufc" or values.shape != a.shape:
        raise TypeError(
            f"an object array is cast from its values when they are numbers and parsed when they are "
            f"texts; this one holds {sorted({type(v).__name__ for v in a.flat})}"
        )
    return values


def _parse(a: np.ndarray, target: tuple, saturate: bool, casting: int, threads: int, unpacked: bool) -> None:
    """Parses the texts of a StringDType, U or object array into target."""
    flat = a.reshape(-1) if a.flags.c_contiguous else np.ascontiguousarray(a).reshape(-1)
    encoded = []
    for i, s in enumerate(flat.tolist()):
        if isinstance(s, str):
            encoded.append(s.encode("utf-8"))
        elif isinstance(s, (bytes, bytearray)):
            encoded.append(bytes(s))
        else:
            raise TypeError(
                f"element {i} of the text array is {type(s).__name__} {s!r}, not str or bytes: "
                "an object array is parsed as text"
            )
    _native.parse_strings(
        b"".join(encoded), [len(e) for e in encoded], list(a.shape), target, saturate, casting, threads, unpacked
    )


def _check_can_cast(from_code: int, to_code: int, casting: str) -> None:
    if not can_cast(from_code, to_code, casting):
        raise TypeError(f"Cannot cast {_name(from_code)} to {_name(to_code)} under casting={casting!r}")


def expand(x: Any, shape: Iterable[int], *, threads: Optional[int] = None) -> np.ndarray:
    """ONNX Expand: ``x`` broadcast with ``shape`` (numpy's rules, aligned on the right;
    a 1 in either takes the other's extent), as a new contiguous array of x's dtype."""
    a = _as_array(x)
    code = _code(a.dtype)
    want = [_int64("shape", s) for s in shape]
    if any(s < 0 for s in want):
        raise ValueError(f"shape {tuple(want)}: every extent must be >= 0")
    nthreads = _options(True, "up", "unsafe", threads)[3]
    result_shape = tuple(_native.broadcast_shape(list(a.shape), want))
    if code == STRING:
        return np.array(np.broadcast_to(a, result_shape), dtype=_STRING_DTYPE)
    bits = _SUB_BYTE_BITS.get(code)
    result = np.empty(result_shape, a.dtype)
    dst = _bytes_of(code, result_shape) if bits is not None else result
    _native.expand(_in(a, code), (dst, code, result_shape), nthreads)
    if bits is not None:
        _unpack(dst, bits, result.size, result)
    return result


def bitcast(x: Any, dtype: DTypeLike, rules: str = "tf") -> np.ndarray:
    """A view of ``x``'s bytes as ``dtype``, without copying, with the shape rules of
    ``tf.bitcast`` ("tf": a wider source appends the size ratio as a last dimension, a
    narrower one drops it), ONNX BitCast-26 ("onnx": equal widths, same shape) or numpy's
    ``ndarray.view`` ("numpy": the last axis is rescaled). ``x`` must be C-contiguous
    and of a byte-sized dtype."""
    if rules not in _BITCAST_RULES:
        raise ValueError(f"rules must be one of {sorted(_BITCAST_RULES)}, not {rules!r}")
    a = _as_array(x)
    code = _code(a.dtype)
    to = _code(dtype)
    if code in _SUB_BYTE_BITS or to in _SUB_BYTE_BITS or STRING in (code, to):
        raise TypeError(
            f"bitcast between {_name(code)} and {_name(to)}: numpy holds sub-byte and string "
            "dtypes in another layout than tensorcast's"
        )
    if not (a.flags.c_contiguous or a.size == 0):
        raise ValueError("bitcast needs a C-contiguous array (a view cannot have strides)")
    if a.ndim > _MAX_NDIM:
        raise ValueError(f"rank {a.ndim} is above tensorcast's maximum, {_MAX_NDIM}")
    shape = tuple(_native.bitcast_shape(code, list(a.shape), to, _BITCAST_RULES[rules]))
    return a.reshape(-1).view(_NUMPY_OF_CODE[to]).reshape(shape) if a.size else np.empty(shape, _NUMPY_OF_CODE[to])


def can_cast(from_: DTypeLike, to: DTypeLike, casting: str = "safe") -> bool:
    """numpy's ``can_cast(from_, to, casting)`` for tensorcast dtypes, as numpy 2.4 with
    ml_dtypes 0.6 answers it (ml_dtypes' registered casts for the ML types, STRING as
    numpy's unsized ``U``). Dtypes as ``cast`` takes them, or tensorcast codes (ints)."""
    if casting not in _CASTINGS:
        raise ValueError(f"casting must be one of {sorted(_CASTINGS)}, not {casting!r}")
    a = from_ if isinstance(from_, int) and not isinstance(from_, bool) else _code(from_)
    b = to if isinstance(to, int) and not isinstance(to, bool) else _code(to)
    return _native.can_cast(a, b, _CASTINGS[casting])


# ---- QuantizeLinear / DequantizeLinear ------------------------------------------------

_PRECISIONS = {1, 10, 11, 16}  # FLOAT, FLOAT16, DOUBLE, BFLOAT16


def _qdq(quantize: bool, x: Any, scale: Any, zero_point: Any, to: int, axis: int, block_size: int,
         saturate: bool, precision: Optional[DTypeLike]) -> np.ndarray:
    """Runs QuantizeLinear or DequantizeLinear into a new array of x's shape."""
    if scale is None:
        raise TypeError("scale is required: an array (per-tensor, per-axis or blocked), not None")
    prec = None
    if precision is not None:
        prec = _code(precision)
        if prec not in _PRECISIONS:
            raise TypeError(f"precision must be float32, float16, bfloat16 or float64, not {_name(prec)}")
    # The core's QuantizeLinear reads contiguous tensors: strided views are copied once.
    arrays = [_as_array(t) for t in (x, scale, zero_point) if t is not None]
    arrays = [t if t.flags.c_contiguous else t.copy(order="C") for t in arrays]
    a = arrays[0]
    inputs = [_in(t, _code(t.dtype)) for t in arrays]
    if to not in _NUMPY_OF_CODE:
        raise TypeError(f"tensorcast has no numpy dtype for {_name(to)}")
    result = np.empty(a.shape, _NUMPY_OF_CODE[to])
    bits = _SUB_BYTE_BITS.get(to)
    dst = _bytes_of(to, a.shape) if bits is not None else result
    zp = inputs[2] if zero_point is not None else None
    _native.qdq(quantize, inputs[0], inputs[1], zp, (dst, to, a.shape), _int64("axis", axis),
                _int64("block_size", block_size),
                bool(saturate), prec)
    if bits is not None:
        _unpack(dst, bits, result.size, result)
    return result


def quantize_linear(
    x: Any,
    scale: Any,
    zero_point: Any = None,
    *,
    axis: int = 1,
    block_size: int = 0,
    saturate: bool = True,
    output_dtype: Optional[DTypeLike] = None,
    precision: Optional[DTypeLike] = None,
) -> np.ndarray:
    """ONNX QuantizeLinear (opsets 10-25): ``saturate(round(x / scale) + zero_point)``,
    rounded once from the exact quotient, ties to even (docs/semantics-quantize.md).

    x: float32, float16, bfloat16 or int32 array (numpy, buffer or ``__dlpack__``).
    scale: float32, float16, bfloat16, float8_e8m0fnu or int32: shape ``()`` or ``(1,)``
    (per-tensor), ``(D,)`` with D = x's extent along ``axis`` (per-axis), or x's shape with
    ``ceil(D / block_size)`` along ``axis`` (blocked, ``block_size`` > 0).
    zero_point: None (0) or an array of the output dtype and the scale's shape (zeros
    for the float types).
    output_dtype: the element type (int2/uint2/int4/uint4/int8/uint8/int16/uint16, the
    float8 types, float4_e2m1fn, float6_*), as ``cast`` takes dtypes; by default the
    zero point's dtype, else uint8 (ONNX's default).
    saturate: float8 outputs: out-of-range values give the largest finite value (True)
    or inf/NaN (False).
    precision: None, or float32/float16/bfloat16/float64: ONNX 23+'s ``precision``
    (x, scale and the quotient rounded to that type first).

    Returns a new array of x's shape, the ml_dtypes dtype one element per byte for the
    sub-byte types. Raises TypeError or ValueError with tensorcast's message.
    """
    if output_dtype is not None:
        to = _code(output_dtype)
    elif zero_point is not None:
        to = _code(_as_array(zero_point).dtype)
    else:
        to = 2  # UINT8
    return _qdq(True, x, scale, zero_point, to, axis, block_size, saturate, precision)


def dequantize_linear(
    x: Any,
    scale: Any,
    zero_point: Any = None,
    *,
    axis: int = 1,
    block_size: int = 0,
    output_dtype: Optional[DTypeLike] = None,
) -> np.ndarray:
    """ONNX DequantizeLinear (opsets 10-25): ``(x - zero_point) * scale``, the exact
    product rounded once to nearest even (docs/semantics-quantize.md).

    x: an array of a quantized type (as ``quantize_linear`` returns: int2 ... uint16, the
    float8 types, float4_e2m1fn, float6_*) or int32.
    scale: float32, float16, bfloat16 or float8_e8m0fnu, per-tensor, per-axis or blocked
    as for ``quantize_linear`` (MXFP4: a float4_e2m1fn x, a float8_e8m0fnu scale,
    ``block_size=32`` along the last axis).
    zero_point: None or an array of x's dtype and the scale's shape.
    output_dtype: float32, float16 or bfloat16; by default the scale's dtype (which a
    float8_e8m0fnu scale cannot be: name the output dtype then, as ONNX 24 requires).

    Returns a new array of x's shape. Raises TypeError or ValueError with tensorcast's
    message.
    """
    to = _code(output_dtype) if output_dtype is not None else _code(_as_array(scale).dtype)
    return _qdq(False, x, scale, zero_point, to, axis, block_size, True, None)



# ---- MX and NVFP4 block quantization (docs/semantics-mx.md) ---------------------------

_SCALE_RULES: dict[str, int] = _native.SCALE_RULES
_LAYOUTS: dict[str, int] = _native.MX_LAYOUTS
_FLOAT8E8M0, _FLOAT8E4M3FN, _FLOAT4E2M1, _UINT8, _FLOAT = 24, 17, 23, 2, 1


class _Output:
    """A new array of `shape` and dtype code `code`, and the buffer the core writes it
    through (packed bytes for the sub-byte types, unpacked by ``result()``)."""

    def __init__(self, shape: tuple, code: int):
        self.array = np.empty(shape, _NUMPY_OF_CODE[code])
        self.bits = _SUB_BYTE_BITS.get(code)
        if self.bits is not None:
            self.buf = np.zeros(_native.tensor_bytes(code, list(shape)), np.uint8)
        else:
            self.buf = self.array
        self.arg = (self.buf, code, shape)

    def result(self) -> np.ndarray:
        if self.bits is not None:
            _unpack(self.buf, self.bits, self.array.size, self.array)
        return self.array


def _contiguous_input(x: Any, code: Optional[int] = None) -> tuple:
    a = _as_array(x)
    a = a if a.flags.c_contiguous else a.copy(order="C")
    return _in(a, _code(a.dtype) if code is None else code), a.shape


def _scale_rule(scale_rule: str) -> int:
    if scale_rule not in _SCALE_RULES:
        raise ValueError(f"scale_rule must be one of {', '.join(_SCALE_RULES)}, not {scale_rule!r}")
    return _SCALE_RULES[scale_rule]


def _scale_shape(shape: tuple, axis: int, block: int) -> tuple:
    if not shape:
        raise ValueError("x must have at least one dimension (the blocks run along an axis)")
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"axis {axis} is out of range for x of shape {shape}")
    axis %= len(shape)
    return shape[:axis] + (-(-shape[axis] // block),) + shape[axis + 1:]


def mx_quantize(
    x: Any,
    dtype: DTypeLike,
    *,
    scale_dtype: DTypeLike = "float8_e8m0fnu",
    scale_rule: str = "floor",
    axis: int = -1,
    block_size: int = 0,
) -> tuple:
    """MX or NVFP4 quantization with the block scales computed from x
    (docs/semantics-mx.md).

    x: float32, float16 or bfloat16. dtype: the element type: float8_e4m3fn, float8_e5m2
    (MXFP8), float6_e2m3fn, float6_e3m2fn (MXFP6), float4_e2m1fn (MXFP4, NVFP4) or int8
    (MXINT8). scale_dtype: float8_e8m0fnu (MX, blocks of 32 by default) or float8_e4m3fn
    (NVFP4: float4_e2m1fn elements in blocks of 16 and a per-tensor float32 scale).
    scale_rule: "floor" (OCP MX, the default), "ceil", "even" or "rceil" (cuBLAS).
    Blocks of ``block_size`` (0: the format's) consecutive values along ``axis``.

    Returns ``(elements, scales)`` for MX and ``(elements, scales, global_scale)`` for
    NVFP4: elements of x's shape (one per byte for the sub-byte types), scales of x's
    shape with ``ceil(D / block_size)`` along ``axis``, global_scale a float32 ``()``.
    A block holding NaN or an infinity gets a NaN scale and zero elements.
    """
    inp, shape = _contiguous_input(x)
    to, sc = _code(dtype), _code(scale_dtype)
    nvfp4 = sc == _FLOAT8E4M3FN
    axis, block_size = _int64("axis", axis), _int64("block_size", block_size)
    block = block_size or (16 if nvfp4 else 32)
    rule = _scale_rule(scale_rule)
    y = _Output(shape, to)
    s = _Output(_scale_shape(shape, int(axis), block), sc)
    g = _Output((), _FLOAT) if nvfp4 else None
    _native.mx_quantize(inp, y.arg, s.arg, g.arg if g is not None else None, rule, int(axis), int(block_size))
    if g is not None:
        return y.result(), s.result(), g.result()
    return y.result(), s.result()


def mx_dequantize(
    x: Any,
    scale: Any,
    global_scale: Any = None,
    *,
    dtype: DTypeLike = np.float32,
    axis: int = -1,
    block_size: int = 0,
) -> np.ndarray:
    """The inverse of ``mx_quantize``: each element times its block's scale (times
    ``global_scale`` for NVFP4), rounded once to ``dtype`` (float32, float16 or bfloat16).
    A NaN scale gives NaN. x and scale as ``mx_quantize`` returns them."""
    xi, shape = _contiguous_input(x)
    si, _ = _contiguous_input(scale)
    gi = _contiguous_input(np.asarray(global_scale, np.float32))[0] if global_scale is not None else None
    y = _Output(tuple(shape), _code(dtype))
    _native.mx_dequantize(xi, si, gi, y.arg, _int64("axis", axis), _int64("block_size", block_size))
    return y.result()


def mx_repack(data: Any, scales: Any, from_layout: str, to_layout: str) -> tuple:
    """MXFP4 between layouts, moving nibbles and bytes only (docs/semantics-mx.md
    "Layouts"). Layouts:

    - "onnx": data float4_e2m1fn ``[..., 32 * nb]`` (one element per byte, as
      ``mx_quantize`` returns it), scales float8_e8m0fnu ``[..., nb]``;
    - "gpt-oss": data uint8 ``[..., nb, 16]`` (two codes a byte, low nibble first),
      scales uint8 ``[..., nb]`` (the checkpoints' ``.blocks`` / ``.scales``);
    - "ggml": data uint8 ``[..., nb, 17]`` (llama.cpp's ``block_mxfp4``), scales None.

    Returns ``(data, scales)`` in ``to_layout`` (scales None for "ggml")."""
    if from_layout not in _LAYOUTS or to_layout not in _LAYOUTS:
        raise ValueError(f"layouts are {', '.join(_LAYOUTS)}, not {from_layout!r} -> {to_layout!r}")
    codes = {"onnx": (_FLOAT4E2M1, _FLOAT8E8M0), "gpt-oss": (_UINT8, _UINT8), "ggml": (_UINT8, None)}
    fd, fs = codes[from_layout]
    td, ts = codes[to_layout]
    for what, value, want in (("data", data, fd), ("scales", scales, fs)):
        if value is None or want is None:
            continue
        got = _code(_as_array(value).dtype)
        if got != want and not (want == _UINT8 and got == 3):  # int8 bytes are taken as uint8
            raise TypeError(
                f"{from_layout} {what} must be {_NUMPY_OF_CODE[want]}, not {_as_array(value).dtype}: "
                "mx_repack moves codes, it does not convert values"
            )
    src, shape = _contiguous_input(data, fd)
    src_s = _contiguous_input(scales, fs)[0] if scales is not None and fs is not None else None
    shape = tuple(shape)
    if from_layout == "onnx":
        if not shape:
            raise ValueError("onnx data must have at least one dimension")
        lead, nb = shape[:-1], -(-shape[-1] // 32)
    else:
        if len(shape) < 2:
            width = 16 if from_layout == "gpt-oss" else 17
            raise ValueError(f"{from_layout} data must be [..., nb, {width}], not of shape {shape}")
        lead, nb = shape[:-2], shape[-2]
    out_shape = {"onnx": lead + (32 * nb,), "gpt-oss": lead + (nb, 16), "ggml": lead + (nb, 17)}[to_layout]
    out = _Output(out_shape, td)
    out_s = _Output(lead + (nb,), ts) if ts is not None else None
    _native.mx_repack(
        _LAYOUTS[from_layout], src, src_s, _LAYOUTS[to_layout], out.arg, out_s.arg if out_s is not None else None
    )
    return out.result(), (out_s.result() if out_s is not None else None)
