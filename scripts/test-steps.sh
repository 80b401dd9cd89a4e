#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Checks the test command's step selection (scripts/test.sh --list, --only, --from and
# --dry-run), how it reports a failing step, and that scripts/lib.sh names the package
# and version it could not download. Run by scripts/test.sh as its first step (options);
# runs no test step itself: a stand-in `cargo` that fails is the only command a step
# runs here.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# expect_plan "ARGS" NAME...: `test.sh --dry-run ARGS` succeeds and prints exactly NAMEs.
expect_plan() {
  local args=$1 got want
  shift
  # shellcheck disable=SC2086 # ARGS are words
  if ! got=$(bash scripts/test.sh --dry-run $args 2>&1); then
    fail "test.sh --dry-run $args failed: $got"
    return 0
  fi
  want=$(printf '%s\n' "$@")
  [ "$got" = "$want" ] ||
    fail "test.sh --dry-run $args runs [$(echo "$got" | paste -sd' ')], not [$*]"
}

# expect_refused "ARGS" TEXT: `test.sh ARGS` exits 2, runs nothing and says TEXT on stderr.
expect_refused() {
  local args=$1 text=$2 status=0
  # shellcheck disable=SC2086 # ARGS are words
  bash scripts/test.sh $args >"$tmp/out" 2>"$tmp/err" || status=$?
  [ "$status" -eq 2 ] || fail "test.sh $args: exit $status, not 2"
  grep -qF -- "$text" "$tmp/err" || fail "test.sh $args: no \"$text\" on stderr: $(cat "$tmp/err")"
  if grep -q '^==>' "$tmp/out" "$tmp/err"; then
    fail "test.sh $args ran a step"
  fi
}

# The step names, as README.md documents them, in the order they run.
steps=(options setup venv fmt shellcheck cargo-test miri shortest msrv ctest install abi dist readme deb rpm newcomer oracle np-oracle onnx123 conformance
  onnx118 ort python portable aarch64 python-aarch64 s390x go csharp fuzz-lint fuzz)

# --list: one line per step, name then description, in the order they run; what each
# needs.
bash scripts/test.sh --list >"$tmp/list"
listed=$(sed -n 's/^  \([a-z0-9-]*\)  *\([^ ].*\)$/\1/p' "$tmp/list" | head -n ${#steps[@]})
[ "$listed" = "$(printf '%s\n' "${steps[@]}")" ] ||
  fail "--list names [$(echo "$listed" | paste -sd' ')], not [${steps[*]}]"
for name in oracle np-oracle conformance onnx118 portable; do
  grep -qE "^  $name .*\[needs: venv, build\]$" "$tmp/list" || fail "--list: $name does not say it needs venv, build"
done
grep -qE '^  onnx123 .*\[needs: build\]$' "$tmp/list" || fail "--list: onnx123 does not say it needs build"
grep -qE '^  build ' "$tmp/list" || fail "--list does not say what the prerequisite build is"

# No selection: every step, in the listed order (what CI runs).
expect_plan "" "${steps[@]}"
# --only: the step, after what it needs.
expect_plan "--only msrv" msrv
expect_plan "--only ctest" ctest
expect_plan "--only oracle" venv build oracle
expect_plan "--only onnx123" build onnx123
expect_plan "--only venv" venv
expect_plan "--only fuzz" fuzz
# --from: the step and every later one, after what they need that none of them makes.
expect_plan "--from go" go csharp fuzz-lint fuzz
# --quick: the quick tier's steps, after what they need.
expect_plan "--quick" venv build fmt cargo-test oracle conformance
expect_plan "--from portable" venv build portable aarch64 python-aarch64 s390x go csharp fuzz-lint fuzz
expect_plan "--from ctest" venv ctest install abi dist readme deb rpm newcomer oracle np-oracle onnx123 conformance onnx118 \
  ort python portable aarch64 python-aarch64 s390x go csharp fuzz-lint fuzz
expect_plan "--from venv" "${steps[@]:2}"
expect_plan "--from options" "${steps[@]}"
# --dry-run after the selection too.
plan_after=$(bash scripts/test.sh --only oracle --dry-run | paste -sd' ')
[ "$plan_after" = "venv build oracle" ] || fail "--only oracle --dry-run runs [$plan_after]"

# What is refused, with the list of steps for an unknown or missing name.
expect_refused "--only bogus" "unknown step: bogus"
expect_refused "--from bogus" "unknown step: bogus"
grep -qE '^  fuzz-lint ' "$tmp/err" || fail "an unknown step's error does not list the steps"
expect_refused "--only" "--only needs a step's name"
expect_refused "--only fmt --from go" "one of --list, --quick, --only, --from at most"
expect_refused "--list --only fmt" "one of --list, --quick, --only, --from at most"
expect_refused "--bogus" "unknown argument: --bogus"
expect_refused "--only build" "unknown step: build"

# A failing step: named with its exit status, and how to run it again. The step fmt runs
# cargo first; here that is a stand-in that exits 3.
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nexit 3\n' >"$tmp/bin/cargo"
chmod +x "$tmp/bin/cargo"
status=0
PATH=$tmp/bin:$PATH bash scripts/test.sh --only fmt >"$tmp/out" 2>"$tmp/err" || status=$?
[ "$status" -eq 3 ] || fail "a step whose command exits 3: test.sh exits $status"
grep -qF "FAILED: fmt: cargo fmt --check" "$tmp/err" || fail "no FAILED line naming the step fmt"
grep -qE '^FAILED: fmt: .*\(exit 3\)$' "$tmp/err" || fail "the FAILED line does not give the exit status 3"
grep -qF "bash scripts/test.sh --from fmt" "$tmp/err" || fail "no hint to resume with --from fmt"
if grep -q 'all tests passed\|^==> passed' "$tmp/out"; then
  fail "test.sh claims success after a failing step"
fi

# A failing prerequisite: the CMake build, with a stand-in cmake that exits 4, before
# onnx123. It is not a step of its own: the hint names the step that builds it.
printf '#!/bin/sh\nexit 4\n' >"$tmp/bin/cmake"
chmod +x "$tmp/bin/cmake"
status=0
PATH=$tmp/bin:$PATH bash scripts/test.sh --only onnx123 >"$tmp/out" 2>"$tmp/err" || status=$?
[ "$status" -eq 4 ] || fail "a failing prerequisite build: test.sh exits $status, not 4"
grep -qE '^FAILED: build: .*\(exit 4\)$' "$tmp/err" || fail "no FAILED line naming the build and its status"
grep -qF "bash scripts/test.sh --only ctest" "$tmp/err" || fail "no hint to run the step ctest"
if grep -q '^==> onnx123' "$tmp/out"; then
  fail "onnx123 ran after its prerequisite failed"
fi

# A package that cannot be had is named with its version (no apt-get update here: the
# lists are as they are).
status=0
(
  export TCAST_APT_UPDATED=1
  deb_download "$tmp/debs" "rustc-web=0~no.such.version"
) 2>"$tmp/err" || status=$?
[ "$status" -ne 0 ] || fail "deb_download of a version no source has succeeded"
grep -qF "rustc-web=0~no.such.version" "$tmp/err" ||
  fail "deb_download's error does not name the package and version: $(cat "$tmp/err")"

if [ "$failures" -gt 0 ]; then
  echo "test-steps: $failures check(s) failed" >&2
  exit 1
fi
echo "test-steps: the step selection, the failure report and the download errors hold"
