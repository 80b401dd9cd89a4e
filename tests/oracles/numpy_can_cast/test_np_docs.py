# SPDX-License-Identifier: MIT OR Apache-2.0
"""The examples of numpy's can_cast docstring and of docs/semantics-can-cast.md (the section 2
level matrix, sections 3 and 4, section 5's "Checked results", section 7's promotion
table, section 8's numpy tests) as fixed expectations.

Every example is checked against the library under the rules it states (both
TCAST_NUMPY_1 and TCAST_NUMPY_2 when the doc says the versions agree), in both venvs,
and against live numpy where the running numpy speaks for those rules: rules 1 under
numpy 1.26 (which equals the documented 1.22 except for structured -> structured pairs
whose expectations differ by version: those are not checked live there), rules 2 under
numpy 2.x. A fixed expectation that live numpy contradicts is a doc (or transcription)
error and fails here with "numpy says".
"""

import math

import numpy as np

import npcast as nc
import npside as ns

BOTH = (nc.NUMPY_1, nc.NUMPY_2)
LETTER_LEVEL = {"N": 0, "E": 1, "S": 2, "K": 3, "U": 4}

# ------------------------------------------------------------------ section 2 matrix

SECTION2 = """\
from\\to ? b h i l q B H I L Q e f d g F D G S U V O M m Ms ms S4 U4 V4
   ?    N S S S S S S S S S S S S S S S S S S S S S U S U  S  K  K  S
   b    U N S S S S U U U U U S S S S S S S S S S S U S U  S  S  S  S
   h    U K N S S S U U U U U K S S S S S S S S S S U S U  S  K  K  S
   i    U K K N S S U U U U U K K S S K S S S S S S U S U  S  K  K  S
   l    U K K K N N U U U U U K K S S K S S S S S S U S U  S  K  K  U
   q    U K K K N N U U U U U K K S S K S S S S S S U S U  S  K  K  U
   B    U K S S S S N S S S S S S S S S S S S S S S U S U  S  S  S  S
   H    U K K S S S K N S S S K S S S S S S S S S S U S U  S  K  K  S
   I    U K K K S S K K N S S K K S S K S S S S S S U S U  S  K  K  S
   L    U K K K K K K K K N N K K S S K S S S S S S U K U  K  K  K  U
   Q    U K K K K K K K K N N K K S S K S S S S S S U K U  K  K  K  U
   e    U U U U U U U U U U U N S S S S S S S S S S U U U  U  K  K  S
   f    U U U U U U U U U U U K N S S S S S S S S S U U U  U  K  K  S
   d    U U U U U U U U U U U K K N S K S S S S S S U U U  U  K  K  U
   g    U U U U U U U U U U U K K K N K K S S S S S U U U  U  K  K  U
   F    U U U U U U U U U U U U U U U N S S S S S S U U U  U  K  K  U
   D    U U U U U U U U U U U U U U U K N S S S S S U U U  U  K  K  U
   G    U U U U U U U U U U U U U U U K K N S S S S U U U  U  K  K  U
   S    U U U U U U U U U U U U U U U U U U N S S S U U U  U  S  S  S
   U    U U U U U U U U U U U U U U U U U U U N S S U U U  U  U  S  S
   V    U U U U U U U U U U U U U U U U U U U U N S U U U  U  U  U  S
   O    U U U U U U U U U U U U U U U U U U U U U N U U U  U  U  U  U
   M8   U U U U U U U U U U U U U U U U U U U U S S N U S  U  U  U  U
   m8   U U U U U U U U U U U U U U U U U U U U S S U N U  S  U  U  U
 M8[s]  U U U U U U U U U U U U U U U U U U U U S S U U N  U  U  U  U
 m8[s]  U U U U U U U U U U U U U U U U U U U U S S U U U  N  U  U  U
   S4   U U U U U U U U U U U U U U U U U U N S S S U U U  U  N  S  S
   U4   U U U U U U U U U U U U U U U U U U U N S S U U U  U  U  N  U
   V4   U U U U U U U U U U U U U U U U U U U U N S U U U  U  U  U  N
"""
_LABEL_SPEC = {"M": "M8", "m": "m8", "Ms": "M8[s]", "ms": "m8[s]"}


def section2_cases():
    lines = SECTION2.splitlines()
    cols = [_LABEL_SPEC.get(c, c) for c in lines[0].split()[1:]]
    cases = []
    for line in lines[1:]:
        row, *letters = line.split()
        assert len(letters) == len(cols), line
        for col, letter in zip(cols, letters):
            cases.append((row, col, LETTER_LEVEL[letter]))
    return cases


