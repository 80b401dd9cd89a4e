#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs every test of tensorcast: the Rust tests (kernels, header checks, the C suite
# through the cc crate), the C suite under CTest and under valgrind memcheck, the Python
# oracle tests (numpy 2, numpy 1 and onnx 1.23 venvs), the ONNX conformance runner, the
# install and consumer checks, the Go and C# bindings' tests, and 60 s of fuzzing per
# target (scripts/fuzz.sh --ci, nightly toolchain). Installs what it needs first
# (cmake, make, a C and a C++ compiler, valgrind, python3-venv, pkg-config, golang-go,
# mono-mcs from the system's packages when missing, on Debian/Ubuntu, through scripts/lib.sh;
# pinned Python packages in build/venv*; Debian's rustc 1.85 unpacked into build/rust-1.85,
# never installed). Stops at the first failing step, names it with the exit status, and
# says how to run it again.
#
#   bash scripts/test.sh                every step, in order: what CI runs (.ci/run)
#   bash scripts/test.sh --list         the steps' names, what each runs and what it needs
#   bash scripts/test.sh --only NAME    that step alone, after the steps it needs
#   bash scripts/test.sh --from NAME    that step and every one after it, after the steps
#                                       they need
#   --dry-run, before or after any of these: print the names of the steps that would
#   run, one a line, and run nothing (scripts/test-steps.sh checks the selection so).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

# The library the oracle and conformance steps load: the CMake build's (step ctest, or
# the prerequisite build). The quick tier sets it to the one cargo builds for its tests
# (below), so that it compiles the library once, not three times.
lib=target/release/libtensorcast.so

# The steps, in the order they run. step_def NAME NEEDS TITLE: the step runs the function
# run_NAME (with _ for -); NEEDS names what it uses that an earlier step makes: venv
# (build/venv with the pins, step venv) and build (build/cmake built, which writes
# target/release/libtensorcast.so: step ctest, or, when ctest is not run, the
# prerequisite build).
step_names=()
declare -A step_needs step_titles
step_def() {
  step_names+=("$1")
  step_needs[$1]=$2
  step_titles[$1]=$3
}

step_def options "" "the test command's step selection: --list, --only, --from (scripts/test-steps.sh)"
run_options() {
  bash scripts/test-steps.sh
}

step_def venv "" "Python venv (pinned oracles) in build/venv"
run_venv() {
  pinned_venv build/venv tests/conformance/requirements.txt
}

step_def fmt "" "cargo fmt --check, cargo clippy -D warnings, cargo doc -D warnings (the library, xtask/, integrations/onnxruntime/)"
run_fmt() {
  cargo fmt --all -- --check
  cargo fmt --manifest-path xtask/Cargo.toml -- --check
  cargo fmt --manifest-path integrations/onnxruntime/Cargo.toml -- --check
  cargo clippy --all-targets -- -D warnings
  cargo clippy --locked --manifest-path xtask/Cargo.toml --all-targets -- -D warnings
  cargo clippy --locked --manifest-path integrations/onnxruntime/Cargo.toml --all-targets -- -D warnings
  RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
}

step_def shellcheck "" "shellcheck over every shell script of the repository (scripts/, cmake/*.sh, .ci/run)"
run_shellcheck() {
  install_missing shellcheck git
  local shebang='^#!.*[/ ](ba)?sh( |$)' files=() file
  # The tracked files named *.sh, and the others whose first line starts a POSIX shell or
  # bash (git grep finds the candidates; head checks that the line is the first).
  while IFS= read -r file; do
    files+=("$file")
  done < <(git ls-files '*.sh')
  while IFS= read -r file; do
    if head -n 1 "$file" | grep -qE "$shebang"; then files+=("$file"); fi
  done < <(git grep -lI -E "$shebang" -- ':!*.sh')
  echo "shellcheck: ${#files[@]} files"
  shellcheck -x "${files[@]}"
}

step_def cargo-test "" "cargo test (Rust tests, header checks, C suite via cc)"
run_cargo_test() {
  cargo test
}

# Miri (nightly) runs the safe core's tests that need no SIMD or threads: the numpy dtype
# parser and rules (np::), the text scanner and parsers (cast::text::scan,
# cast::text::parse), the packed formats (formats::), the dtype, registry, DLPack (with
# its two C functions) and error tables, in quick mode (forwarded into Miri). Left out
# by name: as too slow under Miri, the tests of random inputs (hundreds of thousands)
# and of specs or literals of 100,000 characters or more; as beyond it,
# value_based_numpy_1 (its float comparisons read and set MXCSR with inline assembly,
# src/simd/fpenv.rs). Every test, these among them, runs natively in cargo-test.
miri_filters=(np:: cast::text::scan:: cast::text::parse:: formats:: dtype::tests:: registry::tests::
  dlpack::tests:: error::tests::)
