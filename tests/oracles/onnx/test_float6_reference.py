# SPDX-License-Identifier: MIT OR Apache-2.0
"""Cast to FLOAT6E2M3 / FLOAT6E3M2 against onnx 1.23.0's ReferenceEvaluator.

docs/semantics-cast.md 6 makes onnx 1.23's reference the oracle for FLOAT6 (onnx 1.23 ships no
FLOAT6 node test data): each test builds a Cast-28 model (onnx.helper, opset 28) from a
float source to a FLOAT6 target, runs it with ``onnx.reference.ReferenceEvaluator`` and
compares tensorcast's output (``tcast_cast`` through tests/oracles/numpy's ctypes binding)
byte-exact, packing included.

* Sources: FLOAT, DOUBLE, FLOAT16, BFLOAT16, the four FLOAT8 formats, FLOAT4E2M1 and both
  FLOAT6 formats, everything the evaluator accepts. FLOAT8E8M0 it does not: its Cast
  is ``x.astype(float6)``, and ml_dtypes has no float8_e8m0fnu -> float6 cast
  (``test_the_evaluator_refuses_e8m0_sources`` keeps an eye on that).
* Values: every bit pattern of the 16-bit, 8-bit, 6-bit and 4-bit sources; for FLOAT and
  DOUBLE the specials (+-0, +-inf, +-NaN, NaNs with payloads), the boundaries of each
  target (every value of the format, every halfway point between neighbours, the
  maximum, just above it and the overflow tie, the smallest subnormal and half of it,
  each with its neighbours one source ulp away, both signs), DOUBLE values off a tie by
  less than a FLOAT ulp (a conversion through FLOAT would round twice there), and 6000
  random values per source and target (log-uniform over and beyond the format's range,
  both signs, and raw bit patterns).
* Packing: the reference returns one code per byte (an ml_dtypes float6 array; the top
  two bits are checked to be 0); tensorcast writes four codes in three bytes, element 0
  in the lowest bits (docs/c-api.md section 4). The reference's codes are packed with
  ``tcast.pack_codes`` (written from docs/c-api.md, not taken from the library) and the bytes
  compared.
* saturate: the models are built with saturate = 1 and 0; FLOAT6 ignores it in both.
* The page: every code is also checked against the page's rule, written out in
  ``onnxside.Float6.page_code`` with exact fractions, so a place where the reference and
  the page disagree shows up by value, expected and got. One is known, and both sides of
  it are tested: for DOUBLE sources the reference rounds twice, through FLOAT
  (``DOUBLE_ROUNDING_EXAMPLES``); there tensorcast follows the page.

Run: ``bash scripts/test-onnx123-oracle.sh`` (creates build/venv-onnx123 with the pins of
requirements.txt, builds the release library, runs pytest here).
"""

import ml_dtypes
import numpy as np
import pytest
from onnx import TensorProto

import tcast
from onnxside import FORMATS, reference_codes, record

SEED = 20251123
N_RANDOM = 6000


class Source:
    """A float source: its ONNX code (the same number is tensorcast's dtype code), its
    numpy storage type and bits per element."""

    def __init__(self, name, numpy_type, bits):
        self.name = name
        self.onnx_type = getattr(TensorProto, name)
        self.code = getattr(tcast, name)
        assert self.onnx_type == self.code
        self.numpy_type = np.dtype(numpy_type)
        self.bits = bits

    def __repr__(self):
        return self.name

    def tensorcast_bytes(self, x):
        """The input tensor's bytes in tensorcast's layout (sub-byte codes packed)."""
        raw = np.ascontiguousarray(x).view(np.uint8).reshape(-1)
        if self.bits < 8:
            return tcast.pack_codes(raw & ((1 << self.bits) - 1), self.bits)
        return raw.tobytes()

    def every_value(self):
        """Every bit pattern of a source of at most 16 bits, as an array of its type."""
        width = np.uint16 if self.numpy_type.itemsize == 2 else np.uint8
        codes = np.arange(1 << self.bits, dtype=np.uint32).astype(width)
        return codes.view(self.numpy_type)


FLOAT = Source("FLOAT", np.float32, 32)
DOUBLE = Source("DOUBLE", np.float64, 64)
EXHAUSTIVE = [
    Source("FLOAT16", np.float16, 16),
    Source("BFLOAT16", ml_dtypes.bfloat16, 16),
    Source("FLOAT8E4M3FN", ml_dtypes.float8_e4m3fn, 8),
    Source("FLOAT8E4M3FNUZ", ml_dtypes.float8_e4m3fnuz, 8),
    Source("FLOAT8E5M2", ml_dtypes.float8_e5m2, 8),
    Source("FLOAT8E5M2FNUZ", ml_dtypes.float8_e5m2fnuz, 8),
    Source("FLOAT4E2M1", ml_dtypes.float4_e2m1fn, 4),
    Source("FLOAT6E2M3", ml_dtypes.float6_e2m3fn, 6),
    Source("FLOAT6E3M2", ml_dtypes.float6_e3m2fn, 6),
]

