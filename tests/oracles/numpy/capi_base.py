# SPDX-License-Identifier: MIT OR Apache-2.0
"""What every ctypes binding of the tests shares: where the library is, the status codes
of ``include/tensorcast.h`` and the ``tcast_error`` struct. It imports nothing but the
standard library, so the numpy 1 venv (without ml_dtypes) can use it too
(``tests/oracles/numpy_can_cast/npcast.py``)."""

import ctypes
import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_LIB = REPO_ROOT / "target" / "release" / "libtensorcast.so"


def library_path():
    """``TCAST_LIB`` when set, else ``target/release/libtensorcast.so``."""
    return os.environ.get("TCAST_LIB") or str(DEFAULT_LIB)


OK = 0
ERR_NULL_ARGUMENT = 1
ERR_INVALID_DTYPE = 2
ERR_UNSUPPORTED = 3
ERR_INVALID_SHAPE = 4
ERR_INCOMPATIBLE_SHAPES = 5
ERR_BUFFER_TOO_SMALL = 6
ERR_PARSE = 7
ERR_INVALID_ARGUMENT = 8
ERR_CASTING = 9
ERR_OUT_OF_MEMORY = 10
ERR_INTERNAL = 99

STATUS_NAMES = {
    OK: "TCAST_OK",
    ERR_NULL_ARGUMENT: "TCAST_ERR_NULL_ARGUMENT",
    ERR_INVALID_DTYPE: "TCAST_ERR_INVALID_DTYPE",
    ERR_UNSUPPORTED: "TCAST_ERR_UNSUPPORTED",
    ERR_INVALID_SHAPE: "TCAST_ERR_INVALID_SHAPE",
    ERR_INCOMPATIBLE_SHAPES: "TCAST_ERR_INCOMPATIBLE_SHAPES",
    ERR_BUFFER_TOO_SMALL: "TCAST_ERR_BUFFER_TOO_SMALL",
    ERR_PARSE: "TCAST_ERR_PARSE",
    ERR_INVALID_ARGUMENT: "TCAST_ERR_INVALID_ARGUMENT",
    ERR_CASTING: "TCAST_ERR_CASTING",
    ERR_OUT_OF_MEMORY: "TCAST_ERR_OUT_OF_MEMORY",
    ERR_INTERNAL: "TCAST_ERR_INTERNAL",
}

ERROR_MESSAGE_BYTES = 256


class tcast_error(ctypes.Structure):
    _fields_ = [
        ("status", ctypes.c_int32),
        ("index", ctypes.c_int64),
        ("message", ctypes.c_char * ERROR_MESSAGE_BYTES),
    ]
