#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the Python wheel pytensorcast (docs/python.md), for this machine's arch or,
# cross-built as scripts/build-cross-lib.sh builds the library (Debian's rustc 1.85 and
# cross gcc, scripts/lib-cross.sh), for aarch64:
#
#   bash scripts/build-wheel.sh   -> build/wheels/pytensorcast-<version>-py3-none-manylinux_<glibc>_<arch>.whl
#   bash scripts/build-wheel.sh --target aarch64-unknown-linux-gnu
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

if [ $# -eq 2 ] && [ "$1" = --target ]; then
  # shellcheck source=scripts/lib-cross.sh
  source scripts/lib-cross.sh
  cross_target "$2" || exit 2
  case $cross_triple in aarch64-*) ;; *) echo "error: wheels are built for aarch64 only" >&2 && exit 2 ;; esac
  cross_setup "$cross_triple"
  export TCAST_REAL_LINKER=$cross_gnu-gcc
  step "cargo build --release --target $cross_triple (libtensorcast.so, versioned symbols)" \
    versioned_cargo_build --target "$cross_triple"
  # Its own target dir: building it links the core's cdylib too (without symbol versions),
  # which must not replace the versioned one.
  step "cargo build --release --target $cross_triple (integrations/onnxruntime)" \
    env CARGO_TARGET_DIR="$CARGO_TARGET_DIR-ort" "${CARGO:-cargo}" build --release --locked --manifest-path integrations/onnxruntime/Cargo.toml \
    --target "$cross_triple" --config "target.$cross_triple.linker=\"$PWD/scripts/ort-cross-linker.sh\""
  lib=$CARGO_TARGET_DIR/$cross_triple/release/libtensorcast.so
  ort_lib=$CARGO_TARGET_DIR-ort/$cross_triple/release/libtensorcast_ort.so
  arch=aarch64 objdump=$cross_gnu-objdump
elif [ $# -eq 0 ]; then
  step "cargo build --release (libtensorcast.so, versioned symbols)" versioned_cargo_build
  step "cargo build --release (integrations/onnxruntime)" \
    cargo build --release --locked --manifest-path integrations/onnxruntime/Cargo.toml
  lib=${CARGO_TARGET_DIR:-target}/release/libtensorcast.so
  ort_lib=${CARGO_TARGET_DIR:-integrations/onnxruntime/target}/release/libtensorcast_ort.so
  arch=$(uname -m) objdump=objdump
else
  echo "usage: bash scripts/build-wheel.sh [--target aarch64-unknown-linux-gnu]" >&2
  exit 2
fi

# What the wheel's libraries export: the C ABI, versioned; the three onnxruntime entries.
versioned_exports "$lib" >/dev/null
ort_exports=$(readelf --dyn-syms -W "$ort_lib" |
  awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") {print $8}' | sort | paste -sd' ')
if [ "$ort_exports" != "CreateEpFactories RegisterCustomOps ReleaseEpFactory" ]; then
  echo "error: $ort_lib exports [$ort_exports], not the three onnxruntime entries" >&2
  exit 1
fi

python3 scripts/build-wheel.py --lib "$lib" --ort-lib "$ort_lib" --arch "$arch" --objdump "$objdump" \
  --out build/wheels