miri_skips=(arbitrary_specs_never_panic messages_quote_long_specs_in_part structured_casts_on_many_fields
  short_integers_agree_with_the_plain_reader agrees_with_the_general_parser_on_random_texts
  agrees_on_the_texts_of_random_values py_int_reads_python_literals value_based_numpy_1)
step_def miri "" "cargo +nightly miri test --lib on the safe core's tests (np, text parsers, formats, tables), quick mode"
run_miri() {
  if ! cargo +nightly miri --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal --component miri --component rust-src
  fi
  TCAST_TEST_QUICK=1 MIRIFLAGS="-Zmiri-env-forward=TCAST_TEST_QUICK" \
    cargo +nightly miri test --lib -- "${miri_filters[@]}" "${miri_skips[@]/#/--skip=}"
}

step_def shortest "" "every FLOAT's shortest text against ryu's digits, exhaustively (scripts/test-shortest-exhaustive.sh)"
run_shortest() {
  bash scripts/test-shortest-exhaustive.sh
}

step_def msrv "" "rustc 1.85 (rust-version), Debian's rustc-web in build/rust-1.85: clippy over every target (its tests run in aarch64, s390x, deb)"
run_msrv() {
  bash scripts/test-msrv.sh
}

cmake_build() {
  cmake -S . -B build/cmake -DTCAST_MEMCHECK=ON -DTCAST_CARGO_PROFILE=release
  cmake --build build/cmake
}

step_def ctest "" "CMake build and CTest (C suite, and again under valgrind memcheck)"
run_ctest() {
  cmake_build
  ctest --test-dir build/cmake --output-on-failure
}

step_def install "" "install: cmake --install into a temporary prefix, consumers via find_package and pkg-config"
run_install() {
  bash scripts/test-install.sh
}

step_def abi "" "ABI gate: TENSORCAST_0 symbol versions, abidiff and the symbols list against abi/, deliberately broken builds refused, the static library beside another Rust staticlib (scripts/test-abi.sh)"
run_abi() {
  bash scripts/test-abi.sh
}
step_def dist "" "release tarballs (scripts/dist.sh): offline build from them with an empty CARGO_HOME, no build paths in the binaries (scripts/test-dist.sh)"
run_dist() {
  bash scripts/test-dist.sh
}
step_def readme "" "README.md's promises (scripts/test-readme.sh): both commands shown, at most 200 lines, its C program builds and prints what it says"
run_readme() {
  bash scripts/test-readme.sh
}
step_def deb "" "Debian packages from the release tarballs (scripts/package-deb.sh): dpkg-buildpackage offline with Debian's rustc 1.85, lintian --pedantic, installed, consumers built against them"
run_deb() {
  bash scripts/package-deb.sh
}
step_def rpm "" "RPM packages from the release tarballs (scripts/package-rpm.sh): rpmbuild -bb --nodeps, rpmlint, consumers built against a scratch root"
run_rpm() {
  bash scripts/package-rpm.sh
}
step_def newcomer "" "the newcomer's path (scripts/test-newcomer.sh): the release tarballs unpacked, built offline with the README's install line, installed into a prefix; a C, C++, Go and C# program built and run against it"
run_newcomer() {
  bash scripts/test-newcomer.sh
}
step_def oracle "venv build" "Python oracle tests (numpy, ml_dtypes, C's printf through Python)"
run_oracle() {
  TCAST_LIB=$lib build/venv/bin/python -m pytest tests/oracles/numpy -q
}

step_def np-oracle "venv build" "numpy casting rules against numpy 2.4.6 (+ ml_dtypes) and numpy 1.26.4"
run_np_oracle() {
  TCAST_LIB=$lib bash scripts/test-np-oracle.sh
}

step_def onnx123 "build" "FLOAT6 casts, QuantizeLinear, DequantizeLinear and MX against onnx 1.23.0's ReferenceEvaluator, ggml's MXFP4 against gguf 0.19.0 (build/venv-onnx123)"
run_onnx123() {
  TCAST_LIB=$lib bash scripts/test-onnx123-oracle.sh
}

step_def conformance "venv build" "ONNX conformance (onnx 1.22.0 backend node tests)"
run_conformance() {
  build/venv/bin/python tests/conformance/onnx_node.py --lib $lib --min-passed 184
}

