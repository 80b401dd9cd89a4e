# SPDX-License-Identifier: MIT OR Apache-2.0
"""tcast_np_dtype_parse / tcast_np_dtype_str against ``np.dtype(spec)`` and
``str(np.dtype(spec))``, and the argument checks of section 7.

For each spec of npside.parse_specs (the level-matrix dtypes, every type name numpy 1.x
or 2.x knows, and docs/semantics-can-cast.md section 6's examples and their neighbours):

* numpy (this version) accepts -> the parse succeeds and tcast_np_dtype_str equals
  ``str(np.dtype(spec))``;
* numpy rejects, and the spec is valid in the other numpy major (npside.ONLY_IN) -> the
  parse fails, or it succeeds (the parser accepts the union of both versions) and a
  query under this version's rules fails, with TCAST_ERR_PARSE and numpy's message;
* numpy rejects otherwise -> TCAST_ERR_PARSE with numpy's message.

numpy's message is its exception's text (TypeError, ValueError or SyntaxError alike), and
the library's must equal it whenever it fits the 255 bytes of ``tcast_error.message``.

Specs whose meaning changed between 1.x and 2.x (``'f8,'``, ``'1i4'``, ...): the parser
has no rules argument, so tcast_np_dtype_str may print either version's text; the meaning
is checked through tcast_np_casting_level under this version's rules instead.
"""

import ctypes

import numpy as np
import pytest

import npcast as nc
import npside as ns

CASES = ns.parse_expectations()

# numpy 1.x reads a kind+size spec's size with a C int that wraps or goes negative and
# builds a dtype with a nonsense itemsize ('S-1' -> |S-1, 'S4294967296' -> |S0), and so
# a generic U size ('1073741824U' -> <U0); numpy 2 refuses such sizes. Both numpys wrap
# the total size of a struct through a C int ('V2147483647,V1' has itemsize -2**31).
# tensorcast refuses all of these under both rules (TCAST_ERR_PARSE, numpy 2's message
# where it has one): a deliberate deviation, documented in the README. These specs are
# checked for exactly that refusal.
_TOO_BIG = "dtype size in bytes must fit into a C int."
_GENERIC = "invalid itemsize in generic type tuple"
BAD_SIZES = {
    **{spec: f"data type {spec!r} not understood"
       for spec in ("S-1", "U-1", "V-1", "S4294967296", "S2147483648", "U2147483648",
                    "U1073741824", "S99999999999")},
    "536870912U": _GENERIC, "1073741824U": _GENERIC, "2147483647U": _GENERIC,
    "V2147483647,V1": _TOO_BIG, "V1073741824,V1073741824": _TOO_BIG,
    "V1073741824,V1073741824,V0": _TOO_BIG, "U536870911,U1": _TOO_BIG,
    "i4,(2147483647,)i1": _TOO_BIG, "(715827882,)i1,(715827882,)i1,(715827882,)i1,i1,i1": _TOO_BIG,
}


def test_bad_sizes_are_refused_under_both_rules():
    if nc.DRYRUN:
        pytest.skip("dry run: a deliberate deviation from numpy, which the stand-in is")
    bad = []
    for spec, message in sorted(BAD_SIZES.items()):
        lib = nc.outcome(nc.dtype_parse, spec)
        if lib != ("err", nc.ERR_PARSE, message):
            bad.append(f"{spec!r}: library {nc.describe(lib)}, expected PARSE {message!r}")
    ns.check_all("parse: sizes refused under both rules", bad, len(BAD_SIZES))


