# SPDX-License-Identifier: MIT OR Apache-2.0
"""tensorcast dtype codes -> the numpy dtypes that stand for them in tcast_can_cast
(docs/semantics-can-cast.md section 0): numpy's own types, ml_dtypes 0.6.0's for the ML
types, numpy's unsized ``U`` for STRING, the storage integers for TensorFlow's quantized
types. numpy 2 venv only (imports ml_dtypes)."""

from pathlib import Path

import ml_dtypes
import numpy as np

import npcast as nc

_C = nc.DTYPE_CODES

LEVELS_FILE = "src/np/ml_dtypes_levels.txt"


def _read_levels():
    """The measured matrix (LEVELS_FILE, found from this file up to the repository's root):
    {name: [level of each column]}, rows in the file's order, which is the columns'."""
    for root in Path(__file__).resolve().parents:
        path = root / LEVELS_FILE
        if path.is_file():
            break
    else:
        raise FileNotFoundError(f"{LEVELS_FILE} above {__file__}")
    rows = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, digits = line.split()
            assert name not in rows, name
            rows[name] = [int(d) for d in digits]
    for name, row in rows.items():
        assert len(row) == len(rows), f"{LEVELS_FILE}: {name} has {len(row)} digits"
    return rows


# the doc's section 0 matrix, and its types in its column order
LEVELS = _read_levels()
SECTION0_ORDER = list(LEVELS)

NUMPY_OF_NAME = {
    "BFLOAT16": np.dtype(ml_dtypes.bfloat16),
    "FLOAT8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn),
    "FLOAT8E4M3FNUZ": np.dtype(ml_dtypes.float8_e4m3fnuz),
    "FLOAT8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "FLOAT8E5M2FNUZ": np.dtype(ml_dtypes.float8_e5m2fnuz),
    "FLOAT8E8M0": np.dtype(ml_dtypes.float8_e8m0fnu),
    "FLOAT4E2M1": np.dtype(ml_dtypes.float4_e2m1fn),
    "FLOAT6E2M3": np.dtype(ml_dtypes.float6_e2m3fn),
    "FLOAT6E3M2": np.dtype(ml_dtypes.float6_e3m2fn),
    "INT4": np.dtype(ml_dtypes.int4),
    "UINT4": np.dtype(ml_dtypes.uint4),
    "INT2": np.dtype(ml_dtypes.int2),
    "UINT2": np.dtype(ml_dtypes.uint2),
    "BOOL": np.dtype("?"),
    "INT8": np.dtype("i1"),
    "UINT8": np.dtype("u1"),
    "INT16": np.dtype("i2"),
    "UINT16": np.dtype("u2"),
    "INT32": np.dtype("i4"),
    "UINT32": np.dtype("u4"),
    "INT64": np.dtype("i8"),
    "UINT64": np.dtype("u8"),
    "FLOAT16": np.dtype("f2"),
    "FLOAT": np.dtype("f4"),
    "DOUBLE": np.dtype("f8"),
    "COMPLEX64": np.dtype("c8"),
    "COMPLEX128": np.dtype("c16"),
    "STRING": np.dtype("U"),
    "QINT8": np.dtype("i1"),
    "QUINT8": np.dtype("u1"),
    "QINT16": np.dtype("i2"),
    "QUINT16": np.dtype("u2"),
    "QINT32": np.dtype("i4"),
}
NUMPY_OF = {_C[name]: dt for name, dt in NUMPY_OF_NAME.items()}
ALL_NAMES = SECTION0_ORDER + ["STRING", "QINT8", "QUINT8", "QINT16", "QUINT16", "QINT32"]
