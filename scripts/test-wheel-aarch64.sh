#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The aarch64 wheel of pytensorcast, cross-built and smoke-tested under qemu-user:
#
#   1. bash scripts/build-wheel.sh --target aarch64-unknown-linux-gnu (Debian's rustc 1.85
#      and cross gcc, as scripts/build-cross-lib.sh), auditwheel show agreeing with its tag;
#   2. Debian's own aarch64 CPython 3.11 (python3.11-minimal, libpython3.11-stdlib and the
#      libraries they need, arm64 .debs from the archive unpacked into
#      build/aarch64-python/root, never installed), with numpy 2.4.6 and ml_dtypes 0.6.0
#      (their manylinux aarch64 wheels) and the wheel installed by the host's pip with
#      --platform (the pip of build/venv-wheel-tools) into build/aarch64-python/site;
#   3. under qemu-aarch64: import, the compiled fast path pytensorcast._fast loads and
#      casts, the CPU line names aarch64, casts to float8_e4m3fn,
#      float4_e2m1fn (one per byte and packed), bfloat16 and from strings against
#      ml_dtypes/numpy run in the same emulated process, an error's message, strides.
#
# onnxruntime is not tried under qemu (its wheel's size and start-up under emulation);
# libtensorcast_ort.so's exports are checked by build-wheel.sh. Prints `N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

# shellcheck source=scripts/lib-cross.sh
source scripts/lib-cross.sh

install_missing python3-venv
wheel=$(bash scripts/build-wheel.sh --target aarch64-unknown-linux-gnu | tail -n 1)
# The emulator the cross steps use: the first that runs a thread here
# (scripts/lib-cross.sh: cross_qemu_choose).
cross_target aarch64-unknown-linux-gnu
cross_qemu_choose
qemu=$cross_qemu
echo "wheel: $wheel"
case $wheel in *_aarch64.whl) ;; *) fail "not an aarch64 wheel: $wheel" ;; esac
pinned_venv build/venv-wheel-tools tests/python/requirements-tools.txt
tags=$(basename "$wheel" .whl | cut -d- -f5)
shown=$(build/venv-wheel-tools/bin/auditwheel show "$wheel")
echo "$shown"
tag=$(tr -d '\n' <<<"$shown" | grep -oE 'platform tag: *"[^"]*"' | head -1 | sed 's/.*"\(.*\)"/\1/')
tr '.' '\n' <<<"$tags" | grep -qxF "$tag" || fail "auditwheel's tag $tag is not one of the wheel's, $tags"

dir=$PWD/build/aarch64-python
debs=(python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libffi8 zlib1g libexpat1 libbz2-1.0 liblzma5)
fetch_python() {
  rm -rf "$dir/debs" "$dir/root"
  mkdir -p "$dir/debs" "$dir/root"
  (cd "$dir/debs" && apt-get download "${debs[@]/%/:arm64}")
  local deb
  for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$dir/root"; done
}
if [ ! -x "$dir/root/usr/bin/python3.11" ]; then
  step "Debian's aarch64 CPython 3.11 (.debs unpacked into ${dir#"$PWD"/}/root)" fetch_python
fi
rm -rf "$dir/site"
step "numpy 2.4.6, ml_dtypes 0.6.0 and the wheel for aarch64 into ${dir#"$PWD"/}/site" \
  build/venv-wheel-tools/bin/pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --platform manylinux_2_28_aarch64 --platform "$tag" --python-version 3.11 \
  --implementation cp --abi cp311 --abi abi3 --abi none \
  --target "$dir/site" numpy==2.4.6 ml_dtypes==0.6.0 "$wheel"

root=$dir/root
step "under $qemu: import and casts against ml_dtypes (at most 600 s)" \
  timeout --kill-after=10 600 "$qemu" -L /usr/aarch64-linux-gnu \
  -E "LD_LIBRARY_PATH=$root/lib/aarch64-linux-gnu:$root/usr/lib/aarch64-linux-gnu" \
  -E "PYTHONHOME=$root/usr" -E "PYTHONPATH=$dir/site" -E PYTHONDONTWRITEBYTECODE=1 \
  "$root/usr/bin/python3.11" tests/python/smoke.py
