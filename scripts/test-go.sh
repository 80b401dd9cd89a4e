#!/usr/bin/env bash
# Tests the Go bindings (bindings/go): installs Go from the system's packages when it is
# missing (Debian/Ubuntu golang-go), builds the library with cargo, then checks gofmt,
# runs go vet and go test (and the tests again with cgo's full pointer checks). The
# package uses only Go's standard library: nothing is downloaded by the go command
# (GOPROXY=off makes sure of it). Fails loudly on the first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

# cgo needs a C compiler.
install_missing go cc

go_version=$(go env GOVERSION)       # e.g. go1.19.8
go_minor=$(echo "$go_version" | sed -E 's/^go1\.([0-9]+).*/\1/')
step "$go_version"
if ! [[ $go_minor =~ ^[0-9]+$ ]] || [ "$go_minor" -lt 18 ]; then
  echo "error: the bindings need Go >= 1.18 (generics); found $go_version" >&2
  exit 1
fi

export CGO_ENABLED=1 GOPROXY=off GOFLAGS=-mod=readonly GOTOOLCHAIN=local
# The build cache goes where Go puts it (~/.cache/go-build) unless that is unusable.
gocache=$(go env GOCACHE 2>/dev/null || true)
if [ -z "$gocache" ] || [ "$gocache" = off ] || ! mkdir -p "$gocache" 2>/dev/null || [ ! -w "$gocache" ]; then
  export GOCACHE=$root/build/go-cache
fi

build_library() {
  cargo build --release --lib
  # The library's SONAME is libtensorcast.so.0: programs linked with -ltensorcast look for
  # that name at run time, so give it one beside the uninstalled library (an installed
  # copy has it already).
  ln -sf libtensorcast.so target/release/libtensorcast.so.0
}
step "cargo build --release --lib (target/release/libtensorcast.so, which the bindings link)" \
  build_library

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

step "Go bindings: all tests passed"
