# SPDX-License-Identifier: MIT OR Apache-2.0
"""tensorcast's STRING casts against numpy and Python (docs/semantics-cast.md section 8).

* TCAST_FORMAT_SHORTEST must equal numpy's ``str()`` of a scalar of the source type
  (numpy's "nan"/"-nan", "inf", "-inf" spelled "NaN", "INF", "-INF" as ONNX does);
* TCAST_FORMAT_PRINTF_8G must equal Python's ``'%.8g' % float(x)`` for FLOAT16 and FLOAT
  and ``'%.17g' % x`` for DOUBLE (same spellings);
* parsing must be correctly rounded: DOUBLE equals ``float(text)``, FLOAT equals
  ``np.float32(text)`` (when those two disagree, the exactly rounded value computed with
  ``fractions`` decides), FLOAT16 equals the f64 value rounded once by numpy.

The value sets: all 65536 FLOAT16 codes; for FLOAT and DOUBLE random bit patterns,
random values log-uniform over the whole range (both signs), random subnormals, and the
values around the layout thresholds 1e-4, 1e3, 1e6 and 1e16 (+-5 ulps).

Every tensorcast call formats or parses a whole batch. Run with
``TCAST_LIB=target/release/libtensorcast.so python -m pytest tests/oracles/numpy -q``.
"""

import decimal
import math
import re
from decimal import Decimal
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

import tcast

SEED = 20240611
N_RANDOM = 100_000  # per random family and type: over 200k FLOAT and 200k DOUBLE values
N_DECIMALS = 100_000
THRESHOLDS = (1e-4, 1e3, 1e6, 1e16)
ULPS = 5

UINT_OF = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}
NAME_OF = {np.float16: "FLOAT16", np.float32: "FLOAT", np.float64: "DOUBLE"}
PRINTF_DIGITS = {np.float16: 8, np.float32: 8, np.float64: 17}

# numpy's and Python's spellings of the specials -> the ONNX ones tensorcast writes
SPECIAL_TEXTS = {"nan": "NaN", "-nan": "NaN", "inf": "INF", "-inf": "-INF"}


# ----------------------------------------------------------------------------- value sets


def _bits(values):
    """The bit patterns of a float array, as Python ints."""
    values = np.asarray(values)
    return values.view(UINT_OF[values.dtype.type]).tolist()


def _hex(bits, dtype):
    return f"0x{bits:0{np.dtype(dtype).itemsize * 2}x}"


def _random_bits(rng, dtype, n):
    u = UINT_OF[dtype]
    return rng.integers(0, np.iinfo(u).max, size=n, dtype=u, endpoint=True).view(dtype)


def _log_uniform(rng, dtype, n):
    """Magnitudes log-uniform from the smallest subnormal to the largest finite value."""
    info = np.finfo(dtype)
    lo = math.log10(float(info.smallest_subnormal))
    hi = math.log10(float(info.max))
    with np.errstate(over="ignore"):
        x = np.power(10.0, rng.uniform(lo, hi, size=n))
        x = np.minimum(x, float(info.max)).astype(dtype)
    signs = np.where(rng.integers(0, 2, size=n) == 1, -1, 1).astype(dtype)
    return x * signs


def _subnormals(rng, dtype, n):
    u = UINT_OF[dtype]
    mantissa_bits = np.finfo(dtype).nmant
    low = rng.integers(1, 1 << mantissa_bits, size=n, dtype=np.uint64).astype(u)
    sign = (rng.integers(0, 2, size=n).astype(u) << u(8 * np.dtype(u).itemsize - 1))
    return (low | sign).view(dtype)


def _threshold_neighbours(dtype):
    """Each layout threshold as a value of `dtype`, +-ULPS steps, both signs."""
    out = []
    up, down = dtype(np.inf), dtype(-np.inf)
    for t in THRESHOLDS:
        with np.errstate(over="ignore"):
            centre = dtype(t)
        if not np.isfinite(centre):
            continue
        x = centre
        for _ in range(ULPS):
            x = np.nextafter(x, down)
        for _ in range(2 * ULPS + 1):
            out.append(x)
            x = np.nextafter(x, up)
    info = np.finfo(dtype)
    out += [dtype(0.0), info.max, info.tiny, info.smallest_subnormal, dtype(1.0)]
    out = np.array(out, dtype=dtype)
    return np.concatenate([out, -out])


