#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Cross tests: builds tensorcast for another CPU with Debian's own Rust toolchain (rustc-web
# 1.85, the rustc of Debian 12) and runs its tests there under qemu-user.
#
#   bash scripts/test-cross.sh aarch64-unknown-linux-gnu    (little-endian, like x86-64)
#   bash scripts/test-cross.sh s390x-unknown-linux-gnu      (big-endian)
#
# Installs what is missing first, on Debian/Ubuntu through scripts/lib.sh: the foreign
# dpkg architecture, the cross C compiler and C library. qemu-user is a static build from
# Debian's packages, unpacked into the cache: the first of the suite's own and its
# backports' (scripts/lib-cross.sh, QEMU_KINDS) that starts and joins a thread within
# 20 s, so an emulator that hangs on this machine is never used. Debian's rustc
# is never installed: its packages at DEBIAN_RUST_VERSION (rustc-web, cargo-web,
# rust-web-clippy and the host's standard library) are unpacked into the cache
# (scripts/lib.sh: use_debian_rust, shared with scripts/test-msrv.sh), so the system's
# rustc, if any (rustc-web 1.96 on an up-to-date Debian 12), stays as it is. The
# target's standard library is unpacked the same way, into the cache too, and
# used through --sysroot. Then, with that toolchain (the rustup one stays the main one,
# untouched):
#
#   1. cargo test --target TRIPLE --all-targets --no-run through clippy-driver: every
#      target compiled and linted (clippy -D warnings) in one build;
#   2. cargo test --target TRIPLE under qemu, with that build, with TCAST_TEST_QUICK=1
#      (the exhaustive and random-heavy tests sample their inputs; docs/architecture.md,
#      "Tests around it"): the unit tests and every file of tests/ and capi/tests/ but
#      the text checks (text_tests below), the C suite included: capi/tests/c_suite.rs
#      builds tests/c/ with the cross C compiler (CC_<triple>) and runs the programs
#      through the same qemu (CARGO_TARGET_<TRIPLE>_RUNNER).
#
# What cannot run under the emulator is named in the output ("NOT RUN:" lines, and the
# doctests, which cargo does not run for a cross target); all of it runs in the native
# pass of scripts/test.sh. Builds go to target/cross/ (both targets share its host build
# scripts and proc macros). Stops at the first failing installation step; the tests run
# after a clippy failure too (and fail to build where clippy refused), and the script
# fails, naming the steps that did. Prints cargo's summary lines and the wall time at the
# end.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

# shellcheck source=scripts/lib-cross.sh
source scripts/lib-cross.sh

if ! cross_target "${1:-}" 2>/dev/null; then
  echo "usage: bash scripts/test-cross.sh aarch64-unknown-linux-gnu|s390x-unknown-linux-gnu" >&2
  exit 2
fi
triple=$cross_triple
# The limit of the build and emulated run of the tests (about 5 minutes each here).
CROSS_TEST_SECONDS=${CROSS_TEST_SECONDS:-1800}
log=$PWD/build/test-cross-$triple.log

start=$SECONDS
rm -f "$log"
# The foreign architecture, the cross toolchain, Debian's rustc (RUSTC, CARGO and
# DEBIAN_RUST_BIN: the toolchain by path, since cargo looks for its subcommands,
# cargo-clippy, in ~/.cargo/bin before PATH) and the target's standard library, as steps;
# then the exports cargo needs for --target (scripts/lib-cross.sh, shared with
# build-cross-lib.sh).
cross_setup "$triple"
qemu=$cross_qemu

# The test profile, tuned for a build that runs once under an emulator: no debug info
# (not even Cargo.toml's line tables), and no incremental cache (a clean build writes
# one it never reads). The dependencies only the tests' tools use are unoptimised by
# Cargo.toml; the library and its run-time dependencies stay at opt-level 2, which the
# emulated tests need.
export CARGO_PROFILE_TEST_DEBUG=false CARGO_PROFILE_DEV_DEBUG=false CARGO_INCREMENTAL=0

# Clippy in the tests' own build (scripts/lib.sh: lint_while_building): one build of
# every target (--all-targets: the benches and examples too) gives clippy's verdict and
# the tests the emulator runs next; a `cargo clippy` of its own compiled every target a
# second time (53-99 s).
lint_while_building "$DEBIAN_RUST_BIN/clippy-driver"
clippy_cross() {
  "$RUSTC" --version
  "$DEBIAN_RUST_BIN/clippy-driver" --version
  "$CARGO" test --target "$triple" --all-targets --no-run
}
step --keep-going "clippy -D warnings over every target, in the build of the tests for $triple (Debian rustc 1.85)" \
  clippy_cross

# The integration tests that read the repository as text (the documents, the tables the
# bindings copy, the module graph, the licence lines): their outcome cannot depend on the
# CPU, and they run natively in step cargo-test. Every other file of tests/ and
# capi/tests/ runs here (a new one too), the C suite (c_suite), the header (header) and
# no_alloc among them.
text_tests=(binding_enums citations cpp_header doc_paths module_graph registry_docs spdx)
emulated_tests=()
for file in tests/*.rs capi/tests/*.rs; do
  name=$(basename "$file" .rs)
  case " ${text_tests[*]} " in *" $name "*) ;; *) emulated_tests+=(--test "$name") ;; esac
done

test_cross() {
  mkdir -p build
  echo "TCAST_TEST_QUICK=1: the exhaustive and random-heavy tests sample their inputs"
  echo "NOT RUN: tests/{$(IFS=,; echo "${text_tests[*]}")}.rs, text checks that do not depend on the CPU (step cargo-test runs them)"
  # Every line to the log and the screen; pipefail keeps cargo's status.
  # A time limit on the whole (build and emulated tests), so that an emulator that hangs
  # past the thread check of cross_setup ends the step, saying so, not CI's run.
  local status=0
  TCAST_TEST_QUICK=1 timeout --kill-after=30 "$CROSS_TEST_SECONDS" \
    "$CARGO" test --target "$triple" --lib "${emulated_tests[@]}" -- --show-output 2>&1 |
    tee "$log" ||
    status=$?
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "error: cargo test --target $triple under $qemu did not end within $CROSS_TEST_SECONDS s" >&2
  fi
  return "$status"
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
