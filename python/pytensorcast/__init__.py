# SPDX-License-Identifier: MIT OR Apache-2.0
"""pytensorcast: tensorcast's exact, fast dtype conversions for numpy users.

ONNX Cast between every ONNX dtype (float8, float4, float6, int4, int2, bfloat16, strings
...), ONNX Expand, bitcasts with tf/ONNX/numpy rules and numpy's ``can_cast``, on arrays
of numpy and ml_dtypes, through the C library ``libtensorcast.so.0`` that the wheel
carries (called with ctypes, small casts through a compiled abi3 fast path: no
compiler at install, one wheel for every CPython >= 3.9).

>>> import numpy as np, pytensorcast as tc
>>> tc.cast(np.array([1.0, 500.0, np.nan], np.float32), "float8_e4m3fn")
array([1, 448, nan], dtype=float8_e4m3fn)

``ort_library_path()`` gives onnxruntime the custom-op library ``libtensorcast_ort.so``.
"""

from __future__ import annotations

import ctypes
import os
import struct
from typing import Any, Iterable, Optional, Union

import ml_dtypes
import numpy as np

from . import _lib
from ._lib import TensorcastTypeError, TensorcastValueError

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
    "TensorcastTypeError",
    "TensorcastValueError",
    "__version__",
]

__version__: str = _lib.version().decode()

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

_ROUND_MODES = {"up": 0, "down": 1, "nearest": 2}
_CASTINGS = {"no": 0, "equiv": 1, "safe": 2, "same_kind": 3, "unsafe": 4}
_BITCAST_RULES = {"tf": 0, "onnx": 1, "numpy": 2}


def _is_string_dtype(d: Any) -> bool:
    return d is str or d is np.str_ or (isinstance(d, np.dtype) and d.kind in "UOT")


