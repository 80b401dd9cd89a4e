# SPDX-License-Identifier: MIT OR Apache-2.0
"""tcast_can_cast on tensorcast dtype codes against ``np.can_cast`` with ml_dtypes 0.6.0
(numpy 2 venv only: the conftest does not collect this file under numpy 1.x).

* every pair of the 27 types of docs/semantics-can-cast.md section 0 plus STRING (numpy's
  unsized ``U``) and the TF quantized types (their storage integers), every casting,
  against live numpy + ml_dtypes;
* the measured section 0 matrix (src/np/ml_dtypes_levels.txt, from which the library's
  table and the doc's are made) against live numpy and against the library;
* bad codes and castings.
"""

import re
from pathlib import Path

import numpy as np

import mlside
import npcast as nc
import npside as ns

def section0():
    """The measured matrix, src/np/ml_dtypes_levels.txt (the doc's section 0 is generated
    from it)."""
    assert set(mlside.SECTION0_ORDER) <= set(mlside.NUMPY_OF_NAME)
    return mlside.LEVELS


def test_tcast_can_cast_vs_numpy():
    bad, total = [], 0
    for a in mlside.ALL_NAMES:
        for b in mlside.ALL_NAMES:
            da, db = mlside.NUMPY_OF_NAME[a], mlside.NUMPY_OF_NAME[b]
            for casting in ns.CASTINGS:
                total += 1
                want = bool(np.can_cast(da, db, casting))
                got = nc.outcome(nc.tc_can_cast, nc.DTYPE_CODES[a], nc.DTYPE_CODES[b], casting)
                if got != ("ok", want):
                    bad.append(f"{a} -> {b} {casting}: numpy ({da} -> {db}) {want}, "
                               f"library {nc.describe(got)}")
    ns.check_all("ml: tcast_can_cast vs numpy + ml_dtypes", bad, total,
                 f"{len(mlside.ALL_NAMES)} dtypes")


def test_section0_matrix_vs_numpy():
    """The measured matrix is what numpy + ml_dtypes 0.6.0 say."""
    bad, total = [], 0
    for a, row in section0().items():
        for b, want in zip(mlside.SECTION0_ORDER, row):
            total += 1
            got = ns.numpy_level(mlside.NUMPY_OF_NAME[a], mlside.NUMPY_OF_NAME[b])
            if got != want:
                bad.append(f"{a} -> {b}: doc {ns.LEVEL_NAMES[want]}, numpy says "
                           f"{ns.LEVEL_NAMES[got]}")
    ns.check_all("ml: doc section 0 matrix vs numpy + ml_dtypes", bad, total)


def test_section0_matrix_vs_library():
    bad, total = [], 0
    for a, row in section0().items():
        for b, want in zip(mlside.SECTION0_ORDER, row):
            for c, casting in enumerate(ns.CASTINGS):
                total += 1
                got = nc.outcome(nc.tc_can_cast, nc.DTYPE_CODES[a], nc.DTYPE_CODES[b], c)
                if got != ("ok", want <= c):
                    bad.append(f"{a} -> {b} {casting}: doc {want <= c}, "
                               f"library {nc.describe(got)}")
    ns.check_all("ml: doc section 0 matrix vs tcast_can_cast", bad, total)


def first_free_code():
    """The first ONNX code without a dtype, from the generated tests/c/tc_dtypes.h (the
    registry's view for the tests)."""
    header = Path(__file__).resolve().parents[2] / "c" / "tc_dtypes.h"
    match = re.search(r"#define TC_FIRST_FREE_CODE (\d+)", header.read_text())
    assert match, f"no TC_FIRST_FREE_CODE in {header}"
    return int(match.group(1))


def test_bad_arguments():
    """Unknown dtype codes: TCAST_ERR_INVALID_DTYPE; casting outside 0..4:
    TCAST_ERR_INVALID_ARGUMENT (docs/c-api.md section 1)."""
    free = first_free_code()
    calls = [
        ((0, 1, 2), nc.ERR_INVALID_DTYPE), ((1, 0, 2), nc.ERR_INVALID_DTYPE),
        ((free, 1, 2), nc.ERR_INVALID_DTYPE), ((1, 99, 2), nc.ERR_INVALID_DTYPE),
        ((105, 1, 2), nc.ERR_INVALID_DTYPE), ((-1, 1, 2), nc.ERR_INVALID_DTYPE),
        ((1, 1, 5), nc.ERR_INVALID_ARGUMENT), ((1, 1, -1), nc.ERR_INVALID_ARGUMENT),
    ]
    bad = []
    for args, status in calls:
        got = nc.outcome(nc.tc_can_cast, *args)
        if got[0] != "err" or got[1] != status:
            bad.append(f"tcast_can_cast{args}: {nc.describe(got)}, "
                       f"expected {nc.STATUS_NAMES[status]}")
    ns.check_all("ml: tcast_can_cast bad arguments", bad, len(calls))
