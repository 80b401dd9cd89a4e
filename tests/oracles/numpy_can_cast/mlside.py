# SPDX-License-Identifier: MIT OR Apache-2.0
"""tensorcast dtype codes -> the numpy dtypes that stand for them in tcast_can_cast
(docs/semantics-can-cast.md section 0): numpy's own types, ml_dtypes 0.6.0's for the ML
types, numpy's unsized ``U`` for STRING, the storage integers for TensorFlow's quantized
types. numpy 2 venv only (imports ml_dtypes)."""

import ml_dtypes
import numpy as np

import npcast as nc

_C = nc.DTYPE_CODES

# the 27 types of the doc's section 0 matrix, in its column order
SECTION0_ORDER = ["BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ",
                  "FLOAT8E8M0", "FLOAT4E2M1", "FLOAT6E2M3", "FLOAT6E3M2", "INT4", "UINT4",
                  "INT2", "UINT2", "BOOL", "INT8", "UINT8", "INT16", "UINT16", "INT32",
                  "UINT32", "INT64", "UINT64", "FLOAT16", "FLOAT", "DOUBLE", "COMPLEX64",
                  "COMPLEX128"]

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
