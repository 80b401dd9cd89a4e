# SPDX-License-Identifier: MIT OR Apache-2.0
"""A numpy-backed stand-in for the section-7 functions, used by the dry run.

With ``TCAST_NP_ORACLE_DRYRUN=1`` the conftest replaces the wrappers of ``npcast`` by
the functions below, so the whole suite runs without libtensorcast: this checks the
harness (case generation under this numpy, comparisons, reports) and the fixed
expectations taken from docs/semantics-can-cast.md, not tensorcast. The stand-in answers from
live numpy where the running numpy speaks for the requested rules, and otherwise from the
doc: ``level_122_struct`` for structured pairs under TCAST_NUMPY_1, and section 5's
value-based algorithm (``value_rule_122``) for every TCAST_NUMPY_1 scalar query, so that
under numpy 1.26 the dry run compares the doc's algorithm with numpy's.
"""

import re
import warnings

import numpy as np

import npcast as nc
import npside as ns

NEP50_MESSAGE = ("can_cast() does not support Python ints, floats, and complex because the "
                 "result used to depend on the value.\nThis change was part of adopting "
                 "NEP 50, we may explicitly allow them again in the future.")


def _fail(call, status, message):
    raise nc.NpCastError(call, status, -1, message[:255])


_ZERO_DIVISOR = re.compile(r"/\s*\+?0+\]")  # numpy dies on 'M8[D/0]' (SIGFPE)


def _np_dtype(spec):
    if isinstance(spec, bytes):
        try:
            spec = spec.decode("utf-8")
        except UnicodeDecodeError as e:  # the library's TCAST_ERR_PARSE
            return ("err", "UnicodeDecodeError", f"spec is not valid UTF-8: {e}")
    if _ZERO_DIVISOR.search(spec):
        return ("err", "ZeroDivisionError", "zero divisor (numpy itself crashes)")
    return ns.numpy_outcome(np.dtype, spec)


def _zero_multiplier(dt):
    return dt.kind in "mM" and np.datetime_data(dt)[1] == 0


def _dtype(spec, call):
    out = _np_dtype(spec)
    if out[0] == "err":
        _fail(call, nc.ERR_PARSE, out[2])
    return out[1]


class FakeDtype:
    def __init__(self, spec):
        self.spec = spec
        out = _np_dtype(spec)
        if out[0] == "ok":
            self.dt, self.foreign = out[1], None
        elif spec in ns.ONLY_IN[ns.OTHER_RULES]:
            self.dt, self.foreign = None, out[2]  # the union parser accepts it
        else:
            _fail("tcast_np_dtype_parse", nc.ERR_PARSE, out[2])


def dtype_parse(spec):
    return FakeDtype(spec)


def dtype_str(d, capacity=nc.STR_CAPACITY):
    if d.foreign:
        return d.spec
    text = str(d.dt)
    if len(text.encode()) + 1 > capacity:
        _fail("tcast_np_dtype_str", nc.ERR_BUFFER_TOO_SMALL, "buffer too small")
    return text


def casting_from_name(name):
    if name in ns.CASTINGS:
        return ns.CASTINGS.index(name)
    out = ns.numpy_outcome(np.can_cast, "i4", "i4", name)
    _fail("tcast_np_casting_from_name", nc.ERR_INVALID_ARGUMENT, out[2])


def _cast_name(call, casting):
    casting = nc._casting(casting)
    if not 0 <= casting <= 4:
        _fail(call, nc.ERR_INVALID_ARGUMENT, f"casting {casting}")
    return ns.CASTINGS[casting]


def _check_rules(rules, call):
    if rules not in (nc.NUMPY_1, nc.NUMPY_2):
        _fail(call, nc.ERR_INVALID_ARGUMENT, f"rules {rules}")


def _dt_for(d, rules):
    """The dtype a spec means under ``rules`` (npside.MEANING_DIFFERS: a trailing comma
    makes a 1-field struct in 2.x only, a leading count 1 a subarray in 2.x only)."""
    if rules == ns.RULES or d.spec not in ns.MEANING_DIFFERS:
        return d.dt
    if d.spec.endswith(","):
        base = np.dtype(d.spec[:-1])
        return np.dtype([("f0", base)]) if rules == nc.NUMPY_2 else base
    if d.spec.startswith("1"):
        base = np.dtype(d.spec[1:])
        return np.dtype((base, (1,))) if rules == nc.NUMPY_2 else base
    raise NotImplementedError(d.spec)


def casting_level(a, b, rules):
    _check_rules(rules, "tcast_np_casting_level")
    for d in (a, b):
        if d.foreign and rules == ns.RULES:
            _fail("tcast_np_casting_level", nc.ERR_PARSE, d.foreign)
    da, db = _dt_for(a, rules), _dt_for(b, rules)
    if rules == nc.NUMPY_1 and ns.is_struct(da) and ns.is_struct(db):
        return ns.level_122_struct(da, db)
    if _zero_multiplier(da) or _zero_multiplier(db):
        return 4  # numpy crashes here; any answer but a crash will do
    return ns.numpy_level(da, db)


def can_cast(a, b, casting, rules):
    casting = nc._casting(casting)
    if not 0 <= casting <= 4:
        _fail("tcast_np_can_cast", nc.ERR_INVALID_ARGUMENT, f"casting {casting}")
    return casting_level(a, b, rules) <= casting