def _value_sets():
    rng = np.random.default_rng(SEED)
    sets = {
        "FLOAT16 all codes": np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(
            np.float16),
        "FLOAT16 thresholds": _threshold_neighbours(np.float16),
    }
    for dtype in (np.float32, np.float64):
        name = NAME_OF[dtype]
        sets[f"{name} random bits"] = _random_bits(rng, dtype, N_RANDOM)
        sets[f"{name} log-uniform"] = _log_uniform(rng, dtype, N_RANDOM)
        sets[f"{name} subnormals"] = _subnormals(rng, dtype, N_RANDOM // 6)
        sets[f"{name} thresholds"] = _threshold_neighbours(dtype)
    return sets


VALUE_SETS = _value_sets()


# ----------------------------------------------------------------------------- references


def numpy_text(x):
    s = str(x)
    return SPECIAL_TEXTS.get(s, s)


def printf_text(x, digits):
    f = float(x)
    if math.isnan(f) or math.isinf(f):
        return SPECIAL_TEXTS[str(f)]
    return "%.*g" % (digits, f)


def _report(values, ours, expected, what, reference_name):
    """Fails with the bits, the reference's text and ours of the first mismatches."""
    values = np.asarray(values)
    bad = [i for i, (o, e) in enumerate(zip(ours, expected)) if o != e]
    if not bad:
        return
    bits = _bits(values)
    lines = [
        f"  {_hex(bits[i], values.dtype)}: {reference_name} {expected[i]!r}, ours {ours[i]!r}"
        for i in bad[:25]
    ]
    more = f"\n  ... and {len(bad) - 25} more" if len(bad) > 25 else ""
    pytest.fail(f"{what}: {len(bad)} of {len(values)} texts differ\n" + "\n".join(lines) + more,
                pytrace=False)


def _ours(values, fmt):
    return [t.decode("ascii") for t in tcast.to_strings(values, fmt)]


# ----------------------------------------------------------------------------- formatting


@pytest.mark.parametrize("name", list(VALUE_SETS))
def test_shortest_equals_numpy_str(name):
    values = VALUE_SETS[name]
    ours = _ours(values, tcast.FORMAT_SHORTEST)
    expected = [numpy_text(x) for x in values]
    _report(values, ours, expected, f"{name}, TCAST_FORMAT_SHORTEST", "numpy")


@pytest.mark.parametrize("name", list(VALUE_SETS))
def test_printf_8g_equals_python_percent_g(name):
    values = VALUE_SETS[name]
    digits = PRINTF_DIGITS[values.dtype.type]
    ours = _ours(values, tcast.FORMAT_PRINTF_8G)
    expected = [printf_text(x, digits) for x in values]
    _report(values, ours, expected, f"{name}, TCAST_FORMAT_PRINTF_8G", f"'%.{digits}g'")


POSITIONAL = re.compile(r"-?[0-9]+\.[0-9]+")
SCIENTIFIC = re.compile(r"-?[0-9](\.[0-9]*[1-9])?e[+-][0-9]{2,3}")


def _one_digit_fewer(text):
    """The two decimals of one significant digit fewer than `text` that enclose its
    value (rounded down and up), or () for a one-digit text."""
    value = Decimal(text)
    digits = value.as_tuple().digits
    significant = len("".join(map(str, digits)).strip("0")) if value else 1
    if significant <= 1:
        return ()
    # the place of the last digit kept: one digit fewer than the text has
    place = Decimal(1).scaleb(value.adjusted() - (significant - 2))
    return tuple(f"{value.quantize(place, rounding=r):e}"
                 for r in (decimal.ROUND_FLOOR, decimal.ROUND_CEILING))


@pytest.mark.parametrize("dtype, code", [(np.float16, tcast.FLOAT16),
                                         (ml_dtypes.bfloat16, tcast.BFLOAT16)],
                         ids=["FLOAT16", "BFLOAT16"])
def test_shortest_16_bit_texts_are_the_shortest_that_read_back(dtype, code):
    """docs/semantics-cast.md 8: "the shortest digits that read back to the same value in the
    source type" (16-bit floats parse to f64 and round once), numpy's layout with U = 1e3.
    numpy has no BFLOAT16, so the property itself is checked: the text reads back, and
    neither decimal of one significant digit fewer around the value does."""
    codes = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    values = codes.view(dtype)
    finite = np.isfinite(values.astype(np.float32))
    codes, values = codes[finite], values[finite]
    ours = _ours(values, tcast.FORMAT_SHORTEST)
    problems = []
    # the layout
    for c, v, t in zip(codes.tolist(), values.astype(np.float64).tolist(), ours):
        positional = v == 0 or 1e-4 <= abs(v) < 1e3
        if not (POSITIONAL if positional else SCIENTIFIC).fullmatch(t):
            problems.append(f"  0x{c:04x} ({v!r}): ours {t!r} is not in numpy's "
                            f"{'positional' if positional else 'scientific'} layout")
    # reads back
    back = tcast.from_strings([t.encode() for t in ours], code).view(np.uint16)
    for c, b, t in zip(codes.tolist(), back.tolist(), ours):
        if b != c:
            problems.append(f"  0x{c:04x}: ours {t!r} reads back as 0x{b:04x}")
    # and is the shortest that does
    shorter = [(c, t, s) for c, t in zip(codes.tolist(), ours) for s in _one_digit_fewer(t)]
    if shorter:
        back = tcast.from_strings([s.encode() for _, _, s in shorter], code).view(np.uint16)
        for (c, t, s), b in zip(shorter, back.tolist()):
            if b == c:
                problems.append(f"  0x{c:04x}: ours {t!r}, but the shorter {s!r} reads back "
                                f"to the same value")
    if problems:
        pytest.fail(f"{len(problems)} {NAME_OF.get(dtype, 'BFLOAT16')} texts are wrong\n"
                    + "\n".join(problems[:25]), pytrace=False)


def test_strided_input_formats_like_its_contiguous_copy():
    values = VALUE_SETS["DOUBLE random bits"][:3000].reshape(30, 100)
    view = values.T[::2, 1::3]  # non-contiguous, non-negative strides
    assert not view.flags.c_contiguous
    for fmt in (tcast.FORMAT_SHORTEST, tcast.FORMAT_PRINTF_8G):
        assert tcast.to_strings(view, fmt) == tcast.to_strings(np.ascontiguousarray(view), fmt)


# ----------------------------------------------------------------------------- parsing


def _f32_exact(text):
    """The FLOAT nearest to the decimal `text` (ties to even), computed exactly."""
    text = text.strip()
    negative = text.startswith("-")
    q = abs(Fraction(Decimal(text)))
    top = Fraction(2) ** 128  # where infinity sits for rounding: max + one ulp
    if q >= top:
        result = np.float32(np.inf)
    else:
        with np.errstate(over="ignore"):
            guess = np.float32(float(q))
        candidates = {guess, np.nextafter(guess, np.float32(0)),
                      np.nextafter(guess, np.float32(np.inf))}

        def key(c):
            value = top if np.isinf(c) else Fraction(float(c))
            return (abs(value - q), int(np.array(c).view(np.uint32)) & 1)

        result = min(candidates, key=key)
    return np.float32(-result) if negative else np.float32(result)


def _compare_parsed(texts, ours, reference, dtype, what, arbiter=None):
    """Bits of `ours` must equal `reference` (NaN for NaN), or the arbiter's value where
    the reference is disputed. Returns the texts where the reference itself was wrong."""
    u = UINT_OF[dtype]
    ours_bits = ours.view(u)
    ref_bits = reference.view(u)
    nan = np.isnan(ours) & np.isnan(reference)
    differ = np.nonzero((ours_bits != ref_bits) & ~nan)[0]
    failures, reference_wrong = [], []
    for i in differ.tolist():
        if arbiter is not None:
            exact = arbiter(texts[i])
            if int(np.array(exact).view(u)) == int(ours_bits[i]):
                reference_wrong.append(texts[i])
                continue
        failures.append(
            f"  {texts[i]!r}: reference {_hex(int(ref_bits[i]), dtype)} ({reference[i]!r}), "
            f"ours {_hex(int(ours_bits[i]), dtype)} ({ours[i]!r})")
    if failures:
        pytest.fail(f"{what}: {len(failures)} of {len(texts)} parse differently\n"
                    + "\n".join(failures[:25]), pytrace=False)
    return reference_wrong


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["FLOAT", "DOUBLE"])
def test_numpy_texts_parse_back_to_the_same_bits(dtype):
    values = np.concatenate([VALUE_SETS[f"{NAME_OF[dtype]} {family}"]
                             for family in ("random bits", "log-uniform", "subnormals",
                                            "thresholds")])
    texts = [str(x) for x in values]
    code = tcast.FLOAT if dtype is np.float32 else tcast.DOUBLE
    ours = tcast.from_strings([t.encode() for t in texts], code)
    # the original values themselves (numpy's text is its shortest round-trip form)
    _compare_parsed(texts, ours, values, dtype, "numpy's text -> original bits")
    # and what numpy parses the text to
    reference = np.array([dtype(t) for t in texts], dtype=dtype)
    _compare_parsed(texts, ours, reference, dtype, f"numpy's text -> np.{dtype.__name__}",
                    _f32_exact if dtype is np.float32 else None)


