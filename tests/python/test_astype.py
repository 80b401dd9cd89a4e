# SPDX-License-Identifier: MIT OR Apache-2.0
"""pytensorcast.astype against numpy's and ml_dtypes' ``ndarray.astype``, byte for byte.

Every (source, target) pair of the 27 dtypes (bool, the numpy ints, floats and complexes,
bfloat16, the float8 types, float8_e8m0fnu, float4/float6, int4/uint4/int2/uint2):

- every code of the 8-bit and sub-byte types (one element per byte), every float16,
  bfloat16, int16 and uint16 bit pattern;
- 2 M float32 and 2.2 M float64 values: random bit patterns, ±0, ±inf, NaNs with payloads
  and both signs, every value of the narrow types, every midpoint between neighbouring
  values (the rounding ties) and the values beside them, overflow and underflow
  thresholds, integer boundaries, and for float64 the double-rounding probes (values
  beside a float32 tie);
- edge and random values of the 32- and 64-bit ints; complex values built from the float
  sets with imaginary parts 0, -0, 1, NaN, inf;

then the tensorcast path alone on the inputs a guard would send to numpy, strided and
transposed inputs (memory order kept as numpy's order="K"), 0-d and empty arrays, the
refused pairs and ComplexWarning. Runs against the installed package (no Rust).
"""

from __future__ import annotations

import contextlib
import functools
import warnings

import ml_dtypes
import numpy as np
import pytest

import pytensorcast as tc
from pytensorcast import _astype
from pytensorcast._astype import astype

ComplexWarning = getattr(np, "exceptions", np).ComplexWarning

NAMES = _astype._NAMES
DT = {n: _astype._dt(n) for n in NAMES}
PAIRS = [(s, d) for s in NAMES for d in NAMES]
SUB_CODES = {"float4_e2m1fn": 16, "float6_e2m3fn": 64, "float6_e3m2fn": 64, "int4": 16, "uint4": 16,
             "int2": 4, "uint2": 4}
NARROW = ["float16", "bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
          "float8_e8m0fnu", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn"]
N_RANDOM = 2_000_000
SEED = 20261206


@contextlib.contextmanager
def quiet():
    """A context without numpy's cast warnings (RuntimeWarning, ComplexWarning)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        yield


@pytest.fixture(autouse=True)
def _all_sizes(monkeypatch):
    """astype leaves arrays below _astype._SMALL elements to numpy: the tests take
    tensorcast's way for every size (test_small_arrays checks the default)."""
    monkeypatch.setattr(_astype, "_SMALL", 0)


# ---- inputs ---------------------------------------------------------------------------


def codes_of(name: str) -> np.ndarray:
    d = DT[name]
    n = SUB_CODES.get(name, 1 << (8 * d.itemsize))
    return np.arange(n, dtype=np.uint32).astype(np.uint16 if d.itemsize == 2 else np.uint8).view(d)


def finite_values(name: str) -> np.ndarray:
    """The non-negative finite values of a narrow float type, sorted, as float64."""
    with quiet():
        v = codes_of(name).astype(np.float64)
    return np.unique(np.abs(v[np.isfinite(v)]))


@functools.lru_cache(maxsize=None)
def tie_values() -> np.ndarray:
    """Each narrow type's values, the midpoints between neighbours (ties), the overflow and
    underflow thresholds; integer boundaries; both signs; float64."""
    out = []
    for name in NARROW:
        v = finite_values(name)
        mids = (v[1:] + v[:-1]) / 2
        top = v[-1]
        step = top if name == "float8_e8m0fnu" else top - v[-2]
        low = v[v > 0].min()
        extra = [top + step / 2, top + step, top + step / 4, 2 * top, 1.5 * top,
                 low / 2, low / 4, 0.75 * low, 1.25 * low, 1.5 * low]
        out += [v, mids, np.array(extra)]
    ints = []
    for k in range(66):
        p = 2.0**k
        ints += [p, p - 1, p + 1, p - 0.5, p + 0.5, p - 0.25, p + 0.75]
    for lim in [7, 8, 15, 16, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 2**31 - 1, 2**31, 2**32 - 1,
                2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64]:
        ints += [lim - 1.5, lim - 0.5, lim, lim + 0.5, lim + 1.5]
    out.append(np.array([float(i) for i in ints]))
    a = np.concatenate(out)
    return np.unique(np.concatenate([a, -a]))


def f32_specials() -> np.ndarray:
    pay = np.array([1, 2, 0x1FFF, 0x2000, 0x3FFF, 0x10000, 0x200000, 0x3FFFFF, 0x400000, 0x400001,
                    0x600000, 0x7FFFFF, 0x555555], np.uint32)
    bits = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00400000,
            0x00400001, 0x00600000, 0x00200000, 0x00500000, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
            0x7F000000, 0x7F000001, 0x7F3FFFFF, 0x7F400000, 0x7F400001, 0x7F7F0000, 0x7F7F7FFF,
            0x7F7F8000, 0x3FC00000, 0x3FBFFFFF, 0x4F000000, 0xCF000000, 0x4EFFFFFF, 0x4F000001]
    b = np.concatenate([np.array(bits, np.uint32), pay | 0x7F800000, pay | 0xFF800000])
    return b.view(np.float32)


