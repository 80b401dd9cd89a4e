#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The onnx 1.23 oracle (tests/oracles/onnx): QuantizeLinear and DequantizeLinear
# (docs/semantics-quantize.md), and tensorcast's casts to FLOAT6E2M3 and
# FLOAT6E3M2 against onnx 1.23.0's ReferenceEvaluator running Cast-28 models
# (docs/semantics-cast.md 6), in a venv of its own, build/venv-onnx123, with the pins of
# tests/oracles/onnx/requirements.txt (onnx 1.23.0 cannot live beside the 1.22.0 of
# build/venv). The venv is created when missing; the pins are installed on every run (a
# no-op when they are there) and then checked, so a stale venv fails here, by name.
#
#   scripts/test-onnx123-oracle.sh        build the release library, run the oracle
#
# TCAST_LIB overrides the library (default target/release/libtensorcast.so, built here
# with cargo build --release -p tensorcast-c when TCAST_LIB is not set). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

venv=build/venv-onnx123
requirements=tests/oracles/onnx/requirements.txt

install_missing python3-venv

pinned_venv "$venv" "$requirements"

if [ -z "${TCAST_LIB:-}" ]; then
  step "cargo build --release -p tensorcast-c" cargo build --release -p tensorcast-c
  export TCAST_LIB=target/release/libtensorcast.so
fi

step "FLOAT6 casts, QuantizeLinear, DequantizeLinear and MX against onnx 1.23.0's ReferenceEvaluator, ggml's MXFP4 against gguf 0.19.0 (build/venv-onnx123)" \
  "$venv/bin/python" -m pytest tests/oracles/onnx -q "$@"
