# SPDX-License-Identifier: MIT OR Apache-2.0
"""tensorcast's low-precision casts against ml_dtypes (docs/semantics-cast.md sections 4-7).

For each of the twelve low-precision formats:

* encoding: on values inside the format's range (finite with magnitude <= max; for
  float8_e8m0fnu positive values in [2^-127, 2^127]; for the integer formats integers in
  range), FLOAT -> format with tcast_cast gives the same codes as
  ``x.astype(ml_dtypes.<type>)``. The values: 100k random f32 per format (uniform and
  log-uniform magnitudes, both signs) and the boundaries: every value of the format,
  every midpoint between neighbours (the ties), one f32 ulp either side of each, the
  maximum, the underflow ties, zeros.
* decoding: every code to FLOAT (and DOUBLE) equals
  ``codes.view(ml_dtypes.<type>).astype(np.float32)``, NaN matching NaN.

Packed outputs are unpacked to one code per byte with ``tcast.unpack_codes``.

Which FLOAT8E8M0 round mode matches ml_dtypes: ``TCAST_ROUND_NEAREST``. ml_dtypes rounds
to the nearest power of two with the ties (1.5 * 2^k) going up, which is the page's
``nearest`` (1.5 -> 2, 0.75 -> 1); ``up`` and ``down`` differ from it on most values.

Where ml_dtypes 0.6.0 disagrees with the page inside the range, the page decides and the
cases are tested separately (``_known_difference`` below says which, with the values):

* float8_e8m0fnu: for an f32 subnormal x with 2^-127 < x < 1.5 * 2^-127, ml_dtypes gives
  0x01 (2^-126); the nearest power of two is 2^-127 (0x00), which tensorcast gives (the
  tie point is 1.5 * 2^k, as for every other binade, where ml_dtypes agrees).

FLOAT6 follows ml_dtypes (the onnx 1.23 reference is its astype): -0.0 and negatives that
round to zero give 0x20 (-0), +NaN 0x20 and -NaN 0x00.

Outside the range the page decides. ``test_ml_dtypes_astype_is_saturate_0_on_every_f32``
shows that ml_dtypes' astype is tensorcast's ``saturate = 0`` for the four float8 formats
on any f32 (and FLOAT4E2M1 and FLOAT6, which have no saturate option, match everywhere);
``PAGE_VS_ML_DTYPES`` lists, with exact values, where the page's rules and ml_dtypes give
different codes.

Run with ``TCAST_LIB=target/release/libtensorcast.so python -m pytest tests/oracles/numpy -q``.
"""

import ml_dtypes
import numpy as np
import pytest

import tcast

SEED = 20240612
N_RANDOM = 100_000


class Format:
    def __init__(self, name, code, bits, kind):
        self.name = name
        self.ml = getattr(ml_dtypes, name)
        self.code = code
        self.bits = bits
        self.kind = kind  # "float", "e8m0" or "int"

    def __repr__(self):
        return self.name


# Every small float and packed integer of the registry (tcast_dtypes.py is generated
# from it), so a new row is tested here without an edit.
FORMATS = [Format(name, code, bits, kind) for name, code, bits, kind, _ in tcast.LOW_FORMATS]
FLOAT8 = {name for name, _, bits, _, saturate in tcast.LOW_FORMATS if saturate}
FLOAT6 = {name for name, _, bits, kind, _ in tcast.LOW_FORMATS if bits == 6 and kind == "float"}
IDS = [f.name for f in FORMATS]

E8M0_MIN = np.float32(2.0**-127)  # an f32 subnormal, 0x00400000
E8M0_MAX = np.float32(2.0**127)


def test_ml_dtypes_version():
    # The known differences below were established against this version.
    assert ml_dtypes.__version__ == "0.6.0"


# ----------------------------------------------------------------------------- helpers


def _f32_bits(x):
    return np.asarray(x, dtype=np.float32).view(np.uint32)


def _f32_hex(x):
    return f"0x{int(_f32_bits(x)):08x}"


def _ours_encode(fmt, x, saturate=1, round_mode=tcast.ROUND_UP):
    x = np.ascontiguousarray(x, dtype=np.float32)
    out = tcast.cast(x, tcast.FLOAT, fmt.code, shape=(x.size,), saturate=saturate,
                     round_mode=round_mode)
    assert len(out) == tcast.tensor_bytes(fmt.code, (x.size,))
    return tcast.unpack_codes(out, fmt.bits, x.size)