# ------------------------------------------------------------------ section 7 matrix

SECTION7 = """\
   ? b h i q B H I Q e f d g F D G
 ? ? b h i q B H I Q e f d g F D G
 b b b h i q h i l d e f d g F D G
 h h h h i q h i l d f f d g F D G
 i i i i i q i i l d d d d g D D G
 q q q q q q q q q d d d d g D D G
 B B h h i q B H I Q e f d g F D G
 H H i i i q H H I Q f f d g F D G
 I I l l l q I I I Q d d d g D D G
 Q Q d d d d Q Q Q Q d d d g D D G
 e e e f d d e f d d e f d g F D G
 f f f f d d f f d d f f d g F D G
 d d d d d d d d d d d d d g D D G
 g g g g g g g g g g g g g g G G G
 F F F F D D F F D D F F D G F D G
 D D D D D D D D D D D D D G D D G
 G G G G G G G G G G G G G G G G G
"""


def section7_cases():
    lines = SECTION7.splitlines()
    cols = lines[0].split()
    cases = []
    for line in lines[1:]:
        row, *cells = line.split()
        for col, cell in zip(cols, cells):
            cases.append((row, col, str(np.dtype(cell))))
    return cases


# ------------------------------------------------------------------ level examples
# (from, to, level for both rules, or {rules: level}); sections 1, 3, 4 and 8

LEVEL_EXAMPLES = [
    # section 1: Python types as names
    ("int", "i4", 3), ("float", "f4", 3), ("int", "i8", 0), ("complex", "c16", 0),
    ("int32", "int64", 2), ("float64", "complex", 2), ("complex", "float", 4),
    # section 3: byte order
    ("<i4", "=i4", 0), ("=i4", ">i4", 1), (">S5", "<S5", 0), (">O", "<O", 0),
    ("<i2", ">i4", 2), (">i4", "<i2", 3), (">U5", "<U6", 2), (">i1", "<i1", 0),
    (">M8[s]", "<M8[s]", 1), ("<i8", ">i8", 1),
    # numeric
    ("i8", "f8", 2), ("u8", "f8", 2), ("l", "q", 0), ("q", "l", 0), ("L", "Q", 0),
    ("p", "q", 0), ("P", "Q", 0), ("i1", "?", 4), ("?", "i1", 2), ("i8", "u8", 4),
    ("u8", "i8", 3), ("u1", "i2", 2), ("u4", "f4", 3), ("i2", "f4", 2), ("i8", "c8", 3),
    ("i4", "c16", 2), ("d", "F", 3), ("f", "F", 2), ("g", "D", 3), ("g", "G", 2),
    ("D", "d", 4), ("e", "i8", 4),
    # strings
    ("i4", "S11", 2), ("i4", "S10", 3), ("f8", "S31", 3), ("f8", "S32", 2),
    ("S", "S1", 2), ("f8", "S", 2), ("f8", "U", 2), ("S5", "S", 0), (">U5", "U", 1),
    ("S5", "U5", 2), ("S5", "U4", 3), ("S5", "U", 2), ("U5", "S10", 4), ("U5", "S", 4),
    ("S5", "i4", 4), ("U5", "?", 4), ("S5", "S4", 3), ("S5", "S6", 2), ("U1", "S100", 4),
    # void / object
    ("U2", "V8", 2), ("U2", "V7", 4), ("V4", "V", 0), ("V4", "V8", 2), ("V8", "V4", 3),
    ("i4", "V4", 2), ("i4", "V", 2), ("i8", "V4", 4), ("S4", "V4", 2), ("V4", "i4", 4),
    ("V4", "O", 2), ("O", "V", 4), ("O", "O", 0), ("O", "i4", 4), ("i4", "O", 2),
    ("O", "S5", 4), ("O", "U5", 4), ("O", "S", 4), ("V3", "V", 0), ("V0", "V", 0),
    # datetime vs others
    ("u8", "m8", 3), ("i8", "m8", 2), ("u4", "m8[s]", 2), ("?", "m8", 2), ("f4", "m8", 4),
    ("c8", "m8", 4), ("?", "M8", 4), ("i8", "M8", 4), ("M8", "i8", 4), ("m8", "f8", 4),
    ("M8", "m8", 4), ("m8", "M8", 4), ("M8[s]", "S40", 4), ("S40", "M8[s]", 4),
    ("m8[s]", "U50", 4), ("M8[s]", "O", 2), ("M8[s]", "V8", 2), ("M8[s]", "V7", 4),
    # datetime units (section 3, steps 1-6)
    ("M8[1000ns]", "M8[us]", 0), ("M8[2001ns]", "M8[2us]", 0), ("M8[D]", "M8[ns]", 2),
    ("M8[D]", "M8[ps]", 3), ("M8[W]", "M8[ps]", 3), ("M8[s]", "M8[as]", 3),
    ("M8[ms]", "M8[as]", 2), ("M8[10s]", "M8[2s]", 2), ("M8[2s]", "M8[10s]", 3),
    ("M8[Y]", "M8[D]", 2), ("m8[Y]", "m8[D]", 4), ("m8[Y]", "m8[M]", 2),
    ("M8[ns]", "M8[s]", 3), ("m8[D]", "m8[W]", 3), ("M8[60s]", "M8[m]", 3),
    ("M8", "M8[s]", 2), ("M8[s]", "M8", 4), ("m8", "m8[h]", 2), ("m8[h]", "m8", 4),
    ("M8[7h]", "M8[3h]", 3), ("M8[6h]", "M8[3h]", 2), ("M8[3h]", "M8[6h]", 3),
    # subarrays
    ("i4", "(2,)i4", 2), ("(2,)i4", "i4", 4), ("(2,)i4", "(2,)i8", 2),
    ("(2,)i4", "(3,)i4", 4),
    # section 4: structured
    ("i4", "i4,i4", 4), ("i8", "i4,i4", 4), ("i4,i4", "i4", 5), ("i4,i4", "V", 0),
    ("i4,i4", "V8", 5), ("i4,i4", "V16", 5), ("V8", "i4,i4", 4), ("i4,i4", "O", 2),
    ("O", "i4,i4", 4), ("i4,f8", ">i4,>f8", 1), ("i4,f8", "i8,f8", 2),
    ("i4,f8", "i2,f8", 3), ("i4,f8", "i4,u8", 4), ("i4,i4", ">i4,>i4", 1),
    ("i4,i4", "i4,i4", 0), ("q,d", "l,d", 0),
    ("i4,i4", "i4,i4,i4", {1: 4, 2: 5}), ("i4,i4,i4", "i4,i4", {1: 4, 2: 5}),
    ("i4,f8", "f8", 5), ("f8,", "f8", {1: 0, 2: 4}), ("i4,", "i4", {1: 0, 2: 4}),
    ("i4", "i4,", {1: 0, 2: 4}), ("(2,)i4,", "i4", 4),
    ("V4", "(3,2)<f4,", 4), ("(3,2)<f4,", "V4", 4),
]

