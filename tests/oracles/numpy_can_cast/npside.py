# SPDX-License-Identifier: MIT OR Apache-2.0
"""The numpy side of the numpy-casting oracle: the case lists and what the running numpy
answers for them. Nothing here touches tensorcast, so it runs without the library:

    build/venv/bin/python tests/oracles/numpy_can_cast/npside.py       # numpy 2.4.6
    build/venv-np1/bin/python tests/oracles/numpy_can_cast/npside.py   # numpy 1.26.4

computes every expectation of the suite and prints the case counts and the time taken
(the dry run). The test files build their cases with the same functions.

Which rules the library is asked for: ``RULES`` matches the running numpy (TCAST_NUMPY_1
under numpy 1.x, TCAST_NUMPY_2 under 2.x). ``TCAST_NUMPY_1`` documents numpy 1.22, and
numpy 1.26 differs from 1.22 for structured -> structured casts (1.22 matches fields by
name, 1.23+ by position; for the comma-string dtypes used here that only changes pairs
with different field counts: unsafe in 1.22, impossible in 1.23+). Under numpy 1.x those
pairs are therefore not taken from numpy: ``level_122_struct`` computes them from the
1.22 rule of docs/semantics-can-cast.md section 4, and a test checks that rule against live
numpy on every pair where 1.22 and 1.23+ agree.
"""

import math
import sys
import time
import warnings

import numpy as np

NUMPY_MAJOR = int(np.__version__.split(".")[0])
NUMPY_1 = 1  # TCAST_NUMPY_1
NUMPY_2 = 2  # TCAST_NUMPY_2
RULES = NUMPY_1 if np.__version__.startswith("1.") else NUMPY_2
OTHER_RULES = NUMPY_2 if RULES == NUMPY_1 else NUMPY_1

CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
IMPOSSIBLE = 5
LEVEL_NAMES = CASTINGS + ("impossible",)


# name -> (count, note): the cases each test compared, printed by the conftest at the end
COUNTS = {}


def record(name, count, note=""):
    COUNTS[name] = (count, note)


def check_all(name, mismatches, total, note="", shown=50):
    """Records ``total`` compared cases under ``name`` and fails listing the first
    ``shown`` mismatches (and their number) when there are any."""
    __tracebackhide__ = True  # pytest: show the failing test's frame, not this one
    record(name, total, note)
    if mismatches:
        lines = "\n".join(f"  {m}" for m in mismatches[:shown])
        more = f"\n  ... and {len(mismatches) - shown} more" if len(mismatches) > shown else ""
        raise AssertionError(f"{name}: {len(mismatches)} of {total} cases differ "
                             f"(numpy {np.__version__}, rules TCAST_NUMPY_{RULES}):\n"
                             f"{lines}{more}")


def quiet_dtype(spec):
    """``np.dtype(spec)`` without the DeprecationWarning numpy 2 gives for ``'a'``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.dtype(spec)


def numpy_outcome(fn, *args):
    """``("ok", value)`` or ``("err", exception type name, str(exception))``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ("ok", fn(*args))
    except Exception as e:  # numpy raises TypeError, ValueError, SyntaxError, ...
        return ("err", type(e).__name__, str(e))


# ------------------------------------------------------------------------------ levels


def numpy_level(a, b):
    """The smallest casting level at which numpy casts ``a`` to ``b`` (dtypes or specs),
    or 5 when none does."""
    for i, casting in enumerate(CASTINGS):
        if np.can_cast(a, b, casting):
            return i
    return IMPOSSIBLE


def is_struct(dt):
    return dt.names is not None


def level_122_struct(a, b):
    """numpy 1.22's level for structured ``a`` -> structured ``b`` (docs/semantics-can-cast.md
    section 4): fields matched by name; a different field count or a from-name missing in
    ``b`` -> unsafe; else the least safe of the field casts (field dtypes are not
    structured here, and numpy agrees on those across versions), and not ``no`` unless
    the itemsize, the fields dict and the names are all equal."""
    if len(a.names) != len(b.names):
        return 4
    level = 0
    for name in a.names:
        if name not in b.fields:
            return 4
        level = max(level, numpy_level(a.fields[name][0], b.fields[name][0]))
    if level == 0 and not (a.itemsize == b.itemsize and a.fields == b.fields
                           and a.names == b.names):
        level = 1
    return level