def _code(dtype: DTypeLike) -> int:
    """The tensorcast code of a numpy/ml_dtypes dtype, a Python type or a name."""
    if _is_string_dtype(dtype):
        return STRING
    if isinstance(dtype, str):
        err = _lib.Error()
        out = ctypes.c_int32()
        if _lib.dtype_from_name(dtype.encode(), ctypes.byref(out), ctypes.byref(err)) == _lib.OK:
            if out.value not in _NUMPY_OF_CODE and out.value != STRING:
                raise TypeError(f"dtype {dtype!r} ({_name(out.value)}) has no numpy dtype")
            return out.value
        try:
            d = np.dtype(dtype)
        except TypeError:
            raise TypeError(f"unknown dtype {dtype!r}: {err.message.decode()}") from None
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
    n = _lib.dtype_name(code)
    return n.decode() if n else f"dtype {code}"


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
    ``ai.tensorcast`` domain) or ``onnxruntime.register_execution_provider_library``."""
    return _lib.ORT_LIB_PATH


def cpu_info() -> str:
    """One line on what the library runs on this CPU (architecture, SIMD families)."""
    buf = ctypes.create_string_buffer(512)
    needed = ctypes.c_uint64()
    err = _lib.Error()
    _lib.check(_lib.cpu_info_fn(buf, 512, ctypes.byref(needed), ctypes.byref(err)), err)
    return buf.value.decode()


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


def _address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]  # works for read-only and ml_dtypes arrays


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


class _Input:
    """A tcast_tensor describing an array (its buffers kept alive)."""

    __slots__ = ("tensor", "shape", "strides", "keep")

    def __init__(self, a: np.ndarray, code: int):
        self.keep: list[Any] = [a]
        ndim = a.ndim
        if ndim > _lib.MAX_NDIM:
            raise ValueError(f"rank {ndim} is above tensorcast's maximum, {_lib.MAX_NDIM}")
        self.shape = (ctypes.c_int64 * max(ndim, 1))(*a.shape)
        self.strides = None
        t = _lib.Tensor()
        t.shape = self.shape
        t.ndim = ndim
        t.dtype = code
        bits = _SUB_BYTE_BITS.get(code)
        if bits is not None:
            a = _pack(a, bits)
            self.keep.append(a)
            t.data_bytes = a.nbytes
        elif a.flags.c_contiguous or a.size == 0:
            t.data_bytes = a.nbytes
        else:
            item = a.itemsize
            st = a.strides
            if all(s >= 0 and s % item == 0 for s in st):
                self.strides = (ctypes.c_int64 * ndim)(*(s // item for s in st))
                t.strides = self.strides
                span = sum((d - 1) * s for d, s in zip(a.shape, st)) + item
                t.data_bytes = span
            else:
                # Negative or unaligned strides have no tcast_tensor form: one copy.
                a = np.ascontiguousarray(a)
                self.keep.append(a)
                t.data_bytes = a.nbytes
        t.data = _address(a) if a.size else None
        self.tensor = t


def _strings_input(a: np.ndarray) -> _Input:
    """A STRING tcast_tensor over the UTF-8 bytes of a StringDType, U or object array."""
    flat = a.reshape(-1) if a.flags.c_contiguous else np.ascontiguousarray(a).reshape(-1)
    encoded = [s.encode("utf-8") if isinstance(s, str) else bytes(s) for s in flat.tolist()]
    blob = np.frombuffer(b"".join(encoded) or b"\0", np.uint8)
    lens = np.fromiter((len(e) for e in encoded), np.uint64, len(encoded))
    views = np.empty((len(encoded), 2), np.uint64)
    views[:, 1] = lens
    if len(encoded):
        starts = np.concatenate([[0], np.cumsum(lens[:-1], dtype=np.uint64)]).astype(np.uint64)
        views[:, 0] = starts + np.uint64(_address(blob))
    views = views.reshape(a.shape + (2,))
    inp = _Input.__new__(_Input)
    inp.keep = [a, blob, views]
    inp.shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
    inp.strides = None
    t = _lib.Tensor()
    t.shape = inp.shape
    t.ndim = a.ndim
    t.dtype = STRING
    t.data = _address(views) if views.size else None
    t.data_bytes = views.nbytes
    inp.tensor = t
    return inp


def _options(saturate: bool, round_mode: str, casting: str, threads: Optional[int]) -> _lib.CastOptions:
    key = (bool(saturate), round_mode, casting, threads)
    opts = _OPTIONS.get(key)
    if opts is not None:
        return opts
    if round_mode not in _ROUND_MODES:
        raise ValueError(f"round_mode must be one of {sorted(_ROUND_MODES)}, not {round_mode!r}")
    if casting not in _CASTINGS:
        raise ValueError(f"casting must be one of {sorted(_CASTINGS)}, not {casting!r}")
    if threads is not None and (not isinstance(threads, int) or threads < 0 or threads > 2**31 - 1):
        raise ValueError(f"threads must be None or an int >= 0, not {threads!r}")
    opts = _lib.default_options()
    opts.saturate = 1 if saturate else 0
    opts.round_mode = _ROUND_MODES[round_mode]
    opts.casting = _CASTINGS[casting]
    opts.threads = 1 if threads is None else threads
    if len(_OPTIONS) < 256:
        _OPTIONS[key] = opts  # read-only from now on, so shared by every thread
    return opts


_OPTIONS: dict[tuple, _lib.CastOptions] = {}
_DEFAULT_OPTS = _options(True, "up", "unsafe", None)
_DEFAULT_OPTS_REF = ctypes.byref(_DEFAULT_OPTS)


# One call's descriptors in one buffer, written by one struct.pack_into: the input
# tcast_tensor (data, data_bytes, shape, strides, ndim, dtype), the output's, and the
# shape's one extent. (Five ctypes field stores cost more than the call itself.)
_FAST_LAYOUT = struct.Struct("=QQQQiiQQQQiiq")
assert ctypes.sizeof(_lib.Tensor) == 40 and _FAST_LAYOUT.size == 88


class _FastPair:
    """The descriptors of one 1-D contiguous call on the fast path for one (source,
    target) pair. A call takes one from its pair's pool and puts it back after (the C
    call runs without the GIL, so no two threads ever fill the same descriptors)."""

    __slots__ = ("mem", "shape_address", "err", "args")

    def __init__(self, src: int, dst: int) -> None:
        self.mem = ctypes.create_string_buffer(_FAST_LAYOUT.size)
        self.shape_address = ctypes.addressof(self.mem) + 80
        self.err = _lib.Error()
        self.args = (
            ctypes.byref(self.mem),
            ctypes.byref(self.mem, 40),
            _DEFAULT_OPTS_REF,
            ctypes.byref(self.err),
        )


_from_buffer = ctypes.c_char.from_buffer
_addressof = ctypes.addressof
_cast_raw = _lib.cast_raw
_u8 = np.dtype(np.uint8)
_empty = np.empty
_fast_pack = _FAST_LAYOUT.pack_into


class _FastPlan:
    """A (source dtype, target) pair of the fast path: codes, item sizes, whether the
    arrays are read through uint8 views (ml_dtypes' dtypes have no buffer format), and
    the pool of descriptors."""

    __slots__ = ("src", "src_size", "src_view", "dst", "dst_dtype", "dst_size", "dst_view", "pool")

    def __init__(self, src: np.dtype, dst: np.dtype) -> None:
        self.src = _CODE_OF_NUMPY[src]
        self.src_size = src.itemsize
        self.src_view = src.num >= 256
        self.dst = _CODE_OF_NUMPY[dst]
        self.dst_dtype = dst
        self.dst_size = dst.itemsize
        self.dst_view = dst.num >= 256
        self.pool: list[_FastPair] = []


# source dtype -> target (as the caller spells it: dtype, type or name) -> plan.
_FAST: dict[np.dtype, dict[Any, _FastPlan]] = {}


def _fast_plan(src: np.dtype, dtype: Any) -> Optional[_FastPlan]:
    """The plan for a pair of byte-aligned numeric dtypes, made once; None otherwise."""
    code = _CODE_OF_NUMPY.get(src)
    if code is None or code in _SUB_BYTE_BITS or not src.isnative:
        return None
    try:
        to = _code(dtype)
    except TypeError:
        return None
    if to == STRING or to in _SUB_BYTE_BITS:
        return None
    try:
        hash(dtype)
    except TypeError:
        return None
    plan = _FastPlan(src, _NUMPY_OF_CODE[to])
    _FAST.setdefault(src, {})[dtype] = plan
    if _fast is not None:
        _fast.register(src, dtype, plan.dst_dtype, plan.src, plan.dst, plan.src_size, plan.dst_size)
    return plan


# The compiled fast path (python/ext/_fast.c), when the wheel has it and
# PYTENSORCAST_NO_EXT is unset or "0": same results, errors from the ctypes path.
def _load_fast() -> Any:
    if os.environ.get("PYTENSORCAST_NO_EXT", "0") != "0":
        return None
    try:
        from . import _fast as fast  # type: ignore[attr-defined]
    except ImportError:
        return None
    fast.init(
        ctypes.cast(_cast_raw, ctypes.c_void_p).value, ctypes.addressof(_DEFAULT_OPTS), np.ndarray, np.empty
    )
    return fast


_fast = _load_fast()
# cast(x, target) -> ndarray, or None: the ctypes path does the call.
_fast_cast = _fast.cast if _fast is not None else None


def cast(
    x: Any,
    dtype: DTypeLike,
    *,
    saturate: bool = True,
    round_mode: str = "up",
    casting: str = "unsafe",
    out: Optional[np.ndarray] = None,
    threads: Optional[int] = None,
    packed: bool = False,
) -> np.ndarray:
    """Casts ``x`` to ``dtype`` as ONNX Cast does (tensorcast's rules:
    docs/semantics-cast.md), returning a new numpy array (or ``out``).

    x: a numpy array, anything with the buffer protocol or ``__dlpack__`` (torch, jax CPU
    tensors), of any rank and strides; read in place (negative strides are copied once).
    A StringDType, ``U`` or object array is parsed as numbers.
    dtype: a numpy or ml_dtypes dtype or type, or a name ("FLOAT8E4M3FN",
    "float8_e4m3fn", "bfloat16", "float32"); ``str`` formats numbers as text (shortest
    round trip) into a StringDType array (``U`` on numpy 1).
    saturate: float8 targets only: out-of-range values clamp to the largest finite value
    (True, ONNX's default) or become NaN/inf (False).
    round_mode: FLOAT8E8M0 targets only: "up" (ONNX's default), "down" or "nearest".
    casting: numpy's level ("no", "equiv", "safe", "same_kind", "unsafe"): below
    "unsafe", casts numpy would refuse raise TypeError.
    out: a C-contiguous array of the target's numpy dtype and x's shape to write into.
    threads: up to this many threads for large arrays (None or 1: the calling thread).
    packed: return ONNX's packed bytes (a 1-D uint8 array) for the sub-byte targets
    (INT4, UINT4, FLOAT4E2M1, INT2, UINT2, FLOAT6*) instead of one element per byte.

    Raises TypeError (unknown dtype, unsupported or refused cast) or ValueError (a text
    that does not parse, bad arguments) with tensorcast's message, which names the dtypes
    and the element's index and value; the exception's ``index`` attribute is that index.
    """
    # Fast path: a C-contiguous numeric ndarray, a byte-sized numeric target, default
    # options: the compiled module if there is one, else cached descriptors, five field
    # stores and the C call through ctypes (1-D only).
    if (
        out is None
        and threads is None
        and saturate is True
        and packed is False
        and round_mode == "up"
        and casting == "unsafe"
    ):
        if _fast_cast is not None:
            r = _fast_cast(x, dtype)  # checks that x is an ndarray
            if r is not None:
                return r
        if type(x) is not np.ndarray:
            return _cast(x, dtype, saturate, round_mode, casting, out, threads, packed)
        xd = x.dtype
        if _fast_cast is not None and x.ndim != 1:
            plans = _FAST.get(xd)
            if plans is None or dtype not in plans:
                _fast_plan(xd, dtype)  # registers the pair with the compiled module
            return _cast(x, dtype, saturate, round_mode, casting, out, threads, packed)
        if x.ndim != 1:
            return _cast(x, dtype, saturate, round_mode, casting, out, threads, packed)
        plans = _FAST.get(xd)
        plan = plans.get(dtype) if plans is not None else None
        if plan is None:
            plan = _fast_plan(xd, dtype)
        if plan is not None and (x.strides[0] == plan.src_size or x.shape[0] < 2):
            n = x.shape[0]
            res = _empty(n, plan.dst_dtype)
            if not n:
                return res
            try:
                src_address = _addressof(_from_buffer(x.view(_u8) if plan.src_view else x))
            except TypeError:  # read-only: the general path reads it
                return _cast(x, dtype, saturate, round_mode, casting, out, threads, packed)
            pool = plan.pool
            f = pool.pop() if pool else _FastPair(plan.src, plan.dst)
            shape = f.shape_address
            _fast_pack(
                f.mem, 0,
                src_address, n * plan.src_size, shape, 0, 1, plan.src,
                _addressof(_from_buffer(res.view(_u8) if plan.dst_view else res)), n * plan.dst_size,
                shape, 0, 1, plan.dst, n,
            )  # fmt: skip
            status = _cast_raw(*f.args)
            if status:
                try:
                    _lib.raise_error(f.err, status)
                finally:
                    pool.append(f)
            pool.append(f)
            return res
    return _cast(x, dtype, saturate, round_mode, casting, out, threads, packed)


def _cast(x, dtype, saturate, round_mode, casting, out, threads, packed) -> np.ndarray:
    opts = _options(saturate, round_mode, casting, threads)
    to = _code(dtype)
    a = _as_array(x)
    from_code = _code(a.dtype)
    err = _lib.Error()
    if from_code == STRING:
        inp = _strings_input(a)
    else:
        inp = _Input(a, from_code)
    shape = a.shape
    if to == STRING:
        if packed or out is not None:
            raise ValueError("a cast to strings takes neither out nor packed")
        if from_code == STRING:
            if casting != "unsafe":
                _check_can_cast(STRING, STRING, casting)
            return np.array(a, dtype=_STRING_DTYPE)
        return _format(inp, a, opts, err)
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
    dst = _lib.Tensor()
    dst.shape = inp.shape
    dst.ndim = a.ndim
    dst.dtype = to
    if bits is not None:
        nbytes = ctypes.c_uint64()
        _lib.check(_lib.tensor_bytes(to, inp.shape, a.ndim, ctypes.byref(nbytes), ctypes.byref(err)), err)
        buf = np.empty(nbytes.value, np.uint8)
        dst.data = _address(buf) if buf.size else None
        dst.data_bytes = buf.size
    else:
        dst.data = _address(result) if result.size else None
        dst.data_bytes = result.nbytes
    status = _lib.cast_raw(ctypes.byref(inp.tensor), ctypes.byref(dst), ctypes.byref(opts), ctypes.byref(err))
    if status:
        _lib.raise_error(err, status)
    if bits is not None:
        if packed:
            return buf
        _unpack(buf, bits, result.size, result)
    return result


def _format(inp: _Input, a: np.ndarray, opts: _lib.CastOptions, err: _lib.Error) -> np.ndarray:
    n = a.size
    code = inp.tensor.dtype
    per = _lib.string_max_bytes(code)
    arena_buf = np.empty(max(n * per, 1), np.uint8)
    arena = _lib.Arena(_address(arena_buf), arena_buf.size, 0)
    views = np.empty((max(n, 1), 2), np.uint64)
    dst = _lib.Tensor(_address(views) if n else None, n * 16, inp.shape, None, a.ndim, STRING)
    status = _lib.cast_to_strings(
        ctypes.byref(inp.tensor), ctypes.byref(dst), ctypes.byref(arena), ctypes.byref(opts), ctypes.byref(err)
    )
    if status:
        _lib.raise_error(err, status)
    base = _address(arena_buf)
    raw = arena_buf.tobytes()
    texts = [raw[p - base : p - base + ln].decode() for p, ln in views[:n].tolist()]
    return np.array(texts, dtype=_STRING_DTYPE).reshape(a.shape)


def _check_can_cast(from_code: int, to_code: int, casting: str) -> None:
    if not can_cast(from_code, to_code, casting):
        raise TypeError(f"Cannot cast {_name(from_code)} to {_name(to_code)} under casting={casting!r}")


def expand(x: Any, shape: Iterable[int], *, threads: Optional[int] = None) -> np.ndarray:
    """ONNX Expand: ``x`` broadcast with ``shape`` (numpy's rules, aligned on the right;
    a 1 in either takes the other's extent), as a new contiguous array of x's dtype."""
    a = _as_array(x)
    code = _code(a.dtype)
    want = [int(s) for s in shape]
    err = _lib.Error()
    in_shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
    req = (ctypes.c_int64 * max(len(want), 1))(*want)
    out_shape = (ctypes.c_int64 * _lib.MAX_NDIM)()
    out_ndim = ctypes.c_int32()
    _lib.check(
        _lib.expand_shape(
            in_shape, a.ndim, req, len(want), out_shape, _lib.MAX_NDIM, ctypes.byref(out_ndim), ctypes.byref(err)
        ),
        err,
    )
    result_shape = tuple(out_shape[: out_ndim.value])
    if code == STRING:
        return np.array(np.broadcast_to(a, result_shape), dtype=_STRING_DTYPE)
    inp = _Input(a, code)
    bits = _SUB_BYTE_BITS.get(code)
    result = np.empty(result_shape, a.dtype)
    dst = _lib.Tensor()
    dst.shape = out_shape
    dst.ndim = out_ndim.value
    dst.dtype = code
    if bits is not None:
        nbytes = ctypes.c_uint64()
        _lib.check(_lib.tensor_bytes(code, out_shape, out_ndim.value, ctypes.byref(nbytes), ctypes.byref(err)), err)
        buf = np.empty(nbytes.value, np.uint8)
        dst.data = _address(buf) if buf.size else None
        dst.data_bytes = buf.size
    else:
        dst.data = _address(result) if result.size else None
        dst.data_bytes = result.nbytes
    opts = _options(True, "up", "unsafe", threads)
    _lib.check(_lib.expand_ex(ctypes.byref(inp.tensor), ctypes.byref(dst), ctypes.byref(opts), ctypes.byref(err)), err)
    if bits is not None:
        _unpack(buf, bits, result.size, result)
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
    inp = _Input(a, code)
    if inp.strides is not None or len(inp.keep) > 1:
        raise ValueError("bitcast needs a C-contiguous array (a view cannot have strides)")
    view = _lib.Tensor()
    storage = (ctypes.c_int64 * _lib.MAX_NDIM)()
    err = _lib.Error()
    _lib.check(
        _lib.bitcast_fn(
            ctypes.byref(inp.tensor), to, _BITCAST_RULES[rules], ctypes.byref(view), storage, _lib.MAX_NDIM,
            ctypes.byref(err),
        ),
        err,
    )
    shape = tuple(storage[: view.ndim])
    return a.reshape(-1).view(_NUMPY_OF_CODE[to]).reshape(shape) if a.size else np.empty(shape, _NUMPY_OF_CODE[to])


def can_cast(from_: DTypeLike, to: DTypeLike, casting: str = "safe") -> bool:
    """numpy's ``can_cast(from_, to, casting)`` for tensorcast dtypes, as numpy 2.4 with
    ml_dtypes 0.6 answers it (ml_dtypes' registered casts for the ML types, STRING as
    numpy's unsized ``U``). Dtypes as ``cast`` takes them, or tensorcast codes (ints)."""
    if casting not in _CASTINGS:
        raise ValueError(f"casting must be one of {sorted(_CASTINGS)}, not {casting!r}")
    a = from_ if isinstance(from_, int) and not isinstance(from_, bool) else _code(from_)
    b = to if isinstance(to, int) and not isinstance(to, bool) else _code(to)
    result = ctypes.c_int32()
    err = _lib.Error()
    _lib.check(_lib.can_cast_fn(a, b, _CASTINGS[casting], ctypes.byref(result), ctypes.byref(err)), err)
    return bool(result.value)


# ---- QuantizeLinear / DequantizeLinear ------------------------------------------------

_PRECISIONS = {1, 10, 11, 16}  # FLOAT, FLOAT16, DOUBLE, BFLOAT16


def _qdq_options(
    axis: int, block_size: int, saturate: bool, precision: Optional[DTypeLike]
) -> _lib.QdqOptions:
    opts = _lib.QdqOptions()
    _lib.check(_lib.qdq_options_init(ctypes.byref(opts), ctypes.sizeof(opts)), _lib.Error())
    opts.saturate = 1 if saturate else 0
    opts.axis = int(axis)
    opts.block_size = int(block_size)
    if precision is not None:
        code = _code(precision)
        if code not in _PRECISIONS:
            raise TypeError(f"precision must be float32, float16, bfloat16 or float64, not {_name(code)}")
        opts.precision = code
    return opts


def _qdq(fn, x: Any, scale: Any, zero_point: Any, to: int, opts: _lib.QdqOptions) -> np.ndarray:
    """Runs tcast_quantize_linear or tcast_dequantize_linear into a new array of x's shape."""
    # The C ABI's QuantizeLinear reads contiguous tensors: strided views are copied once.
    arrays = [_as_array(t) for t in (x, scale, zero_point) if t is not None]
    arrays = [t if t.flags.c_contiguous else t.copy(order="C") for t in arrays]
    a = arrays[0]
    inputs = [_Input(t, _code(t.dtype)) for t in arrays]
    result = np.empty(a.shape, _NUMPY_OF_CODE[to]) if to in _NUMPY_OF_CODE else None
    if result is None:
        raise TypeError(f"tensorcast has no numpy dtype for {_name(to)}")
    err = _lib.Error()
    dst = _lib.Tensor()
    shape = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
    dst.shape = shape
    dst.ndim = a.ndim
    dst.dtype = to
    bits = _SUB_BYTE_BITS.get(to)
    if bits is not None:
        nbytes = ctypes.c_uint64()
        _lib.check(_lib.tensor_bytes(to, shape, a.ndim, ctypes.byref(nbytes), ctypes.byref(err)), err)
        buf = np.empty(nbytes.value, np.uint8)
        dst.data = _address(buf) if buf.size else None
        dst.data_bytes = buf.size
    else:
        dst.data = _address(result) if result.size else None
        dst.data_bytes = result.nbytes
    zp = ctypes.byref(inputs[2].tensor) if zero_point is not None else None
    status = fn(
        ctypes.byref(inputs[0].tensor), ctypes.byref(inputs[1].tensor), zp, ctypes.byref(dst), ctypes.byref(opts),
        ctypes.byref(err),
    )
    _lib.check(status, err)
    if bits is not None:
        _unpack(buf, bits, result.size, result)
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
    opts = _qdq_options(axis, block_size, saturate, precision)
    return _qdq(_lib.quantize_linear_fn, x, scale, zero_point, to, opts)


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
    opts = _qdq_options(axis, block_size, True, None)
    return _qdq(_lib.dequantize_linear_fn, x, scale, zero_point, to, opts)



# ---- MX and NVFP4 block quantization (docs/semantics-mx.md) ---------------------------

_SCALE_RULES = {"floor": 0, "ceil": 1, "even": 2, "rceil": 3}
_LAYOUTS = {"onnx": 0, "gpt-oss": 1, "ggml": 2}
_FLOAT8E8M0, _FLOAT8E4M3FN, _FLOAT4E2M1, _UINT8, _FLOAT = 24, 17, 23, 2, 1


class _Output:
    """A new array of `shape` and dtype code `code`, and the tcast_tensor the library
    writes it through (packed bytes for the sub-byte types, unpacked by ``result()``)."""

    def __init__(self, shape: tuple, code: int):
        self.array = np.empty(shape, _NUMPY_OF_CODE[code])
        self.shape = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        t = _lib.Tensor()
        t.shape = self.shape
        t.ndim = len(shape)
        t.dtype = code
        self.bits = _SUB_BYTE_BITS.get(code)
        if self.bits is not None:
            nbytes = ctypes.c_uint64()
            err = _lib.Error()
            _lib.check(_lib.tensor_bytes(code, self.shape, len(shape), ctypes.byref(nbytes), ctypes.byref(err)), err)
            self.buf = np.zeros(nbytes.value, np.uint8)
        else:
            self.buf = self.array
        t.data = _address(self.buf) if self.buf.size else None
        t.data_bytes = self.buf.nbytes
        self.tensor = t

    def result(self) -> np.ndarray:
        if self.bits is not None:
            _unpack(self.buf, self.bits, self.array.size, self.array)
        return self.array


def _contiguous_input(x: Any, code: Optional[int] = None) -> _Input:
    a = _as_array(x)
    a = a if a.flags.c_contiguous else a.copy(order="C")
    return _Input(a, _code(a.dtype) if code is None else code)


def _mx_options(scale_rule: str = "floor", axis: int = -1, block_size: int = 0) -> _lib.MxOptions:
    opts = _lib.MxOptions()
    _lib.check(_lib.mx_options_init(ctypes.byref(opts), ctypes.sizeof(opts)), _lib.Error())
    if scale_rule not in _SCALE_RULES:
        raise ValueError(f"scale_rule must be one of {', '.join(_SCALE_RULES)}, not {scale_rule!r}")
    opts.scale_rule = _SCALE_RULES[scale_rule]
    opts.axis = int(axis)
    opts.block_size = int(block_size)
    return opts


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
    inp = _contiguous_input(x)
    shape = tuple(inp.keep[0].shape)
    to, sc = _code(dtype), _code(scale_dtype)
    nvfp4 = sc == _FLOAT8E4M3FN
    block = int(block_size) or (16 if nvfp4 else 32)
    opts = _mx_options(scale_rule, axis, block_size)
    y = _Output(shape, to)
    s = _Output(_scale_shape(shape, int(axis), block), sc)
    g = _Output((), _FLOAT) if nvfp4 else None
    err = _lib.Error()
    status = _lib.mx_quantize_fn(
        ctypes.byref(inp.tensor), ctypes.byref(y.tensor), ctypes.byref(s.tensor),
        ctypes.byref(g.tensor) if g is not None else None, ctypes.byref(opts), ctypes.byref(err),
    )
    _lib.check(status, err)
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
    xi = _contiguous_input(x)
    si = _contiguous_input(scale)
    gi = _contiguous_input(np.asarray(global_scale, np.float32)) if global_scale is not None else None
    y = _Output(tuple(xi.keep[0].shape), _code(dtype))
    opts = _mx_options("floor", axis, block_size)
    err = _lib.Error()
    status = _lib.mx_dequantize_fn(
        ctypes.byref(xi.tensor), ctypes.byref(si.tensor), ctypes.byref(gi.tensor) if gi is not None else None,
        ctypes.byref(y.tensor), ctypes.byref(opts), ctypes.byref(err),
    )
    _lib.check(status, err)
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
    src = _contiguous_input(data, fd)
    src_s = _contiguous_input(scales, fs) if scales is not None and fs is not None else None
    shape = tuple(src.keep[0].shape)
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
    err = _lib.Error()
    status = _lib.mx_repack_fn(
        _LAYOUTS[from_layout], ctypes.byref(src.tensor), ctypes.byref(src_s.tensor) if src_s is not None else None,
        _LAYOUTS[to_layout], ctypes.byref(out.tensor), ctypes.byref(out_s.tensor) if out_s is not None else None,
        None, ctypes.byref(err),
    )
    _lib.check(status, err)
    return out.result(), (out_s.result() if out_s is not None else None)