# (from, to, casting, expected, rules): numpy tests that assert booleans only
BOOL_EXAMPLES = [
    # numpy's can_cast docstring
    ("i8", "i8", "no", True), ("<i8", ">i8", "no", False), ("<i8", ">i8", "equiv", True),
    ("<i4", ">i8", "equiv", False), ("<i4", ">i8", "safe", True),
    ("<i8", ">i4", "safe", False), ("<i8", ">i4", "same_kind", True),
    ("<i8", ">u4", "same_kind", False), ("<i8", ">u4", "unsafe", True),
    ("i8", "f8", "safe", True), ("i8", "f4", "safe", False), ("i4", "S4", "safe", False),
    ("int32", "int64", "safe", True), ("float64", "complex", "safe", True),
    ("complex", "float", "safe", False),
    # test_casting_unittests.py test_to_void
    ("d", "V", "safe", True), ("S20", "V", "safe", True), ("d", "V1", "safe", False),
    ("S20", "V1", "safe", False), ("U1", "V1", "safe", False),
    ("d,i", "V", "same_kind", True), ("V3", "V", "no", True), ("V0", "V", "no", True),
    # test_datetime.py test_datetime_casting_rules
    ("m8", "M8", "same_kind", False), ("M8", "m8", "same_kind", False),
    ("m8", "M8", "safe", False), ("M8", "m8", "safe", False),
    ("i8", "m8", "same_kind", True), ("i8", "m8", "safe", True),
    ("i4", "m8", "same_kind", True), ("i4", "m8", "safe", True),
    ("u4", "m8", "same_kind", True), ("u4", "m8", "safe", True),
    ("u8", "m8", "same_kind", True), ("u8", "m8", "safe", False),
    ("f4", "m8", "same_kind", False), ("f4", "m8", "safe", False),
    ("i8", "M8", "same_kind", False), ("i8", "M8", "safe", False),
    ("b1", "M8", "same_kind", False), ("b1", "M8", "safe", False),
    ("b1", "m8", "same_kind", True), ("b1", "m8", "safe", True),
    ("M8[M]", "M8[D]", "safe", True), ("M8[Y]", "M8[D]", "safe", True),
    ("m8[M]", "m8[D]", "safe", False), ("m8[Y]", "m8[D]", "safe", False),
    ("M8[M]", "M8[D]", "same_kind", True), ("M8[Y]", "M8[D]", "same_kind", True),
    ("m8[M]", "m8[D]", "same_kind", False), ("m8[Y]", "m8[D]", "same_kind", False),
    ("M8[D]", "M8[h]", "same_kind", True), ("m8[D]", "m8[h]", "same_kind", True),
    ("m8[h]", "m8[D]", "same_kind", True),
    ("M8[7h]", "M8[3h]", "safe", False), ("M8[3h]", "M8[6h]", "safe", False),
    ("M8[7h]", "M8[3h]", "same_kind", True), ("M8[6h]", "M8[3h]", "safe", True),
    ("m8", "m8[h]", "same_kind", True), ("m8", "m8[h]", "safe", True),
    ("M8", "M8[h]", "same_kind", True), ("M8", "M8[h]", "safe", True),
    ("m8[h]", "m8", "same_kind", False), ("m8[h]", "m8", "safe", False),
    ("M8[h]", "M8", "same_kind", False), ("M8[h]", "M8", "safe", False),
    # test_api.py: object -> S/U only unsafe
    ("O", "S5", "same_kind", False), ("O", "U5", "same_kind", False),
    ("O", "S5", "unsafe", True), ("O", "i4,i4", "unsafe", True),
]

