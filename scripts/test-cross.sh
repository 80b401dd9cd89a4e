#!/usr/bin/env bash
# Cross tests: builds tensorcast for another CPU with Debian's own Rust toolchain (rustc-web
# 1.85, the rustc of Debian 12) and runs its tests there under qemu-user.
#
#   bash scripts/test-cross.sh aarch64-unknown-linux-gnu    (little-endian, like x86-64)
#   bash scripts/test-cross.sh s390x-unknown-linux-gnu      (big-endian)
#
# Installs what is missing first, on Debian/Ubuntu through scripts/lib.sh: the foreign
# dpkg architecture, the cross C compiler and C library and qemu-user. Debian's rustc
# is never installed: its packages at DEBIAN_RUST_VERSION (rustc-web, cargo-web,
# rust-web-clippy and the host's standard library) are unpacked into build/rust-1.85/
# (scripts/lib.sh: use_debian_rust, shared with scripts/test-msrv.sh), so the system's
# rustc, if any (rustc-web 1.96 on an up-to-date Debian 12), stays as it is. The
# target's standard library is unpacked the same way, into build/rust-cross/<arch>/, and
# used through --sysroot. Then, with that toolchain (the rustup one stays the main one,
# untouched):
#
#   1. cargo clippy --all-targets --target TRIPLE -- -D warnings
#   2. cargo test --target TRIPLE under qemu, with TCAST_TEST_QUICK=1 (the exhaustive and
#      random-heavy tests sample their inputs; docs/architecture.md, "Tests around it"),
#      the C suite included: tests/c_suite.rs builds c_tests/ with the cross C compiler
#      (CC_<triple>) and runs the programs through the same qemu
#      (CARGO_TARGET_<TRIPLE>_RUNNER).
#
# What cannot run under the emulator is named in the output ("NOT RUN:" lines, and the
# doctests, which cargo does not run for a cross target); all of it runs in the native
# pass of scripts/test.sh. Builds go to target/cross/ (both targets share its host build
# scripts and proc macros). Stops at the first failing installation step; clippy and the
# tests both run, and the script fails, naming them, if either did. Prints cargo's summary
# lines and the wall time at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

RUST_DEB=$DEBIAN_RUST_VERSION

triple=${1:-}
case $triple in
  aarch64-unknown-linux-gnu) deb_arch=arm64 gnu=aarch64-linux-gnu qemu=qemu-aarch64 ;;
  s390x-unknown-linux-gnu) deb_arch=s390x gnu=s390x-linux-gnu qemu=qemu-s390x ;;
  *)
    echo "usage: bash scripts/test-cross.sh aarch64-unknown-linux-gnu|s390x-unknown-linux-gnu" >&2
    exit 2
    ;;
esac

sysroot=$PWD/build/rust-cross/$deb_arch
target_dir=${CARGO_TARGET_DIR:-$PWD/target/cross}
log=$PWD/build/test-cross-$triple.log

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  else
    sudo "$@"
  fi
}

# The foreign architecture, then the package lists that include it (once per run of the
# test command, as apt_install does: the lists it fetched before knew no such packages).
foreign_architecture() {
  if ! have dpkg apt-get; then
    echo "error: no dpkg/apt-get here: install the $triple cross toolchain by hand" >&2
    return 1
  fi
  if ! dpkg --print-foreign-architectures | grep -qx "$deb_arch"; then
    as_root dpkg --add-architecture "$deb_arch"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
  fi
}

install_toolchain() {
  local missing=()
  have "$gnu-gcc" || missing+=("gcc-$gnu")
  [ -e "/usr/$gnu/lib/libc.so" ] || missing+=("libc6-dev-$deb_arch-cross")
  have "$qemu" || missing+=(qemu-user)
  apt_install ${missing[@]+"${missing[@]}"}
}