def expected_level(a, b, rules=RULES):
    """The level the library must give for dtypes ``a`` -> ``b`` under ``rules`` (only
    the running numpy's rules, or TCAST_NUMPY_1 for structured pairs, are known here)."""
    if rules == NUMPY_1 and is_struct(a) and is_struct(b):
        return level_122_struct(a, b)
    if rules != RULES:
        raise ValueError("only the running numpy's rules can be computed")
    return numpy_level(a, b)


# ------------------------------------------------------------------------------ level matrix

_TIME_UNITS = ("Y M W D h m s ms us ns ps fs as 10s 2s 1000ns 2001ns 7h 6h 3h 1000us "
               "1000000ns 1000000000ns 60s 24h 12M 3M 2W 7D 1000ms 2ms 2us 2ns").split()
# numpy's test_datetime_prefix_conversions pairs (the ones not already above)
_PREFIX_UNITS = ("7000ms 2000us 5000ns 2000ps 9000fs 1000as 2000000ps 1000000as "
                 "2000000000ps 1000000000as 7s 5us 9ps 1fs 1ps").split()


def matrix_specs():
    """The dtype strings of the level matrix: valid in numpy 1.26 and 2.4 with the same
    meaning, and none that crashes numpy (``M8[0s]`` makes ``can_cast`` divide by zero)."""
    specs = list("?bBhHiIlLqQpPefdgFDGSUVOMm") + ["c"]
    specs += "b1 i1 i2 i4 i8 u1 u2 u4 u8 f2 f4 f8 f16 c8 c16 c32 O4 O8".split()
    specs += ("<i4 >i4 =i4 |i4 >f8 <U5 >U5 =U5 |U5 >M8[s] >i1 >i2 >u2 >i8 >u8 >q >l >f2 "
              ">f4 <f8 >c8 >c16 >g >G >m8[s] <S5 >S5 >O >U >M8 >m8 >m8[D] >M8[ns] >V4 >b1 "
              ">? >u4 <u4").split()
    for kind in "SU":
        specs += [f"{kind}0"] + [f"{kind}{n}" for n in
                                 (1, 2, 3, 4, 5, 6, 10, 11, 20, 21, 31, 32, 47, 48, 63, 64, 95, 96)]
    specs += ["V0", "V1", "V2", "V4", "V7", "V8", "V16", "V32"]
    for kind in "Mm":
        specs += [f"{kind}8"] + [f"{kind}8[{u}]" for u in _TIME_UNITS]
    specs += [f"M8[{u}]" for u in _PREFIX_UNITS]
    specs += ["datetime64[ns]", "timedelta64", "datetime64", "timedelta64[D]"]
    specs += ["(2,)i4", "(2,)i8", "(2,3)f8", "(3,)i4", "2i4", "(2,)>i4", "(2,)S4", "(6,)f8",
              "(2,)u1", "(1,)i4", "(3,2)f4", "(2,)M8[s]"]
    specs += ["i4,f8", ">i4,>f8", "i8,f8", "i2,f8", "i4,u8", "i4,i4", "i4,i4,i4", "f8,i4",
              "(2,)i4,f8", "S4,(2,)u1", "M8[ns],i4", "q,d", "l,d", "i4,f4", "i2,i2",
              "u1,u1,u1,u1", "f8,f8", "U2,i4", ">i4,>i4", "i4,>i4", "f4,f4,f4", "(3,2)f4,i4",
              "O,i4", "i8,i8"]
    return specs


def level_matrix():
    """``(specs, expected)``: ``expected[i][j]`` is the level for specs[i] -> specs[j]
    under ``RULES``. Also returns the number of pairs taken from the 1.22 rule instead of
    numpy (non-zero only under numpy 1.x) as ``by_122``."""
    specs = matrix_specs()
    dts = [quiet_dtype(s) for s in specs]
    expected = []
    by_122 = 0
    for a in dts:
        row = []
        for b in dts:
            if RULES == NUMPY_1 and is_struct(a) and is_struct(b):
                row.append(level_122_struct(a, b))
                by_122 += 1
            else:
                row.append(numpy_level(a, b))
        expected.append(row)
    return specs, expected, by_122