def parse_case(spec, np_out):
    """The library's parse of ``spec`` against numpy's outcome ``np_out`` (the rules of
    this module's docstring): a mismatch text, or None, and whether a message was
    compared. Also used by test_np_chars."""
    lib = nc.outcome(nc.dtype_parse, spec)
    if np_out[0] == "ok":
        if lib[0] != "ok":
            return f"{spec!r}: numpy accepts ({np_out[1]!r}), library {nc.describe(lib)}", False
        got = nc.outcome(nc.dtype_str, lib[1])
        if got != ("ok", np_out[1]):
            return f"{spec!r}: str numpy {np_out[1]!r}, library {nc.describe(got)}", False
        return None, False
    _, etype, message = np_out
    if spec in ns.ONLY_IN[ns.OTHER_RULES]:
        if lib[0] == "ok":
            lib = nc.outcome(nc.casting_level, lib[1], lib[1], ns.RULES)
            if lib[0] == "ok":
                return (f"{spec!r}: numpy {np.__version__} rejects ({etype}: {message}); the "
                        f"library parses it (valid in the other numpy) but a level query "
                        f"under TCAST_NUMPY_{ns.RULES} succeeds ({lib[1]})"), False
    elif lib[0] == "ok":
        shown = nc.outcome(nc.dtype_str, lib[1])
        return (f"{spec!r}: numpy rejects ({etype}: {message}), library accepts "
                f"({nc.describe(shown)})"), False
    if lib[1] != nc.ERR_PARSE:
        return f"{spec!r}: numpy rejects ({etype}), library {nc.describe(lib)}, not PARSE", False
    if ns.message_is_compared(etype, message):
        if lib[2] != message:
            return f"{spec!r}: message {lib[2]!r}, numpy's {message!r}", True
        return None, True
    return None, False


def test_parse_against_numpy():
    bad, compared, total = [], 0, 0
    for spec, np_out in CASES:
        if spec in ns.MEANING_DIFFERS:
            continue  # test_meaning_differs
        if spec in BAD_SIZES:
            continue  # test_bad_sizes_are_refused_under_both_rules
        total += 1
        problem, msg_checked = parse_case(spec, np_out)
        compared += msg_checked
        if problem:
            bad.append(problem)
    accepted = sum(1 for s, o in CASES
                   if o[0] == "ok" and s not in ns.MEANING_DIFFERS and s not in BAD_SIZES)
    ns.check_all("parse: specs vs np.dtype", bad, total,
                 f"numpy accepts {accepted}, rejects {total - accepted}; "
                 f"{compared} messages compared")


def test_only_in_table():
    """npside.ONLY_IN is right about this numpy (it decides which rejections may parse)."""
    bad = []
    for spec in ns.ONLY_IN[ns.RULES]:
        if ns.numpy_outcome(np.dtype, spec)[0] != "ok":
            bad.append(f"{spec!r} is listed as valid in numpy {ns.RULES}.x but is rejected")
    for spec in ns.ONLY_IN[ns.OTHER_RULES]:
        if ns.numpy_outcome(np.dtype, spec)[0] == "ok":
            bad.append(f"{spec!r} is listed as valid only in numpy {ns.OTHER_RULES}.x "
                       f"but is accepted")
    ns.check_all("numpy only: ONLY_IN table", bad,
                 len(ns.ONLY_IN[1]) + len(ns.ONLY_IN[2]))


def test_meaning_differs():
    bad, total = [], 0
    for spec, texts in ns.MEANING_DIFFERS.items():
        total += 1
        here = str(ns.quiet_dtype(spec))
        if here != texts[ns.RULES - 1]:
            bad.append(f"{spec!r}: numpy prints {here!r}, table says {texts[ns.RULES - 1]!r}")
        lib = nc.outcome(nc.dtype_parse, spec)
        if lib[0] != "ok":
            bad.append(f"{spec!r}: library {nc.describe(lib)}")
            continue
        shown = nc.outcome(nc.dtype_str, lib[1])
        if shown[0] != "ok" or shown[1] not in texts:
            bad.append(f"{spec!r}: str {nc.describe(shown)} is neither of {texts}")
        for partner in ns.MEANING_PARTNERS:
            hp = nc.dtype_parse(partner)
            pairs = ((spec, partner, lib[1], hp), (partner, spec, hp, lib[1]))
            for sa, sb, ha, hb in pairs:
                total += 1
                want = ns.expected_level(ns.quiet_dtype(sa), ns.quiet_dtype(sb))
                got = nc.outcome(nc.casting_level, ha, hb, ns.RULES)
                if got != ("ok", want):
                    bad.append(f"{sa!r} -> {sb!r}: expected {ns.LEVEL_NAMES[want]}, "
                               f"library {nc.describe(got)}")
    ns.check_all("parse: 1.x/2.x meaning differs (level checks)", bad, total)