# test_datetime.py test_datetime_prefix_conversions: safe both ways
_PREFIX_PAIRS = [("M8[7s]", "M8[7000ms]"), ("M8[2ms]", "M8[2000us]"), ("M8[us]", "M8[1000ns]"),
                 ("M8[5us]", "M8[5000ns]"), ("M8[2ns]", "M8[2000ps]"), ("M8[9ps]", "M8[9000fs]"),
                 ("M8[1fs]", "M8[1000as]"), ("M8[2us]", "M8[2000000ps]"),
                 ("M8[1ps]", "M8[1000000as]"), ("M8[2ms]", "M8[2000000000ps]"),
                 ("M8[1ns]", "M8[1000000000as]")]
for _a, _b in _PREFIX_PAIRS:
    BOOL_EXAMPLES += [(_a, _b, "safe", True), (_b, _a, "safe", True)]
# test_casting_unittests.py TestChanges.test_float_to_string
for _c in "efdg":
    BOOL_EXAMPLES += [(_c, t, "safe", True) for t in ("S", "U", "S100", "U100")]
# test_numeric.py test_can_cast: numeric -> S/U length boundaries (section 3's table)
_CHARS = [("?", 5), ("i1", 4), ("u1", 3), ("i2", 6), ("u2", 5), ("i4", 11), ("u4", 10),
          ("i8", 21), ("u8", 20), ("e", 32), ("f", 32), ("d", 32), ("g", 48), ("F", 64),
          ("D", 64), ("G", 96)]
for _code, _n in _CHARS:
    for _k in "SU":
        LEVEL_EXAMPLES += [(_code, f"{_k}{_n}", 2), (_code, f"{_k}{_n - 1}", 3)]


def _expected_for(expect, rules):
    if isinstance(expect, dict):
        return expect.get(rules)
    return expect


def _live_checkable(a, b, expect, rules):
    """Whether the running numpy speaks for ``rules`` on this pair."""
    if rules != ns.RULES:
        return False
    if rules == nc.NUMPY_1 and isinstance(expect, dict):
        da, db = ns.quiet_dtype(a), ns.quiet_dtype(b)
        if ns.is_struct(da) and ns.is_struct(db):
            return False  # 1.26 is by position, the 1.22 example by name
    return True


