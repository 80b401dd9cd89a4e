#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the Python wheel pytensorcast (docs/python.md) for x86_64 or aarch64:
#
#   bash scripts/build-wheel.sh
#       -> build/wheels/pytensorcast-<version>-cp39-abi3-manylinux_2_17_x86_64.whl
#   bash scripts/build-wheel.sh --target aarch64-unknown-linux-gnu
#       -> build/wheels/pytensorcast-<version>-cp39-abi3-manylinux_2_17_aarch64.whl
#
# The package is maturin's (pyproject.toml): the Python files of python/pytensorcast/ and
# the extension module pytensorcast._native (python/, PyO3 on CPython's limited API of
# 3.9, the Rust core linked in), so one cp39-abi3 wheel serves every CPython >= 3.9 and
# installing it runs no compiler. Beside them, as the wheel has always carried it:
#
# - libtensorcast_ort.so (integrations/onnxruntime), exporting CreateEpFactories,
#   ReleaseEpFactory and RegisterCustomOps only, checked; built first and copied into
#   python/pytensorcast/ (ignored by git) for maturin to pack, then removed.
#
# Both are linked by zig cc against glibc 2.17's symbols (cargo-zigbuild's `zig cc`,
# ziglang from PyPI: tests/python/requirements-zig.txt, in build/venv-zig) through one
# linker setting and one compiled core (see below); `maturin build --compatibility
# manylinux2014` checks the manylinux_2_17 policy (auditwheel's rules) and tags the
# wheel. x86_64 uses the Rust
# on PATH; aarch64 Debian's rustc 1.85 and its aarch64 standard library, set up as
# scripts/build-cross-lib.sh does (scripts/lib-cross.sh). Builds go to target/wheel/.
# Prints the wheel's path last.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing readelf python3-venv

case "$#:${1:-}:${2:-}" in
  0::) triple=x86_64-unknown-linux-gnu arch=x86_64 ;;
  2:--target:aarch64-unknown-linux-gnu)
    # shellcheck source=scripts/lib-cross.sh
    source scripts/lib-cross.sh
    cross_setup aarch64-unknown-linux-gnu
    triple=aarch64-unknown-linux-gnu arch=aarch64
    ;;
  *)
    echo "usage: bash scripts/build-wheel.sh [--target aarch64-unknown-linux-gnu]" >&2
    exit 2
    ;;
esac
if [ "$arch" = x86_64 ] && [ "$(uname -m)" != x86_64 ]; then
  echo "error: the x86_64 wheel is built on x86_64" >&2
  exit 2
fi

pinned_venv build/venv-zig tests/python/requirements-zig.txt
# The C compiler driver rustc links with: zig cc for glibc 2.17 (cargo-zigbuild's
# `zig cc` filters the arguments zig does not take; it finds zig as the venv's python-zig).
mkdir -p build/zig
zigcc=$PWD/build/zig/cc-$arch-linux-gnu.2.17.sh
# shellcheck disable=SC2016 # $PATH and "$@" are for the wrapper to expand
printf '#!/bin/sh\nPATH="%s:$PATH" exec cargo-zigbuild zig cc -- -target %s-linux-gnu.2.17 "$@"\n' \
  "$PWD/build/venv-zig/bin" "$arch" >"$zigcc"
chmod +x "$zigcc"
# One linker for both cargo runs, as cargo's fingerprint of every crate covers the linker
# (`pip install .` of scripts/test-python.sh reuses maturin's build through it): zig cc
# behind scripts/ort-wheel-linker.sh, which makes the plugin's version scripts one and
# passes every other link (the extension's) through.
upper=$(echo "$triple" | tr 'a-z-' 'A-Z_')
export "CARGO_TARGET_${upper}_LINKER=$PWD/scripts/ort-wheel-linker.sh" TCAST_ORT_REAL_LINKER=$zigcc
export CARGO_TARGET_DIR=$PWD/target/wheel
# The plugin is built together with the extension's package, so that cargo resolves the
# features of the build-time crates as maturin's build of the extension alone does:
# pyo3's macros enable more of syn than the core's thiserror does, and a plugin build on
# its own would compile syn, thiserror-impl and so the core a second time (measured:
# maturin's build then took 73 s instead of 10 s).
step "cargo build --release --target $triple -p tensorcast-ort -p pytensorcast (zig cc for glibc 2.17)" \
  "${CARGO:-cargo}" build --release --lib --target "$triple" -p tensorcast-ort -p pytensorcast \
  --features pyo3/extension-module
ort_lib=$CARGO_TARGET_DIR/$triple/release/libtensorcast_ort.so

# What the onnxruntime library exports: the three onnxruntime entries.
ort_exports=$(readelf --dyn-syms -W "$ort_lib" |
  awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") {print $8}' | sort | paste -sd' ')
if [ "$ort_exports" != "CreateEpFactories RegisterCustomOps ReleaseEpFactory" ]; then
  echo "error: $ort_lib exports [$ort_exports], not the three onnxruntime entries" >&2
  exit 1
fi
echo "$ort_lib: exports $ort_exports"

packaged=python/pytensorcast/libtensorcast_ort.so
trap 'rm -f "$packaged"' EXIT
cp "$ort_lib" "$packaged"
rm -f build/wheels/pytensorcast-*_"$arch".whl  # an older build's, perhaps of another tag
# maturin checks the libraries against the manylinux_2_17 policy (auditwheel's rules:
# glibc symbol versions, the libraries they need) and tags the wheel.
step "maturin build --release --target $triple --compatibility manylinux2014 (zig cc for glibc 2.17)" \
  build/venv-zig/bin/maturin build --release --target "$triple" --compatibility manylinux2014 \
  --out build/wheels
rm -f "$packaged"
wheel=$(ls build/wheels/pytensorcast-*_"$arch".whl)
# The wheel's files: the package, the extension, the plugin, the dist-info.
python3 -m zipfile -l "$wheel"
echo "$wheel"
