# SPDX-License-Identifier: MIT OR Apache-2.0
"""pytest setup of the numpy-casting oracle (tests/oracles/numpy_can_cast).

* Under numpy 1.x, ``test_ml_can_cast.py`` is not collected (``collect_ignore``): it
  needs ml_dtypes 0.6.0, which only the numpy 2 venv has, and tcast_can_cast reproduces
  numpy 2.4 + ml_dtypes by contract. That file is not a skipped test: it does not exist
  for that venv.
* ``TCAST_NP_ORACLE_DRYRUN=1`` replaces the library by the numpy-backed stand-in of
  ``npfake`` (the library is then never loaded): every test runs and checks the harness
  and the doc's fixed expectations against this numpy, not tensorcast.
* Each test records how many cases it compared (``npside.record``); the counts are printed
  at the end of the run, so a run shows what was compared even when everything passes.
"""

import os

import numpy as np

import npside

collect_ignore = []
if npside.NUMPY_MAJOR < 2:
    collect_ignore.append("test_ml_can_cast.py")

DRYRUN = os.environ.get("TCAST_NP_ORACLE_DRYRUN", "") not in ("", "0")
if DRYRUN:
    import npfake

    npfake.install()


def pytest_report_header(config):
    mode = ("DRY RUN: numpy-backed stand-in, libtensorcast not loaded" if DRYRUN
            else f"library {os.environ.get('TCAST_LIB') or 'target/release/libtensorcast.so'}")
    return f"numpy-casting oracle: numpy {np.__version__}, rules TCAST_NUMPY_{npside.RULES}; {mode}"


def pytest_terminal_summary(terminalreporter):
    if not npside.COUNTS:
        return
    terminalreporter.write_sep("-", f"oracle_np cases compared (numpy {np.__version__}, "
                                    f"rules TCAST_NUMPY_{npside.RULES}"
                                    f"{', DRY RUN' if DRYRUN else ''})")
    for name, (n, note) in npside.COUNTS.items():
        terminalreporter.write_line(f"{n:>8}  {name}{'  (' + note + ')' if note else ''}")
