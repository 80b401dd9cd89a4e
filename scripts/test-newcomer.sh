#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The path of a newcomer who downloads the release, checked from end to end:
#
#   1. scripts/dist.sh --reuse writes the release tarballs (build/dist/); both are unpacked in a
#      scratch directory, as docs/packaging.md says, and nothing of this checkout is used
#      after that: the scripts and sources are the unpacked tree's.
#   2. The library is built offline (an empty CARGO_HOME, CARGO_NET_OFFLINE=true, cargo
#      --offline from the vendored crates) with the README's install line
#      (-DTCAST_BUILD_TESTS=OFF: no C or C++ test is built) and -DTCAST_INSTALL_CSHARP=ON,
#      and installed with `cmake --install build --prefix PREFIX`. Unoptimised
#      (CARGO_PROFILE_RELEASE_OPT_LEVEL=0, a fifth of the CPU time): what is proved is the
#      path, not the code, whose optimised build from the same tarballs is the
#      packages', steps deb and rpm; TCAST_NEWCOMER_OPT_LEVEL=3 builds it as is.
#   3. Against that prefix only, four programs are built and run:
#      C    tests/consumer through CMake's find_package (CMAKE_PREFIX_PATH=PREFIX);
#      C++  examples/quickstart.cpp through pkg-config (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig);
#      Go   the example module of bindings/go/README.md, -tags tensorcast_pkgconfig;
#      C#   bindings/csharp/examples/Example.cs compiled with mcs against the installed
#           PREFIX/lib/TensorcastSharp.dll, run with MONO_PATH=PREFIX/lib: the assembly
#           finds the installed libtensorcast.so beside it.
#      Each prints what its document says it prints.
#
#   bash scripts/test-newcomer.sh
#
# Installs cmake, make, a C and C++ compiler, pkg-config, Go and Mono's mcs from the
# system's packages when missing. The scratch directory is removed when every check
# passed and kept otherwise. Ends with "newcomer: N passed, M failed"; exits non-zero on
# any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing cmake make cc c++ pkg-config go mcs mono

version=$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
major=${version%%.*}
soname=libtensorcast.so.$major
work=$(mktemp -d)
src=$work/tensorcast-$version
prefix=$work/prefix
libdir=$prefix/lib

step "bash scripts/dist.sh --reuse" bash scripts/dist.sh --reuse

unpack() {
  tar -xzf "build/dist/tensorcast-$version.tar.gz" -C "$work"
  tar -xzf "build/dist/tensorcast-$version-vendor.tar.gz" -C "$work"
  [ ! -e "$src/.git" ] || fail "the source tarball holds .git"
  ls "$src"
}
step "both tarballs unpacked in $work" unpack

# From here on, the unpacked tree only.
cd "$src"