def _check_levels(name, cases):
    bad, total, live = [], 0, 0
    handles = {}
    for a, b, expect in cases:
        for rules in BOTH:
            want = _expected_for(expect, rules)
            if want is None:
                continue
            total += 1
            if _live_checkable(a, b, expect, rules):
                live += 1
                np_level = ns.numpy_level(ns.quiet_dtype(a), ns.quiet_dtype(b))
                if np_level != want:
                    bad.append(f"{a!r} -> {b!r} rules {rules}: doc {ns.LEVEL_NAMES[want]}, "
                               f"numpy says {ns.LEVEL_NAMES[np_level]}")
            for s in (a, b):
                if s not in handles:
                    handles[s] = nc.outcome(nc.dtype_parse, s)
            if handles[a][0] != "ok" or handles[b][0] != "ok":
                bad.append(f"{a!r} -> {b!r}: parse {nc.describe(handles[a])} / "
                           f"{nc.describe(handles[b])}")
                continue
            got = nc.outcome(nc.casting_level, handles[a][1], handles[b][1], rules)
            if got != ("ok", want):
                bad.append(f"{a!r} -> {b!r} rules {rules}: doc {ns.LEVEL_NAMES[want]}, "
                           f"library {nc.describe(got)}")
    ns.check_all(name, bad, total, f"{live} also checked against numpy")


def test_section2_level_matrix():
    _check_levels("docs: section 2 level matrix", section2_cases())


def test_level_examples():
    _check_levels("docs: level examples (sections 1, 3, 4, 8)", LEVEL_EXAMPLES)


def test_bool_examples():
    bad, total, live = [], 0, 0
    for a, b, casting, want in BOOL_EXAMPLES:
        for rules in BOTH:
            total += 1
            if rules == ns.RULES:
                live += 1
                np_out = ns.numpy_outcome(np.can_cast, a, b, casting)
                if np_out != ("ok", want):
                    bad.append(f"can_cast({a!r}, {b!r}, {casting!r}): doc {want}, "
                               f"numpy says {np_out}")
            got = nc.outcome(nc.can_cast_str, a, b, casting, rules)
            if got != ("ok", want):
                bad.append(f"can_cast_str({a!r}, {b!r}, {casting!r}) rules {rules}: doc "
                           f"{want}, library {nc.describe(got)}")
    ns.check_all("docs: boolean examples (docstring, numpy tests)", bad, total,
                 f"{live} also checked against numpy")


# ------------------------------------------------------------------ section 5 values

NAN, INF = math.nan, math.inf

# (kind, value, to, casting, expected under TCAST_NUMPY_1); under TCAST_NUMPY_2 every one
# is TCAST_ERR_UNSUPPORTED (numpy 2 raises TypeError)
PY_EXAMPLES = [
    # numpy 1.x docstring
    ("int", 100, "i1", "safe", True), ("int", 150, "i1", "safe", False),
    ("int", 150, "u1", "safe", True), ("float", 3.5e100, "float32", "safe", False),
    ("float", 1000.0, "float32", "safe", True),
    # section 5 "Checked results"
    ("int", 150, "i1", "same_kind", True), ("int", -1, "u1", "safe", False),
    ("int", -1, "u1", "same_kind", False), ("int", -1, "u1", "unsafe", True),
    ("int", -128, "i1", "safe", True), ("int", -129, "i1", "safe", False),
    ("int", 127, "i1", "safe", True), ("int", 128, "i1", "safe", False),
    ("int", 255, "u1", "safe", True), ("int", 256, "u1", "safe", False),
    ("int", 2**31, "i4", "safe", False), ("int", 2**63 - 1, "i8", "safe", True),
    ("int", 2**63, "i8", "safe", False), ("int", 2**63, "u8", "safe", True),
    ("int", 2**64, "u8", "safe", False), ("int", 2**64, "u8", "same_kind", False),
    ("int", 2**64, "O", "safe", True), ("int", 100, "f2", "safe", True),
    ("int", 2**24 + 1, "f4", "safe", False), ("int", 2**31, "f8", "safe", True),
    ("int", 0, "?", "safe", False), ("int", 1, "?", "safe", False),
    ("int", 100, "?", "safe", False), ("int", 0, "?", "same_kind", False),
    ("int", 1, "?", "same_kind", False), ("int", 100, "?", "same_kind", False),
    ("int", 100, "c8", "safe", True), ("int", 100, "S3", "safe", False),
    ("int", 200, "S3", "safe", True), ("int", 128, "S3", "safe", True),
    ("int", -100, "S4", "safe", True), ("int", 100, "m8[s]", "safe", True),
    ("int", 100, "M8[s]", "safe", False), ("int", 100, "V1", "safe", True),
    ("int", 100, "i1", "no", True), ("int", 300, ">i2", "equiv", True),
    ("float", 1000.0, "f4", "safe", True), ("float", 1000.0, "f2", "safe", True),
    ("float", 64999.0, "f2", "safe", True), ("float", 65000.0, "f2", "safe", False),
    ("float", 3.39e38, "f4", "safe", True), ("float", 3.4e38, "f4", "safe", False),
    ("float", INF, "f2", "safe", True), ("float", NAN, "f2", "safe", True),
    ("float", 1.0, "i8", "safe", False), ("float", 1.0, "S32", "safe", True),
    ("float", 1.0, "S31", "safe", False), ("float", 1000.0, "f2", "no", True),
    ("complex", 1 + 1j, "c8", "safe", True), ("complex", 1e100j, "c8", "safe", False),
    ("complex", 1 + 0j, "f8", "safe", False), ("complex", complex(NAN, 0), "c8", "safe", False),
    ("bool", True, "i1", "safe", True), ("bool", True, "u1", "safe", True),
    ("bool", True, "f2", "safe", True), ("bool", True, "S4", "safe", False),
    # numpy 2.x test_can_cast_values: these raise there
    ("int", 4, "int8", "unsafe", True), ("float", 4.0, "float64", "unsafe", True),
    ("complex", 4j, "complex128", "unsafe", True),
]
# numpy 1.22 test_can_cast_values: every int type's iinfo min/max castable, one beyond not
for _code in ns.INT_CODES:
    _ii = np.iinfo(np.dtype(_code))
    PY_EXAMPLES += [("int", int(_ii.min), _code, "safe", True),
                    ("int", int(_ii.max), _code, "safe", True),
                    ("int", int(_ii.min) - 1, _code, "safe", False),
                    ("int", int(_ii.max) + 1, _code, "safe", False)]