def test_dtype_str_capacity():
    """The text and its NUL must fit: capacity len(text) fails with
    TCAST_ERR_BUFFER_TOO_SMALL, len(text) + 1 succeeds."""
    bad, total = [], 0
    for spec in ("i4", "i4,f8", "M8[ns]", ">U5", "(2,3)f8"):
        want = str(np.dtype(spec))
        h = nc.dtype_parse(spec)
        n = len(want.encode())
        total += 2
        small = nc.outcome(nc.dtype_str, h, capacity=n)
        if small[0] != "err" or small[1] != nc.ERR_BUFFER_TOO_SMALL:
            bad.append(f"{spec!r} capacity {n}: {nc.describe(small)}, not BUFFER_TOO_SMALL")
        exact = nc.outcome(nc.dtype_str, h, capacity=n + 1)
        if exact != ("ok", want):
            bad.append(f"{spec!r} capacity {n + 1}: {nc.describe(exact)}")
    ns.check_all("parse: tcast_np_dtype_str capacity", bad, total)


# ----------------------------------------------------------------------- casting names

_BAD_CASTINGS = ("bad", "No", "SAFE", "same_value", "", " safe", "safe ", "equivalent",
                 "unsafe_", "same-kind")


def _casting_messages(name):
    """numpy's ValueError text for a bad casting name, in this version's and the other
    version's wording (1.x: "..., 'same_kind', or 'unsafe' (got 'X')"; 2.x drops "or")."""
    here = ns.numpy_outcome(np.can_cast, "i4", "i4", name)[2]
    if "'same_kind', or 'unsafe'" in here:
        other = here.replace("'same_kind', or 'unsafe'", "'same_kind', 'unsafe'")
    else:
        other = here.replace("'same_kind', 'unsafe'", "'same_kind', or 'unsafe'")
    return here, other


def test_casting_from_name():
    """Valid names -> 0..4. Bad ones -> TCAST_ERR_INVALID_ARGUMENT with numpy's message;
    the function has no rules argument, so either version's wording is accepted."""
    bad, total = [], 0
    for i, name in enumerate(ns.CASTINGS):
        total += 1
        got = nc.outcome(nc.casting_from_name, name)
        if got != ("ok", i):
            bad.append(f"{name!r}: library {nc.describe(got)}, expected {i}")
    for name in _BAD_CASTINGS:
        total += 1
        here, other = _casting_messages(name)
        got = nc.outcome(nc.casting_from_name, name)
        if got[0] != "err" or got[1] != nc.ERR_INVALID_ARGUMENT:
            bad.append(f"{name!r}: library {nc.describe(got)}, not INVALID_ARGUMENT")
        elif here not in got[2] and other not in got[2]:
            bad.append(f"{name!r}: message {got[2]!r} contains neither {here!r} nor {other!r}")
    ns.check_all("parse: tcast_np_casting_from_name", bad, total)


# (from, to, casting, required status or None for any failure): numpy raises for each
_STR_ERRORS = [
    ("i4", "i8", "bad", nc.ERR_INVALID_ARGUMENT),
    ("i4", "i8", "same_value", nc.ERR_INVALID_ARGUMENT),
    ("i4", "i8", "Safe", nc.ERR_INVALID_ARGUMENT),
    ("i4", "abc", "safe", nc.ERR_PARSE),
    ("i4", "", "safe", nc.ERR_PARSE),
    ("i4", "M8[5 s]", "safe", nc.ERR_PARSE),
    ("i4", "M8[s", "unsafe", nc.ERR_PARSE),
    ("i4", ">float64", "unsafe", nc.ERR_PARSE),
    ("abc", "i4", "safe", None),
    ("42", "i4", "safe", None),
    ("M8[5 s]", "i4", "safe", None),
    ("", "i4", "unsafe", None),
]


