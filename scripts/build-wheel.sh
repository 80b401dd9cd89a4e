#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the Python wheel pytensorcast (docs/python.md) for x86_64 or aarch64:
#
#   bash scripts/build-wheel.sh
#       -> build/wheels/pytensorcast-<version>-cp39-abi3-manylinux_2_17_x86_64.whl
#   bash scripts/build-wheel.sh --target aarch64-unknown-linux-gnu
#       -> build/wheels/pytensorcast-<version>-cp39-abi3-manylinux_2_17_aarch64.whl
#
# The package is Python over the C ABI (ctypes) plus one small extension module,
# pytensorcast._fast (python/ext/_fast.c: the fast path of a small cast), built on
# CPython's limited API of 3.9, so one cp39-abi3 wheel serves every CPython >= 3.9, and
# installing it runs no compiler. The extension is compiled by the same zig cc against
# the headers of Debian's libpython3.11-dev for the target's architecture (the .deb
# downloaded from the archive and unpacked into build/python-headers-<arch>, never
# installed); it links against nothing. Its two libraries:
#
# - libtensorcast.so (capi/: every export tcast_*@@TENSORCAST_<major>, SONAME
#   libtensorcast.so.<major>), checked;
# - libtensorcast_ort.so (integrations/onnxruntime), exporting CreateEpFactories,
#   ReleaseEpFactory and RegisterCustomOps only, checked.
#
# One cargo run builds both (versioned_cargo_build -p tensorcast-c -p tensorcast-ort,
# scripts/lib.sh), so the core is compiled once, for both: cargo links through
# cmake/tensorcast-linker.sh, which versions libtensorcast.so's exports and hands every
# link to scripts/ort-wheel-linker.sh, which makes the plugin's version scripts one.
#
# Both are linked by zig cc against glibc 2.17's symbols (cargo-zigbuild and ziglang,
# pinned in tests/python/requirements-zig.txt, in build/venv-zig), so that the wheel is
# manylinux_2_17 (manylinux2014); build-wheel.py reads the tag's glibc back from the
# libraries (objdump -T). x86_64 uses the Rust on PATH; aarch64 Debian's rustc 1.85 and
# its aarch64 standard library, set up as scripts/build-cross-lib.sh does
# (scripts/lib-cross.sh). Builds go to target/wheel/. Prints the wheel's path last.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing readelf python3-venv

case "$#:${1:-}:${2:-}" in
  0::) triple=x86_64-unknown-linux-gnu arch=x86_64 objdump=objdump ;;
  2:--target:aarch64-unknown-linux-gnu)
    # shellcheck source=scripts/lib-cross.sh
    source scripts/lib-cross.sh
    cross_setup aarch64-unknown-linux-gnu
    triple=aarch64-unknown-linux-gnu arch=aarch64 objdump=$cross_gnu-objdump
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
export TCAST_REAL_LINKER=$PWD/scripts/ort-wheel-linker.sh TCAST_ORT_REAL_LINKER=$zigcc

export CARGO_TARGET_DIR=$PWD/target/wheel
step "cargo build --release --target $triple (libtensorcast.so, versioned, and integrations/onnxruntime; zig cc for glibc 2.17)" \
  versioned_cargo_build --target "$triple" -p tensorcast-c -p tensorcast-ort
lib=$CARGO_TARGET_DIR/$triple/release/libtensorcast.so
ort_lib=$CARGO_TARGET_DIR/$triple/release/libtensorcast_ort.so

# What the wheel's libraries export: the C ABI, versioned; the three onnxruntime entries.
versioned_exports "$lib"
ort_exports=$(readelf --dyn-syms -W "$ort_lib" |
  awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") {print $8}' | sort | paste -sd' ')
if [ "$ort_exports" != "CreateEpFactories RegisterCustomOps ReleaseEpFactory" ]; then
  echo "error: $ort_lib exports [$ort_exports], not the three onnxruntime entries" >&2
  exit 1
fi
echo "$ort_lib: exports $ort_exports"

# The extension: CPython's headers for the target, from Debian's archive.
debarch=$([ "$arch" = x86_64 ] && echo amd64 || echo arm64)
headers=$PWD/build/python-headers-$arch
fetch_headers() {
  rm -rf "$headers"
  mkdir -p "$headers/debs"
  (cd "$headers/debs" && apt-get download "libpython3.11-dev:$debarch")
  dpkg-deb -x "$headers"/debs/*.deb "$headers/root"
}
if [ ! -f "$headers/root/usr/include/python3.11/Python.h" ]; then
  step "Debian's libpython3.11-dev:$debarch headers (unpacked into ${headers#"$PWD"/})" fetch_headers
fi
ext=$CARGO_TARGET_DIR/_fast.abi3.so
step "zig cc: pytensorcast._fast (limited API 3.9, glibc 2.17)" \
  "$zigcc" -O2 -shared -fPIC -Wall -Wextra -Werror -fvisibility=hidden \
  -I"$headers/root/usr/include/python3.11" -I"$headers/root/usr/include" \
  -o "$ext" python/ext/_fast.c
ext_exports=$(readelf --dyn-syms -W "$ext" |
  awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") {print $8}' | sort | paste -sd' ')
[ "$ext_exports" = PyInit__fast ] || fail "$ext exports [$ext_exports], not PyInit__fast only"
ext_needed=$(readelf -d "$ext" | awk '/NEEDED/ {print $NF}' | tr -d '[]' | sort | paste -sd' ')
echo "$ext: exports $ext_exports; needs [$ext_needed]"

rm -f build/wheels/pytensorcast-*_"$arch".whl  # an older build's, perhaps of another tag
python3 scripts/build-wheel.py --lib "$lib" --ort-lib "$ort_lib" --ext "$ext" --arch "$arch" \
  --objdump "$objdump" --out build/wheels