def struct_rule_check():
    """Checks ``level_122_struct`` against live numpy on the structured pairs of the
    matrix: equal field counts must agree (1.22 and 1.23+ agree there for comma
    strings); different counts must be 4 (1.22) vs 5 (live). Returns the mismatches."""
    specs = [s for s in matrix_specs() if is_struct(quiet_dtype(s))]
    bad = []
    for sa in specs:
        for sb in specs:
            a, b = quiet_dtype(sa), quiet_dtype(sb)
            model, live = level_122_struct(a, b), numpy_level(a, b)
            want = (model, model) if len(a.names) == len(b.names) else (4, 5)
            if (model, live) != want:
                bad.append(f"{sa!r} -> {sb!r}: 1.22 model {model}, numpy {live}")
    return specs, bad


# ------------------------------------------------------------------------------ parsing

# Specs whose meaning differs between numpy 1.x and 2.x (a trailing comma or a leading
# repeat count of 1): str() in (1.x, 2.x). The parser has no rules argument, so the
# library cannot print both; the tests accept either and check the meaning through
# casting_level under RULES instead.
MEANING_DIFFERS = {
    "f8,": ("float64", "[('f0', '<f8')]"),
    "i4,": ("int32", "[('f0', '<i4')]"),
    "i2,": ("int16", "[('f0', '<i2')]"),
    "S4,": ("|S4", "[('f0', 'S4')]"),
    "M8[ns],": ("datetime64[ns]", "[('f0', '<M8[ns]')]"),
    "(2,)i4,": ("('<i4', (2,))", "[('f0', '<i4', (2,))]"),
    "1i4": ("int32", "('<i4', (1,))"),
    "8S,": ("|S8", "[('f0', 'S8')]"),
}
# partners for the MEANING_DIFFERS level checks
MEANING_PARTNERS = ("f8", "i4", "i2", "S4", "M8[ns]", "(2,)i4", "V", "O", "i4,f8")



def ones_shape(n):
    """A subarray of ``n`` dimensions of 1: ``'(1,1,...,1)i4'``."""
    return "(" + ",".join(["1"] * n) + ")i4"


# Specs that only one numpy major accepts (checked against live numpy by a test).
# numpy 1 wraps a generic U size beyond a quarter of a C int ('1073741824U' is <U0);
# numpy 2 refuses it. numpy 1 allows 32 subarray dimensions, numpy 2 64.
ONLY_IN = {
    1: ("S-1", "U-1", "V-1", "S4294967296", "bool8", "int0", "uint0", "void0", "object0",
        "str0", "bytes0", "unicode_", "string_", "float_", "complex_", "cfloat",
        "longfloat", "clongfloat", "singlecomplex", "longcomplex", "536870912U",
        "1073741824U", "2147483647U", "\x1a", ">\x1a", "<a", ">a", "=a", "|a", ">8a"),
    2: ("T", "n", "N", ">n", ones_shape(33), ones_shape(64)),
}

_NAMES = ("bool bool_ bool8 int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 "
          "float64 float128 complex64 complex128 complex256 half single double longdouble "
          "longfloat float_ csingle singlecomplex cdouble cfloat complex_ clongdouble "
          "clongfloat longcomplex byte ubyte short ushort intc uintc int_ uint long longlong "
          "ulonglong intp uintp int0 uint0 int float complex object object_ str str_ unicode "
          "unicode_ bytes bytes_ string_ void void0 datetime64 timedelta64 ulong object0 str0 "
          "bytes0").split()

