# SPDX-License-Identifier: MIT OR Apache-2.0
"""The level matrix: tcast_np_casting_level against numpy.can_cast on every pair of a broad
list of dtype strings (npside.matrix_specs: every type code, kind+size forms, byte
orders, S/U/V sizes around the string-length table, datetime units and multipliers,
subarrays, structured comma strings).

Expected level of a pair = the smallest casting in no < equiv < safe < same_kind < unsafe
at which ``np.can_cast(np.dtype(a), np.dtype(b), casting)`` is True, else 5. numpy is
given dtype objects: with unsized targets (``'S'``, ``'U'``, ``'V'``) numpy applies the
doc's unsized-target rule for dtypes exactly as for strings (checked below), which is
what the C function sees after parsing.

Rules: TCAST_NUMPY_1 under numpy 1.x, TCAST_NUMPY_2 under 2.x. Under numpy 1.26 the
structured -> structured pairs take their expectation from the 1.22 rule (see npside's
docstring: 1.26 matches fields by position, the documented 1.22 by name), and
``test_struct_model_matches_numpy`` checks that model against numpy wherever the two
versions agree.
"""

import pytest

import npcast as nc
import npside as ns


@pytest.fixture(scope="module")
def matrix():
    return ns.level_matrix()


@pytest.fixture(scope="module")
def handles(matrix):
    """spec -> parsed handle (or the parse error, reported by test_matrix_specs_parse)."""
    out = {}
    for spec in matrix[0]:
        try:
            out[spec] = nc.dtype_parse(spec)
        except nc.NpCastError as e:
            out[spec] = e
    return out


def test_matrix_specs_parse(matrix, handles):
    specs = matrix[0]
    bad = [f"{s!r}: {h}" for s, h in handles.items() if isinstance(h, nc.NpCastError)]
    ns.check_all("level matrix: specs parsed", bad, len(specs))


def test_level_matrix(matrix, handles):
    specs, expected, by_122 = matrix
    bad, total = [], 0
    for i, a in enumerate(specs):
        for j, b in enumerate(specs):
            ha, hb = handles[a], handles[b]
            if isinstance(ha, nc.NpCastError) or isinstance(hb, nc.NpCastError):
                continue  # reported by test_matrix_specs_parse
            total += 1
            want = expected[i][j]
            got = nc.outcome(nc.casting_level, ha, hb, ns.RULES)
            if got != ("ok", want):
                bad.append(f"{a!r} -> {b!r}: expected {ns.LEVEL_NAMES[want]} ({want}), "
                           f"library {nc.describe(got)}")
    note = f"{len(specs)} dtypes"
    if by_122:
        note += f"; {by_122} structured pairs from the 1.22 rule"
    ns.check_all("level matrix: tcast_np_casting_level pairs", bad, total, note)


def test_can_cast_handles(matrix, handles):
    """tcast_np_can_cast(h, h, casting) == (level <= casting), on every third pair and
    every casting."""
    specs, expected, _ = matrix
    bad, total = [], 0
    n = len(specs)
    for k in range(0, n * n, 3):
        i, j = divmod(k, n)
        ha, hb = handles[specs[i]], handles[specs[j]]
        if isinstance(ha, nc.NpCastError) or isinstance(hb, nc.NpCastError):
            continue
        for c in range(5):
            total += 1
            want = expected[i][j] <= c
            got = nc.outcome(nc.can_cast, ha, hb, c, ns.RULES)
            if got != ("ok", want):
                bad.append(f"{specs[i]!r} -> {specs[j]!r} {ns.CASTINGS[c]}: expected {want}, "
                           f"library {nc.describe(got)}")
    ns.check_all("level matrix: tcast_np_can_cast (every 3rd pair x 5 castings)", bad, total)


def test_can_cast_str_sample(matrix):
    """tcast_np_can_cast_str on every 29th pair, every casting."""
    specs, expected, _ = matrix
    bad, total = [], 0
    n = len(specs)
    for k in range(0, n * n, 29):
        i, j = divmod(k, n)
        for c, name in enumerate(ns.CASTINGS):
            total += 1
            want = expected[i][j] <= c
            got = nc.outcome(nc.can_cast_str, specs[i], specs[j], name, ns.RULES)
            if got != ("ok", want):
                bad.append(f"can_cast_str({specs[i]!r}, {specs[j]!r}, {name!r}): expected {want}, "
                           f"library {nc.describe(got)}")
    ns.check_all("level matrix: tcast_np_can_cast_str (every 29th pair x 5 castings)", bad,
                 total)


def test_unsized_targets_same_as_strings():
    """numpy applies the unsized-target rule to dtype objects as to strings, so the dtype
    objects used for the matrix stand for what the C function gets."""
    bad, total = [], 0
    for a in ns.matrix_specs():
        for b in ("S", "U", "V", "S0", "U0", "V0", ">U", "a"):
            for c in ns.CASTINGS:
                total += 1
                by_dtype = ns.np.can_cast(ns.quiet_dtype(a), ns.quiet_dtype(b), c)
                by_str = ns.numpy_outcome(ns.np.can_cast, a, b, c)[1]
                if by_dtype != by_str:
                    bad.append(f"{a!r} -> {b!r} {c}: dtype {by_dtype}, string {by_str}")
    ns.check_all("numpy only: unsized targets, dtype objects == strings", bad, total)


def test_struct_model_matches_numpy():
    """The 1.22 structured rule used under numpy 1.x (npside.level_122_struct) agrees
    with live numpy on every structured pair of the matrix with equal field counts (where
    by-name and by-position agree for comma strings), and gives unsafe where numpy >= 1.23
    says impossible (different field counts)."""
    specs, bad = ns.struct_rule_check()
    ns.check_all("numpy only: 1.22 structured model vs numpy", bad, len(specs) ** 2)
