#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds and tests the C# bindings (bindings/csharp) under Mono: installs Mono's C#
# compiler from the system's packages when missing (Debian/Ubuntu), builds the Rust
# library as the CMake build makes it (target/release/libtensorcast.so:
# cmake_release_library, which finds it built after the ctest step), compiles the bindings, the tests, the
# README example and the benchmark with mcs into build/csharp/ (the library from the
# <Compile> items of bindings/csharp/src/TensorcastSharp.csproj, which must list every
# src/*.cs), and runs the tests and the example with mono; the native library is found
# through LD_LIBRARY_PATH. Then packs the NuGet package (scripts/pack-csharp.sh, which
# also cross-builds and checks the linux-arm64 native with scripts/build-cross-lib.sh),
# checks its layout (bindings/csharp/tests/package/check_nupkg.py: the entries, the
# licence expression and texts, both natives, and that broken copies fail), and runs a
# program built against the packed DLL with the packed native library of this machine.
# Fails loudly on the first failing step.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing cmake make mcs mono cc python3 readelf

step "the release library as CMake builds it (scripts/lib.sh: cmake_release_library)" cmake_release_library
step "symbol versions of target/release/libtensorcast.so" \
  versioned_exports target/release/libtensorcast.so

out=build/csharp
mkdir -p "$out"
project=bindings/csharp/src/TensorcastSharp.csproj

