#!/usr/bin/env bash
# Runs every test of tensorcast: the Rust tests (kernels, header checks, the C suite
# through the cc crate), the C suite under CTest and under valgrind memcheck, the Python
# oracle tests (numpy 2, numpy 1 and onnx 1.23 venvs), the ONNX conformance runner, the
# install and consumer checks, the Go and C# bindings' tests, and 60 s of fuzzing per
# target (scripts/fuzz.sh --ci, nightly toolchain). Installs what it needs first
# (cmake, make, a C and a C++ compiler, valgrind, python3-venv, pkg-config, golang-go,
# mono-mcs from the system's packages when missing, on Debian/Ubuntu, through scripts/lib.sh;
# pinned Python packages in build/venv*). Stops at the first failing step and names it.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing cmake make cc c++ valgrind python3-venv

python_venv() {
  mkdir -p build
  if [ ! -x build/venv/bin/python ]; then
    python3 -m venv build/venv
  fi
  build/venv/bin/pip install --quiet --disable-pip-version-check -r tests/conformance/requirements.txt
}
step "Python venv (pinned oracles) in build/venv" python_venv

fmt_clippy() {
  cargo fmt --all -- --check
  cargo clippy --all-targets -- -D warnings
  RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
}
step "cargo fmt --check, cargo clippy -D warnings, cargo doc -D warnings" fmt_clippy

step "cargo test (Rust tests, header checks, C suite via cc)" cargo test

step "rustc 1.85 (rust-version), Debian's rustc-web: clippy and cargo test" \
  bash scripts/test-msrv.sh

cmake_ctest() {
  cmake -S . -B build/cmake -DTCAST_MEMCHECK=ON -DTCAST_CARGO_PROFILE=release
  cmake --build build/cmake
  ctest --test-dir build/cmake --output-on-failure
}
step "CMake build and CTest (C suite, and again under valgrind memcheck)" cmake_ctest

step "install: cmake --install into a temporary prefix, consumers via find_package and pkg-config" \
  bash scripts/test-install.sh

lib=target/release/libtensorcast.so

step "Python oracle tests (numpy, ml_dtypes, C's printf through Python)" \
  env TCAST_LIB=$lib build/venv/bin/python -m pytest tests/oracle -q

step "numpy casting rules against numpy 2.4.6 (+ ml_dtypes) and numpy 1.26.4" \
  env TCAST_LIB=$lib bash scripts/test-np-oracle.sh

step "FLOAT6 casts against onnx 1.23.0's ReferenceEvaluator (build/venv-onnx123)" \
  env TCAST_LIB=$lib bash scripts/test-onnx123-oracle.sh

step "ONNX conformance (onnx 1.22.0 backend node tests)" \
  build/venv/bin/python tests/conformance/onnx_node.py --lib $lib --min-passed 184

# onnx 1.18.0 cannot be installed beside 1.22.0: take its test data from the wheel.
# (Its FLOAT -> BFLOAT16 data truncates, which 1.22.0 and our rules do not: only the
# STRING dirs are run from it.)
onnx_118_strings() {
  if [ ! -d build/onnx-1.18.0/data ]; then
    rm -rf build/onnx-1.18.0
    build/venv/bin/pip download --quiet --disable-pip-version-check --no-deps \
      --only-binary=:all: -d build/onnx-1.18.0 onnx==1.18.0
    build/venv/bin/python tests/conformance/extract_node_data.py \
      build/onnx-1.18.0/onnx-1.18.0-*.whl build/onnx-1.18.0/data
  fi
  build/venv/bin/python tests/conformance/onnx_node.py --lib $lib \
    --data build/onnx-1.18.0/data/onnx/backend/test/data/node --filter STRING --min-passed 6
}
step "ONNX conformance: the string Cast tests, which only onnx 1.18.0 ships" onnx_118_strings

# The same library with every SIMD kernel family turned off (src/simd/cpu.rs): the
# portable code that other CPUs run, checked by the same C suite and oracles.
portable_pass() (
  export TCAST_DISABLE_CPU_FEATURES=all TCAST_LIB=$lib
  ctest --test-dir build/cmake --output-on-failure --label-exclude memcheck
  build/venv/bin/python -m pytest tests/oracle -q
  bash scripts/test-onnx123-oracle.sh
  build/venv/bin/python tests/conformance/onnx_node.py --lib $lib --min-passed 184
)
step "portable path: C suite, Python oracles and conformance with TCAST_DISABLE_CPU_FEATURES=all" \
  portable_pass

step "aarch64 under qemu-user: clippy, cargo test incl. the C suite (Debian rustc 1.85, quick mode)" \
  bash scripts/test-cross.sh aarch64-unknown-linux-gnu

step "s390x, big-endian, under qemu-user: clippy, cargo test incl. the C suite (Debian rustc 1.85, quick mode)" \
  bash scripts/test-cross.sh s390x-unknown-linux-gnu

step "Go bindings (go vet, go test)" bash scripts/test-go.sh

step "C# bindings (Mono)" bash scripts/test-csharp.sh

fuzz_lint() (
  cd fuzz
  cargo +nightly fmt --check
  cargo +nightly clippy --bins -- -D warnings
)
step "fuzz targets: rustfmt and clippy (nightly)" fuzz_lint

step "fuzzing: every target for 60 s from fuzz/corpus, AddressSanitizer (scripts/fuzz.sh)" \
  bash scripts/fuzz.sh --ci

step "all tests passed"