# Where onnx 1.23's reference departs from the page, found by this oracle:
#
# DOUBLE_ROUNDING: the reference rounds a DOUBLE to FLOAT first (ml_dtypes 0.6.0's
# float64 -> float6 astype goes through float32) and then to FLOAT6, which rounds twice; the
# page (section 2: "rounds the exact source value once: never through f32") and tensorcast
# round once. They differ exactly where the FLOAT nearest to the DOUBLE is a FLOAT6
# halfway point the DOUBLE itself is not, e.g. (value: page = tensorcast, reference):
DOUBLE_ROUNDING_EXAMPLES = [
    # (target, DOUBLE bits, page's code, reference's code)
    ("FLOAT6E2M3", 0x3FB0000000000001, 0x01, 0x00),  # 0.0625 + 2^-56: above the 0/0.125 tie
    ("FLOAT6E2M3", 0x3FC7FFFFFFFFFFFF, 0x01, 0x02),  # 0.1875 - 2^-55: below the tie
    ("FLOAT6E2M3", 0x3FF1000000000001, 0x09, 0x08),  # 1.0625 + 2^-52
    ("FLOAT6E2M3", 0x401D000000000001, 0x1F, 0x1E),  # 7.25 + 2^-50
    ("FLOAT6E3M2", 0x3FA0000000000001, 0x01, 0x00),  # 0.03125 + 2^-57
    ("FLOAT6E3M2", 0x403A000000000001, 0x1F, 0x1E),  # 26 + 2^-48: above the 24/28 tie
]
# compare() predicts the reference as the page's code of the DOUBLE rounded to FLOAT, and
# checks tensorcast against the page itself; everything else must match byte for byte.


def test_versions():
    import onnx

    assert onnx.__version__ == "1.23.0"
    assert ml_dtypes.__version__ == "0.6.0"


# ----------------------------------------------------------------------------- helpers


def _exact(x):
    """The Python float (exact: every source value fits a double) of each element."""
    with np.errstate(invalid="ignore"):  # NaNs of the ml_dtypes types
        return np.asarray(x).astype(np.float64).tolist()


def _describe(source, x, i):
    width = {8: np.uint64, 4: np.uint32, 2: np.uint16, 1: np.uint8}[source.numpy_type.itemsize]
    bits = int(np.asarray(x).view(width).reshape(-1)[i])
    value = _exact(x.reshape(-1)[i : i + 1])[0]
    return f"{source.name} {value!r} (0x{bits:0{2 * source.numpy_type.itemsize}x})"


def compare(source, fmt, x, what):
    """Runs the reference and tensorcast on `x` (an array of the source's type) for both
    saturate settings and compares them byte-exact, except where the reference rounds a
    DOUBLE twice (see DOUBLE_ROUNDING); checks both against the page's rule."""
    x = np.ascontiguousarray(x).reshape(-1)
    n = x.size
    values = _exact(x)
    page = np.array([fmt.page_code(v) for v in values], dtype=np.uint8)
    if source is DOUBLE:
        # The reference reads a DOUBLE as the FLOAT nearest to it (DOUBLE_ROUNDING).
        with np.errstate(over="ignore", invalid="ignore"):
            as_float = _exact(x.astype(np.float32))
        reference_rule = np.array([fmt.page_code(v) for v in as_float], dtype=np.uint8)
    else:
        reference_rule = page
    departs = np.flatnonzero(reference_rule != page)
    failures = []
    for saturate in (1, 0):
        ref = reference_codes(source.onnx_type, fmt.onnx_type, x, saturate)
        off = np.flatnonzero(ref != reference_rule)
        if off.size:
            failures.append(
                f"{source.name} -> {fmt.name} (saturate {saturate}), {what}: the reference "
                f"departs from the page on {off.size} of {n} values"
                + "".join(f"\n    {_describe(source, x, i)}: page 0x{int(page[i]):02x}, "
                          f"reference 0x{int(ref[i]):02x}" for i in off[:20]))
        ours = tcast.cast(source.tensorcast_bytes(x), source.code, fmt.onnx_type, shape=(n,),
                          saturate=saturate)
        assert len(ours) == tcast.tensor_bytes(fmt.onnx_type, (n,)) == (6 * n + 7) // 8
        if departs.size == 0 and ours == tcast.pack_codes(ref, 6):
            continue
        got = tcast.unpack_codes(ours, 6, n)
        if ours != tcast.pack_codes(got, 6):
            failures.append(f"{source.name} -> {fmt.name}: padding bits are not 0")
        bad = np.flatnonzero(got != page)
        if bad.size:
            failures.append(
                f"{source.name} -> {fmt.name} (saturate {saturate}), {what}: {bad.size} of "
                f"{n} codes differ from the page"
                + "".join(f"\n    {_describe(source, x, i)}: reference 0x{int(ref[i]):02x}, "
                          f"page 0x{int(page[i]):02x}, tensorcast 0x{int(got[i]):02x}"
                          for i in bad[:20]))
    record(f"{source.name} -> {fmt.name}", 2 * n)
    if departs.size:
        record(f"  of which DOUBLE_ROUNDING (reference != page), {source.name} -> {fmt.name}",
               2 * departs.size)
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


