#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds and tests tensorcast with the oldest rustc it supports (Cargo.toml's
# rust-version, 1.85): Debian's rustc-web, as a distribution builds it. Its packages are
# unpacked into build/rust-1.85 when missing (scripts/lib.sh: use_debian_rust), never
# installed: the system's rustc, if any, and the rustup toolchain stay as they are. Runs
# clippy with that toolchain's lints over every target of the default members (the
# library, its tests, benches and examples, and capi/), in its own target directory. The
# other members are compiled by the same rustc elsewhere: the onnxruntime plugin in the
# deb and rpm steps, the Python extension in python-aarch64's wheel; linting them here too
# cost 60 CPU-seconds of the step's 130 (pyo3 and numpy's crates), and the main
# toolchain's clippy lints them in step fmt. The tests themselves run with the same
# rustc elsewhere: every Rust test under qemu in the aarch64 and s390x steps
# (scripts/test-cross.sh), and the C and C++ suites against the x86-64 library it builds
# in the deb step; running them here again would cost about 3 minutes (CONTRIBUTING.md, "CI's budget").
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

use_debian_rust

# debian_cargo SUBCOMMAND [ARG...]: the target directory goes before any `--`. Clippy by
# the path of the toolchain's cargo-clippy (cargo would look in ~/.cargo/bin first), which
# runs $CARGO with its own clippy-driver.
debian_cargo() {
  local subcommand=$1 run
  shift
  case $subcommand in
    clippy) run=("$DEBIAN_RUST_BIN/cargo-clippy" clippy) ;;
    *) run=("$CARGO" "$subcommand") ;;
  esac
  "${run[@]}" --target-dir target/msrv "$@"
}

grep -q '^rust-version = "1.85"$' Cargo.toml
"$RUSTC" --version
"$DEBIAN_RUST_BIN/cargo-clippy" --version
step "clippy -D warnings with rustc 1.85 (the library and capi/)" \
  debian_cargo clippy --all-targets -- -D warnings