_PARSE_EXTRA = [
    # section 6 examples and neighbours
    "i 4", "i+4", "i04", "b01", "i\t4", "i\n4", "f 8", "c+16", "S 5", "U+5", "V05", "S+0",
    "S 0", "S-0", "S00", "i -4", "i-4", ">float64", "<int32", ">int32", "=float64",
    "2i4", "(2,3)f8", "3S4", "S4,(2,)u1", "M8[ns],i4", "i4, f8", "(2, 3)f8",
    "(2,)i4,(3,)f8", ">i4,<f8", "i4,f8,", "(0,)i4", "()i4", "(2)i4", "i4,,f8", ",i4", ",",
    "(2,)", "2", "i4,f8 ", ">2i4", "<(2,)i4", ">(2,)i4,f8", "0i4", "(1,)i4", "(2,0)i4",
    "(-1,)i4", "bool_,",
    # datetime forms
    "M8[D/24]", "M8[3D/2]", "M8[D/7]", "M8[5 s]", "M8[]", "M8[s", "M8[μs]", "m8[μs]", "M4",
    "M16", "M[s]", "M8[B]", "M8[s]x", "M8[μs]x", "M8[-1s]", "M8[ s]", "M8[s ]", "M8[1 s]",
    "M8[ 1s]", "M8[+1s]", "M8[01s]", "M8[D/ 24]", "M8[D/+24]", "M8[Y/2]", "M8[2Y/12]",
    "M8[Y/12]", "M8[Y/13]", "M8[M/2]", "M8[W/7]", "M8[h/3600]", "M8[ns/1000]",
    "M8[us/1000]", "M8[as/1]", "M8[as/2]", "M8[2W/14]", "M8[generic]", "M8[generic/2]",
    "M8[2generic]", "M8[S]", "M8[Ms]", "M8[NS]", "M8[us ]", "M8[25ns]",
    "M8[1000000000000s]", "M8[4294967296s]", "M8[2147483648s]", "M8[2147483647s]",
    "M8[0s]", "datetime64[ns]", "<datetime64[ns]", ">timedelta64[s]",
    "timedelta64[generic]", "datetime64[]", "datetime64[s", "datetime64s", "M8s",
    "M8[s][s]", "Mx", "datetime64[1000000ns]", "|M8[s]", "=M8[s]", "M", "m",
    # codes, sizes, prefixes
    "a", "a0", "a5", ">a5", "c", ">c", "|c", "c1", "", "<", ">", "=", "|", ">S", ">U",
    "<U0", "abc", "int128", "float96", "float80", "complex160", "Int8", "Float64",
    "UInt8", "Str", "Bool", "np.int32", "datetime", "timedelta", "longlongfloat", "T",
    "[('a','i4')]", "i0", "i16", "u16", "f1", "f10", "f12", "c4", "c20", "b2", "?1", "O16",
    "I4", "F8", "i4 ", " i4", "  i4", "i4x", "|f8", "|O", "=O", ">V4", "|U5", "U1", ">U1",
    "S-1", "U-1", "V-1", "S4294967296",
    # a repeat count before an unsized S/U/V is its size (numpy's generic type tuple);
    # a shape, or a size beyond a C int, is "invalid itemsize in generic type tuple"
    "8S", "8U", "16V", "32str", "8bytes", "8void", "8unicode", "8a", "8S0", "8U0", "8V0",
    "0S", "0U", "1S", "1U", "1V", "2 S", ">8U", "8>U", "<8S", ">8V", "2147483647S",
    "2147483647V", "536870911U", "i4,8S", "i4,(2)S", "2S4,8U", "(2,)2S", "8c", "2S4",
    "3M8", "2O", "(2,)S", "(0,)V0", "()str", "(2,)U", "(1,)S", "(0,)S", ">(2,)S",
    "(0,2147483648)S0", "2147483648S", "4294967296U", "99999999999999999999S",
    "i4,(2,)S", "(2)S", "8str_", "8S,i4",
    # numpy's C int limits on subarray dimensions and sizes
    "(2147483648,)i1", "(2147483647,)i1", "2147483648i1", "2147483647i1",
    "(0,2147483648)i1", "(4294967296,0)i1", "(65536,65536)i1", "(65536,32768)i1",
    "(65536,32767)i1", "(1073741824,)i2", "(1073741823,)i2", "2147483647int",
    "(2147483647,)S2", "(2,)V2147483647", "(536870912,)U1", "(536870911,)U1",
    "(2147483647,2147483647,2147483647,0)i1", "(0,2147483647,2147483647,2147483647)i1",
    "(2147483647,2147483647,0)i1", "(2147483647,0)i1", "(9223372036854775807,)i1",
    "(9223372036854775808,)i1", "(99999999999999999999,)i1",
    "(2147483648,9223372036854775808)i1", "V2147483647,V0", "V1073741824,V1073741823",
    "(1073741823,)V2,i1", ones_shape(32), ones_shape(65), ones_shape(100),
    # the comma form's separators are Python's \s (str.isspace)
    "i4\x85,f8", "i4,\x0bf8", "i4 ,\x1ci4", "4>i \u2028", "i4,f8\u3000", "2i4\x1f", "4\xa0",
    "4\x0b", "4 > \xa0 ", "i4,\u200bf8", "i4\x1c", "i4\x0b",
    # repeat literals (ast.literal_eval)
    "(,)i4", "(2,,)i4", "(,2)i4", "2 ,i4", "(2, ,)i4", "( )i4", "(2 ,)i4", "( 2 , 3 )i4",
    "(2,3,)i4", "2,3,i4", "(2)(3)i4", "00i4", "(00,)i4", "(0,1)i4",
    # one-character bodies after a byte order
    ">\x05", "<\t", "|\x01", "=\x17", ">\x11", ">\x13", "<8a", ">a5",
]


