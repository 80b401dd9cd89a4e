#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the Python wheel pytensorcast (docs/python.md) for this machine's arch:
#
#   bash scripts/build-wheel.sh   -> build/wheels/pytensorcast-<version>-py3-none-manylinux_<glibc>_<arch>.whl
#
# The library through versioned_cargo_build (scripts/lib.sh: every export
# tcast_*@@TENSORCAST_<major>, SONAME libtensorcast.so.<major>) and tensorcast-ort
# (integrations/onnxruntime: exports CreateEpFactories, ReleaseEpFactory,
# RegisterCustomOps only), both checked with readelf, then packed with
# scripts/build-wheel.py. The package is pure Python over the C ABI (ctypes): no CPython
# ABI in it, so one wheel serves every CPython >= 3.9, and installing it runs no compiler.
# Prints the wheel's path last.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing readelf python3-venv

step "cargo build --release (libtensorcast.so, versioned symbols)" versioned_cargo_build
step "cargo build --release (integrations/onnxruntime)" \
  cargo build --release --locked --manifest-path integrations/onnxruntime/Cargo.toml
lib=${CARGO_TARGET_DIR:-target}/release/libtensorcast.so
ort_dir=${CARGO_TARGET_DIR:-integrations/onnxruntime/target}
ort_lib=$ort_dir/release/libtensorcast_ort.so

# What the wheel's libraries export: the C ABI, versioned; the three onnxruntime entries.
versioned_exports "$lib" >/dev/null
ort_exports=$(readelf --dyn-syms -W "$ort_lib" |
  awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") {print $8}' | sort | paste -sd' ')
if [ "$ort_exports" != "CreateEpFactories RegisterCustomOps ReleaseEpFactory" ]; then
  echo "error: $ort_lib exports [$ort_exports], not the three onnxruntime entries" >&2
  exit 1
fi

arch=$(uname -m)
python3 scripts/build-wheel.py --lib "$lib" --ort-lib "$ort_lib" --arch "$arch" --out build/wheels