def f64_specials() -> np.ndarray:
    pay = np.array([1, 2, 0x1FFFFFFF, 0x20000000, 0x3FFFFFFFFFF, 0x40000000000, 0x2000000000000,
                    0x7FFFFFFFFFFFF, 0x8000000000000, 0x8000000000001, 0xFFFFFFFFFFFFF], np.uint64)
    bits = np.concatenate([np.array([0, 1 << 63, 0x7FF0000000000000, 0xFFF0000000000000, 1, (1 << 63) | 1,
                                     0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF,
                                     0xFFEFFFFFFFFFFFFF], np.uint64), pay | 0x7FF0000000000000,
                           pay | 0xFFF0000000000000])
    tiny = [1e-39, 1e-40, 1e-45, 1e-46, 7e-46, 1e-50, 1e-300, 5e-324, 2.0**-127, 2.0**-128, 2.0**-149,
            2.0**-150, 1.5 * 2.0**-150, 2.0**-150 * (1 + 2.0**-30), 2.0**-127 * (1 + 2.0**-30),
            1.5 * 2.0**-127, 2.0**-126 * (1 - 2.0**-30)]
    huge = [1e300, 3.4028235677973366e38, 3.4028234663852886e38 * (1 + 2.0**-25), 3.5e38, 1e39, 2.0**128,
            2.0**127 * 1.5, 2.0**127 * (1.5 - 2.0**-30), 2.0**127 * (1 + 2.0**-30), 2147483647.0,
            2147483647.5, 2147483648.0, 2147483646.75, 4294967295.5, 9.3e18, 1.8446744073709552e19]
    v = np.array(tiny + huge)
    return np.concatenate([bits.view(np.float64), v, -v])