def _random_decimal_texts(rng, n):
    """Decimal texts of 1-25 digits, a point anywhere or nowhere, most with an exponent
    reaching past both ends of the double range, some signed, some padded."""
    digits = rng.integers(1, 26, size=n)
    points = rng.integers(-1, digits + 1)
    exponents = rng.integers(-350, 350, size=n)
    has_exp = rng.random(n) < 0.75
    signs = rng.choice(np.array(["", "", "-", "+"]), size=n)
    pads = rng.choice(np.array(["", "", " ", "\t", "\n", "\v", "\f", "\r"]), size=n)
    pool = rng.integers(0, 10, size=int(digits.sum())).astype(np.uint8) + ord("0")
    texts, at = [], 0
    for k in range(n):
        d, p = int(digits[k]), int(points[k])
        body = pool[at:at + d].tobytes().decode()
        at += d
        if p >= 0:
            body = body[:p] + "." + body[p:]
        if has_exp[k]:
            body += ("e" if k % 2 else "E") + str(int(exponents[k]))
        texts.append(f"{pads[k]}{signs[k]}{body}{pads[k]}")
    return texts


@pytest.fixture(scope="module")
def decimal_texts():
    return _random_decimal_texts(np.random.default_rng(SEED + 1), N_DECIMALS)


