#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The numpy-casting oracle (tests/oracles/numpy_can_cast): tensorcast's tcast_np_* and tcast_can_cast
# against real numpy, twice: numpy 2.4.6 + ml_dtypes 0.6.0 (build/venv, the pins of
# tests/conformance/requirements.txt) and numpy 1.26.4 (build/venv-np1, the pins of
# tests/oracles/numpy_can_cast/requirements-np1.txt). Each venv is created when missing
# and its pins installed and checked (scripts/lib.sh: pinned_venv); python3-venv is
# installed first when Python lacks it.
#
#   scripts/test-np-oracle.sh            build the release library, run both
#   scripts/test-np-oracle.sh --dry-run  no library: a numpy-backed stand-in answers
#                                        (checks the harness and the doc's expectations)
#
# TCAST_LIB overrides the library (default target/release/libtensorcast.so, built here
# with cargo build --release -p tensorcast-c when TCAST_LIB is not set). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

dry_run=0
if [ "${1:-}" = "--dry-run" ]; then
  dry_run=1
  shift
fi

install_missing python3-venv

pinned_venv build/venv tests/conformance/requirements.txt
pinned_venv build/venv-np1 tests/oracles/numpy_can_cast/requirements-np1.txt

if [ "$dry_run" -eq 1 ]; then
  export TCAST_NP_ORACLE_DRYRUN=1
else
  if [ -z "${TCAST_LIB:-}" ]; then
    step "cargo build --release -p tensorcast-c" cargo build --release -p tensorcast-c
    export TCAST_LIB=target/release/libtensorcast.so
  fi
fi

# Both runs happen even when the first fails, so one invocation shows both versions.
numpy2="numpy-casting oracle under numpy 2 (build/venv)"
numpy1="numpy-casting oracle under numpy 1.26 (build/venv-np1)"
step --keep-going "$numpy2" build/venv/bin/python -m pytest tests/oracles/numpy_can_cast -q "$@"
step --keep-going "$numpy1" build/venv-np1/bin/python -m pytest tests/oracles/numpy_can_cast -q "$@"

if [ ${#failed_steps[@]} -gt 0 ]; then
  failed=()
  for name in "${failed_steps[@]}"; do
    case $name in
      "$numpy2") failed+=("numpy 2.4.6") ;;
      "$numpy1") failed+=("numpy 1.26.4") ;;
    esac
  done
  step "numpy-casting oracle FAILED under: ${failed[*]}"
  exit 1
fi
step "numpy-casting oracle passed under both numpy versions"