build_install() {
  local line
  # The README's install line, as the README writes it, plus the offline and C# options.
  line=$(awk '$0 == "```sh" { inside = 1; next } inside && $0 == "```" { inside = 0 }
    inside && /^cmake -S \. / { print; exit }' README.md)
  line=${line%%#*}
  echo "README: $line"
  grep -q -- '-DTCAST_BUILD_TESTS=OFF' <<<"$line" || fail "the README's install line builds the tests"
  # shellcheck disable=SC2086 # the README's words, split as a shell would
  set -- ${line#cmake }
  mkdir -p "$work/cargo-home"
  CARGO_HOME=$work/cargo-home CARGO_NET_OFFLINE=true \
    cmake "$@" -DTCAST_CARGO_OFFLINE=ON -DTCAST_INSTALL_CSHARP=ON >"$work/configure.log" ||
    { cat "$work/configure.log" >&2; exit 1; }
  CARGO_HOME=$work/cargo-home CARGO_NET_OFFLINE=true \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=${TCAST_NEWCOMER_OPT_LEVEL:-0} \
    cmake --build build/cmake >"$work/build.log" 2>&1 ||
    { tail -n 40 "$work/build.log" >&2; exit 1; }
  cmake --install build/cmake --prefix "$prefix" >"$work/install.log" ||
    { cat "$work/install.log" >&2; exit 1; }
  if [ -e "$work/cargo-home/registry" ] || [ -e "$work/cargo-home/git" ]; then
    fail "cargo fetched into CARGO_HOME"
  fi
  ! grep -n -i -e 'jobserver' "$work/build.log" || fail "a jobserver warning in the build"
  ! find build/cmake -name 'test_*' -type f -perm -u+x | grep . || fail "C or C++ tests were built"
  (cd "$prefix" && find . -type f -o -type l | sort | grep -v '^\./share/doc/')
}
check "offline build with the README's install line, -DTCAST_INSTALL_CSHARP=ON, installed into $prefix" \
  build_install

# Every relative link of the installed documents leads to an installed file
# (check_doc_links: scripts/lib.sh).
doc_links() {
  check_doc_links "$prefix/share/doc"
}
check "the installed documents link only to installed files" doc_links

# ldd_installed EXE: EXE loads the installed library.
ldd_installed() {
  env -u LD_LIBRARY_PATH ldd "$1" | grep -F "$soname => $libdir/$soname" ||
    fail "$1 does not load $libdir/$soname: $(env -u LD_LIBRARY_PATH ldd "$1")"
}

c_program() {
  cmake -S tests/consumer -B "$work/c" -DCMAKE_PREFIX_PATH="$prefix" >"$work/c.log" ||
    { cat "$work/c.log" >&2; exit 1; }
  cmake --build "$work/c" >>"$work/c.log" || { cat "$work/c.log" >&2; exit 1; }
  env -u LD_LIBRARY_PATH "$work/c/consumer_shared" | tee "$work/c.out"
  grep -q -F "tensorcast $version: f32 -> f16 -> f32 ok" "$work/c.out" || fail "unexpected output"
  ldd_installed "$work/c/consumer_shared"
}
check "C: tests/consumer with find_package(tensorcast), CMAKE_PREFIX_PATH=$prefix" c_program

cpp_program() {
  local flags
  flags=$(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs tensorcast)
  echo "pkg-config: $flags"
  # shellcheck disable=SC2086 # pkg-config's output is a list of words
  c++ -std=c++17 -Wall -Wextra -Werror examples/quickstart.cpp -o "$work/cpp" $flags \
    -Wl,-rpath,"$libdir"
  env -u LD_LIBRARY_PATH "$work/cpp" | tee "$work/cpp.out"
  grep -q -F '65504 -> 0x7bff -> 65504' "$work/cpp.out" || fail "unexpected output"
  ldd_installed "$work/cpp"
}
check "C++17: examples/quickstart.cpp with pkg-config, PKG_CONFIG_PATH=$libdir/pkgconfig" cpp_program

go_program() {
  local dir=$work/go
  bash scripts/go-consumer.sh "$dir"
  cd "$dir"
  go_env "$work/go-cache"
  export GOFLAGS=
  go mod vendor
  PKG_CONFIG_PATH=$libdir/pkgconfig CGO_LDFLAGS="-Wl,-rpath,$libdir" \
    go build -mod=vendor -tags tensorcast_pkgconfig -o hello .
  ldd_installed hello
  env -u LD_LIBRARY_PATH ./hello >output.txt
  diff -u expected-output.txt output.txt ||
    fail "the Go example's output differs from bindings/go/README.md's (- README, + actual)"
  head -n 2 output.txt
}
check "Go: bindings/go/README.md's example, -tags tensorcast_pkgconfig, against $prefix" go_program

csharp_program() {
  local dll=$libdir/TensorcastSharp.dll
  [ -f "$dll" ] || fail "$dll is not installed"
  mcs -nologo -warnaserror -r:"$dll" -out:"$work/Example.exe" bindings/csharp/examples/Example.cs
  # What the README says it prints: the block after "What it prints".
  awk '/^What it prints/ { found = 1; next }
    found && $0 == "```" { if (inside) exit; inside = 1; next }
    inside { print }' bindings/csharp/README.md >"$work/cs-expected.txt"
  [ -s "$work/cs-expected.txt" ] || fail "no expected output in bindings/csharp/README.md"
  env -u LD_LIBRARY_PATH -u TENSORCAST_LIBRARY MONO_PATH="$libdir" mono "$work/Example.exe" \
    >"$work/cs.out"
  diff -u "$work/cs-expected.txt" "$work/cs.out" ||
    fail "the C# example's output differs from bindings/csharp/README.md's (- README, + actual)"
  head -n 2 "$work/cs.out"
}
check "C#: Example.cs against the installed TensorcastSharp.dll (MONO_PATH=$libdir), no TENSORCAST_LIBRARY" \
  csharp_program

if [ "$failed" -eq 0 ]; then rm -rf "$work"; else echo "kept: $work" >&2; fi
printf '\nnewcomer: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
