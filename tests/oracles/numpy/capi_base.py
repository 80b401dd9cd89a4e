# SPDX-License-Identifier: MIT OR Apache-2.0
"""What every ctypes binding of the tests shares: where the library is, the status codes
of ``include/tensorcast.h`` and the ``tcast_error`` struct (both taken from the header by
``tests/common/tcast_ctypes.py``). It imports nothing but the standard library, so the
numpy 1 venv (without ml_dtypes) can use it too (``tests/oracles/numpy_can_cast/npcast.py``)."""

import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_LIB = REPO_ROOT / "target" / "release" / "libtensorcast.so"

# The structs and constants, built from the header (tests/common/tcast_ctypes.py).
sys.path.insert(0, str(REPO_ROOT / "tests" / "common"))
from tcast_ctypes import (  # noqa: E402,F401  (re-exported)
    STATUS_NAMES,
    TCAST_ERR_BUFFER_TOO_SMALL,
    TCAST_ERR_CASTING,
    TCAST_ERR_INCOMPATIBLE_SHAPES,
    TCAST_ERR_INTERNAL,
    TCAST_ERR_INVALID_ARGUMENT,
    TCAST_ERR_INVALID_DTYPE,
    TCAST_ERR_INVALID_SHAPE,
    TCAST_ERR_NULL_ARGUMENT,
    TCAST_ERR_OUT_OF_MEMORY,
    TCAST_ERR_PARSE,
    TCAST_ERR_UNSUPPORTED,
    TCAST_ERROR_MESSAGE_BYTES,
    TCAST_OK,
    tcast_error,
)


def library_path():
    """``TCAST_LIB`` when set, else ``target/release/libtensorcast.so``."""
    return os.environ.get("TCAST_LIB") or str(DEFAULT_LIB)


OK = TCAST_OK
ERR_NULL_ARGUMENT = TCAST_ERR_NULL_ARGUMENT
ERR_INVALID_DTYPE = TCAST_ERR_INVALID_DTYPE
ERR_UNSUPPORTED = TCAST_ERR_UNSUPPORTED
ERR_INVALID_SHAPE = TCAST_ERR_INVALID_SHAPE
ERR_INCOMPATIBLE_SHAPES = TCAST_ERR_INCOMPATIBLE_SHAPES
ERR_BUFFER_TOO_SMALL = TCAST_ERR_BUFFER_TOO_SMALL
ERR_PARSE = TCAST_ERR_PARSE
ERR_INVALID_ARGUMENT = TCAST_ERR_INVALID_ARGUMENT
ERR_CASTING = TCAST_ERR_CASTING
ERR_OUT_OF_MEMORY = TCAST_ERR_OUT_OF_MEMORY
ERR_INTERNAL = TCAST_ERR_INTERNAL

ERROR_MESSAGE_BYTES = TCAST_ERROR_MESSAGE_BYTES