def parse_specs():
    """Every spec of the parse test (valid and invalid, under either numpy)."""
    seen, out = set(), []
    for s in matrix_specs() + _NAMES + _PARSE_EXTRA + list(MEANING_DIFFERS):
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def parse_expectations():
    """``[(spec, numpy outcome)]``: ``("ok", str(dtype))`` or ``("err", type, message)``."""
    return [(s, numpy_outcome(lambda x: str(np.dtype(x)), s)) for s in parse_specs()]


def message_is_compared(exc_type, message):
    """Whether the library's message must equal numpy's: every one that fits the 255
    bytes of ``tcast_error.message`` (TypeError, ValueError and SyntaxError texts alike)."""
    return len(message.encode()) <= 255


# ------------------------------------------------------------------------------ values

NUMERIC_CODES = "?bBhHiIlLqQefdgFDG"
INT_CODES = "bBhHiIlLqQ"

# targets of the value-based tests (numeric ones and those the value rules touch)
VALUE_TARGETS = list(NUMERIC_CODES) + [
    ">i2", ">u8", "<f4", ">f8", ">c8", "S3", "S4", "S5", "S6", "S10", "S11", "S21", "S31",
    "S32", "U3", "U4", "U21", "S", "U", "m8[s]", "M8[s]", "V1", "V8", "O", "(2,)i1",
]


def pyint_values():
    vals = {0, 1, -1, 100, 127, 128, 150, 200, 255, 256, -100, -128, -129, 300, 1000,
            32767, 32768, 65535, 65536, 2**24 + 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63,
            2**64 - 1, 2**64, 2**70, -2**63, -2**63 - 1, -2**70, 10**30, -10**30}
    for code in INT_CODES:
        ii = np.iinfo(np.dtype(code))
        vals.update({int(ii.min), int(ii.max), int(ii.min) - 1, int(ii.max) + 1})
    return sorted(vals)


PYFLOAT_VALUES = [0.0, -0.0, 1.0, -1.0, 1.5, 100.0, 1000.0, 64999.0, 65000.0, -64999.0,
                  -65000.0, 65504.0, 65519.0, 65520.0, 1e5, 2.0**24 + 2, 3.39e38, 3.4e38,
                  -3.4e38, 3.4028234663852886e38, 1e39, 3.5e100, 1.7e308, -1.7e308,
                  1.7976931348623157e308, math.inf, -math.inf, math.nan, 1e-30, 5e-324]

PYCOMPLEX_VALUES = [0j, complex(-0.0, -0.0), 1 + 1j, 1j, 1e100j, 1 + 0j, -1 + 0j,
                    complex(math.nan, 0), complex(0, math.nan), complex(math.inf, 0),
                    complex(0, -math.inf), complex(3.39e38, 3.39e38), complex(3.4e38, 0),
                    complex(0, -3.4e38), complex(1e39, 1), complex(1.7e308, 0),
                    complex(1000.0, -1000.0), complex(65000.0, 0)]

