#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Per-call cost of a small cast through the Go and C# bindings, each beside a bare call
# into C from that language (cgo, P/Invoke) in the same run. Not part of the test
# command: timings are for the issue notes, on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

step "cargo build --release -p tensorcast-c" cargo build --release -p tensorcast-c
export LD_LIBRARY_PATH="$PWD/target/release${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

go_bench() {
  (cd bindings/go && go test -run '^$' -bench . -benchmem)
}
step "Go: go test -bench (cgo's pointer checks on, the default)" go_bench

csharp_bench() {
  local out=build/csharp
  mkdir -p "$out"
  mcs -unsafe -optimize+ -nologo -target:library -out:"$out/TensorcastSharp.dll" bindings/csharp/src/*.cs
  mcs -unsafe -optimize+ -nologo -r:"$out/TensorcastSharp.dll" -out:"$out/Bench.exe" bindings/csharp/bench/Bench.cs
  mono "$out/Bench.exe"
}
step "C#: bindings/csharp/bench/Bench.cs under mono" csharp_bench