# numpy 2's TypeError text as the doc gives it (section 1)
NEP50_TEXT = ("can_cast() does not support Python ints, floats, and complex because the result "
              "used to depend on the value.\nThis change was part of adopting NEP 50, we may "
              "explicitly allow them again in the future.")


def _py_fn(kind):
    # looked up at call time: the dry run replaces npcast's functions
    return getattr(nc, {"int": "can_cast_pyint", "float": "can_cast_pyfloat",
                        "complex": "can_cast_pycomplex", "bool": "can_cast_pybool"}[kind])


def test_python_scalar_examples():
    bad, total, live = [], 0, 0
    for kind, value, to, casting, want in PY_EXAMPLES:
        label = f"can_cast({value!r}, {to!r}, {casting!r})"
        np_out = ns.numpy_outcome(np.can_cast, value, to, casting)
        live += 1
        if ns.RULES == nc.NUMPY_1 and np_out != ("ok", want):
            bad.append(f"{label}: doc {want}, numpy says {np_out}")
        if ns.RULES == nc.NUMPY_2 and (np_out[0] != "err" or np_out[2] != NEP50_TEXT):
            bad.append(f"{label}: doc says numpy 2 raises the NEP 50 TypeError, numpy says "
                       f"{np_out}")
        total += 2
        got = nc.outcome(_py_fn(kind), value, to, casting, nc.NUMPY_1)
        if got != ("ok", want):
            bad.append(f"{label} rules 1: doc {want}, library {nc.describe(got)}")
        got = nc.outcome(_py_fn(kind), value, to, casting, nc.NUMPY_2)
        if got[0] != "err" or got[1] != nc.ERR_UNSUPPORTED or NEP50_TEXT not in got[2]:
            bad.append(f"{label} rules 2: doc: UNSUPPORTED with numpy's TypeError text, "
                       f"library {nc.describe(got)}")
    ns.check_all("docs: Python scalar examples (section 5, test_can_cast_values)", bad, total,
                 f"{live} also checked against numpy")


# (dtype, value, is_array, to, casting, expected rules 1, expected rules 2)
SCALAR_EXAMPLES = [
    ("i8", 150, 0, "u1", "safe", True, False),
    ("u1", 200, 0, "i1", "safe", False, False),
    ("u8", 2**63 - 1, 0, "i8", "safe", True, False),
    ("f8", 1000.0, 0, "f2", "safe", True, False),
    ("f4", 7e4, 0, "f2", "safe", False, False),
    ("g", "1e400", 0, "f8", "safe", False, False),
    ("f8", 1000.0, 1, "f4", "safe", True, False),
    ("f8", 1000.0, 1, "float32", "safe", True, False),
    (">i8", 100, 1, "i1", "safe", True, False),
    ("i4", 5, 0, "S10", "safe", True, False),
    ("U3", "abc", 0, "S3", "safe", False, False),
    ("i8", 100, 0, "i1", "safe", True, False),
    ("f8", 1000.0, 0, "f4", "safe", True, False),
    ("f8", 1.0, 1, "S", "no", False, False),
    ("f8", 1.0, 1, "S", "safe", True, True),
    (">i8", 100, 1, ">i8", "no", True, True),
    (">i8", 100, 1, "<i8", "no", False, False),
]
# test_can_cast_values: finfo min/max of every float type castable to that type
for _c in "efdg":
    _fi = np.finfo(np.dtype(_c))
    SCALAR_EXAMPLES += [(_c, _fi.max, 0, _c, "safe", True, True),
                        (_c, _fi.min, 0, _c, "safe", True, True)]


