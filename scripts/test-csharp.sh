#!/usr/bin/env bash
# Builds and tests the C# bindings (bindings/csharp) under Mono: installs Mono's C#
# compiler from the system's packages when missing (Debian/Ubuntu), builds the Rust
# library (target/release/libtensorcast.so), compiles the bindings, the tests, the
# README example and the benchmark with mcs into build/csharp/, and runs the tests and
# the example with mono. The native library is found through LD_LIBRARY_PATH. Fails
# loudly on the first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing mcs mono cc

step "cargo build --release --lib" cargo build --release --lib

out=build/csharp
mkdir -p "$out"

layout() {
  cc -std=c11 -Wall -Wextra -Werror -Iinclude bindings/csharp/tests/layout.c -o "$out/layout"
  "$out/layout" > "$out/layout.txt"
}
step "struct layout as the C compiler sees it ($out/layout.txt)" layout

compile() {
  local mcs_flags=(-unsafe -warn:4 -warnaserror -nologo)
  mcs "${mcs_flags[@]}" -target:library \
    -out:"$out/TensorcastSharp.dll" bindings/csharp/src/*.cs
  mcs "${mcs_flags[@]}" -r:"$out/TensorcastSharp.dll" \
    -out:"$out/TensorcastSharp.Tests.exe" bindings/csharp/tests/*.cs
  mcs "${mcs_flags[@]}" -r:"$out/TensorcastSharp.dll" \
    -out:"$out/Example.exe" bindings/csharp/examples/Example.cs
  # Compiled, not run (scripts/bench-bindings.sh runs it): it must keep building.
  mcs "${mcs_flags[@]}" -r:"$out/TensorcastSharp.dll" \
    -out:"$out/Bench.exe" bindings/csharp/bench/Bench.cs
}
step "mcs: TensorcastSharp.dll, TensorcastSharp.Tests.exe, Example.exe, Bench.exe" compile

export LD_LIBRARY_PATH="$PWD/target/release${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

step "C# tests under mono" \
  mono --debug "$out/TensorcastSharp.Tests.exe" --layout "$out/layout.txt" --header include/tensorcast.h

step "README example under mono" mono --debug "$out/Example.exe"

step "C# bindings: all tests passed"