def test_can_cast_str_errors():
    """tcast_np_can_cast_str where numpy.can_cast raises: the library fails (with the
    status given where the doc names one) and its message contains numpy's (this
    version's wording: the function has a rules argument). numpy reports an unparsable
    ``from_`` as ``did not understand one of the types; 'None' not accepted``."""
    cases = list(_STR_ERRORS)
    for spec in ns.ONLY_IN[ns.OTHER_RULES]:
        cases.append(("i4", spec, "unsafe", "any, no message"))
        cases.append((spec, "i4", "unsafe", "any, no message"))
    bad, statuses = [], {}
    for a, b, casting, status in cases:
        np_out = ns.numpy_outcome(np.can_cast, a, b, casting)
        if np_out[0] != "err":
            bad.append(f"numpy.can_cast({a!r}, {b!r}, {casting!r}) does not raise "
                       f"(the case list is wrong)")
            continue
        got = nc.outcome(nc.can_cast_str, a, b, casting, ns.RULES)
        if got[0] != "err":
            bad.append(f"can_cast_str({a!r}, {b!r}, {casting!r}): numpy raises "
                       f"{np_out[1]} {np_out[2]!r}, library {nc.describe(got)}")
            continue
        statuses[nc.STATUS_NAMES.get(got[1], got[1])] = 1 + statuses.get(
            nc.STATUS_NAMES.get(got[1], got[1]), 0)
        if isinstance(status, int) and got[1] != status:
            bad.append(f"can_cast_str({a!r}, {b!r}, {casting!r}): {nc.describe(got)}, "
                       f"expected {nc.STATUS_NAMES[status]}")
        elif status != "any, no message" and np_out[2] not in got[2]:
            bad.append(f"can_cast_str({a!r}, {b!r}, {casting!r}): message {got[2]!r} does "
                       f"not contain numpy's {np_out[2]!r}")
    ns.check_all("parse: tcast_np_can_cast_str errors", bad, len(cases),
                 "statuses " + ", ".join(f"{k} x{v}" for k, v in sorted(statuses.items())))


def test_bad_enum_arguments():
    """rules outside {1, 2} and casting outside 0..4: TCAST_ERR_INVALID_ARGUMENT."""
    h = nc.dtype_parse("i4")
    calls = [
        ("casting_level rules 0", nc.casting_level, (h, h, 0)),
        ("casting_level rules 3", nc.casting_level, (h, h, 3)),
        ("casting_level rules -1", nc.casting_level, (h, h, -1)),
        ("can_cast casting 5", nc.can_cast, (h, h, 5, ns.RULES)),
        ("can_cast casting -1", nc.can_cast, (h, h, -1, ns.RULES)),
        ("can_cast rules 0", nc.can_cast, (h, h, 2, 0)),
        ("can_cast_str rules 7", nc.can_cast_str, ("i4", "i8", "safe", 7)),
        # (rules 1 here: under rules 2 these functions refuse Python scalars anyway)
        ("can_cast_pyint casting 5", nc.can_cast_pyint, (1, "i8", 5, nc.NUMPY_1)),
        ("can_cast_pyint rules 0", nc.can_cast_pyint, (1, "i8", 2, 0)),
        ("can_cast_pyfloat rules 3", nc.can_cast_pyfloat, (1.0, "f8", 2, 3)),
        ("can_cast_pycomplex casting 9", nc.can_cast_pycomplex, (1j, "c16", 9, nc.NUMPY_1)),
        ("can_cast_pyfloat casting -1", nc.can_cast_pyfloat, (1.0, "f8", -1, nc.NUMPY_1)),
        ("can_cast_pybool casting 5", nc.can_cast_pybool, (True, "?", 5, nc.NUMPY_1)),
        ("can_cast_pybool rules 0", nc.can_cast_pybool, (True, "?", 2, 0)),
        ("can_cast_scalar casting -2", nc.can_cast_scalar,
         ("i4", np.array(1, "i4").tobytes(), 0, "i8", -2, ns.RULES)),
        ("can_cast_scalar rules 0", nc.can_cast_scalar,
         ("i4", np.array(1, "i4").tobytes(), 0, "i8", 2, 0)),
    ]
    bad = []
    for label, fn, args in calls:
        got = nc.outcome(fn, *args)
        if got[0] != "err" or got[1] != nc.ERR_INVALID_ARGUMENT:
            bad.append(f"{label}: {nc.describe(got)}, not INVALID_ARGUMENT")
    ns.check_all("parse: bad rules / casting values", bad, len(calls))