# The target's standard library, from the same source package as the host's.
target_std() {
  local stamp=$sysroot/.deb-version
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$RUST_DEB" ] &&
    [ -d "$sysroot/usr/lib/rustlib/$triple/lib" ]; then
    echo "already unpacked in $sysroot"
    return 0
  fi
  rm -rf "$sysroot" "$sysroot.debs"
  deb_download "$sysroot.debs" "libstd-rust-web-dev:$deb_arch=$RUST_DEB" \
    "libstd-rust-web-1.85:$deb_arch=$RUST_DEB"
  local deb
  for deb in "$sysroot.debs"/*.deb; do
    dpkg -x "$deb" "$sysroot"
  done
  rm -rf "$sysroot.debs"
  [ -d "$sysroot/usr/lib/rustlib/$triple/lib" ] || {
    echo "error: no $triple standard library in the unpacked packages" >&2
    return 1
  }
  echo "$RUST_DEB" >"$stamp"
}

start=$SECONDS
rm -f "$log"
step "foreign architecture $deb_arch" foreign_architecture
step "cross toolchain for $triple (gcc, libc, qemu-user)" install_toolchain
# Exports RUSTC, CARGO and DEBIAN_RUST_BIN: the toolchain by path (cargo looks for its
# subcommands, cargo-clippy, in ~/.cargo/bin before PATH).
use_debian_rust
step "the $triple standard library of Debian's rustc, in ${sysroot#"$PWD"/}" target_std

# Only the target's units get RUSTFLAGS under --target: build scripts and proc macros run
# on the host with its own standard library.
export RUSTFLAGS="--sysroot=$sysroot/usr"
upper=$(echo "$triple" | tr 'a-z-' 'A-Z_')
export "CARGO_TARGET_${upper}_LINKER=$gnu-gcc"
export "CARGO_TARGET_${upper}_RUNNER=$qemu -L /usr/$gnu"
export "CC_${triple//-/_}=$gnu-gcc"
export CARGO_TARGET_DIR=$target_dir
# The test profile, tuned for a build that runs once under an emulator: no debug info,
# and the dependencies only the tests' tools use (cbindgen, syn, serde, toml, cc, ...)
# unoptimised, which takes a third off the build's CPU time; the library and its
# run-time dependencies stay at opt-level 2, which the emulated tests need.
export CARGO_PROFILE_TEST_DEBUG=false
profile=(
  --config 'profile.test.package."*".opt-level=0'
  --config 'profile.test.package.half.opt-level=2'
  --config 'profile.test.package.ryu.opt-level=2'
  --config 'profile.test.package.fast-float2.opt-level=2'
)

clippy_cross() {
  "$RUSTC" --version
  "$DEBIAN_RUST_BIN/cargo-clippy" --version
  "$DEBIAN_RUST_BIN/cargo-clippy" clippy --all-targets --target "$triple" -- -D warnings
}
step --keep-going "cargo clippy --all-targets --target $triple -D warnings (Debian rustc 1.85)" \
  clippy_cross

test_cross() {
  mkdir -p build
  echo "TCAST_TEST_QUICK=1: the exhaustive and random-heavy tests sample their inputs"
  # Every line to the log and the screen; pipefail keeps cargo's status.
  TCAST_TEST_QUICK=1 "$CARGO" test "${profile[@]}" --target "$triple" -- --show-output 2>&1 |
    tee "$log"
}
step --keep-going "cargo test --target $triple under $qemu (Debian rustc 1.85, TCAST_TEST_QUICK=1)" \
  test_cross

summary() {
  echo "$triple, log: ${log#"$PWD"/}"
  if [ -f "$log" ]; then
    grep -E '^ +Running |^test result: |^test_[a-z0-9_]+: ' "$log" || true
  fi
  echo "doctests: not run by cargo for a cross target; they run in the native pass"
  echo "wall time: $((SECONDS - start)) s (install, build, clippy and tests)"
}
step "summary: $triple" summary

# Clippy and the tests both run, so that one failing does not hide the other's result.
if [ ${#failed_steps[@]} -gt 0 ]; then
  printf 'FAILED: %s\n' "${failed_steps[@]}" >&2
  exit 1
fi