# onnx 1.18.0 cannot be installed beside 1.22.0: take its test data from the wheel.
# (Its FLOAT -> BFLOAT16 data truncates, which 1.22.0 and our rules do not: only the
# STRING dirs are run from it.)
step_def onnx118 "venv build" "ONNX conformance: the string Cast tests, which only onnx 1.18.0 ships"
run_onnx118() {
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

step_def ort "" "onnxruntime 1.32.0 running tensorcast-ort (scripts/test-ort.sh): onnx node tests, graphs, real models, threads, errors, C API"
run_ort() {
  bash scripts/test-ort.sh
}

step_def python "" "the Python wheel pytensorcast (scripts/test-python.sh): built, auditwheel, installed offline into a fresh venv without Rust, pytest (dtype pairs vs ml_dtypes/numpy, strides, DLPack, strings, errors, onnxruntime, the convert CLI on 2 GiB)"
run_python() {
  bash scripts/test-python.sh
}

# The same library with every SIMD kernel family turned off (src/simd/cpu.rs): the
# portable code that other CPUs run, checked by the same C suite and oracles.
step_def portable "venv build" "portable path: C suite, Python oracles and conformance with TCAST_DISABLE_CPU_FEATURES=all"
run_portable() {
  export TCAST_DISABLE_CPU_FEATURES=all TCAST_LIB=$lib
  ctest --test-dir build/cmake --output-on-failure --label-exclude memcheck
  build/venv/bin/python -m pytest tests/oracles/numpy -q
  bash scripts/test-onnx123-oracle.sh
  build/venv/bin/python tests/conformance/onnx_node.py --lib $lib --min-passed 184
}

step_def aarch64 "" "aarch64 under qemu-user: clippy, cargo test incl. the C suite (Debian rustc 1.85, quick mode)"
run_aarch64() {
  bash scripts/test-cross.sh aarch64-unknown-linux-gnu
}

step_def python-aarch64 "" "the aarch64 wheel of pytensorcast (scripts/test-wheel-aarch64.sh): cross-built, auditwheel, smoke-tested under qemu-user with Debian's aarch64 CPython 3.11 against ml_dtypes"
run_python_aarch64() {
  bash scripts/test-wheel-aarch64.sh
}

step_def s390x "" "s390x, big-endian, under qemu-user: clippy, cargo test incl. the C suite (Debian rustc 1.85, quick mode)"
run_s390x() {
  bash scripts/test-cross.sh s390x-unknown-linux-gnu
}

step_def go "" "Go bindings (go vet, go test)"
run_go() {
  bash scripts/test-go.sh
}

step_def csharp "" "C# bindings (Mono)"
run_csharp() {
  bash scripts/test-csharp.sh
}

step_def fuzz-lint "" "fuzz targets: rustfmt and clippy (nightly)"
run_fuzz_lint() {
  cd fuzz
  cargo +nightly fmt --check
  cargo +nightly clippy --bins -- -D warnings
}

step_def fuzz "" "fuzzing: every target for 60 s from fuzz/corpus, AddressSanitizer (scripts/fuzz.sh)"
run_fuzz() {
  bash scripts/fuzz.sh --ci
}

# The prerequisites that are not steps of their own.
prerequisite_titles=(
  "venv         the step venv"
  "build        CMake build of build/cmake (target/release/libtensorcast.so, the C suite's programs), which step ctest makes too;"
  "             in the quick tier, cargo build (target/debug/libtensorcast.so, the build cargo-test reuses)"
)

# The quick tier (--quick): the Rust and C suites and the oracles, with the exhaustive
# tests sampled (TCAST_TEST_QUICK=1), for the edit-compile-test loop; CI runs every step.
# It builds the library once: its prerequisite build is `cargo build`, the dev-profile
# (opt-level 2) library that cargo test then finds fresh, and the oracle and conformance
# steps load that one instead of a CMake release build.
quick_steps=(fmt cargo-test oracle conformance)

usage() {
  echo "usage: bash scripts/test.sh [--dry-run] [--list | --quick | --only NAME | --from NAME]"
}

list_steps() {
  local name needs
  echo "Steps of bash scripts/test.sh, in the order they run (NAME: what it runs [needs]):"
  for name in "${step_names[@]}"; do
    needs=${step_needs[$name]}
    printf '  %-12s %s%s\n' "$name" "${step_titles[$name]}" "${needs:+ [needs: ${needs// /, }]}"
  done
  echo "With --only and --from, what the selected steps need runs first, unless one of them makes it:"
  printf '  %s\n' "${prerequisite_titles[@]}"
}

# Fails with the list when NAME is no step's.
known_step() {
  local name
  for name in "${step_names[@]}"; do
    [ "$name" != "$1" ] || return 0
  done
  echo "error: unknown step: $1" >&2
  list_steps >&2
  return 1
}

mode=all selected_name='' dry_run=0
while [ $# -gt 0 ]; do
  case $1 in
    --list | --only | --from)
      if [ "$mode" != all ]; then
        echo "error: $1 after --$mode: one of --list, --quick, --only, --from at most" >&2
        usage >&2
        exit 2
      fi
      mode=${1#--}
      if [ "$mode" != list ]; then
        if [ $# -lt 2 ]; then
          echo "error: $1 needs a step's name" >&2
          list_steps >&2
          exit 2
        fi
        known_step "$2" || exit 2
        selected_name=$2
        shift
      fi
      ;;
    --quick)
      if [ "$mode" != all ]; then
        echo "error: $1 after --$mode: one of --list, --quick, --only, --from at most" >&2
        usage >&2
        exit 2
      fi
      mode=quick
      export TCAST_TEST_QUICK=1
      lib=target/debug/libtensorcast.so
      ;;
    --dry-run) dry_run=1 ;;
    *)
      echo "error: unknown argument: $1" >&2
      usage >&2
      exit 2
      ;;
  esac
  shift