PYBOOL_VALUES = [False, True]


def _can_cast_value(value, to, casting):
    return np.can_cast(value, to, casting)


def pyvalue_cases(values):
    """``[(value, to, casting, numpy outcome)]`` for Python scalars."""
    return [(v, to, c, numpy_outcome(_can_cast_value, v, to, c))
            for v in values for to in VALUE_TARGETS for c in CASTINGS]


def _scalar_values(code):
    """Values of a numpy scalar / 0-d array dtype: the edges that value-based casting
    looks at."""
    dt = np.dtype(code)
    kind = dt.kind
    if kind == "b":
        return [False, True]
    if kind in "iu":
        ii = np.iinfo(dt)
        cand = [0, 1, -1, 100, 127, 128, 200, 255, 256, -128, -129, 32767, 32768, 65535,
                2**31, 2**63 - 1, int(ii.min), int(ii.max), int(ii.min) + 1, int(ii.max) - 1]
        return sorted({v for v in cand if ii.min <= v <= ii.max})
    if kind == "f":
        fi = np.finfo(dt)
        cand = [0.0, -0.0, 1.0, 1000.0, 64999.0, 65000.0, 65504.0, 7e4, 3.39e38, 3.4e38,
                1e300, math.inf, -math.inf, math.nan, float(fi.min), float(fi.max)]
        vals = [np.array(v, dtype=dt) for v in cand if math.isnan(v) or math.isinf(v)
                or abs(v) <= float(fi.max)]
        if dt.char == "g":
            vals += [np.array(np.longdouble("1e400")), np.array(np.longdouble("-1e400")),
                     np.array(np.longdouble("1.7e308")), np.array(fi.max)]
        return vals
    if kind == "c":
        fi = np.finfo(dt)
        cand = [0j, 1 + 1j, 1e100j, 1 + 0j, complex(math.nan, 0), complex(3.39e38, 1),
                complex(3.4e38, 0), complex(0, 1e300), complex(math.inf, 0)]
        vals = [np.array(v, dtype=dt) for v in cand
                if all(math.isnan(p) or math.isinf(p) or abs(p) <= float(fi.max)
                       for p in (v.real, v.imag))]
        if dt.char == "G":
            big = np.longdouble("1e400")
            vals += [np.array(big + 0j, dtype=dt), np.array(1j * big, dtype=dt)]
        return vals
    raise ValueError(code)


SCALAR_DTYPES = list(NUMERIC_CODES) + [">i8", ">f8", ">i2", ">u4", ">c16", ">f2", ">g"]


def scalar_cases():
    """``[(dtype spec, value bytes, is_array, to, casting, numpy outcome, label)]`` for
    numpy scalars (native dtypes only: a numpy scalar is always native) and 0-d arrays."""
    cases = []
    for code in SCALAR_DTYPES:
        dt = np.dtype(code)
        for v in _scalar_values(code):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                arr = np.array(v, dtype=dt)
            raw = arr.tobytes()
            forms = [(1, arr)]
            if dt.isnative:
                forms.append((0, arr[()]))
            for is_array, obj in forms:
                label = f"{'0-d array' if is_array else 'scalar'} {code} {arr[()]!r}"
                for to in VALUE_TARGETS:
                    for c in CASTINGS:
                        cases.append((code, raw, is_array, to, c,
                                      numpy_outcome(_can_cast_value, obj, to, c), label))
    return cases


def min_scalar_type_cases():
    """``[(kind, value, numpy outcome)]``, kind one of pyint/pyfloat/pycomplex; the
    outcome's value is ``str(np.min_scalar_type(value))``."""
    cases = []
    for kind, values in (("pyint", pyint_values()), ("pyfloat", PYFLOAT_VALUES),
                         ("pycomplex", PYCOMPLEX_VALUES)):
        for v in values:
            cases.append((kind, v, numpy_outcome(lambda x: str(np.min_scalar_type(x)), v)))
    return cases


# ------------------------------------------------------------------------------ promotion