csproj_check() {
  python3 scripts/csproj.py check "$project" Cargo.toml
  # The check itself: a .cs file the .csproj does not list, and a version that is not
  # Cargo.toml's, must each fail it.
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  cp bindings/csharp/src/*.cs "$project" "$tmp/"
  touch "$tmp/Stray.cs"
  if python3 scripts/csproj.py check "$tmp/TensorcastSharp.csproj" Cargo.toml 2>/dev/null; then
    echo "error: csproj.py check accepted an unlisted Stray.cs" >&2
    return 1
  fi
  rm "$tmp/Stray.cs"
  cp "$project" "$tmp/good.csproj"
  sed -i 's|<Version>[^<]*</Version>|<Version>9.9.9</Version>|' "$tmp/TensorcastSharp.csproj"
  if python3 scripts/csproj.py check "$tmp/TensorcastSharp.csproj" Cargo.toml 2>/dev/null; then
    echo "error: csproj.py check accepted version 9.9.9" >&2
    return 1
  fi
  # A licence other than Cargo.toml's, and a packed item under a Condition (the Mono
  # packer would pack it unconditionally), must fail it too.
  sed 's|<PackageLicenseExpression>[^<]*<|<PackageLicenseExpression>MIT<|' "$tmp/good.csproj" \
    >"$tmp/TensorcastSharp.csproj"
  if python3 scripts/csproj.py check "$tmp/TensorcastSharp.csproj" Cargo.toml 2>/dev/null; then
    echo "error: csproj.py check accepted the licence expression MIT" >&2
    return 1
  fi
  sed 's|<None Include="../../../LICENSE-MIT"|<None Condition="true" Include="../../../LICENSE-MIT"|' \
    "$tmp/good.csproj" >"$tmp/TensorcastSharp.csproj"
  grep -q 'Condition="true"' "$tmp/TensorcastSharp.csproj"
  if python3 scripts/csproj.py check "$tmp/TensorcastSharp.csproj" Cargo.toml 2>/dev/null; then
    echo "error: csproj.py check accepted a packed item under a Condition" >&2
    return 1
  fi
}
step "$project lists every src/*.cs, at Cargo.toml's version and licence" csproj_check

layout() {
  cc -std=c11 -Wall -Wextra -Werror -Iinclude bindings/csharp/tests/layout.c -o "$out/layout"
  "$out/layout" > "$out/layout.txt"
}
step "struct layout as the C compiler sees it ($out/layout.txt)" layout

compile() {
  local mcs_flags=(-unsafe -warn:4 -warnaserror -nologo)
  # The files `dotnet build` compiles: the .csproj's <Compile> items.
  local sources
  mapfile -t sources < <(python3 scripts/csproj.py sources "$project")
  mcs "${mcs_flags[@]}" -target:library \
    -out:"$out/TensorcastSharp.dll" "${sources[@]}"
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

step "scripts/pack-csharp.sh" bash scripts/pack-csharp.sh

rid=$(nuget_rid)
version=$(python3 scripts/csproj.py property "$project" Version)
nupkg=$out/TensorcastSharp.$version.nupkg
unpacked=$PWD/$out/unpacked

package_layout() {
  python3 bindings/csharp/tests/package/check_nupkg.py "$nupkg"
  rm -rf "$unpacked"
  python3 -m zipfile -e "$nupkg" "$unpacked"
  cmp target/release/libtensorcast.so "$unpacked/runtimes/linux-x64/native/libtensorcast.so"
  cmp target/cross/aarch64-unknown-linux-gnu/release/libtensorcast.so \
    "$unpacked/runtimes/linux-arm64/native/libtensorcast.so"
}
step "package layout: $nupkg (licences, linux-x64 and linux-arm64 natives)" package_layout

# A program compiled against the packed DLL, run from the unpacked package (MONO_PATH),
# not against build/csharp's copy and without target/release on LD_LIBRARY_PATH.
package_program() {
  local check=$out/package-check native=$unpacked/runtimes/$rid/native
  local lib=$native/libtensorcast.so
  rm -rf "$check"
  mkdir -p "$check"
  mcs -warn:4 -warnaserror -nologo -r:"$unpacked/lib/netstandard2.0/TensorcastSharp.dll" \
    -out:"$check/PackageCheck.exe" bindings/csharp/tests/package/PackageCheck.cs
  local run=(env -u LD_LIBRARY_PATH -u TENSORCAST_LIBRARY MONO_PATH="$unpacked/lib/netstandard2.0")

  echo "-- Mono, nothing set: the package's runtimes/$rid/native/ is found from lib/netstandard2.0/:"
  "${run[@]}" mono "$check/PackageCheck.exe" "$lib" "$lib"

  echo "-- LD_LIBRARY_PATH=<package>/runtimes/$rid/native and TENSORCAST_LIBRARY set: that file is loaded, on Mono too:"
  "${run[@]}" LD_LIBRARY_PATH="$native" TENSORCAST_LIBRARY="$PWD/target/release/libtensorcast.so" \
    mono "$check/PackageCheck.exe" target/release/libtensorcast.so target/release/libtensorcast.so

  echo "-- the DLL and libtensorcast.so copied beside the program, no LD_LIBRARY_PATH:"
  cp "$unpacked/lib/netstandard2.0/TensorcastSharp.dll" "$lib" "$check/"
  env -u LD_LIBRARY_PATH -u TENSORCAST_LIBRARY -u MONO_PATH \
    mono "$check/PackageCheck.exe" "$check/libtensorcast.so" "$check/libtensorcast.so"

  # What a runtime package installs: the SONAME alone, no libtensorcast.so link.
  echo "-- only libtensorcast.so.0 on LD_LIBRARY_PATH (a runtime package's file): loaded by its SONAME:"
  local soname_dir=$out/soname-only program=$out/soname-program
  rm -rf "$soname_dir" "$program"
  mkdir -p "$soname_dir" "$program"
  cp "$lib" "$soname_dir/libtensorcast.so.0"
  cp "$check/PackageCheck.exe" "$unpacked/lib/netstandard2.0/TensorcastSharp.dll" "$program/"
  env -u TENSORCAST_LIBRARY -u MONO_PATH LD_LIBRARY_PATH="$soname_dir" \
    mono "$program/PackageCheck.exe" "$soname_dir/libtensorcast.so.0" none null
}
step "a program on the packed DLL finds the packed native library (mono)" package_program

step "C# bindings: all tests passed"
