# SPDX-License-Identifier: MIT OR Apache-2.0
"""pytest setup of the onnx 1.23 oracle (tests/oracles/onnx).

* The ctypes binding is tests/oracles/numpy's ``tcast.py`` (with ``capi_base.py``), put on the
  import path here: one binding for every oracle.
* Each test records how many cases it compared (``onnxside.record``); the counts are
  printed at the end of the run, so a passing run shows what it compared.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "numpy"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import onnxside  # noqa: E402


def pytest_report_header(config):
    import ml_dtypes
    import onnx

    lib = os.environ.get("TCAST_LIB") or "target/release/libtensorcast.so"
    return f"onnx 1.23 oracle: onnx {onnx.__version__}, ml_dtypes {ml_dtypes.__version__}; library {lib}"


def pytest_terminal_summary(terminalreporter):
    counts = onnxside.COUNTS
    if not counts:
        return
    terminalreporter.write_sep("-", "onnx 1.23 ReferenceEvaluator cases compared byte-exact "
                                    "(values x saturate settings)")
    for name, n in counts.items():
        terminalreporter.write_line(f"{n:>9}  {name}")
    terminalreporter.write_line(f"{sum(counts.values()):>9}  in all")