FMT_IDS = [f.name for f in FORMATS]

# ----------------------------------------------------------------------------- the sources


@pytest.mark.parametrize("fmt", FORMATS, ids=FMT_IDS)
@pytest.mark.parametrize("source", EXHAUSTIVE, ids=[s.name for s in EXHAUSTIVE])
def test_every_value_of_a_small_source(source, fmt):
    x = source.every_value()
    # replicated too, so that the wide kernels (not only the scalar tails) see each value
    compare(source, fmt, np.concatenate([x, np.tile(x, 3)]), "every value")


def _specials(numpy_type):
    bits = {np.dtype(np.float32): (np.uint32, [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001,
                                               0x7FFFFFFF, 0xFFBFFFFF]),
            np.dtype(np.float64): (np.uint64, [0x7FF8000000000000, 0xFFF8000000000000,
                                               0x7FF0000000000001, 0xFFF0000000000001,
                                               0x7FFFFFFFFFFFFFFF, 0xFFF7FFFFFFFFFFFF])}
    width, nans = bits[np.dtype(numpy_type)]
    info = np.finfo(numpy_type)
    plain = np.array([0.0, -0.0, np.inf, -np.inf, info.max, -info.max, info.tiny, -info.tiny,
                      info.smallest_subnormal, -info.smallest_subnormal], dtype=numpy_type)
    return np.concatenate([plain, np.array(nans, dtype=width).view(numpy_type)])


def _boundaries(fmt, numpy_type):
    """Every value of the format, every halfway point, the overflow region and the
    underflow ties, each with the neighbours one source ulp away, both signs."""
    values = [float(v) for v in fmt.magnitudes]
    halves = [float((a + b) / 2) for a, b in zip(fmt.magnitudes, fmt.magnitudes[1:])]
    step = float(fmt.magnitudes[-1] - fmt.magnitudes[-2])
    top = float(fmt.max)
    tiny = float(fmt.magnitudes[1])
    extra = [top + step / 2, top + step, 2 * top, 1e6, tiny / 2, tiny / 4, 3 * tiny / 4,
             tiny / 3, 1e-30]
    points = np.array(values + halves + extra, dtype=numpy_type)
    up = np.nextafter(points, numpy_type(np.inf))
    down = np.nextafter(points, numpy_type(-np.inf))
    around = np.concatenate([points, up, down])
    return np.concatenate([around, -around])