def test_numpy_crashers():
    """Specs on which numpy itself dies with SIGFPE (integer division by zero): numpy
    parses ``'M8[0s]'`` (str 'datetime64[0s]', checked by test_parse_against_numpy) and
    then ``can_cast('M8[s]', 'M8[0s]')`` crashes; ``np.dtype('M8[D/0]')`` crashes. No
    oracle: the library must answer without TCAST_ERR_INTERNAL (a caught panic), and
    refuse ``'M8[D/0]'`` with TCAST_ERR_PARSE."""
    bad, total = [], 0
    d0 = nc.outcome(nc.dtype_parse, "M8[D/0]")
    total += 1
    if d0[0] != "err" or d0[1] != nc.ERR_PARSE:
        bad.append(f"'M8[D/0]': {nc.describe(d0)}, not PARSE")
    zero = nc.dtype_parse("M8[0s]")
    for other in ("M8[s]", "M8[0s]", "M8", "M8[2s]", "M8[Y]", "i8", "m8[0s]", "m8[s]"):
        h = nc.dtype_parse(other)
        for a, b, label in ((zero, h, f"'M8[0s]' -> {other!r}"),
                            (h, zero, f"{other!r} -> 'M8[0s]'")):
            for rules in (nc.NUMPY_1, nc.NUMPY_2):
                total += 1
                got = nc.outcome(nc.casting_level, a, b, rules)
                if got[0] == "err" and got[1] == nc.ERR_INTERNAL:
                    bad.append(f"{label} rules {rules}: {nc.describe(got)}")
    ns.check_all("parse: no crash where numpy crashes", bad, total)


def test_null_pointers():
    """docs/c-api.md section 8: a NULL required pointer is TCAST_ERR_NULL_ARGUMENT; freeing
    NULL is a no-op."""
    if nc.DRYRUN:
        pytest.skip("dry run: raw C calls need the library")
    lib = nc.lib()
    err = nc.tcast_error()
    out = ctypes.c_void_p()
    res = ctypes.c_int32()
    h = nc.dtype_parse("i4")
    buf = ctypes.create_string_buffer(64)
    calls = [
        ("parse spec NULL", lambda: lib.tcast_np_dtype_parse(None, ctypes.byref(out),
                                                              ctypes.byref(err))),
        ("parse out NULL", lambda: lib.tcast_np_dtype_parse(b"i4", None, ctypes.byref(err))),
        ("str dtype NULL", lambda: lib.tcast_np_dtype_str(None, buf, 64, None, ctypes.byref(err))),
        ("str buf NULL", lambda: lib.tcast_np_dtype_str(h, None, 64, None, ctypes.byref(err))),
        ("level from NULL", lambda: lib.tcast_np_casting_level(None, h, ns.RULES,
                                                                ctypes.byref(res),
                                                                ctypes.byref(err))),
        ("level out NULL", lambda: lib.tcast_np_casting_level(h, h, ns.RULES, None,
                                                               ctypes.byref(err))),
        ("can_cast_str from NULL", lambda: lib.tcast_np_can_cast_str(
            None, b"i4", b"safe", ns.RULES, ctypes.byref(res), ctypes.byref(err))),
        ("can_cast_str casting NULL", lambda: lib.tcast_np_can_cast_str(
            b"i4", b"i4", None, ns.RULES, ctypes.byref(res), ctypes.byref(err))),
        ("casting_from_name NULL", lambda: lib.tcast_np_casting_from_name(
            None, ctypes.byref(res), ctypes.byref(err))),
        ("pyint decimal NULL", lambda: lib.tcast_np_can_cast_pyint(
            None, b"i8", 2, ns.RULES, ctypes.byref(res), ctypes.byref(err))),
        ("scalar value NULL", lambda: lib.tcast_np_can_cast_scalar(
            b"i4", None, 4, 1, b"i8", 2, ns.RULES, ctypes.byref(res), ctypes.byref(err))),
        ("promote a NULL", lambda: lib.tcast_np_promote_types(None, b"i4", buf, 64, None,
                                                               ctypes.byref(err))),
        ("min_scalar_type buf NULL", lambda: lib.tcast_np_min_scalar_type_pyint(
            b"1", None, 64, None, ctypes.byref(err))),
    ]
    bad = []
    for label, call in calls:
        status = call()
        if status != nc.ERR_NULL_ARGUMENT:
            bad.append(f"{label}: status {nc.STATUS_NAMES.get(status, status)}")
    lib.tcast_np_dtype_free(None)
    ns.check_all("parse: NULL pointers", bad, len(calls))
