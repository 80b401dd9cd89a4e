#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Tests the Go bindings (bindings/go): installs Go from the system's packages when it is
# missing (Debian/Ubuntu golang-go), builds the library with the command the README's
# quick start gives (scripts/quickstart.sh: CMake runs cargo and makes the SONAME link),
# checks gofmt, runs go vet and go test (and the tests again with cgo's full pointer
# checks), checks that a build without cgo fails with the package's own message, and
# builds and runs the README's example module from a temporary directory, first as the
# README shows it (a replace line into this checkout) and then with the package vendored
# (go mod vendor).
# The package uses only Go's standard library: nothing is downloaded by the go command
# (GOPROXY=off makes sure of it). Fails loudly on the first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

# cgo needs a C compiler; readelf reads the library's SONAME.
install_missing go cc readelf

go_version=$(go env GOVERSION)       # e.g. go1.19.8
go_minor=$(echo "$go_version" | sed -E 's/^go1\.([0-9]+).*/\1/')
step "$go_version"
if ! [[ $go_minor =~ ^[0-9]+$ ]] || [ "$go_minor" -lt 18 ]; then
  echo "error: the bindings need Go >= 1.18 (generics); found $go_version" >&2
  exit 1
fi

go_env "$root/build/go-cache"
export GOFLAGS=-mod=readonly

# The README's example module (scripts/go-consumer.sh writes it, and the README's build
# command), in a directory outside the repository.
consumer_dir=$(mktemp -d)
trap 'rm -rf "$consumer_dir"' EXIT
bash scripts/go-consumer.sh "$consumer_dir"

# The library, built with the quick start's step 2 and nothing else. Programs load it
# by its SONAME, libtensorcast.so.0 (capi/build.rs), which cargo does not write: that build
# must make the link, so a link left by an earlier run is removed first.
soname_link=target/release/libtensorcast.so.0
build_library() {
  rm -f "$soname_link"
  cat "$consumer_dir/build-library.sh"
  bash "$consumer_dir/build-library.sh"
  if [ ! -L "$soname_link" ] || [ "$(readlink "$soname_link")" != libtensorcast.so ]; then
    echo "error: the README's build command left no link $soname_link -> libtensorcast.so" >&2
    return 1
  fi
  local soname
  soname=$(readelf -d target/release/libtensorcast.so | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
  if [ "$soname" != "$(basename "$soname_link")" ]; then
    echo "error: the library's SONAME is '$soname', not the link's name $(basename "$soname_link")" >&2
    return 1
  fi
}
step "the README's build command (target/release/libtensorcast.so and its SONAME link)" \
  build_library
# The library Go programs load carries the CMake build's symbol versions.
step "symbol versions of target/release/libtensorcast.so" \
  versioned_exports target/release/libtensorcast.so

cd bindings/go

gofmt_clean() {
  local unformatted
  unformatted=$(gofmt -l .)
  if [ -n "$unformatted" ]; then
    echo "error: not gofmt-formatted:" >&2
    echo "$unformatted" >&2
    return 1
  fi
}
step "gofmt -l (must list nothing)" gofmt_clean

step "go vet ./..." go vet ./...

step "go test -v ./..." go test -count=1 -v ./...

if [ "$go_minor" -lt 21 ]; then
  pointer_checks=(env GODEBUG=cgocheck=2)
else
  pointer_checks=(env GOEXPERIMENT=cgocheck2)
fi
step "go test with cgo's full pointer-passing checks" "${pointer_checks[@]}" go test -count=1 ./...

no_cgo_message="tensorcast requires cgo (CGO_ENABLED=1) and a C compiler"

# expect_no_cgo_failure COMMAND...: COMMAND, run with CGO_ENABLED=0, must fail and say why.
expect_no_cgo_failure() {
  local output
  if output=$(CGO_ENABLED=0 "$@" 2>&1); then
    echo "error: '$*' succeeded with CGO_ENABLED=0" >&2
    return 1
  fi
  printf '%s\n' "$output"
  if ! grep -qF "$no_cgo_message" <<<"$output"; then
    echo "error: '$*' without cgo does not say \"$no_cgo_message\"" >&2
    return 1
  fi
  if grep -q "undefined:" <<<"$output"; then
    echo "error: '$*' without cgo also reports undefined names" >&2
    return 1
  fi
}
step "CGO_ENABLED=0 go vet fails with \"$no_cgo_message\"" expect_no_cgo_failure go vet .

# check_output: the example's output.txt must be what the README shows.
check_output() {
  if ! diff -u expected-output.txt output.txt; then
    echo "error: the example's output differs from bindings/go/README.md's (- README, + actual)" >&2
    return 1
  fi
  cat output.txt
}

# The README's example module as the README shows it: its replace line points into this
# checkout, so the package links target/release with an rpath, and nothing but the
# README's build command (above) made the library's SONAME link. Without the link the
# program builds but stops at start (exit 127).
intree_consumer() {
  cd "$consumer_dir"
  go build -o hello .
  local status=0
  env -u LD_LIBRARY_PATH ./hello >output.txt || status=$?
  if [ "$status" -ne 0 ]; then
    echo "error: the example exits with $status (127: the loader did not find $soname_link)" >&2
    return 1
  fi
  check_output
}
step "the README's example module, built against the checkout and run" intree_consumer

# The same module with the package vendored: its copy of the header is found, and the
# library is given as the README says (CGO_LDFLAGS with -L and an rpath).
vendored_consumer() {
  # Not local: the EXIT trap runs after the function has returned (the step's subshell).
  consumer_dir=$(mktemp -d)
  trap 'rm -rf "$consumer_dir"' EXIT
  bash "$root/scripts/go-consumer.sh" "$consumer_dir"
  cd "$consumer_dir"
  GOFLAGS='' go mod vendor
  local vendored=vendor/github.com/tensorcast/tensorcast/bindings/go
  cmp "$vendored/tensorcast.h" "$root/include/tensorcast.h"
  export GOFLAGS=-mod=vendor
  expect_no_cgo_failure go build -o hello .
  CGO_LDFLAGS="-L$root/target/release -Wl,-rpath,$root/target/release" go build -o hello .
  env -u LD_LIBRARY_PATH ./hello >output.txt
  check_output
}
step "the README's example module, vendored, built outside the repository and run" vendored_consumer

step "Go bindings: all tests passed"
