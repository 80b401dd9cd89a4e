#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Runs every test of tensorcast: the Rust tests (kernels, header checks, the C suite
# through the cc crate), the C suite under CTest and under valgrind memcheck, the Python
# oracle tests (numpy 2, numpy 1 and onnx 1.23 venvs), the ONNX conformance runner, the
# install and consumer checks, the Go and C# bindings' tests, and 15 s of fuzzing per
# target (scripts/fuzz.sh --ci, nightly toolchain). Installs what it needs first
# (cmake, make, a C and a C++ compiler, valgrind, python3-venv, pkg-config, golang-go,
# mono-mcs from the system's packages when missing, on Debian/Ubuntu, through scripts/lib.sh;
# pinned Python packages in build/venv*; Debian's rustc 1.85 and qemu-user unpacked into
# the cache, never installed). A full run has a budget of 35 minutes on 2 cores
# (CONTRIBUTING.md, "CI's budget"): its steps run two at a time (the lanes, below), and
# it ends with a table of each step's wall and CPU seconds. Stops at the first failing
# step, names it with the exit status, and says how to run it again.
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

# What the steps need from outside, fetched once before they start (two at a time in a
# full run, where two steps must not install the same thing at once); each step still
# installs what it misses when run alone. Kept between runs where it comes from pinned
# versions (scripts/lib.sh: tcast_cache_dir).
step_def setup "" "what the steps need: the system's packages (one apt-get), Debian's rustc 1.85 and the cross standard libraries, qemu-user, nightly with Miri, cargo-fuzz (kept in the cache by version)"
run_setup() {
  local wanted=()
  # The foreign architectures first: the cross C libraries come from their lists. (The
  # emulator is chosen, and unpacked, by cross_setup below.)
  local triple
  for triple in aarch64-unknown-linux-gnu s390x-unknown-linux-gnu; do
    (source scripts/lib-cross.sh && cross_target "$triple" && _cross_foreign_architecture)
  done
  local command package
  for command in cmake:cmake make:make gcc:gcc g++:g++ valgrind:valgrind shellcheck:shellcheck \
    git:git pkg-config:pkg-config readelf:binutils go:golang-go mcs:mono-mcs mono:mono-runtime \
    abidw:abigail-tools dpkg-gensymbols:dpkg-dev dh:debhelper lintian:lintian rpmbuild:rpm \
    rpmlint:rpmlint aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu s390x-linux-gnu-gcc:gcc-s390x-linux-gnu; do
    package=${command#*:}
    have "${command%%:*}" || wanted+=("$package")
  done
  [ -e /usr/aarch64-linux-gnu/lib/libc.so ] || wanted+=(libc6-dev-arm64-cross)
  [ -e /usr/s390x-linux-gnu/lib/libc.so ] || wanted+=(libc6-dev-s390x-cross)
  python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || wanted+=(python3-venv)
  apt_install ${wanted[@]+"${wanted[@]}"}
  # In a subshell: use_debian_rust puts rustc 1.85 first for the rest of the shell, and
  # cargo-fuzz below is built with the main toolchain.
  (use_debian_rust)
  for triple in aarch64-unknown-linux-gnu s390x-unknown-linux-gnu; do
    (source scripts/lib-cross.sh && cross_setup "$triple")
  done
  if ! cargo +nightly miri --version >/dev/null 2>&1; then
    step "nightly toolchain with Miri" rustup toolchain install nightly --profile minimal \
      --component miri --component rust-src --component rustfmt --component clippy
  fi
  step "cargo-fuzz $CARGO_FUZZ_VERSION in $(cargo_fuzz_root)" cargo_fuzz_install
}

step_def venv "" "Python venvs (pinned oracles) in build/venv and the other steps' build/venv-*, onnx 1.18.0's node test data (kept in the cache by hash)"
run_venv() {
  pinned_venv build/venv tests/conformance/requirements.txt
  onnx118_data build/venv
  # In a full run, the other steps' venvs too, one after another, before two steps run at
  # once (each step still checks its own pins, a no-op then).
  [ "$mode" = all ] || return 0
  pinned_venv build/venv-np1 tests/oracles/numpy_can_cast/requirements-np1.txt
  pinned_venv build/venv-onnx123 tests/oracles/onnx/requirements.txt
  pinned_venv build/venv-ort tests/oracles/onnxruntime/requirements.txt
  pinned_venv build/venv-zig tests/python/requirements-zig.txt
  pinned_venv build/venv-wheel-tools tests/python/requirements-tools.txt
}

step_def fmt "" "cargo fmt --check, cargo clippy -D warnings, cargo doc -D warnings (the workspace: the library, capi/, integrations/onnxruntime/, python/; and xtask/)"
run_fmt() {
  cargo fmt --all -- --check
  cargo fmt --manifest-path xtask/Cargo.toml -- --check
  cargo clippy --workspace --all-targets -- -D warnings
  cargo clippy --locked --manifest-path xtask/Cargo.toml --all-targets -- -D warnings
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
# its two C functions) and error tables, and the exports given overlapping buffers
# (ffi::overlap_tests, small tensors: no view of the caller's memory before the overlap
# checks), in quick mode (forwarded into Miri). Left out
# by name: as too slow under Miri, the tests of random inputs (hundreds of thousands)
# and of specs or literals of 100,000 characters or more. Under Miri the floating-point
# environment is left alone (no inline assembly, src/simd/fpenv.rs). Every test, these
# among them, runs natively in cargo-test.
miri_filters=(np:: cast::text::scan:: cast::text::parse:: formats:: dtype::tests:: registry::tests::
  dlpack::tests:: error::tests:: ffi::overlap_tests::)
miri_skips=(arbitrary_specs_never_panic messages_quote_long_specs_in_part structured_casts_on_many_fields
  short_integers_agree_with_the_plain_reader tiny_integers_agree_with_the_plain_reader
  tiny_integer_pairs_read_as_each_text_alone agrees_with_the_general_parser_on_random_texts
  agrees_on_the_texts_of_random_values py_int_reads_python_literals)
step_def miri "" "cargo +nightly miri test --lib on the safe core's tests (np, text parsers, formats, tables), quick mode"
run_miri() {
  if ! cargo +nightly miri --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal --component miri --component rust-src
  fi
  TCAST_TEST_QUICK=1 MIRIFLAGS="-Zmiri-env-forward=TCAST_TEST_QUICK" \
    cargo +nightly miri test -p tensorcast --lib -- "${miri_filters[@]}" "${miri_skips[@]/#/--skip=}"
}

# A fifth of the FLOATs, with the test build cargo-test made (no build of its own); every
# FLOAT: scripts/test-shortest-exhaustive.sh (CONTRIBUTING.md, "CI's budget").
step_def shortest "" "the shortest text of every 5th FLOAT pattern against ryu's digits, with cargo-test's build (every FLOAT: scripts/test-shortest-exhaustive.sh)"
run_shortest() {
  TCAST_SHORTEST_EVERY=5 cargo test -p tensorcast --lib \
    cast::text::shortest::tests::float_texts_are_ryus_digits_in_numpys_layout -- --exact
}

step_def msrv "" "rustc 1.85 (rust-version), Debian's rustc-web (kept in the cache): clippy over every target of the library and capi/ (its tests run in aarch64, s390x, deb)"
run_msrv() {
  bash scripts/test-msrv.sh
}

cmake_build() {
  cmake -S . -B build/cmake -DTCAST_MEMCHECK=ON -DTCAST_CARGO_PROFILE=release
  cmake --build build/cmake
}

step_def ctest "" "CMake build and CTest -j (C suite, and again under valgrind memcheck at the quick sizes)"
run_ctest() {
  cmake_build
  ctest --test-dir build/cmake --output-on-failure -j "$(nproc)"
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
step_def oracle "venv build" "Python oracle tests (numpy, ml_dtypes, C's printf through Python); the Python callers' ctypes declarations against the header as cc compiles it"
run_oracle() {
  # tests/common/tcast_ctypes.py, which every ctypes caller of the C API imports, against a
  # C program compiled with the header and against the library.
  build/venv/bin/python tests/common/check_tcast_ctypes.py --lib $lib
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
  onnx118_data build/venv
  build/venv/bin/python tests/conformance/onnx_node.py --lib $lib \
    --data build/onnx-1.18.0/data/onnx/backend/test/data/node --filter STRING --min-passed 6
}

step_def ort "" "onnxruntime 1.32.0 running tensorcast-ort (scripts/test-ort.sh): onnx node tests, graphs, real models, threads, errors, C API; the C API, node and graph tests again on onnxruntime 1.24.4, the oldest it supports"
run_ort() {
  bash scripts/test-ort.sh
}

step_def python "" "the Python package pytensorcast (scripts/test-python.sh): the manylinux wheel (maturin) built, auditwheel, installed offline into a fresh venv without Rust; pip install . and the sdist's build in fresh venvs; tests/python against each (dtype pairs vs ml_dtypes/numpy, astype exhaustively, strides, DLPack, strings, errors, onnxruntime); against the wheel also tests/convert (the checkpoint converter, a 2 GiB sharded checkpoint) and tests/docs (the docs' snippets)"
run_python() {
  bash scripts/test-python.sh
}

# The same library with every SIMD kernel family turned off (src/simd/cpu.rs): the
# portable code that other CPUs run, checked by the same C suite and oracles.
step_def portable "venv build" "portable path: C suite, Python oracles and conformance with TCAST_DISABLE_CPU_FEATURES=all"
run_portable() {
  export TCAST_DISABLE_CPU_FEATURES=all TCAST_LIB=$lib
  ctest --test-dir build/cmake --output-on-failure --label-exclude memcheck -j "$(nproc)"
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

step_def fuzz-lint "" "fuzz targets: rustfmt (nightly; clippy lints them in step fuzz's build)"
run_fuzz_lint() {
  cd fuzz
  cargo +nightly fmt --check
}

step_def fuzz "" "fuzzing: every target's corpus replayed, then 15 s of fuzzing each, AddressSanitizer (scripts/fuzz.sh)"
run_fuzz() {
  bash scripts/fuzz.sh --ci
}

# The prerequisites that are not steps of their own.
prerequisite_titles=(
  "venv         the step venv"
  "build        CMake build of build/cmake (target/release/libtensorcast.so, the C suite's programs), which step ctest makes too;"
  "             in the quick tier, cargo build -p tensorcast-c (target/debug/libtensorcast.so, the build cargo-test reuses)"
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
  if [ "$mode" != all ] && [ -n "${ci_dir:-}" ]; then
    rm -rf "$ci_dir"
  fi
  if [ "$status" -ne 0 ] && [ -n "${lane_pids[*]-}" ]; then
    stop_lanes
  fi
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
trap 'exit 130' INT
trap 'exit 143' TERM

# Where each step's log, time and outcome go (build/ci, made anew by each full run; a
# temporary directory for the other selections, which scripts/test-steps.sh runs inside
# a full run), and where the table of the last full run is kept to compare with (the
# machine's cache).
mkdir -p build
if [ "$mode" = all ]; then
  ci_dir=$PWD/build/ci
  rm -rf "$ci_dir"
  # A full run builds each configuration once: cargo's incremental cache would be
  # written and never read (13% of cargo test's build time). scripts/test-abi.sh turns it
  # back on for its variants, which build one after another in one tree.
  export CARGO_INCREMENTAL=0
else
  ci_dir=$(mktemp -d "$PWD/build/ci-$mode.XXXXXX")
fi
mkdir -p "$ci_dir/logs" "$ci_dir/times"
history=$(tcast_cache_dir)/step-times.tsv

# children_cpu VAR: sets VAR to the CPU seconds (user + system) of the children this
# shell has waited for. `times` runs in this shell (a command substitution would ask a
# new one, which has no children yet).
children_cpu() {
  local _self _children _user _system
  times >"$ci_dir/.times.$BASHPID"
  { read -r _self; read -r _user _system; } <"$ci_dir/.times.$BASHPID"
  rm -f "$ci_dir/.times.$BASHPID"
  printf -v "$1" '%s' "$(awk -v u="$_user" -v s="$_system" 'function sec(t,  a) {
      split(t, a, "m"); sub(/s$/, "", a[2]); return a[1] * 60 + a[2] }
    BEGIN { printf "%.0f", sec(u) + sec(s) }')"
}

# run_timed NAME LANE: runs the step NAME (or the prerequisite build) under its heading,
# and writes "NAME LANE WALL CPU STATUS" into build/ci/times/NAME: wall and CPU seconds,
# the CPU of every process the step ran, both cores counted. Sets step_status to the
# step's exit status and returns 0: call it as a command of its own (see step in
# scripts/lib.sh: inside `||` bash would ignore errexit in the step too).
run_timed() {
  local name=$1 lane=$2 started cpu_before cpu_after status
  started=$SECONDS
  children_cpu cpu_before
  set +e
  (
    set -e
    case $name in
      build)
        if [ "$mode" = quick ]; then
          step "build: cargo build -p tensorcast-c (target/debug/libtensorcast.so, which cargo-test reuses)" cargo build -p tensorcast-c
        else
          step "build: CMake build (target/release/libtensorcast.so and the C suite's programs)" cmake_build
        fi
        ;;
      *) step "$name: ${step_titles[$name]}" "run_${name//-/_}" ;;
    esac
  )
  status=$?
  set -e
  children_cpu cpu_after
  echo "$name $lane $((SECONDS - started)) $((cpu_after - cpu_before)) $status" >"$ci_dir/times/$name"
  printf '%s: %d s wall, %d s CPU\n' "$name" "$((SECONDS - started))" "$((cpu_after - cpu_before))"
  step_status=$status
}

# say TEXT: one line of progress, whole, between the two lanes' output.
say() {
  flock "$ci_dir/print.lock" printf '[%4d s] %s\n' "$SECONDS" "$*"
}

# The two lanes of a full run (mode all; --only, --from and --quick run their steps one
# after another). The machine has two cores: compilers use both, but much of a step is one
# core's work (rustc's codegen with one codegen unit, qemu, valgrind, pytest, Miri, the
# fuzzers), so two steps at a time keep both busy. Two steps never share a cargo target
# directory or a build tree at the same time: lane 1 holds every step that builds in or
# reads target/ (release and debug) and build/cmake, in the order they depend on one
# another, and then abi (build/abi), ort (target/release, after ctest's build) and fuzz
# (fuzz/target), the last one there to even the lanes out, and newcomer last (it reads
# build/dist/, which lane 2's dist step writes and deb and rpm read, long before: about
# 2,000 s into the run); lane 2 the steps with target directories of their own
# (target/cross, the release trees of build/dist, which deb and rpm make anew,
# target/wheel), then shellcheck, msrv (target/msrv; Debian's rustc, which setup
# unpacked) and miri (target/miri; the nightly setup installed), there to even the lanes
# out. csharp (lane 1)
# builds the aarch64 library in target/cross, which the cross steps (lane 2) have left
# before (about 1,000 s into the run, as csharp starts);
# cargo's lock would make it wait otherwise, never race. The venvs, toolchains and data
# are made before the lanes start (setup, venv); no step waits for one of the other lane.
serial_first=(options setup venv)
lane1=(fmt cargo-test shortest ctest install readme oracle np-oracle onnx123 conformance onnx118 portable go csharp
  abi ort fuzz-lint fuzz newcomer)
lane2=(aarch64 s390x dist deb rpm python python-aarch64 shellcheck msrv miri)
# lane_run LANE NAME...: the steps in order, each one's output into build/ci/logs/NAME.log,
# printed whole when it ends. Stops at the first failure (naming it in build/ci/failed)
# or when the other lane failed.
lane_run() {
  local lane=$1 name status log
  shift
  for name in "$@"; do
    [ ! -e "$ci_dir/failed" ] || return 0
    log=$ci_dir/logs/$name.log
    say "lane $lane: $name started"
    run_timed "$name" "$lane" >"$log" 2>&1
    status=$step_status
    # shellcheck disable=SC2016 # the inner shell expands them
    flock "$ci_dir/print.lock" sh -c 'printf "\n======== %s (lane %s): its output ========\n" "$1" "$2"; cat "$3"' \
      sh "$name" "$lane" "$log"
    if [ "$status" -ne 0 ]; then
      if (set -o noclobber && echo "$name $status" >"$ci_dir/failed") 2>/dev/null; then :; fi
      return "$status"
    fi
        say "lane $lane: $name passed"
  done
}

# Every process of the lanes still running: the lanes' process trees, leaves first.
kill_tree() {
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    kill_tree "$child"
  done
  kill "$1" 2>/dev/null || true
}
lane_pids=()
stop_lanes() {
  local pid
  for pid in ${lane_pids[@]+"${lane_pids[@]}"}; do
    kill_tree "$pid"
  done
  lane_pids=()
}

# The table at the end: each step's wall and CPU seconds, and the last complete run's
# wall time on this machine beside it, marked when a step took twice as long or more.
print_table() {
  local name lane wall cpu status before mark total_cpu=0
  declare -A last=()
  if [ -f "$history" ]; then
    while read -r name wall; do last[$name]=$wall; done <"$history"
  fi
  echo
  printf '%-15s %5s %8s %8s %12s\n' step lane "wall s" "CPU s" "last run s"
  for name in "${plan[@]}"; do
    [ -f "$ci_dir/times/$name" ] || continue
    read -r name lane wall cpu status <"$ci_dir/times/$name"
    before=${last[$name]:--}
    mark=
    if [ "$before" != - ] && [ "$wall" -ge 30 ] && [ "$wall" -ge $((2 * before)) ]; then
      mark='  <- twice the last run or more'
    fi
    [ "$status" -eq 0 ] || mark="  FAILED (exit $status)"
    printf '%-15s %5s %8d %8d %12s%s\n' "$name" "$lane" "$wall" "$cpu" "$before" "$mark"
    total_cpu=$((total_cpu + cpu))
  done
  printf '%-15s %5s %8d %8d\n' "in all" "" "$SECONDS" "$total_cpu"
}

save_table() {
  local name lane wall cpu status
  mkdir -p "$(dirname "$history")"
  for name in "${plan[@]}"; do
    read -r name lane wall cpu status <"$ci_dir/times/$name"
    echo "$name $wall"
  done >"$history.new"
  mv "$history.new" "$history"
}

# run_serially NAME...: the steps one after another; the table and the step's status at
# the first failure.
run_serially() {
  local name
  for name in "$@"; do
    current=$name
    run_timed "$name" serial
    if [ "$step_status" -ne 0 ]; then
      print_table
      exit "$step_status"
    fi
  done
  current=
}

install_missing cmake make cc c++ valgrind python3-venv
if [ "$mode" = all ]; then
  run_serially "${serial_first[@]}"
  say "two lanes: [${lane1[*]}] and [${lane2[*]}]"
  lane_run 1 "${lane1[@]}" &
  lane_pids+=($!)
  lane_run 2 "${lane2[@]}" &
  lane_pids+=($!)
  # Two lanes, two ends: the first failure stops the other lane at once.
  status=0
  wait -n || status=$?
  if [ "$status" -eq 0 ]; then
    wait -n || status=$?
  fi
  if [ "$status" -ne 0 ]; then
    stop_lanes
    wait || true
  fi
  lane_pids=()
  if [ -e "$ci_dir/failed" ]; then
    read -r current status <"$ci_dir/failed"
    print_table
    printf '\nFAILED: %s: %s (exit %d)\n' "$current" "${step_titles[$current]}" "$status" >&2
    exit "$status"
  fi
  if [ "$status" -ne 0 ]; then
    echo "error: a lane ended with status $status and no failed step named" >&2
    exit "$status"
  fi
else
  run_serially "${plan[@]}"
fi
print_table
[ "$mode" != all ] || save_table
printf '%s: %d passed, 0 failed\n' steps "${#plan[@]}"

case $mode in
  all) step "all tests passed" ;;
  *) step "passed: ${selected[*]}" ;;
esac