def test_random_decimals_parse_correctly_rounded_to_double(decimal_texts):
    ours = tcast.from_strings([t.encode() for t in decimal_texts], tcast.DOUBLE)
    reference = np.array([float(t) for t in decimal_texts], dtype=np.float64)
    _compare_parsed(decimal_texts, ours, reference, np.float64, "decimal -> DOUBLE vs float()")


def test_random_decimals_parse_correctly_rounded_to_float(decimal_texts):
    ours = tcast.from_strings([t.encode() for t in decimal_texts], tcast.FLOAT)
    with np.errstate(over="ignore"):
        reference = np.array([np.float32(t) for t in decimal_texts], dtype=np.float32)
    wrong = _compare_parsed(decimal_texts, ours, reference, np.float32,
                            "decimal -> FLOAT vs np.float32()", _f32_exact)
    if wrong:
        print(f"np.float32(text) is not correctly rounded for {len(wrong)} texts, e.g. "
              f"{wrong[:3]}")


def test_random_decimals_parse_to_float16_through_double(decimal_texts):
    # docs/semantics-cast.md 8: the narrower floats parse to f64, then round once
    ours = tcast.from_strings([t.encode() for t in decimal_texts], tcast.FLOAT16)
    doubles = np.array([float(t) for t in decimal_texts], dtype=np.float64)
    with np.errstate(over="ignore"):
        reference = doubles.astype(np.float16)
    _compare_parsed(decimal_texts, ours, reference, np.float16,
                    "decimal -> FLOAT16 vs np.float16(float())")