def _numpy_object(dtype, value, is_array):
    if dtype == "g" and isinstance(value, str):
        value = np.longdouble(value)
    arr = np.array(value, dtype=dtype)
    return arr if is_array else arr[()]


def test_numpy_scalar_examples():
    bad, total, live = [], 0, 0
    for dtype, value, is_array, to, casting, want1, want2 in SCALAR_EXAMPLES:
        obj = _numpy_object(dtype, value, is_array)
        raw = np.array(obj, dtype=dtype).tobytes()
        label = (f"can_cast({'np.array' if is_array else 'scalar'}({value!r}, {dtype!r}), "
                 f"{to!r}, {casting!r})")
        want_here = want1 if ns.RULES == nc.NUMPY_1 else want2
        np_out = ns.numpy_outcome(np.can_cast, obj, to, casting)
        live += 1
        if np_out != ("ok", want_here):
            bad.append(f"{label}: doc {want_here}, numpy says {np_out}")
        for rules, want in ((nc.NUMPY_1, want1), (nc.NUMPY_2, want2)):
            total += 1
            got = nc.outcome(nc.can_cast_scalar, dtype, raw, is_array, to, casting, rules)
            if got != ("ok", want):
                bad.append(f"{label} rules {rules}: doc {want}, library {nc.describe(got)}")
    ns.check_all("docs: numpy scalar / 0-d array examples", bad, total,
                 f"{live} also checked against numpy")


# ------------------------------------------------------------------ min_scalar_type

MIN_SCALAR_EXAMPLES = [
    ("int", 128, "uint8"), ("int", -129, "int16"), ("int", 2**64, "object"),
    ("int", -2**63 - 1, "object"), ("float", 1e39, "float64"), ("complex", 1j, "complex64"),
    ("int", 100, "uint8"), ("int", 255, "uint8"), ("int", 256, "uint16"),
    ("int", -128, "int8"), ("int", 2**32 - 1, "uint32"), ("int", 2**32, "uint64"),
    ("int", 2**63, "uint64"), ("int", -2**63, "int64"), ("int", 0, "uint8"),
    ("float", 65000.0, "float32"), ("float", 65504.0, "float32"),
    ("float", 64999.0, "float16"), ("float", -64999.0, "float16"), ("float", INF, "float16"),
    ("float", NAN, "float16"), ("float", 3.39e38, "float32"), ("float", 3.4e38, "float64"),
    ("complex", complex(NAN, 0), "complex128"), ("complex", 1e100j, "complex128"),
    ("complex", complex(3.39e38, -3.39e38), "complex64"),
]


def test_min_scalar_type_examples():
    bad = []
    fns = {"int": "min_scalar_type_pyint", "float": "min_scalar_type_pyfloat",
           "complex": "min_scalar_type_pycomplex"}
    for kind, value, want in MIN_SCALAR_EXAMPLES:
        np_out = ns.numpy_outcome(lambda v: str(np.min_scalar_type(v)), value)
        if np_out != ("ok", want):
            bad.append(f"min_scalar_type({value!r}): doc {want!r}, numpy says {np_out}")
        got = nc.outcome(getattr(nc, fns[kind]), value)
        if got != ("ok", want):
            bad.append(f"min_scalar_type({value!r}): doc {want!r}, library {nc.describe(got)}")
    ns.check_all("docs: min_scalar_type examples", bad, len(MIN_SCALAR_EXAMPLES),
                 "all also checked against numpy")


# ------------------------------------------------------------------ promote_types