def can_cast_str(a, b, casting, rules):
    _check_rules(rules, "tcast_np_can_cast_str")
    da = ns.numpy_outcome(np.dtype, a)
    db = ns.numpy_outcome(np.dtype, b)
    both_struct = (da[0] == db[0] == "ok" and ns.is_struct(da[1]) and ns.is_struct(db[1]))
    if rules == ns.RULES and not (rules == nc.NUMPY_1 and both_struct):
        out = ns.numpy_outcome(np.can_cast, a, b, casting)
        if out[0] == "err":
            status = nc.ERR_INVALID_ARGUMENT if "casting" in out[2] else nc.ERR_PARSE
            _fail("tcast_np_can_cast_str", status, out[2])
        return bool(out[1])
    if casting not in ns.CASTINGS:
        casting_from_name(casting)
    return can_cast(FakeDtype(a), FakeDtype(b), casting, rules)


# ------------------------------------------------------------------------ value-based


def value_rule_122(arr, to, casting):
    """docs/semantics-can-cast.md section 5 for a 0-d array ``arr`` (a Python value already
    converted): the doc's algorithm, with numpy's dtype-level can_cast and
    min_scalar_type."""
    to = np.dtype(to)
    if casting == "unsafe" or np.can_cast(arr.dtype, to, casting):
        return True
    if to.kind in "SUV" and to.itemsize == 0 and to.subdtype is None and to.names is None:
        return False  # unsized targets: no value-based step
    if arr.dtype.kind not in "biufc":
        return False
    small_type = np.min_scalar_type(arr)
    if small_type.kind == "u" and to.kind != "u":
        value = int(arr[()])
        limit = {1: 127, 2: 32767, 4: 2**31 - 1, 8: 2**63 - 1}[small_type.itemsize]
        if value <= limit:
            small_type = np.dtype(f"i{small_type.itemsize}")
    return bool(np.can_cast(small_type, to, casting))


def _python_array(value):
    if isinstance(value, bool):
        return np.array(value, dtype="?")
    if isinstance(value, int):
        if -2**63 <= value < 2**63:
            return np.array(value, dtype="i8")
        if 0 <= value < 2**64:
            return np.array(value, dtype="u8")
        return np.array(value, dtype="O")
    if isinstance(value, float):
        return np.array(value, dtype="f8")
    return np.array(value, dtype="c16")


def _py(call, value, to, casting, rules):
    _check_rules(rules, call)
    casting = _cast_name(call, casting)
    _dtype(to, call)
    if rules == nc.NUMPY_2:
        _fail(call, nc.ERR_UNSUPPORTED, NEP50_MESSAGE)
    return value_rule_122(_python_array(value), to, casting)


def can_cast_pyint(value, to, casting, rules):
    if isinstance(value, str):
        try:
            value = int(value, 10)
        except ValueError:
            _fail("tcast_np_can_cast_pyint", nc.ERR_PARSE, f"bad decimal {value!r}")
    return _py("tcast_np_can_cast_pyint", int(value), to, casting, rules)


def can_cast_pyfloat(value, to, casting, rules):
    return _py("tcast_np_can_cast_pyfloat", float(value), to, casting, rules)


def can_cast_pycomplex(value, to, casting, rules):
    return _py("tcast_np_can_cast_pycomplex", complex(value), to, casting, rules)


def can_cast_pybool(value, to, casting, rules):
    return _py("tcast_np_can_cast_pybool", bool(value), to, casting, rules)


def can_cast_scalar(dtype, value_bytes, is_array, to, casting, rules):
    call = "tcast_np_can_cast_scalar"
    _check_rules(rules, call)
    casting = _cast_name(call, casting)
    dt = _dtype(dtype, call)
    _dtype(to, call)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        arr = np.frombuffer(bytes(value_bytes), dtype=dt).reshape(())
    if not is_array:
        arr = np.array(arr, dtype=dt.newbyteorder("="))
    if rules == nc.NUMPY_2:
        return bool(np.can_cast(arr.dtype, to, casting))
    return value_rule_122(arr, to, casting)


# ------------------------------------------------------------------------ promotion etc.


def promote_types(a, b, capacity=nc.STR_CAPACITY):
    # a spec that does not parse is PARSE, as in the library; no common dtype UNSUPPORTED
    a, b = _dtype(a, "tcast_np_promote_types"), _dtype(b, "tcast_np_promote_types")
    out = ns.numpy_outcome(lambda x, y: str(np.promote_types(x, y)), a, b)
    if out[0] == "err":
        _fail("tcast_np_promote_types", nc.ERR_UNSUPPORTED, out[2])
    return out[1]


def _min_scalar(value):
    return str(np.min_scalar_type(value))


def min_scalar_type_pyint(value):
    return _min_scalar(int(value))


def min_scalar_type_pyfloat(value):
    return _min_scalar(float(value))


def min_scalar_type_pycomplex(value):
    return _min_scalar(complex(value))


def tc_can_cast(from_code, to_code, casting):
    import mlside  # only in the numpy 2 venv (ml_dtypes)
    casting = nc._casting(casting)
    if not 0 <= casting <= 4:
        _fail("tcast_can_cast", nc.ERR_INVALID_ARGUMENT, f"casting {casting}")
    if from_code not in mlside.NUMPY_OF or to_code not in mlside.NUMPY_OF:
        _fail("tcast_can_cast", nc.ERR_INVALID_DTYPE, "dtype")
    return bool(np.can_cast(mlside.NUMPY_OF[from_code], mlside.NUMPY_OF[to_code],
                            ns.CASTINGS[casting]))


REPLACED = ["dtype_parse", "dtype_str", "casting_from_name", "casting_level", "can_cast",
            "can_cast_str", "can_cast_pyint", "can_cast_pyfloat", "can_cast_pycomplex",
            "can_cast_pybool", "can_cast_scalar", "promote_types", "min_scalar_type_pyint",
            "min_scalar_type_pyfloat", "min_scalar_type_pycomplex", "tc_can_cast"]


def install():
    """Replaces npcast's wrappers by the stand-ins (the dry run)."""
    for name in REPLACED:
        setattr(nc, name, globals()[name])
    nc.DRYRUN = True