def test_float_parsing_near_ties_is_correctly_rounded():
    """Texts a hair above, at, and a hair below the midpoint of two adjacent FLOATs.

    Through double first, the hair is lost and the tie rounds to even; parsed directly
    (as the semantics page asks for FLOAT) the hair decides.
    """
    rng = np.random.default_rng(SEED + 2)
    low = _random_bits(rng, np.float32, 4000)
    low = np.abs(low[np.isfinite(low)])
    high = np.nextafter(low, np.float32(np.inf))
    keep = np.isfinite(high)
    low, high = low[keep], high[keep]
    texts, expected = [], []
    with decimal.localcontext() as exact:
        exact.prec = 400  # enough for every FLOAT midpoint and the hair below its last digit
        exact.traps[decimal.Inexact] = True
        for a, b in zip(low.tolist(), high.tolist()):  # Python floats: FLOAT values, exact
            mid = (Decimal(a) + Decimal(b)) / 2
            even = a if int(np.float32(a).view(np.uint32)) % 2 == 0 else b
            hair = Decimal(1).scaleb(mid.adjusted() - len(mid.as_tuple().digits) - 5)
            for text, want in ((mid + hair, b), (mid, even), (mid - hair, a)):
                texts.append(f"{text:e}")
                expected.append(want)
    ours = tcast.from_strings([t.encode() for t in texts], tcast.FLOAT)
    expected = np.array(expected, dtype=np.float32)
    _compare_parsed(texts, ours, expected, np.float32, "FLOAT midpoint texts")
    # np.float32(text) is the oracle elsewhere: note where it is not correctly rounded
    numpy_wrong = sum(np.float32(t).view(np.uint32) != e.view(np.uint32)
                      for t, e in zip(texts, expected))
    print(f"np.float32(text) misrounds {numpy_wrong} of {len(texts)} midpoint texts")


def test_parse_errors_carry_the_index_and_the_text():
    texts = [b"1", b"2.5", b"3.14abc", b"4"]
    for code in (tcast.FLOAT, tcast.DOUBLE, tcast.FLOAT16, tcast.INT32, tcast.BOOL):
        with pytest.raises(tcast.TcastError) as caught:
            tcast.from_strings(texts, code)
        assert caught.value.status == tcast.ERR_PARSE
        assert caught.value.index == 2
        assert '"3.14abc"' in caught.value.message


# C's isspace characters: the ones tensorcast trims (docs/semantics-cast.md 8).
C_SPACES = " \t\n\v\f\r"


def test_the_six_c_space_characters_are_trimmed_as_float_does():
    """Each of space, \\t, \\n, \\v, \\f, \\r at either end is trimmed, as Python's float()
    trims it. Unicode whitespace that float() also trims (U+0085, NO-BREAK SPACE, EM SPACE)
    is refused by tensorcast, which trims C's six characters only, and so are the other
    ASCII controls (which float() refuses too)."""
    bodies = ["1.5", "-2", "+7e3", "inf", "-nan", ".25"]
    texts = [f"{a}{body}{b}" for body in bodies for a in C_SPACES for b in C_SPACES]
    texts += [f"{C_SPACES}{body}{C_SPACES[::-1]}" for body in bodies]
    ours = tcast.from_strings([t.encode() for t in texts], tcast.DOUBLE)
    reference = np.array([float(t) for t in texts], dtype=np.float64)
    _compare_parsed(texts, ours, reference, np.float64, "C-space padded text -> DOUBLE")
    ints = tcast.from_strings([f"\v{k}\f".encode() for k in (-3, 0, 42)], tcast.INT32)
    assert ints.tolist() == [-3, 0, 42]
    for space, python_trims in [("\x85", True), ("\xa0", True), ("\u2003", True),
                                ("\x1c", False), ("\x1f", False), ("\x00", False)]:
        text = f"{space}1.5"
        try:
            float(text)
            assert python_trims, repr(space)
        except ValueError:
            assert not python_trims, repr(space)
        with pytest.raises(tcast.TcastError) as caught:
            tcast.from_strings([text.encode()], tcast.DOUBLE)
        assert caught.value.status == tcast.ERR_PARSE