# (a, b, str of the result, or None: numpy raises and the library must fail)
PROMOTE_EXAMPLES = [
    ("i8", "S", "|S21"), ("i4", "S3", "|S11"), ("f8", "U5", "<U32"), ("?", "S", "|S5"),
    ("S5", "U3", "<U5"), ("S", "U", "<U0"), ("M8[2s]", "M8[3s]", "datetime64[s]"),
    ("M8[D]", "M8[M]", "datetime64[D]"), ("m8[Y]", "m8[D]", None),
    ("m8", "i4", "timedelta64"), ("m8", "?", "timedelta64"), ("m8", "u8", None),
    ("M8", "m8", "datetime64"), ("V8", "V4", None), ("O", "i4", "object"),
    ("O", "S5", "object"), ("i4", "u4", "int64"), ("i8", "u8", "float64"),
    ("M8", "i4", None), ("M8[s]", "S", None), (">i4", ">i4", "int32"),
    (">f8", ">f8", "float64"),
]


def test_section7_promote_matrix_and_examples():
    bad = []
    cases = section7_cases() + PROMOTE_EXAMPLES
    for a, b, want in cases:
        np_out = ns.numpy_outcome(lambda x, y: str(np.promote_types(x, y)), a, b)
        if want is None:
            if np_out[0] != "err":
                bad.append(f"promote_types({a!r}, {b!r}): doc raises, numpy says {np_out}")
            got = nc.outcome(nc.promote_types, a, b)
            if got[0] != "err" or got[1] == nc.ERR_INTERNAL:
                bad.append(f"promote_types({a!r}, {b!r}): doc raises, library "
                           f"{nc.describe(got)}")
            continue
        if np_out != ("ok", want):
            bad.append(f"promote_types({a!r}, {b!r}): doc {want!r}, numpy says {np_out}")
        got = nc.outcome(nc.promote_types, a, b)
        if got != ("ok", want):
            bad.append(f"promote_types({a!r}, {b!r}): doc {want!r}, library {nc.describe(got)}")
    ns.check_all("docs: section 7 promote_types table and examples", bad, len(cases),
                 "all also checked against numpy")


# ------------------------------------------------------------------ numpy only

def test_doc_claims_not_expressible_as_strings():
    """Section 4 / 8 claims about structured dtypes with chosen names or offsets (no dtype
    string reaches them, so the library is not involved): checked against live numpy,
    which is 1.23+ behaviour in both venvs."""
    def levels(a, b):
        return ns.numpy_level(np.dtype(a), np.dtype(b))

    x = {"names": ["A", "B"], "formats": ["i4", "f4"], "offsets": [0, 4]}
    y = {"names": ["B", "A"], "formats": ["i4", "f4"], "offsets": [4, 0]}
    claims = [
        # test_field_order_equality: 1.22 equiv, 2.x (and 1.23+) safe but not equiv
        ("field_order_equality x -> y", levels(x, y), 2),
        # by position: a name mismatch caps at safe
        ("[('a','i4'),('b','f8')] -> [('b','i4'),('a','f8')]",
         levels([("a", "i4"), ("b", "f8")], [("b", "i4"), ("a", "f8")]), 2),
        # test_multiarray: 'f8,i8' -> [('f1','i8'),('f0','f8')] not safe
        ("'f8,i8' -> [('f1','i8'),('f0','f8')] safe is False",
         np.can_cast("f8,i8", [("f1", "i8"), ("f0", "f8")], "safe"), False),
        # test_void_and_structured_with_subarray: only unsafe both ways
        ("V4 -> [('foo','<f4',(3,2))]", levels("V4", [("foo", "<f4", (3, 2))]), 4),
        ("[('foo','<f4',(3,2))] -> V4", levels([("foo", "<f4", (3, 2))], "V4"), 4),
        # section 4: one-field struct -> simple unsafe, also through a nested struct
        ("[('a',[('b','i4')])] -> i4", levels([("a", [("b", "i4")])], "i4"), 4),
        ("[('a','i4',(2,))] -> i4", levels([("a", "i4", (2,))], "i4"), 4),
        ("i4 -> [('a',[('b','i4'),('c','f8')])]",
         levels("i4", [("a", [("b", "i4"), ("c", "f8")])]), 4),
        # section 1: Python types
        ("can_cast(int, 'i4')", np.can_cast(int, "i4"), False),
        ("can_cast(float, 'f4')", np.can_cast(float, "f4"), False),
        ("np.dtype(None) is float64", np.dtype(None) == np.dtype("f8"), True),
    ]
    bad = [f"{label}: doc {want!r}, numpy says {got!r}" for label, got, want in claims
           if got != want]
    ns.check_all("numpy only: doc claims on named structured dtypes", bad, len(claims))