@functools.lru_cache(maxsize=None)
def f32_inputs() -> np.ndarray:
    rng = np.random.default_rng(SEED)
    n = N_RANDOM
    with quiet():
        t = tie_values().astype(np.float32)
        narrow = np.concatenate([codes_of("float16").astype(np.float32), codes_of("bfloat16").astype(np.float32)])
    near = np.concatenate([t, np.nextafter(t, np.float32(np.inf)), np.nextafter(t, np.float32(-np.inf))])
    sub = rng.integers(1, 1 << 23, 4096, dtype=np.uint32).view(np.float32)
    u = rng.uniform(-600, 600, n // 8).astype(np.float32)
    with quiet():
        lg = (rng.choice([-1.0, 1.0], n // 8) * 2.0 ** rng.uniform(-140, 130, n // 8)).astype(np.float32)
    head = np.concatenate([f32_specials(), narrow, near, sub, u, lg])
    rnd = rng.integers(0, 2**32, max(n - head.size, n // 4), dtype=np.uint64).astype(np.uint32).view(np.float32)
    return np.concatenate([head, rnd])


@functools.lru_cache(maxsize=None)
def f64_inputs() -> np.ndarray:
    rng = np.random.default_rng(SEED + 1)
    n = N_RANDOM
    t = tie_values()
    t = t[np.isfinite(t)]
    # Double-rounding probes: beside every tie (a rounding via float32 lands on the tie),
    # and beside the float32 values of every tie.
    near = np.concatenate([t, np.nextafter(t, np.inf), np.nextafter(t, -np.inf), t * (1 + 2.0**-40),
                           t * (1 - 2.0**-40)])
    with quiet():
        f32 = f32_inputs()[:: 8].astype(np.float64)
    u = rng.uniform(-600, 600, n // 16)
    lg = rng.choice([-1.0, 1.0], n // 16) * 2.0 ** rng.uniform(-160, 140, n // 16)
    head = np.concatenate([f64_specials(), near, f32, u, lg])
    rnd = rng.integers(0, 2**64, max(n - head.size, n // 4), dtype=np.uint64).view(np.float64)
    return np.concatenate([head, rnd])


@functools.lru_cache(maxsize=None)
def int_inputs() -> np.ndarray:
    """uint64 bit patterns: 2^k, 2^k ± 1, 2^k + 2^(k-p) (ties of the float roundings) ± 1,
    their negatives, and random values of random widths."""
    rng = np.random.default_rng(SEED + 2)
    v = [0, 1, 2, 3]
    for k in range(64):
        p = 1 << k
        v += [p, p - 1, p + 1]
        for q in (2, 3, 4, 5, 8, 9, 11, 12, 24, 25, 53, 54):
            if k >= q:
                h = 1 << (k - q)
                v += [p + h, p + h + 1, p + h - 1, p + 3 * h, p + 3 * h + 1, p + 3 * h - 1]
    v = np.array([x % (1 << 64) for x in v], np.uint64)
    bl = rng.integers(0, 64, 200_000)
    mag = rng.integers(0, 2**63, bl.size, dtype=np.uint64) >> (63 - bl).astype(np.uint64)
    small = rng.integers(-70000, 70000, 20_000).astype(np.int64).view(np.uint64)
    rnd = rng.integers(0, 2**64, 300_000, dtype=np.uint64)
    return np.concatenate([v, np.uint64(0) - v, mag, np.uint64(0) - mag, small, rnd])


@functools.lru_cache(maxsize=None)
def inputs(name: str) -> np.ndarray:
    d = DT[name]
    if name == "bool":
        return np.array([0, 1, 1, 0], np.uint8).view(np.bool_)
    if name == "float32":
        return f32_inputs()
    if name == "float64":
        return f64_inputs()
    if name in ("int32", "int64", "uint32", "uint64"):
        return int_inputs().astype(d)  # wraps
    if name in ("complex64", "complex128"):
        re = (f32_inputs() if name == "complex64" else f64_inputs())[:: 2]
        im = np.resize(np.array([0.0, -0.0, 1.0, np.nan, np.inf, 1e-30]), re.size)
        np.random.default_rng(SEED + 3).shuffle(im)
        c = np.empty(re.size, d)
        c.real = re
        with quiet():
            c.imag = im
        return c
    return codes_of(name)  # every code: 8-bit, sub-byte, float16, bfloat16, int16, uint16


# ---- checks ---------------------------------------------------------------------------


def reference(x: np.ndarray, d: np.dtype) -> np.ndarray:
    with quiet():
        return x.astype(d)


def check(x: np.ndarray, d: np.dtype, got: np.ndarray) -> None:
    ref = reference(x, d)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    if got.tobytes() != ref.tobytes():
        a = np.ascontiguousarray(ref).reshape(-1).view(np.uint8).reshape(ref.size, -1)
        b = np.ascontiguousarray(got).reshape(-1).view(np.uint8).reshape(got.size, -1)
        bad = np.nonzero(np.any(a != b, axis=1))[0]
        xs = np.ascontiguousarray(x).reshape(-1)
        xb = xs.view(np.uint8).reshape(xs.size, -1)
        ex = [(xb[i][::-1].tobytes().hex(), a[i][::-1].tobytes().hex(), b[i][::-1].tobytes().hex())
              for i in bad[:8]]
        pytest.fail(f"{x.dtype} -> {d}: {bad.size} of {ref.size} differ; (input, astype, tc.astype): {ex}")


def run(x: np.ndarray, d: np.dtype) -> np.ndarray:
    with quiet():
        return astype(x, d)


def refused(s: str, d: str) -> bool:
    return _astype.plan_of(DT[s], DT[d]) == _astype.REFUSED


@pytest.mark.parametrize("s,d", PAIRS, ids=[f"{s}-{d}" for s, d in PAIRS])
def test_pair(s: str, d: str) -> None:
    """Every input of the source, and the tensorcast path alone where a guard would give
    some inputs to numpy."""
    x = inputs(s)
    if refused(s, d):
        with pytest.raises(TypeError):
            astype(x, DT[d])
        return
    check(x, DT[d], run(x, DT[d]))
    p = _astype._plans()[(DT[s], DT[d])]
    if p.how in (_astype.NUMPY, _astype.REFUSED):
        return
    keep = np.ones(x.size, bool)
    if p.guard is not None:
        src = x.real if p.real else x
        keep &= ~p.guard.flags(src.view(np.uint16 if src.itemsize == 2 else np.uint8))
    if p.how == _astype.VIA_I32 and x.real.dtype == np.float32:
        keep &= x.real != np.float32(2.0**31)
    y = x[keep]
    with quiet():
        out = _astype._run(y, DT[d], p, None)
    assert out is not None
    check(y, DT[d], out)


def test_plans() -> None:
    """The strategies of the 729 pairs (the numbers docs/python.md quotes); no pair fell
    back to numpy at the float16 NaN self-check on this build."""
    hows = [_astype.plan_of(DT[s], DT[d]) for s, d in PAIRS]
    counts = {h: hows.count(h) for h in set(hows)}
    assert counts == {_astype.CAST: 542, _astype.VIA32: 59, _astype.VIA_I32: 46, _astype.NUMPY: 46,
                      _astype.REFUSED: 36}
    assert all(_astype._plans()[(DT[s], DT[d])] == _astype._plan(s, d) for s, d in PAIRS)
    for s, d, how in [("float64", "float8_e4m3fn", _astype.VIA32), ("int64", "bfloat16", _astype.VIA32),
                      ("float32", "int32", _astype.NUMPY), ("float32", "int4", _astype.VIA_I32),
                      ("float32", "bfloat16", _astype.CAST), ("int4", "uint4", _astype.REFUSED)]:
        assert _astype.plan_of(DT[s], DT[d]) == how
    assert _astype.plan_of(np.float32, "U") == _astype.NUMPY


def test_verify_falls_back(monkeypatch) -> None:
    """A float16 NaN rule that numpy does not follow (a build with hardware float16
    conversions) sends the pair to numpy."""
    def noop(out, src):
        pass

    key = (DT["float32"], DT["float16"])
    plans = {key: _astype._plans()[key]._replace(fix=noop)}
    monkeypatch.setattr(_astype, "_fix_f16_nan_narrow", noop)
    _astype._verify(plans)
    assert plans[key].how == _astype.NUMPY


# ---- layouts, shapes, dtype spellings ---------------------------------------------------


def small(s: str, n: int) -> np.ndarray:
    """n inputs of the source: its specials and codes first, then spread over the rest."""
    x = inputs(s)
    if x.size <= n:
        return np.resize(x, n)
    return np.concatenate([x[: n // 2], x[n // 2 :: max(1, (x.size - n // 2) // (n - n // 2))][: n - n // 2]])


@pytest.mark.parametrize("s", NAMES)
def test_layouts(s: str) -> None:
    """Strided, reversed, transposed and Fortran-ordered inputs: astype's bytes, and its
    memory order (order="K")."""
    x = small(s, 4 * 6 * 10 * 3)
    views = [
        x[::3],
        x[::-2],
        x.reshape(4, 6, 30)[:, ::2, 1::3],
        x.reshape(4, 6, 30).transpose(2, 0, 1),
        np.asfortranarray(x.reshape(24, 30)),
        x.reshape(24, 30)[::-1, ::2].T,
        x.reshape(2, 3, 4, 5, 6, 1),
    ]
    for d in NAMES:
        if refused(s, d):
            continue
        for v in views:
            got = run(v, DT[d])
            check(v, DT[d], got)
            ref = reference(v, DT[d])
            assert got.strides == ref.strides, (s, d, v.strides)


@pytest.mark.parametrize("s", NAMES)
def test_zero_d_and_empty(s: str) -> None:
    x = inputs(s)
    for d in NAMES:
        if refused(s, d):
            continue
        for v in (x[3].reshape(()) if x.size > 3 else x[0].reshape(()), x[:0], x[:0].reshape(0, 3),
                  np.resize(x, 6).reshape(2, 3)[:, :0]):
            got = run(v, DT[d])
            check(v, DT[d], got)


def test_small_arrays(monkeypatch) -> None:
    """With the default threshold, small arrays are numpy's (and so identical)."""
    monkeypatch.undo()
    assert _astype._SMALL > 0
    for s in NAMES:
        x = small(s, 100)
        for d in NAMES:
            if not refused(s, d):
                check(x, DT[d], run(x, DT[d]))


def test_high_rank() -> None:
    x = inputs("float32")[: 2**12].reshape((2,) * 12)
    for d in ("float16", "bfloat16", "float8_e4m3fn", "int4", "float64"):
        check(x, DT[d], run(x, DT[d]))
        check(x.T, DT[d], run(x.T, DT[d]))


def test_dtype_spellings_and_inputs() -> None:
    x = np.array([1.5, -2.25, 3e38, np.nan], np.float32)
    for spelling in ("bfloat16", "float8_e4m3fn", ml_dtypes.float8_e5m2, np.float16, "f8", np.dtype("int4"),
                     "uint2", float, int, bool, complex, None):
        check(x, np.dtype(spelling), run(x, spelling))
    check(np.asarray([1, 2, 300]), DT["float8_e4m3fn"], run([1, 2, 300], "float8_e4m3fn"))
    check(np.asarray(2.5), DT["int4"], run(2.5, "int4"))
    # non-native byte order: the source is swapped first; a swapped target is numpy's
    be = x.astype(">f4")
    check(be, DT["bfloat16"], run(be, "bfloat16"))
    check(be, np.dtype(">f8"), run(be, ">f8"))
    # dtypes outside the table are numpy's: strings, object, datetime
    assert run(x, "U").tolist() == x.astype("U").tolist()
    assert run(np.array(["1.5", "2"]), np.float32).tobytes() == np.array([1.5, 2], np.float32).tobytes()
    with pytest.raises(TypeError):
        astype(x, "not a dtype")
    assert astype(x, "float32", threads=0).tobytes() == x.tobytes()


def test_threads() -> None:
    x = inputs("float64")
    for d in ("float8_e4m3fn", "bfloat16", "float8_e8m0fnu", "int4", "float16"):
        with quiet():
            got = astype(x, DT[d], threads=2)
        check(x, DT[d], got)


def test_refused_pairs() -> None:
    """The 36 pairs ml_dtypes registers no cast for raise numpy's TypeError."""
    pairs = [(s, d) for s, d in PAIRS if refused(s, d)]
    assert len(pairs) == 36
    for s, d in pairs:
        with pytest.raises(TypeError) as want:
            inputs(s).astype(DT[d])
        with pytest.raises(TypeError) as got:
            astype(inputs(s), DT[d])
        assert str(got.value) == str(want.value)
    assert ("int4", "uint4") in pairs and ("float8_e8m0fnu", "float8_e4m3fn") in pairs


@pytest.mark.parametrize("s", ["complex64", "complex128"])
def test_complex_warning(s: str) -> None:
    """ComplexWarning exactly where astype warns: numpy's real targets, not bool, not the
    ml_dtypes types (which drop the imaginary part silently), also for empty arrays."""
    for x in (inputs(s)[:64], inputs(s)[:0], inputs(s)[0].reshape(())):
        for d in NAMES:
            if refused(s, d):
                continue
            with warnings.catch_warnings(record=True) as w_ref, np.errstate(all="ignore"):
                warnings.simplefilter("always")
                x.astype(DT[d])
            with warnings.catch_warnings(record=True) as w_got, np.errstate(all="ignore"):
                warnings.simplefilter("always")
                astype(x, DT[d])
            want = [str(w.message) for w in w_ref if issubclass(w.category, ComplexWarning)]
            got = [str(w.message) for w in w_got if issubclass(w.category, ComplexWarning)]
            assert got == want, (s, d)


def test_package_export() -> None:
    if hasattr(tc, "astype"):
        assert tc.astype is astype