PACKED_INTS = [(tcast.INT4, 4), (tcast.UINT4, 4), (tcast.INT2, 2), (tcast.UINT2, 2)]


@pytest.mark.parametrize("code, bits", PACKED_INTS, ids=["INT4", "UINT4", "INT2", "UINT2"])
def test_integer_texts_wrap_into_packed_integers_as_their_floats_do(code, bits):
    """docs/semantics-cast.md 8: a plain integer text converts as a float of its value does:
    INT4/UINT4/INT2/UINT2 keep the low bits, however long the text ("20" -> UINT4 4, "-5"
    -> UINT4 11). The oracle is Python's exact integer arithmetic (v mod 2^bits); where a
    double holds the value exactly, tensorcast's own DOUBLE -> format cast of that double
    must agree, and texts with a fraction or an exponent give what DOUBLE -> format gives
    for float(text) (nearest even integer, low bits; NaN and infinities 0)."""
    rng = np.random.default_rng(SEED + 3)
    values = [0, 1, -1, 7, -8, 8, -9, 15, 16, 20, -5, 2**53 + 1, 2**63, -2**63 - 1, 2**64,
              2**64 + 1, -(2**64 + 1), 2**128, 10**20, 10**40 + 7, -(10**60) - 3]
    for _ in range(3000):
        digits = int(rng.integers(1, 80))
        v = int("".join(str(d) for d in rng.integers(0, 10, size=digits)))
        values.append(-v if rng.random() < 0.5 else v)
    texts = [str(v) for v in values]
    texts[3] = "+7"
    texts[4] = "  -8\t"
    ours = tcast.unpack_codes(tcast.parse_raw([t.encode() for t in texts], code), bits,
                              len(texts))
    want = np.array([v % (1 << bits) for v in values], dtype=np.uint8)
    bad = np.flatnonzero(ours != want)
    assert bad.size == 0, [(texts[i], int(ours[i]), int(want[i])) for i in bad[:10]]

    exact = [v for v in values if abs(v) < 2**1000 and int(float(v)) == v]
    assert len(exact) > 20
    doubles = np.array([float(v) for v in exact], dtype=np.float64)
    through_double = tcast.unpack_codes(tcast.cast(doubles, tcast.DOUBLE, code), bits,
                                        len(exact))
    ours_exact = tcast.unpack_codes(
        tcast.parse_raw([str(v).encode() for v in exact], code), bits, len(exact))
    assert ours_exact.tolist() == through_double.tolist()

    floats = ["2.5", "3.5", "-2.5", "-7.5", "1e3", "-1e30", "1e20", "1.5e1", "1e400",
              "-inf", "nan", "0.49999999999999994", "-0.5000000000000001"]
    doubles = np.array([float(t) for t in floats], dtype=np.float64)
    through_double = tcast.unpack_codes(tcast.cast(doubles, tcast.DOUBLE, code), bits,
                                        len(floats))
    ours_floats = tcast.unpack_codes(
        tcast.parse_raw([t.encode() for t in floats], code), bits, len(floats))
    assert ours_floats.tolist() == through_double.tolist()
    # and those, by the page's float -> intN rule, written out for INT4/UINT4's 4 bits
    if bits == 4:
        assert ours_floats.tolist() == [2, 4, 14, 8, 8, 0, 0, 15, 0, 0, 0, 0, 15]
