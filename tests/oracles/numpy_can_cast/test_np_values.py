# SPDX-License-Identifier: MIT OR Apache-2.0
"""Value-based casting, min_scalar_type and promote_types against numpy.

* Python scalars (tcast_np_can_cast_pyint/_pyfloat/_pycomplex/_pybool) vs
  ``np.can_cast(value, to, casting)``: the boundaries of every integer type (iinfo
  min/max and one beyond), ints past 2**64 (passed as decimal text), the float and complex
  edges of section 5, both bools; every target of npside.VALUE_TARGETS, every casting.
  numpy 2 raises TypeError for all of them: the library must fail with
  TCAST_ERR_UNSUPPORTED and a message containing numpy's.
* numpy scalars and 0-d arrays (tcast_np_can_cast_scalar) of every numeric type, plus
  non-native 0-d arrays (``>i8`` ...), their value passed as numpy stores it in that
  dtype (``np.array(v, dtype).tobytes()``; a numpy scalar is always native, so the
  non-native dtypes are only tested as 0-d arrays).
* tcast_np_min_scalar_type_* vs ``str(np.min_scalar_type(value))`` (docs/c-api.md does not say
  what the buffer receives; this suite assumes numpy's ``str(dtype)``: 'uint8', 'object').
* tcast_np_promote_types vs ``str(np.promote_types(a, b))`` on ``?bhiqBHIQefdgFDG``
  squared and string / datetime / void / object cases; where numpy raises, the library
  must fail (any status; the statuses seen are printed in the summary).
"""

import npcast as nc
import npside as ns


def _value_mismatch(label, np_out, got):
    """A mismatch text or None, for a can_cast of a value."""
    if np_out[0] == "ok":
        if got != ("ok", bool(np_out[1])):
            return f"{label}: numpy {bool(np_out[1])}, library {nc.describe(got)}"
        return None
    _, etype, message = np_out
    if got[0] != "err":
        return f"{label}: numpy raises {etype} {message!r}, library {nc.describe(got)}"
    if ns.RULES == nc.NUMPY_2 and etype == "TypeError":
        if got[1] != nc.ERR_UNSUPPORTED:
            return f"{label}: numpy raises TypeError, library {nc.describe(got)}, not UNSUPPORTED"
        if message not in got[2]:
            return f"{label}: message {got[2]!r} does not contain numpy's {message!r}"
    return None


def _run_python_values(name, fn, values, label_of=repr):
    bad = []
    cases = ns.pyvalue_cases(values)
    for value, to, casting, np_out in cases:
        got = nc.outcome(fn, value, to, casting, ns.RULES)
        problem = _value_mismatch(f"{name}({label_of(value)}, {to!r}, {casting!r})", np_out,
                                  got)
        if problem:
            bad.append(problem)
    raised = sum(1 for c in cases if c[3][0] == "err")
    ns.check_all(f"values: {name}", bad, len(cases),
                 f"{len(values)} values; numpy raises for {raised}")


def test_pyint():
    _run_python_values("can_cast_pyint", nc.can_cast_pyint, ns.pyint_values(), str)


def test_pyfloat():
    _run_python_values("can_cast_pyfloat", nc.can_cast_pyfloat, ns.PYFLOAT_VALUES)


def test_pycomplex():
    _run_python_values("can_cast_pycomplex", nc.can_cast_pycomplex, ns.PYCOMPLEX_VALUES)


def test_pybool():
    _run_python_values("can_cast_pybool", nc.can_cast_pybool, ns.PYBOOL_VALUES)


def test_pyint_bad_text():
    """Not a decimal integer: the library fails (any status but a caught panic)."""
    bad = []
    texts = ("", "abc", "1.5", "12a", "0x10", "1e3", "--1", " ")
    for text in texts:
        got = nc.outcome(nc.can_cast_pyint, text, "i8", "unsafe", ns.RULES)
        if got[0] != "err" or got[1] == nc.ERR_INTERNAL:
            bad.append(f"can_cast_pyint({text!r}): {nc.describe(got)}")
    ns.check_all("values: can_cast_pyint bad decimal text", bad, len(texts))


def test_numpy_scalars_and_0d_arrays():
    bad = []
    cases = ns.scalar_cases()
    for code, raw, is_array, to, casting, np_out, label in cases:
        got = nc.outcome(nc.can_cast_scalar, code, raw, is_array, to, casting, ns.RULES)
        problem = _value_mismatch(f"{label} -> {to!r} {casting!r} (bytes {raw.hex()})",
                                  np_out, got)
        if problem:
            bad.append(problem)
    ns.check_all("values: can_cast_scalar (numpy scalars, 0-d arrays)", bad, len(cases),
                 f"{len(ns.SCALAR_DTYPES)} dtypes")


_MIN_SCALAR = {
    "pyint": lambda v: nc.min_scalar_type_pyint(v),
    "pyfloat": lambda v: nc.min_scalar_type_pyfloat(v),
    "pycomplex": lambda v: nc.min_scalar_type_pycomplex(v),
}


def test_min_scalar_type():
    bad = []
    cases = ns.min_scalar_type_cases()
    for kind, value, np_out in cases:
        got = nc.outcome(_MIN_SCALAR[kind], value)
        if np_out[0] != "ok":
            bad.append(f"{kind} {value!r}: numpy raises {np_out[1]} (the case list is wrong)")
        elif got != ("ok", np_out[1]):
            bad.append(f"min_scalar_type_{kind}({value!r}): numpy {np_out[1]!r}, "
                       f"library {nc.describe(got)}")
    ns.check_all("values: min_scalar_type", bad, len(cases))


def test_promote_types():
    bad, statuses = [], {}
    cases = ns.promote_cases()
    for a, b, np_out in cases:
        got = nc.outcome(nc.promote_types, a, b)
        if np_out[0] == "ok":
            if got != ("ok", np_out[1]):
                bad.append(f"promote_types({a!r}, {b!r}): numpy {np_out[1]!r}, "
                           f"library {nc.describe(got)}")
        elif got[0] != "err":
            bad.append(f"promote_types({a!r}, {b!r}): numpy raises {np_out[1]} "
                       f"{np_out[2]!r}, library {nc.describe(got)}")
        else:
            name = nc.STATUS_NAMES.get(got[1], str(got[1]))
            statuses[name] = statuses.get(name, 0) + 1
            if got[1] == nc.ERR_INTERNAL:
                bad.append(f"promote_types({a!r}, {b!r}): {nc.describe(got)}")
    raised = sum(1 for c in cases if c[2][0] == "err")
    ns.check_all("values: promote_types", bad, len(cases),
                 f"numpy raises for {raised}; library statuses there: "
                 + (", ".join(f"{k} x{v}" for k, v in sorted(statuses.items())) or "none"))