done

if [ "$mode" = list ]; then
  list_steps
  exit 0
fi

# True when WORD is one of the words after it.
one_of() {
  local word=$1
  shift
  case " $* " in *" $word "*) return 0 ;; esac
  return 1
}

# The plan: the selected steps in order, after the prerequisites they need that no
# selected step makes.
selected=()
for name in "${step_names[@]}"; do
  case $mode in
    all) selected+=("$name") ;;
    only) if [ "$name" = "$selected_name" ]; then selected+=("$name"); fi ;;
    from) if [ "$name" = "$selected_name" ] || [ ${#selected[@]} -gt 0 ]; then selected+=("$name"); fi ;;
    quick) if one_of "$name" "${quick_steps[@]}"; then selected+=("$name"); fi ;;
  esac
done
needed=()
for name in "${selected[@]}"; do
  # shellcheck disable=SC2206 # the needs are words
  needed+=(${step_needs[$name]})
done
plan=()
if one_of venv ${needed[@]+"${needed[@]}"} && ! one_of venv "${selected[@]}"; then
  plan+=(venv)
fi
if one_of build ${needed[@]+"${needed[@]}"} && ! one_of ctest "${selected[@]}"; then
  plan+=(build)
fi
plan+=("${selected[@]}")

if [ "$dry_run" -eq 1 ]; then
  printf '%s\n' "${plan[@]}"
  exit 0
fi

# When a step fails, step() has printed "FAILED: NAME: TITLE (exit N)"; say how to go on.
current=
on_exit() {
  local status=$?
  if [ "$status" -ne 0 ] && [ "$current" = build ] && [ "$mode" = quick ]; then
    printf 'The build that %s needs, cargo build, failed (exit %d).\n' "${selected[*]}" "$status" >&2
  elif [ "$status" -ne 0 ] && [ "$current" = build ]; then
    printf 'The CMake build that %s needs failed (exit %d). The step ctest builds it too: bash scripts/test.sh --only ctest\n' \
      "${selected[*]}" "$status" >&2
  elif [ "$status" -ne 0 ] && [ -n "$current" ]; then
    printf 'The step "%s" failed (exit %d). Run it alone: bash scripts/test.sh --only %s;\n' \
      "$current" "$status" "$current" >&2
    printf 'resume from it: bash scripts/test.sh --from %s; list the steps: bash scripts/test.sh --list\n' \
      "$current" >&2
  fi
}
trap on_exit EXIT

install_missing cmake make cc c++ valgrind python3-venv
# Each step's wall time, printed at the end: CI's budget is 45 minutes on 2 cores.
declare -A step_seconds=()
for name in "${plan[@]}"; do
  current=$name
  started=$SECONDS
  case $name in
    build)
      if [ "$mode" = quick ]; then
        step "build: cargo build (target/debug/libtensorcast.so, which cargo-test reuses)" cargo build
      else
        step "build: CMake build (target/release/libtensorcast.so and the C suite's programs)" cmake_build
      fi
      ;;
    *) step "$name: ${step_titles[$name]}" "run_${name//-/_}" ;;
  esac
  step_seconds[$name]=$((SECONDS - started))
done
current=
times=
for name in "${plan[@]}"; do
  times+="${times:+, }$name ${step_seconds[$name]} s"
done
printf 'step times: %s; %d s in all\n' "$times" "$SECONDS"

case $mode in
  all) step "all tests passed" ;;
  *) step "passed: ${selected[*]}" ;;
esac
