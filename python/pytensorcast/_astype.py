# SPDX-License-Identifier: MIT OR Apache-2.0
"""``astype``: numpy's and ml_dtypes' ``ndarray.astype`` bytes, through tensorcast.

``astype(x, dtype)`` returns exactly what ``np.asarray(x).astype(dtype)`` returns (bytes,
dtype, shape, memory order), warnings of ``ComplexWarning`` included, and raises the same
TypeError for the pairs ml_dtypes refuses. ``cast`` implements ONNX Cast, which differs
from numpy and ml_dtypes in a few places (saturation of float8, one rounding from float64,
NaN payloads, rounding to int4, FLOAT8E8M0); ``_plans`` holds, for every (source, target)
pair, how tensorcast reproduces astype's bytes, or that numpy is asked (the C undefined
behaviour of float -> int out of range, platform-dependent there; arrays of fewer than
``_SMALL`` elements, where numpy is faster). docs/python.md has the table;
tests/python/test_astype.py checks every pair, exhaustively for the 8- and 16-bit sources.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple

import ml_dtypes
import numpy as np

__all__ = ["astype"]

ComplexWarning = getattr(np, "exceptions", np).ComplexWarning
_COMPLEX_MESSAGE = "Casting complex values to real discards the imaginary part"

# ---- the dtypes -----------------------------------------------------------------------

_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_WIDE_INTS = ("int32", "int64", "uint32", "uint64")  # not exact in float32
_NUMPY_FLOATS = ("float16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")
_FLOAT8 = ("float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz")
_E8M0 = "float8_e8m0fnu"
_MX = ("float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn")  # saturating, no inf or NaN
_SUB_INTS = ("int4", "uint4", "int2", "uint2")
_ML_FLOATS = ("bfloat16",) + _FLOAT8 + (_E8M0,) + _MX
_NAMES = ("bool",) + _INTS + _NUMPY_FLOATS + _COMPLEX + _ML_FLOATS + _SUB_INTS


def _dt(name: str) -> np.dtype:
    return np.dtype(getattr(ml_dtypes, name) if name in _ML_FLOATS + _SUB_INTS else name)


# ---- plans ----------------------------------------------------------------------------

# How a pair is done:
# - CAST: tensorcast's cast with `options`, then the fix-up `fix` (if any);
# - VIA32: cast to float32 first (as ml_dtypes does: float64 and the 32/64-bit ints are
#   rounded to float32, correctly, before the ML type), then as CAST;
# - VIA_I32: float -> int4/uint4/int2/uint2 as ml_dtypes does: truncated into int32 (cast
#   saturates, NaN -> 0), out of int32 -> 0, then the low bits;
# - NUMPY: x.astype (also for the refused pairs, which raise numpy's TypeError).
# `guard` (a _Guard, for 8- and 16-bit float sources to integers) finds the codes whose
# astype result is C undefined behaviour in numpy or ml_dtypes (NaN, inf, out of the
# target's range): an array holding one is cast by numpy. `real`: a complex source is
# read through its real part; `warn`: astype warns ComplexWarning.
CAST, VIA32, VIA_I32, NUMPY, REFUSED = "tensorcast", "via float32", "via int32", "numpy", "refused"


class _Plan(NamedTuple):
    how: str
    options: Dict[str, Any]
    fix: Optional[Callable[[np.ndarray, np.ndarray], None]] = None
    guard: Optional["_Guard"] = None
    real: bool = False
    warn: bool = False


_NOSAT = {"saturate": False}
_E8M0_OPTIONS = {"saturate": False, "round_mode": "nearest"}


# ---- fix-ups: exact, applied to the few elements (NaNs, e8m0 corners) they concern -----


def _no_nan(src: np.ndarray) -> bool:
    """Whether a numpy float (or complex: its real part, the part cast) source holds no NaN,
    in one reduction (numpy's max propagates NaN): the fix-ups' cheap first look."""
    s = src.real if src.dtype.kind == "c" else src
    return s.dtype.kind == "f" and s.dtype.num < 256 and s.size > 0 and not np.isnan(np.max(s))


def _fix_bf16_nan(out: np.ndarray, src: np.ndarray) -> None:
    """NaN -> bfloat16 is sign | 0x7fc0 in Eigen (payload dropped); cast keeps the payload."""
    if _no_nan(src):
        return
    u = out.view(np.uint16)
    m = (u & 0x7FFF) > 0x7F80
    if m.any():
        u[m] = (u[m] & 0x8000) | 0x7FC0


def _fix_f16_nan_of_bf16(out: np.ndarray, src: np.ndarray) -> None:
    """bfloat16 NaN -> float16 is sign | 0x7e00 in Eigen (payload dropped)."""
    u = out.view(np.uint16)
    m = (u & 0x7FFF) > 0x7C00
    if m.any():
        u[m] = (u[m] & 0x8000) | 0x7E00


def _fix_f16_nan_narrow(out: np.ndarray, src: np.ndarray) -> None:
    """float32/float64 NaN -> float16 in numpy: sign | 0x7c00 | max(payload's top 10 bits, 1),
    not quieted (cast quiets)."""
    if _no_nan(src):
        return
    u = out.view(np.uint16)
    m = (u & 0x7FFF) > 0x7C00
    if not m.any():
        return
    if src.itemsize == 4:
        b = src.view(np.uint32)[m]
        sign = (b >> 16) & 0x8000
        pay = (b & 0x7FFFFF) >> 13
    else:
        b = src.view(np.uint64)[m]
        sign = (b >> 48) & 0x8000
        pay = (b & 0xFFFFFFFFFFFFF) >> 42
    u[m] = (sign | 0x7C00 | np.maximum(pay, 1)).astype(np.uint16)


def _fix_f16_nan_widen(out: np.ndarray, src: np.ndarray) -> None:
    """float16 NaN -> float32/float64 in numpy: the payload shifted up, not quieted."""
    h = src.view(np.uint16)
    m = (h & 0x7FFF) > 0x7C00
    if not m.any():
        return
    dst = out.real if out.dtype.kind == "c" else out
    if dst.itemsize == 4:
        hv = h[m].astype(np.uint32)
        dst.view(np.uint32)[m] = ((hv & 0x8000) << 16) | 0x7F800000 | ((hv & 0x3FF) << 13)
    else:
        hv = h[m].astype(np.uint64)
        dst.view(np.uint64)[m] = ((hv & 0x8000) << 48) | 0x7FF0000000000000 | ((hv & 0x3FF) << 42)


def _fix_e8m0(out: np.ndarray, src: np.ndarray) -> None:
    """ml_dtypes' float32 -> float8_e8m0fnu where it differs from cast(saturate=False,
    round_mode="nearest"): positive float32 subnormals (0x00, or 0x01 above 2^-127) and
    (2^127, 1.5 * 2^127) (0xfe). src: the float32 (or bfloat16) values cast."""
    if src.itemsize == 2:  # bfloat16: 0x0001-0x007f and 0x7f01-0x7f3f
        t = src.view(np.uint16) - np.uint16(1)
        m = t < 0x7F
        t -= np.uint16(0x7F00)
        m |= t < 0x3F
    else:
        t = src.view(np.uint32) - np.uint32(1)
        m = t < 0x7FFFFF
        t -= np.uint32(0x7F000000)
        m |= t < 0x3FFFFF
    if not m.any():
        return
    b = src.view(np.uint16)[m].astype(np.uint32) << 16 if src.itemsize == 2 else src.view(np.uint32)[m]
    code = ((b & 0x7FFFFF) > 0x400000).astype(np.uint8)
    out.view(np.uint8)[m] = np.where(b < 0x800000, code, np.uint8(0xFE))


class _Guard(NamedTuple):
    """The codes of an 8- or 16-bit float source whose conversion to an integer is C
    undefined behaviour in numpy or ml_dtypes (NaN, inf, out of the integer's range), as
    thresholds a max() finds: codes >= top (negative values too low, or not a code),
    magnitudes (code & mask) >= mag (too high, inf, NaN), and FNUZ's NaN 0x80. It may flag
    a few good values too (those go to numpy, which is never wrong)."""

    top: int
    mag: int
    mask: int
    nan: Optional[int]

    def flags(self, c: np.ndarray) -> np.ndarray:
        """The flagged elements of the code array c."""
        f = (c >= self.top) | ((c & self.mask) >= self.mag)
        return f | (c == self.nan) if self.nan is not None else f

    def hits(self, c: np.ndarray) -> bool:
        """Whether c holds a flagged code."""
        if c.size == 0:
            return False
        if int(c.max()) >= self.top or int((c & self.mask).max()) >= self.mag:
            return True
        return self.nan is not None and bool((c == self.nan).any())


# ---- the table ------------------------------------------------------------------------

# Below this many elements numpy's astype is faster than a call of cast (whose fixed
# cost is some microseconds), so astype leaves small arrays to numpy.
_SMALL = 4096
_PLANS: Optional[Dict[Tuple[np.dtype, np.dtype], _Plan]] = None
_tc: Any = None


def _package() -> Any:
    global _tc
    if _tc is None:
        _tc = importlib.import_module(__name__.rpartition(".")[0])
    return _tc


# The sign bit of each format's codes (float8_e8m0fnu has none: 0x100).
_SIGN = {"float16": 0x8000, "bfloat16": 0x8000, "float8_e8m0fnu": 0x100, "float4_e2m1fn": 0x8, "float6_e2m3fn": 0x20,
         "float6_e3m2fn": 0x20}


def _guard(src: str, dst: str) -> Optional[_Guard]:
    """The guard of a float source of at most 16 bits for the integer target dst (for
    int4/int2 targets, the range is int32's: ml_dtypes converts to int first); None when
    no code needs one."""
    d = _dt(src)
    sign = _SIGN.get(src, 0x80)
    n = min(2 * sign, 1 << (8 * d.itemsize))  # the codes (float4/float6: one per byte)
    codes = np.arange(n, dtype=np.uint32).astype(np.uint16 if d.itemsize == 2 else np.uint8)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = codes.view(d).astype(np.float64)
        t = np.trunc(v)
    info = np.iinfo(np.int32 if dst in _SUB_INTS else _dt(dst))
    lo, end = float(info.min), float(info.max + 1)  # powers of two (or 0): exact
    bad = ~np.isfinite(v)
    bad[~bad] = (t[~bad] < lo) | (t[~bad] >= end)
    nan = 0x80 if src.endswith("fnuz") and src != _E8M0 else None
    if nan is not None:
        bad[nan] = False
    if not bad.any() and nan is None:
        return None
    pos = np.nonzero(bad[: min(sign, n)])[0]
    neg = np.nonzero(bad[sign:])[0]
    g = _Guard(top=sign + int(neg[0]) if neg.size else 2 * sign, mag=int(pos[0]) if pos.size else sign,
               mask=sign - 1, nan=nan)
    if nan is not None:
        bad[nan] = True
    assert g.flags(codes)[bad].all()
    return g


def _plan(s: str, d: str) -> _Plan:
    """How astype(source s -> target d) is done (see _Plan)."""
    real = s in _COMPLEX and d not in _COMPLEX and d != "bool"
    warn = real and d in _INTS + _NUMPY_FLOATS
    src_real = {"complex64": "float32", "complex128": "float64"}.get(s, s) if real else s
    # ml_dtypes rounds float64 and the 32/64-bit ints to float32 first; cast is also
    # faster that way from the ints (exact: they differ from float32's only above 2^24,
    # which every narrow float overflows); complex goes through float32 for e8m0's fix-up.
    via32 = src_real in _WIDE_INTS + ("float64",) or (real and d == _E8M0)

    def plan(how: str, options: Optional[dict] = None, fix: Any = None, guard: Any = None) -> _Plan:
        return _Plan(how, options or {}, fix, guard, real, warn)

    if not np.can_cast(_dt(s), _dt(d), "unsafe"):
        return plan(REFUSED)
    if s == d or d == "bool" or s in ("bool",) + _SUB_INTS or (s in _INTS and d in _INTS + _SUB_INTS):
        return plan(CAST, _NOSAT if d in _FLOAT8 + (_E8M0,) else None)  # bool False -> e8m0 0xff
    # ---- integer targets
    if d in _INTS:
        if src_real in ("float32", "float64", "bfloat16"):
            return plan(NUMPY)  # out of range: C UB (numpy and ml_dtypes are fast here)
        return plan(CAST, guard=_guard(s, d))  # float16, float8/6/4, e8m0
    if d in _SUB_INTS:
        if src_real == "bfloat16":
            return plan(NUMPY)  # static_cast<int8_t>(float): UB for inf and beyond; fast
        if src_real in _NUMPY_FLOATS:
            return plan(VIA_I32)  # ml_dtypes' CastToInt: NaN, inf, out of int32 -> 0
        return plan(VIA_I32, guard=_guard(s, d))
    # ---- float and complex targets
    if d in _NUMPY_FLOATS + _COMPLEX:
        if s in _INTS:
            return plan(VIA32 if via32 and d == "float16" else CAST)
        if s == "float16":
            return plan(CAST, fix=_fix_f16_nan_widen)
        if d == "float16" and src_real in ("float32", "float64"):
            return plan(CAST, fix=_fix_f16_nan_narrow)
        if s == "bfloat16":
            if d == "float16":
                return plan(CAST, fix=_fix_f16_nan_of_bf16)
            if d in ("float32", "complex64"):
                return plan(NUMPY)  # ml_dtypes: bits << 16, as fast as cast, no fix-up needed
        return plan(CAST)
    if d == "bfloat16":
        fix = _fix_bf16_nan if src_real in _NUMPY_FLOATS else None
        return plan(VIA32 if via32 else CAST, fix=fix)
    if d in _FLOAT8:
        return plan(VIA32 if via32 else CAST, _NOSAT)
    if d in _MX:
        return plan(VIA32 if via32 else CAST)
    if d == _E8M0:
        fix = _fix_e8m0 if src_real in ("float32", "float64", "bfloat16") else None
        return plan(VIA32 if via32 else CAST, _E8M0_OPTIONS, fix)
    return plan(NUMPY)


def _run(a: np.ndarray, to: np.dtype, p: _Plan, threads: Optional[int]) -> Optional[np.ndarray]:
    """astype through tensorcast, or None when numpy must do it (a guarded code, or the
    one platform-dependent float32 value 2^31 on the way to int4/int2)."""
    tc = _package()
    kt = {} if threads is None else {"threads": threads}
    kw = {**p.options, **kt} if kt else p.options
    # cast reads a complex source's real part itself (faster than through a strided view);
    # the guards and fix-ups read `real`.
    real = a.real if p.real else a
    if p.guard is not None and p.guard.hits(real.view(np.uint16 if real.itemsize == 2 else np.uint8)):
        return None
    src = a
    if p.how == VIA32:
        src = real = tc.cast(a, np.float32, **kt)
    elif p.how == VIA_I32:
        y = tc.cast(a, np.int32, **kt)
        m = y == 0x7FFFFFFF  # x >= 2^31 - 1 or +inf
        if m.any():
            r = real[m]
            if r.dtype == np.float32 and (r == np.float32(2.0**31)).any():
                return None  # static_cast<int>(2^31f): x86 INT_MIN (-> 0), ARM INT_MAX
            y[m] = np.where(r == 2147483647.0, 0x7FFFFFFF, 0) if r.dtype == np.float64 else 0
        return tc.cast(y, to, **kt)
    out = tc.cast(src, to, **kw)
    if p.fix is not None:
        p.fix(out, real)
    return out


def _verify(plans: Dict[Tuple[np.dtype, np.dtype], _Plan]) -> None:
    """Checks the float16 NaN rules, the one build-dependent part of the fix-ups (a numpy
    built with hardware float16 conversions quiets signalling NaNs), on every NaN pattern;
    pairs that fail are left to numpy."""
    h = np.arange(0x7C01, 0x8000, dtype=np.uint16)
    f16 = np.concatenate([h, h | 0x8000]).view(np.float16)
    pay = np.array([1, 2, 0x1FFF, 0x2000, 0x3FFFFF, 0x400000, 0x400001, 0x7FFFFF, 0x5A5A5A], np.uint32)
    f32 = np.concatenate([pay | 0x7F800000, pay | 0xFF800000]).view(np.float32)
    pay64 = np.array([1, 0x3FFFFFFFFFF, 0x40000000000, 0x7FFFFFFFFFFFF, 0x8000000000000, 0xFFFFFFFFFFFFF], np.uint64)
    f64 = np.concatenate([pay64 | 0x7FF0000000000000, pay64 | 0xFFF0000000000000]).view(np.float64)
    probes = {"float16": f16, "float32": f32, "float64": f64,
              "complex64": f32.astype(np.complex64), "complex128": f64.astype(np.complex128)}
    for key, p in list(plans.items()):
        if p.fix not in (_fix_f16_nan_widen, _fix_f16_nan_narrow):
            continue
        x = probes[key[0].name]
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ok = _run(x, key[1], p, None).tobytes() == x.astype(key[1]).tobytes()
        if not ok:
            plans[key] = p._replace(how=NUMPY)


def _plans() -> Dict[Tuple[np.dtype, np.dtype], _Plan]:
    """The table, built on first use: (source dtype, target dtype) -> _Plan."""
    global _PLANS
    if _PLANS is None:
        plans = {(_dt(s), _dt(d)): _plan(s, d) for s in _NAMES for d in _NAMES}
        _verify(plans)
        _PLANS = plans
    return _PLANS


def plan_of(source: Any, target: Any) -> str:
    """How ``astype`` converts ``source`` to ``target`` (dtypes): "tensorcast", "via float32",
    "via int32", "numpy" or "refused" (then astype raises numpy's TypeError). Pairs outside
    the table (strings, object, datetime, ...) are "numpy"."""
    p = _plans().get((np.dtype(source), np.dtype(target)))
    return NUMPY if p is None else p.how


# ---- astype ---------------------------------------------------------------------------


def _k_order(a: np.ndarray) -> Optional[Tuple[int, ...]]:
    """The axis order numpy's order="K" keeps (strides by decreasing magnitude), when it is
    not C order."""
    if a.ndim < 2 or a.flags.c_contiguous:
        return None
    perm = tuple(sorted(range(a.ndim), key=lambda i: -abs(a.strides[i])))
    return None if perm == tuple(range(a.ndim)) else perm


def astype(x: Any, dtype: Any, *, threads: Optional[int] = None) -> np.ndarray:
    """``np.asarray(x).astype(dtype)``, byte for byte, through tensorcast where tensorcast
    gives astype's bytes (every pair of bool, the numpy ints, floats and complexes,
    bfloat16, the float8, float6 and float4 types, float8_e8m0fnu, int4, uint4, int2 and
    uint2 except numpy's own float -> int casts, which numpy does: their results outside the
    integer's range are platform-dependent there).

    x: anything ``np.asarray`` takes, of any shape and strides. dtype: what numpy takes
    (``np.float32``, ``"bfloat16"``, ``ml_dtypes.int4``, ``np.dtype(...)``). threads: as
    for ``cast`` (None: one thread; 0: every core).

    Returns a new array of x's shape, in x's memory order (numpy's ``order="K"``). Raises
    TypeError where astype does (ml_dtypes registers no cast between, e.g., int4 and uint4);
    warns ComplexWarning where astype does (complex to a real numpy dtype). Other dtypes
    (strings, object, datetime, non-native byte order) are passed to numpy's astype.
    """
    a = x if type(x) is np.ndarray else np.asarray(x)
    to = dtype if isinstance(dtype, np.dtype) else np.dtype(dtype)
    plans = _PLANS if _PLANS is not None else _plans()
    p = plans.get((a.dtype, to))
    if p is None and not a.dtype.isnative:  # a byte-swapped source: swapped first
        p = plans.get((a.dtype.newbyteorder("="), to))
        if p is not None and p.how not in (NUMPY, REFUSED) and a.size >= _SMALL:
            a = a.astype(a.dtype.newbyteorder("="))
    if p is None or p.how in (NUMPY, REFUSED) or a.size < _SMALL:
        return a.astype(to)
    if p.warn:
        warnings.warn(_COMPLEX_MESSAGE, ComplexWarning, stacklevel=2)
    perm = _k_order(a)
    b = a if perm is None else a.transpose(perm)
    out = _run(b, to, p, threads)
    if out is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ComplexWarning)  # warned above
            return a.astype(to)
    return out if perm is None else out.transpose(np.argsort(perm))