def _random(fmt, numpy_type, rng):
    lo, hi = np.log2(float(fmt.magnitudes[1])) - 4, np.log2(float(fmt.max)) + 3
    magnitudes = np.exp2(rng.uniform(lo, hi, size=N_RANDOM // 2))
    signs = np.where(rng.random(N_RANDOM // 2) < 0.5, -1.0, 1.0)
    width = np.uint32 if np.dtype(numpy_type).itemsize == 4 else np.uint64
    raw = rng.integers(0, np.iinfo(width).max, size=N_RANDOM // 2, dtype=width,
                       endpoint=True).view(numpy_type)
    return np.concatenate([(magnitudes * signs).astype(numpy_type), raw])


@pytest.mark.parametrize("fmt", FORMATS, ids=FMT_IDS)
@pytest.mark.parametrize("source", [FLOAT, DOUBLE], ids=["FLOAT", "DOUBLE"])
def test_specials(source, fmt):
    x = _specials(source.numpy_type.type)
    compare(source, fmt, np.concatenate([x, np.tile(x, 5)]), "specials")


@pytest.mark.parametrize("fmt", FORMATS, ids=FMT_IDS)
@pytest.mark.parametrize("source", [FLOAT, DOUBLE], ids=["FLOAT", "DOUBLE"])
def test_boundaries_and_ties(source, fmt):
    compare(source, fmt, _boundaries(fmt, source.numpy_type.type), "boundaries and ties")


@pytest.mark.parametrize("fmt", FORMATS, ids=FMT_IDS)
def test_double_values_a_hair_off_the_ties(fmt):
    """DOUBLE values off a halfway point (and off the overflow tie) by far less than a
    FLOAT ulp: rounded once they go to the nearer code; through FLOAT first they would
    land on the tie and go to the even one."""
    ties = [(a + b) / 2 for a, b in zip(fmt.magnitudes, fmt.magnitudes[1:])]
    ties.append(fmt.max + (fmt.magnitudes[-1] - fmt.magnitudes[-2]) / 2)
    x = []
    for t in ties:
        for rel in (2.0**-40, 2.0**-30, 2.0**-52):
            x += [float(t) * (1 + rel), float(t) * (1 - rel)]
    x = np.array(x, dtype=np.float64)
    assert not np.any(x.astype(np.float32).astype(np.float64) == x)  # none is a FLOAT
    compare(DOUBLE, fmt, np.concatenate([x, -x]), "a hair off the ties")


@pytest.mark.parametrize("fmt", FORMATS, ids=FMT_IDS)
@pytest.mark.parametrize("source", [FLOAT, DOUBLE], ids=["FLOAT", "DOUBLE"])
def test_random_values(source, fmt):
    rng = np.random.default_rng([SEED, source.code, fmt.onnx_type])
    compare(source, fmt, _random(fmt, source.numpy_type.type, rng), "random values")


def test_the_evaluator_refuses_e8m0_sources():
    """FLOAT8E8M0 -> FLOAT6 is a valid Cast-28 model, but onnx 1.23's evaluator cannot run
    it (ml_dtypes 0.6.0 has no float8_e8m0fnu -> float6 cast), so it is not compared here;
    tensorcast's E8M0 -> FLOAT6 is checked against its reference in the Rust tests."""
    x = np.array([0x7F, 0x80], dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu)
    for fmt in FORMATS:
        with pytest.raises(TypeError):
            reference_codes(TensorProto.FLOAT8E8M0, fmt.onnx_type, x)


def test_the_reference_packs_nothing_and_the_layout_is_the_pages():
    """What the comparison relies on, on a tiny model: the reference gives one code per
    byte; tensorcast's four codes in three bytes hold element 0 in the lowest bits."""
    fmt = FORMATS[1]  # FLOAT6E3M2
    x = np.array([-28.0, 0.0, 0.0, 0.0625, 28.0], dtype=np.float32)
    ref = reference_codes(TensorProto.FLOAT, fmt.onnx_type, x)
    assert ref.tolist() == [0x3F, 0x00, 0x00, 0x01, 0x1F]
    ours = tcast.cast(x, tcast.FLOAT, fmt.onnx_type)
    assert ours.hex() == "3f00041f"  # 0x3f | 0x01 << 18 in three bytes, then 0x1f
    assert ours == tcast.pack_codes(ref, 6)
    record("layout", x.size)


@pytest.mark.parametrize("fmt", FORMATS, ids=FMT_IDS)
def test_the_rules_of_issue_12(fmt):
    """-0 and negatives that round to zero keep the sign (0x20); +NaN -> 0x20, -NaN ->
    0x00; +-inf -> +-max: the reference, the page and tensorcast."""
    x = np.array([-0.0, -1e-30, np.nan, -np.nan, np.inf, -np.inf, 0.0], dtype=np.float32)
    want = [0x20, 0x20, 0x20, 0x00, 0x1F, 0x3F, 0x00]
    assert reference_codes(TensorProto.FLOAT, fmt.onnx_type, x).tolist() == want
    assert [fmt.page_code(v) for v in _exact(x)] == want
    ours = tcast.unpack_codes(tcast.cast(x, tcast.FLOAT, fmt.onnx_type), 6, x.size)
    assert ours.tolist() == want
    record("issue 12 rules", 2 * x.size)


@pytest.mark.parametrize("target, bits, page, theirs", DOUBLE_ROUNDING_EXAMPLES,
                         ids=[f"{t}-0x{b:016x}" for t, b, _, _ in DOUBLE_ROUNDING_EXAMPLES])
def test_where_the_reference_rounds_a_double_twice(target, bits, page, theirs):
    """The reference's double rounding, value by value: the reference gives `theirs` (the
    code of the FLOAT nearest to the DOUBLE), the page and tensorcast `page`."""
    fmt = FORMATS[FMT_IDS.index(target)]
    x = np.array([bits], dtype=np.uint64).view(np.float64)
    assert float(x[0]) != float(x.astype(np.float32)[0])
    assert int(reference_codes(TensorProto.DOUBLE, fmt.onnx_type, x)[0]) == theirs
    assert fmt.page_code(float(x[0])) == page
    assert fmt.page_code(float(x.astype(np.float32)[0])) == theirs
    ours = tcast.unpack_codes(tcast.cast(x, tcast.DOUBLE, fmt.onnx_type), 6, 1)
    assert int(ours[0]) == page
    neg = tcast.unpack_codes(tcast.cast(-x, tcast.DOUBLE, fmt.onnx_type), 6, 1)
    assert int(neg[0]) == page | 0x20
    record("DOUBLE_ROUNDING examples", 1)