def _theirs_encode(fmt, x):
    x = np.ascontiguousarray(x, dtype=np.float32)
    codes = x.astype(fmt.ml).view(np.uint8)
    return codes & np.uint8((1 << fmt.bits) - 1)


def _all_codes(fmt):
    return np.arange(1 << fmt.bits, dtype=np.uint32).astype(np.uint8)


def _ml_decode(fmt, codes):
    return np.asarray(codes, dtype=np.uint8).view(fmt.ml).astype(np.float32)


def _finite_values(fmt):
    """Every finite non-negative value of a float format, sorted, as f32."""
    v = _ml_decode(fmt, _all_codes(fmt))
    v = v[np.isfinite(v) & (v >= 0)]
    return np.unique(v)


def _next_up(x):
    x = np.asarray(x, dtype=np.float32)
    return np.nextafter(x, np.float32(np.inf))


def _next_down(x):
    x = np.asarray(x, dtype=np.float32)
    return np.nextafter(x, np.float32(-np.inf))


# ----------------------------------------------------------------------------- values


def _float_values(fmt, rng):
    """In-range f32 values of a float8/6/4 format: boundaries and random ones."""
    finite = _finite_values(fmt)
    top = finite[-1]
    smallest = finite[1]  # the smallest subnormal
    mids = ((finite[:-1].astype(np.float64) + finite[1:]) / 2).astype(np.float32)
    assert np.all(mids.astype(np.float64) == (finite[:-1].astype(np.float64) + finite[1:]) / 2)
    below = np.array([smallest / 2, smallest / 4, smallest / 3, 1e-30, 1e-40,
                      np.finfo(np.float32).smallest_subnormal, np.finfo(np.float32).tiny],
                     dtype=np.float32)
    edges = np.concatenate([finite, mids, below])
    edges = np.concatenate([edges, _next_up(edges), _next_down(edges)])
    edges = edges[(edges >= 0) & (edges <= top)]
    uniform = rng.uniform(0.0, float(top), size=N_RANDOM // 2).astype(np.float32)
    log_lo, log_hi = np.log2(float(smallest)) - 3, np.log2(float(top))
    logu = np.exp2(rng.uniform(log_lo, log_hi, size=N_RANDOM - N_RANDOM // 2))
    logu = np.minimum(logu.astype(np.float32), top)
    magnitudes = np.concatenate([edges, uniform, logu])
    signs = np.where(rng.integers(0, 2, size=magnitudes.size) == 1, -1, 1).astype(np.float32)
    out = np.concatenate([edges, -edges, magnitudes * signs]).astype(np.float32)
    assert np.all(np.isfinite(out)) and np.all(np.abs(out) <= top)
    return out


def _e8m0_values(rng):
    """Positive f32 values in [2^-127, 2^127]: boundaries and random ones."""
    k = np.arange(-127, 128, dtype=np.float64)
    powers = np.exp2(k).astype(np.float32)
    ties = (1.5 * np.exp2(k)).astype(np.float32)
    assert np.all(ties[:-1].astype(np.float64) == 1.5 * np.exp2(k[:-1]))
    edges = np.concatenate([powers, ties, np.float32(1.1) * powers])
    edges = np.concatenate([edges, _next_up(edges), _next_down(edges)])
    # the f32 subnormal binade [2^-127, 2^-126) in fine steps
    sub = np.arange(0x00400000, 0x00800000, 0x1001, dtype=np.uint32).view(np.float32)
    logu = np.exp2(rng.uniform(-127.0, 127.0, size=N_RANDOM)).astype(np.float32)
    out = np.concatenate([edges, sub, logu]).astype(np.float32)
    return out[(out >= E8M0_MIN) & (out <= E8M0_MAX)]


def _int_values(fmt, rng):
    info = ml_dtypes.iinfo(fmt.ml)
    every = np.arange(int(info.min), int(info.max) + 1, dtype=np.float32)
    rand = rng.integers(int(info.min), int(info.max), size=N_RANDOM, endpoint=True)
    return np.concatenate([every, np.array([-0.0], np.float32), rand.astype(np.float32)])


def _values(fmt):
    rng = np.random.default_rng([SEED, fmt.code])
    if fmt.kind == "float":
        return _float_values(fmt, rng)
    if fmt.kind == "e8m0":
        return _e8m0_values(rng)
    return _int_values(fmt, rng)


VALUES = {f.name: _values(f) for f in FORMATS}


# ----------------------------------------------------------------------------- known differences


def _known_difference(fmt, x, theirs):
    """True where ml_dtypes 0.6.0 departs from the page inside the range (see the module
    docs); the page's result is checked by test_known_differences_follow_the_page."""
    x = np.asarray(x, dtype=np.float32)
    if fmt.name == "float8_e8m0fnu":
        bits = _f32_bits(x)
        return (bits > 0x00400000) & (bits < 0x00600000)
    return np.zeros(x.shape, dtype=bool)


def _page_code(fmt, x):
    """What the page prescribes for the known differences."""
    if fmt.name == "float8_e8m0fnu":
        return np.zeros(np.shape(x), dtype=np.uint8)  # below 1.5 * 2^-127: 2^-127
    raise AssertionError(fmt)


def _report(fmt, x, ours, theirs, what):
    bad = np.flatnonzero(ours != theirs)
    if bad.size == 0:
        return
    lines = [
        f"  x = {float(x[i])!r} ({_f32_hex(x[i])}): ml_dtypes 0x{int(theirs[i]):02x}, "
        f"tensorcast 0x{int(ours[i]):02x}"
        for i in bad[:25]
    ]
    more = f"\n  ... and {bad.size - 25} more" if bad.size > 25 else ""
    pytest.fail(f"{fmt.name} {what}: {bad.size} of {x.size} codes differ\n"
                + "\n".join(lines) + more, pytrace=False)


# ----------------------------------------------------------------------------- encoding


def _modes(fmt):
    """(saturate, round_mode) settings expected to match ml_dtypes inside the range."""
    if fmt.name in FLOAT8:
        return [(1, tcast.ROUND_UP), (0, tcast.ROUND_UP)]  # saturate cannot matter here
    if fmt.kind == "e8m0":
        return [(1, tcast.ROUND_NEAREST), (0, tcast.ROUND_NEAREST)]
    return [(1, tcast.ROUND_UP)]


@pytest.mark.parametrize("fmt", FORMATS, ids=IDS)
def test_encoding_in_range_matches_ml_dtypes(fmt):
    x = VALUES[fmt.name]
    assert x.size >= N_RANDOM
    theirs = _theirs_encode(fmt, x)
    known = _known_difference(fmt, x, theirs)
    for saturate, mode in _modes(fmt):
        ours = _ours_encode(fmt, x, saturate=saturate, round_mode=mode)
        ours = np.where(known, theirs, ours)  # checked in test_known_differences_*
        _report(fmt, x, ours, theirs, f"FLOAT -> format (saturate={saturate}, round_mode={mode})")


@pytest.mark.parametrize("fmt", FORMATS, ids=IDS)
def test_known_differences_follow_the_page(fmt):
    x = VALUES[fmt.name]
    theirs = _theirs_encode(fmt, x)
    known = _known_difference(fmt, x, theirs)
    if fmt.name == "float8_e8m0fnu":
        assert known.sum() > 100
        assert np.all(theirs[known] == 0x01)
    else:
        assert not known.any()
        return
    xs = x[known]
    for saturate, mode in _modes(fmt):
        ours = _ours_encode(fmt, xs, saturate=saturate, round_mode=mode)
        _report(fmt, xs, ours, _page_code(fmt, xs),
                f"(page rule where ml_dtypes differs, saturate={saturate}, round_mode={mode})")


def test_e8m0_nearest_is_the_mode_that_matches_ml_dtypes():
    fmt = FORMATS[IDS.index("float8_e8m0fnu")]
    # ties go up in ml_dtypes as in the page's nearest; 1.1 goes down; 1.9 up
    x = np.array([1.5, 0.75, 3.0, 6.0, 0.375, 1.1, 1.9, 1.4999999, 0.74999994, 2.0**100 * 1.5],
                 dtype=np.float32)
    theirs = _theirs_encode(fmt, x)
    assert theirs.tolist() == [0x80, 0x7F, 0x81, 0x82, 0x7E, 0x7F, 0x80, 0x7F, 0x7E, 0xE4]
    _report(fmt, x, _ours_encode(fmt, x, round_mode=tcast.ROUND_NEAREST), theirs, "nearest")
    # the other two modes do not match ml_dtypes on the random values
    v = VALUES[fmt.name]
    theirs = _theirs_encode(fmt, v)
    for mode in (tcast.ROUND_UP, tcast.ROUND_DOWN):
        ours = _ours_encode(fmt, v, round_mode=mode)
        assert np.mean(ours != theirs) > 0.2, mode


# ----------------------------------------------------------------------------- decoding


def _same_floats(ours, theirs):
    """Bit-equal, or both NaN."""
    nan = np.isnan(ours) & np.isnan(theirs)
    width = np.uint64 if ours.dtype == np.float64 else np.uint32
    return nan | (ours.view(width) == theirs.view(width))


@pytest.mark.parametrize("fmt", FORMATS, ids=IDS)
@pytest.mark.parametrize("target", [tcast.FLOAT, tcast.DOUBLE], ids=["FLOAT", "DOUBLE"])
def test_decoding_every_code_matches_ml_dtypes(fmt, target):
    codes = _all_codes(fmt)
    n = codes.size
    # both alone (the scalar tails) and repeated past any vector width
    for reps in (1, 37):
        c = np.tile(codes, reps)
        packed = tcast.pack_codes(c, fmt.bits)
        out = tcast.cast(packed, fmt.code, target, shape=(c.size,))
        np_type = np.float32 if target == tcast.FLOAT else np.float64
        ours = np.frombuffer(out, dtype=np_type)
        theirs = c.view(fmt.ml).astype(np_type)
        ok = _same_floats(ours, theirs)
        if not ok.all():
            bad = np.flatnonzero(~ok)[:25]
            lines = [f"  code 0x{int(c[i]):02x}: ml_dtypes {theirs[i]!r}, tensorcast {ours[i]!r}"
                     for i in bad]
            pytest.fail(f"{fmt.name} -> {'FLOAT' if target == tcast.FLOAT else 'DOUBLE'} "
                        f"(n={c.size}): {int((~ok).sum())} of {c.size} differ\n"
                        + "\n".join(lines), pytrace=False)
    assert n == 1 << fmt.bits


@pytest.mark.parametrize("fmt", FORMATS, ids=IDS)
def test_every_finite_code_round_trips_through_float(fmt):
    """decode then encode gives the code back (ml_dtypes agrees)."""
    codes = _all_codes(fmt)
    values = _ml_decode(fmt, codes)
    keep = np.isfinite(values)
    codes, values = codes[keep], values[keep]
    mode = tcast.ROUND_NEAREST if fmt.kind == "e8m0" else tcast.ROUND_UP
    ours = _ours_encode(fmt, values, round_mode=mode)
    _report(fmt, values, ours, codes, "decode -> encode")


# ----------------------------------------------------------------------------- outside the range


def _random_f32_bits(n, seed):
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 1 << 32, size=n, dtype=np.uint64).astype(np.uint32)
    specials = np.array([0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                         0xFFC00000, 0x7F800001, 0xFF800001, 0x7F7FFFFF, 0xFF7FFFFF,
                         0x00000001, 0x80000001], dtype=np.uint32)
    return np.concatenate([specials, bits]).view(np.float32)


@pytest.mark.parametrize("fmt", [f for f in FORMATS
                                 if f.name in FLOAT8 | FLOAT6 or f.name == "float4_e2m1fn"],
                         ids=lambda f: f.name)
def test_ml_dtypes_astype_is_saturate_0_on_every_f32(fmt):
    """Beyond the range ml_dtypes does not saturate: its astype gives what tensorcast gives
    with saturate = 0 on any f32 (NaN, infinities and overflow included). FLOAT4E2M1 and
    FLOAT6 have no saturate option (they always saturate, as ml_dtypes does for them) and
    match ml_dtypes everywhere: the page follows ml_dtypes' -0 and NaN codes there."""
    x = _random_f32_bits(300_000, SEED + fmt.code)
    with np.errstate(invalid="ignore", over="ignore"):
        theirs = _theirs_encode(fmt, x)
    ours = _ours_encode(fmt, x, saturate=0)
    _report(fmt, x, ours, theirs, "every f32, saturate=0")


# (format, x, saturate, round_mode, the page's code (tensorcast), ml_dtypes 0.6.0's code)
NAN = float("nan")
INF = float("inf")
PAGE_VS_ML_DTYPES = [
    # float8 with saturate = 1: overflow and infinities give +-max; ml_dtypes does not saturate
    ("float8_e4m3fn", 465.0, 1, 0, 0x7E, 0x7F),
    ("float8_e4m3fn", INF, 1, 0, 0x7E, 0x7F),
    ("float8_e4m3fn", -INF, 1, 0, 0xFE, 0xFF),
    ("float8_e4m3fnuz", 248.0, 1, 0, 0x7F, 0x80),
    ("float8_e4m3fnuz", -INF, 1, 0, 0xFF, 0x80),
    ("float8_e5m2", 61440.0, 1, 0, 0x7B, 0x7C),
    ("float8_e5m2", -INF, 1, 0, 0xFB, 0xFC),
    ("float8_e5m2fnuz", INF, 1, 0, 0x7F, 0x80),
    ("float8_e5m2fnuz", -1e6, 1, 0, 0xFF, 0x80),
    # FLOAT8E8M0 with saturate = 1: zero and negatives 0x00, +inf and above 2^127 0xFE
    ("float8_e8m0fnu", 0.0, 1, 2, 0x00, 0xFF),
    ("float8_e8m0fnu", -0.0, 1, 2, 0x00, 0xFF),
    ("float8_e8m0fnu", -1.0, 1, 2, 0x00, 0xFF),
    ("float8_e8m0fnu", -INF, 1, 2, 0x00, 0xFF),
    ("float8_e8m0fnu", INF, 1, 2, 0xFE, 0xFF),
    ("float8_e8m0fnu", 3e38, 1, 2, 0xFE, 0xFF),
    # ... and with saturate = 0 any x above 2^127 is 0xFF, even where nearest gives 2^127,
    # and any positive x below 2^-127 (Cast-24: "x < E8M0_MIN -> NaN")
    ("float8_e8m0fnu", 2.0**127 * 1.2, 0, 2, 0xFF, 0xFE),
    ("float8_e8m0fnu", 2.0**-128, 0, 2, 0xFF, 0x00),
    ("float8_e8m0fnu", 2.0**-149, 0, 2, 0xFF, 0x00),
    # inside the range (see the module docs): E8M0's f32 subnormal binade
    ("float8_e8m0fnu", 2.0**-127 * 1.25, 1, 2, 0x00, 0x01),
    ("float8_e8m0fnu", 2.0**-127 * 1.4999, 0, 2, 0x00, 0x01),
    # the integer formats round non-integers to nearest even; ml_dtypes truncates
    ("int4", 1.5, 1, 0, 0x2, 0x1),
    ("int4", -1.5, 1, 0, 0xE, 0xF),
    ("int4", 3.7, 1, 0, 0x4, 0x3),
    ("uint4", 2.6, 1, 0, 0x3, 0x2),
    ("int2", -0.75, 1, 0, 0x3, 0x0),
    ("uint2", 3.5, 1, 0, 0x0, 0x3),
    ("uint2", 1.5, 1, 0, 0x2, 0x1),
]


@pytest.mark.parametrize("name, x, saturate, mode, page, theirs", PAGE_VS_ML_DTYPES,
                         ids=[f"{c[0]}-{c[1]!r}-sat{c[2]}" for c in PAGE_VS_ML_DTYPES])
def test_where_the_page_and_ml_dtypes_differ(name, x, saturate, mode, page, theirs):
    fmt = FORMATS[IDS.index(name)]
    xs = np.array([x], dtype=np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        assert int(_theirs_encode(fmt, xs)[0]) == theirs, "ml_dtypes changed"
    got = int(_ours_encode(fmt, xs, saturate=saturate, round_mode=mode)[0])
    assert got == page, f"{name} {x!r} (saturate {saturate}, round_mode {mode}): 0x{got:02x}"


def test_e8m0_without_saturate_is_nan_below_its_smallest_value():
    """docs/semantics-cast.md 5: with saturate = 0 every positive f32 below 2^-127 (the f32
    subnormals 0x00000001 ... 0x003FFFFF) gives 0xFF in every round mode; saturating, 0x00.
    2^-127 itself is 0x00 either way. Each value alone and all in one call (vector paths)."""
    fmt = FORMATS[IDS.index("float8_e8m0fnu")]
    below = np.arange(1, 0x00400000, 97, dtype=np.uint32)
    below = np.concatenate([below, np.array([0x003FFFFF, 0x00200000, 0x00300000],
                                            dtype=np.uint32)]).view(np.float32)
    at = np.array([E8M0_MIN], dtype=np.float32)
    for mode in (tcast.ROUND_UP, tcast.ROUND_DOWN, tcast.ROUND_NEAREST):
        for saturate, code in ((0, 0xFF), (1, 0x00)):
            ours = _ours_encode(fmt, below, saturate=saturate, round_mode=mode)
            _report(fmt, below, ours, np.full(below.size, code, dtype=np.uint8),
                    f"below 2^-127 (saturate={saturate}, round_mode={mode})")
            for x in below[:: below.size // 7]:
                one = _ours_encode(fmt, np.array([x]), saturate=saturate, round_mode=mode)
                assert int(one[0]) == code, (_f32_hex(x), saturate, mode)
            assert int(_ours_encode(fmt, at, saturate=saturate, round_mode=mode)[0]) == 0