PROMOTE_CODES = "?bhiqBHIQefdgFDG"
PROMOTE_EXTRA = [
    ("i8", "S"), ("i4", "S3"), ("f8", "U5"), ("?", "S"), ("S5", "U3"), ("S", "U"),
    ("U", "S5"), ("S5", "S3"), ("U2", "U7"), ("i4", "U"), ("u1", "S"), ("g", "S"),
    ("G", "U"), ("i4", "S20"), (">U5", "U3"), (">i4", ">i4"), (">i4", "<i2"), (">f8", "f4"),
    ("M8[2s]", "M8[3s]"), ("M8[D]", "M8[M]"), ("m8[Y]", "m8[D]"), ("m8[Y]", "m8[M]"),
    ("m8[D]", "m8[h]"), ("M8[Y]", "M8[D]"), ("M8[7h]", "M8[3h]"), ("M8", "M8[s]"),
    ("m8", "i4"), ("m8", "?"), ("m8[s]", "i8"), ("m8", "u8"), ("m8", "u4"), ("m8", "f8"),
    ("M8", "m8"), ("M8[s]", "m8[ms]"), ("M8", "i4"), ("M8", "M8"), ("M8[s]", "S"),
    ("m8[s]", "U"), (">M8[s]", "M8[s]"), ("V8", "V4"), ("V4", "V4"), ("O", "i4"),
    ("O", "S5"), ("O", "M8[s]"), ("i4", "V4"), ("S4", "V4"), ("i4", "i4,f8"),
    ("i4,f8", "i4,f8"), ("(2,)i4", "(2,)i4"), ("(2,)i4", "i4"), ("l", "q"), ("L", "Q"),
    ("p", "P"), ("c", "S1"), ("c", "S3"),
]


def promote_pairs():
    pairs = [(a, b) for a in PROMOTE_CODES for b in PROMOTE_CODES]
    return pairs + PROMOTE_EXTRA


def promote_cases():
    """``[(a, b, numpy outcome)]``, the value ``str(np.promote_types(a, b))``.

    Structured pairs with different layouts are left out on purpose: 1.22 raises, 1.26
    and 2.x promote, and promote_types has no rules argument to choose between them."""
    return [(a, b, numpy_outcome(lambda x, y: str(np.promote_types(x, y)), a, b))
            for a, b in promote_pairs()]


# ------------------------------------------------------------------------------ dry run


def main():
    print(f"numpy {np.__version__}, rules TCAST_NUMPY_{RULES}")
    t0 = time.time()
    specs, expected, by_122 = level_matrix()
    counts = [0] * 6
    for row in expected:
        for lv in row:
            counts[lv] += 1
    t1 = time.time()
    print(f"level matrix: {len(specs)} dtypes, {len(specs) ** 2} pairs "
          f"({by_122} from the 1.22 structured rule) in {t1 - t0:.2f}s; levels "
          + ", ".join(f"{n} {c}" for n, c in zip(LEVEL_NAMES, counts)))
    sspecs, bad = struct_rule_check()
    print(f"1.22 structured model vs numpy: {len(sspecs) ** 2} pairs, {len(bad)} mismatches")
    for line in bad[:20]:
        print("   ", line)
    parse = parse_expectations()
    ok = sum(1 for _, o in parse if o[0] == "ok")
    print(f"parse: {len(parse)} specs, numpy accepts {ok}, rejects {len(parse) - ok}")
    for kind, values in (("pyint", pyint_values()), ("pyfloat", PYFLOAT_VALUES),
                         ("pycomplex", PYCOMPLEX_VALUES), ("pybool", PYBOOL_VALUES)):
        cases = pyvalue_cases(values)
        errs = sum(1 for c in cases if c[3][0] == "err")
        print(f"{kind}: {len(values)} values, {len(cases)} cases, numpy raises for {errs}")
    t2 = time.time()
    sc = scalar_cases()
    print(f"numpy scalars / 0-d arrays: {len(sc)} cases in {time.time() - t2:.2f}s")
    ms = min_scalar_type_cases()
    print(f"min_scalar_type: {len(ms)} cases")
    pc = promote_cases()
    print(f"promote_types: {len(pc)} cases, numpy raises for "
          f"{sum(1 for c in pc if c[2][0] == 'err')}")
    print(f"total {time.time() - t0:.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
