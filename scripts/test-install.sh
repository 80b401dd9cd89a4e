#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Tests tensorcast as an installed system library: builds it with CMake (release profile,
# build dir build/cmake-install), installs it into a fresh prefix, checks what was
# installed (files, links, SONAME, exported symbols, package metadata, the licences and
# docs under share/doc/tensorcast, no build machine path in the libraries; with
# -DTCAST_BUILD_ORT=ON, the onnxruntime plugin in <libdir>/tensorcast/ with its SONAME
# and its three exports, built in the same cargo run) and builds and
# runs a separate C project against it (tests/consumer/) four ways: CMake find_package
# with the shared and the static library, and plain cc with pkg-config, shared and
# --static; and the Go binding's README example, vendored, with -tags tensorcast_pkgconfig.
# Then as a packager splits it: installs with -DTCAST_INSTALL_STATIC=OFF and with
# -DTCAST_INSTALL_SHARED=OFF into prefixes of their own (build dirs
# build/cmake-install-shared and -static; cargo has nothing to rebuild) and builds the
# consumer against each through find_package (with and without COMPONENTS; a missing
# component requested is refused with a message naming it) and pkg-config; and removes
# libtensorcast.a from a copy of the full install, as a distribution without static
# libraries ships it.
# Checks cmake/native-static-libs.txt against `cargo rustc -- --print native-static-libs`
# (in build/native-static-libs, a target directory of its own, where the library is
# compiled anew each run), and builds the same C project with this tree taken in by
# add_subdirectory(): the same target names, and no test or example of tensorcast's built.
#
#   bash scripts/test-install.sh [prefix]
#
# The prefix defaults to a new `mktemp -d` directory; the consumers and the shared-only
# and static-only prefixes are in another temporary directory. Both are removed when every
# check passed and kept otherwise.
# Installs cmake, make, a C compiler, pkg-config, binutils and Go from the system's
# packages when missing (Debian/Ubuntu). Ends with "install: N passed, M failed"; exits nonzero on
# any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing cmake make cc c++ pkg-config readelf nm go

if [ $# -gt 0 ]; then
  mkdir -p "$1"
  prefix=$(cd "$1" && pwd)
else
  prefix=$(mktemp -d)
fi
work=$(mktemp -d)
version=$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
major=${version%%.*}
real_name=libtensorcast.so.$version
soname=libtensorcast.so.$major

# check and fail: scripts/lib.sh.

build_and_install() {
  cmake -S . -B build/cmake-install -DTCAST_CARGO_PROFILE=release \
    -DTCAST_BUILD_TESTS=OFF -DTCAST_BUILD_EXAMPLES=OFF -DTCAST_BUILD_ORT=ON
  cmake --build build/cmake-install
  cmake --install build/cmake-install --prefix "$prefix"
}
step "build and install tensorcast $version (release) into $prefix" build_and_install
# GNUInstallDirs picks the library directory; under a prefix other than /usr it is "lib".
libdir_rel=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' build/cmake-install/CMakeCache.txt)
includedir_rel=$(sed -n 's/^CMAKE_INSTALL_INCLUDEDIR:[A-Z]*=//p' build/cmake-install/CMakeCache.txt)
# CMAKE_INSTALL_DOCDIR's cache entry stays empty unless set: it is DATAROOTDIR/doc/<project>.
docdir_rel=$(sed -n 's/^CMAKE_INSTALL_DATAROOTDIR:[A-Z]*=//p' build/cmake-install/CMakeCache.txt)/doc/tensorcast
libdir=$prefix/$libdir_rel
includedir=$prefix/$includedir_rel
# The onnxruntime plugin (TCAST_BUILD_ORT): TCAST_INSTALL_ORTDIR, <libdir>/tensorcast.
ort_rel=$libdir_rel/tensorcast/libtensorcast_ort.so
echo "library directory: $libdir"
# What the static link needs besides libtensorcast.a, as -l flags.
native_libs=$(grep -v '^#' cmake/native-static-libs.txt | xargs -n 1 | sed 's/^/-l/' | xargs)

step "what was installed"

# expected_files KIND: what an install holds, relative to its prefix, sorted. KIND: full
# (both libraries), shared (-DTCAST_INSTALL_STATIC=OFF) or static (-DTCAST_INSTALL_SHARED=OFF).
expected_files() {
  local kind=$1 name
  {
    printf '%s\n' \
      "$includedir_rel/tensorcast.h" \
      "$includedir_rel/tensorcast.hpp" \
      "$libdir_rel/cmake/tensorcast/tensorcastConfig.cmake" \
      "$libdir_rel/cmake/tensorcast/tensorcastConfigVersion.cmake" \
      "$libdir_rel/pkgconfig/tensorcast.pc"
    if [ "$kind" != static ]; then
      printf '%s\n' \
        "$libdir_rel/$real_name" \
        "$libdir_rel/$soname" \
        "$libdir_rel/libtensorcast.so" \
        "$libdir_rel/cmake/tensorcast/tensorcastTargets-shared.cmake"
    fi
    if [ "$kind" != shared ]; then
      printf '%s\n' \
        "$libdir_rel/libtensorcast.a" \
        "$libdir_rel/cmake/tensorcast/tensorcastTargets-static.cmake"
    fi
    # The full install is the one built with -DTCAST_BUILD_ORT=ON.
    if [ "$kind" = full ]; then
      echo "$ort_rel"
    fi
    # The licences and the README always, the changelog and the security policy when the
    # tree has them; the pages of docs/ in docs/.
    local name
    for name in LICENSE-MIT LICENSE-APACHE README.md; do
      echo "$docdir_rel/$name"
    done
    for name in CHANGELOG.md SECURITY.md CONTRIBUTING.md bindings/go/README.md \
      bindings/csharp/README.md integrations/onnxruntime/README.md; do
      [ ! -f "$repo/$name" ] || echo "$docdir_rel/$name"
    done
    for name in "$repo"/docs/*.md "$repo"/docs/perf/*; do
      echo "$docdir_rel/${name#"$repo"/}"
    done
  } | sort
}

# installed_files PREFIX KIND: the files and links under PREFIX are exactly those of KIND.
installed_files() {
  local dir=$1 kind=$2 expected actual
  expected=$(expected_files "$kind")
  actual=$(cd "$dir" && find . -mindepth 1 \( -type f -o -type l \) | sed 's|^\./||' | sort)
  if [ "$expected" != "$actual" ]; then
    diff <(echo "$expected") <(echo "$actual") >&2 || true
    fail "the installed files differ from the expected list (< expected, > installed)"
  fi
  cmp "$dir/$includedir_rel/tensorcast.h" include/tensorcast.h
  cmp "$dir/$includedir_rel/tensorcast.hpp" include/tensorcast.hpp
  if [ "$kind" != static ] && { [ ! -f "$dir/$libdir_rel/$real_name" ] ||
    [ -L "$dir/$libdir_rel/$real_name" ]; }; then
    fail "$real_name is not a file"
  fi
  printf '%s\n' "$actual"
}
check "the installed files are exactly the expected ones" installed_files "$prefix" full

symlinks() {
  [ "$(readlink "$libdir/$soname")" = "$real_name" ] || fail "$soname -> $(readlink "$libdir/$soname")"
  [ "$(readlink "$libdir/libtensorcast.so")" = "$soname" ] ||
    fail "libtensorcast.so -> $(readlink "$libdir/libtensorcast.so")"
  ls -l "$libdir"/libtensorcast.so*
}
check "$soname -> $real_name and libtensorcast.so -> $soname" symlinks

soname_check() {
  local dynamic
  dynamic=$(readelf -d "$libdir/$real_name")
  grep SONAME <<<"$dynamic" || fail "no SONAME at all"
  grep -q "Library soname: \[$soname\]" <<<"$dynamic" || fail "the SONAME is not $soname"
}
check "readelf -d: SONAME is $soname" soname_check

exports() {
  local symbols others
  # The names without their symbol version (tcast_cast@@TENSORCAST_0), less the absolute
  # symbol GNU ld makes of the version's own name (scripts/test-abi.sh checks versions).
  symbols=$(nm -D --defined-only "$libdir/$real_name" | awk '$2 != "A" {print $NF}' | sed 's/@.*//')
  others=$(grep -v '^tcast_' <<<"$symbols" || true)
  [ -z "$others" ] || fail "exported besides tcast_*: $others"
  grep -qx tcast_cast <<<"$symbols" || fail "tcast_cast is not exported"
  echo "$(wc -l <<<"$symbols") symbols, all tcast_*"
}
check "nm -D: the shared library exports only tcast_* symbols" exports

# The plugin as integrations/onnxruntime/build.rs links it: SONAME libtensorcast_ort.so,
# onnxruntime's three entry points and nothing else (no tcast_*), the core linked in
# (no libtensorcast.so.N needed), and it loads.
ort_plugin() {
  local so=$prefix/$ort_rel dynamic symbols
  dynamic=$(readelf -d "$so")
  grep -q "Library soname: \[libtensorcast_ort.so\]" <<<"$dynamic" ||
    fail "the plugin's SONAME is not libtensorcast_ort.so: $(grep SONAME <<<"$dynamic")"
  ! grep -q "Shared library: \[libtensorcast" <<<"$dynamic" || fail "the plugin needs libtensorcast"
  symbols=$(nm -D --defined-only "$so" | awk '{print $NF}' | sort | xargs)
  [ "$symbols" = "CreateEpFactories RegisterCustomOps ReleaseEpFactory" ] ||
    fail "the plugin exports: $symbols"
  python3 -c 'import ctypes, sys; lib = ctypes.CDLL(sys.argv[1]); lib.CreateEpFactories' "$so"
  echo "$so: SONAME libtensorcast_ort.so, exports $symbols"
}
check "-DTCAST_BUILD_ORT=ON: $ort_rel, its SONAME and three exports" ort_plugin

docs() {
  local name
  for name in LICENSE-MIT LICENSE-APACHE README.md CHANGELOG.md SECURITY.md CONTRIBUTING.md \
    bindings/go/README.md bindings/csharp/README.md integrations/onnxruntime/README.md; do
    [ ! -f "$name" ] || cmp "$prefix/$docdir_rel/$name" "$name"
  done
  for name in docs/*.md docs/perf/*; do
    cmp "$prefix/$docdir_rel/$name" "$name"
  done
  ls "$prefix/$docdir_rel" "$prefix/$docdir_rel/docs"
  check_doc_links "$prefix/$docdir_rel"
}
check "$docdir_rel: the licences, README.md (CHANGELOG.md, SECURITY.md, CONTRIBUTING.md, the bindings' READMEs) and docs/*.md, as in the tree, linking only to installed files" docs

# build_paths FILE...: fails when a file holds this tree's path or CARGO_HOME's (the
# build's default -DTCAST_REMAP_PATHS=ON maps them to tensorcast-<version> and cargo-home).
build_paths() {
  build_paths_absent "$repo" "${CARGO_HOME:-$HOME/.cargo}" -- "$@"
}
installed_paths() {
  build_paths "$libdir/$real_name" "$libdir/libtensorcast.a" "$prefix/$ort_rel"
}
check "the installed libraries hold neither the source tree's nor CARGO_HOME's path" installed_paths

export PKG_CONFIG_PATH="$libdir/pkgconfig"
pc_metadata() {
  local got_version got_libdir
  got_version=$(pkg-config --modversion tensorcast)
  got_libdir=$(pkg-config --variable=libdir tensorcast)
  echo "pkg-config: version $got_version, libdir $got_libdir"
  echo "  --cflags --libs:          $(pkg-config --cflags --libs tensorcast)"
  echo "  --static --cflags --libs: $(pkg-config --static --cflags --libs tensorcast)"
  [ "$got_version" = "$version" ] || fail "version $got_version, expected $version"
  [ "$got_libdir" = "$libdir" ] || fail "libdir $got_libdir, expected $libdir"
  [ "$(pkg-config --variable=includedir tensorcast)" = "$includedir" ] || fail "includedir"
}
check "tensorcast.pc: version, libdir and includedir of this install" pc_metadata

step "a separate C project (tests/consumer) against the installed copy"

# run_consumer EXE NEEDED: runs EXE without LD_LIBRARY_PATH (the shared programs find
# the library through their RUNPATH), checks its output, and that it needs
# libtensorcast.so.X and loads it from the directory NEEDED (this prefix's libdir unless
# told otherwise), or that it needs no libtensorcast at all (NEEDED = none).
run_consumer() {
  local exe=$1 needed=$2 output
  output=$(env -u LD_LIBRARY_PATH "$exe")
  echo "$output"
  [ "$(tail -n 1 <<<"$output")" = "tensorcast $version: f32 -> f16 -> f32 ok" ] ||
    fail "$exe printed no success line"
  if [ "$needed" != none ]; then
    grep -q "Shared library: \[$soname\]" <<<"$(readelf -d "$exe")" || fail "$exe does not need $soname"
    grep -q "$soname => $needed/$soname" <<<"$(env -u LD_LIBRARY_PATH ldd "$exe")" ||
      fail "$exe does not load $needed/$soname: $(env -u LD_LIBRARY_PATH ldd "$exe")"
  else
    if grep -q 'Shared library: \[libtensorcast' <<<"$(readelf -d "$exe")"; then
      fail "$exe needs a shared libtensorcast"
    fi
  fi
}

# consumer_build DIR PREFIX [CMAKE-ARG...]: configures and builds tests/consumer in DIR
# against the install in PREFIX (log in DIR.log) and prints what find_package found.
consumer_build() {
  local build=$1 dir=$2
  shift 2
  cmake -S "$repo/tests/consumer" -B "$build" -DCMAKE_PREFIX_PATH="$dir" "$@" >"$build.log" 2>&1 ||
    { cat "$build.log" >&2; exit 1; }
  grep -e 'tensorcast .* from' -e 'tensorcast components found' "$build.log"
  cmake --build "$build" >"$build-build.log" 2>&1 || { cat "$build-build.log" >&2; exit 1; }
}

# consumer_refused DIR PREFIX COMPONENT MISSING: find_package(tensorcast COMPONENTS
# COMPONENT) against PREFIX must fail, with a message that names the component and the
# file MISSING.
consumer_refused() {
  local build=$1 dir=$2 component=$3 missing_file=$4 message
  if cmake -S "$repo/tests/consumer" -B "$build" -DCMAKE_PREFIX_PATH="$dir" \
    -DTENSORCAST_COMPONENTS="$component" >"$build.log" 2>&1; then
    fail "find_package(tensorcast COMPONENTS $component) succeeded"
  fi
  # CMake wraps the message: compare with the lines joined.
  message=$(tr -s ' \n' '  ' <"$build.log")
  if ! grep -qF "the component \"$component\"" <<<"$message" ||
    ! grep -qF "is not installed: $missing_file does not exist" <<<"$message"; then
    cat "$build.log" >&2
    fail "the message does not name the component and $missing_file"
  fi
  sed -n '/Reason given by package/,/Configuring incomplete/p' "$build.log" | grep -v '^$'
}

# consumer_found BUILD-LOG SHARED STATIC: the components find_package reported.
consumer_found() {
  grep -q "tensorcast components found: shared=$2 static=$3" "$1" ||
    fail "find_package did not report shared=$2 static=$3"
}

cmake_shared() {
  consumer_build "$work/cmake-consumer" "$prefix"
  consumer_found "$work/cmake-consumer.log" TRUE TRUE
  run_consumer "$work/cmake-consumer/consumer_shared" "$libdir"
}
check "CMake find_package(tensorcast CONFIG): tensorcast::tensorcast (shared)" cmake_shared

cmake_static() {
  run_consumer "$work/cmake-consumer/consumer_static" none
}
check "CMake find_package(tensorcast CONFIG): tensorcast::tensorcast_static" cmake_static

cmake_components() {
  consumer_build "$work/cmake-components" "$prefix" -DTENSORCAST_COMPONENTS="shared;static"
  consumer_found "$work/cmake-components.log" TRUE TRUE
  run_consumer "$work/cmake-components/consumer_shared" "$libdir"
  run_consumer "$work/cmake-components/consumer_static" none
}
check "CMake find_package(tensorcast CONFIG COMPONENTS shared static)" cmake_components

cmake_unknown_component() {
  if cmake -S "$repo/tests/consumer" -B "$work/cmake-unknown" -DCMAKE_PREFIX_PATH="$prefix" \
    -DTENSORCAST_COMPONENTS=dynamic >"$work/cmake-unknown.log" 2>&1; then
    fail "find_package(tensorcast COMPONENTS dynamic) succeeded"
  fi
  tr -s ' \n' '  ' <"$work/cmake-unknown.log" | grep -qF 'there is no component "dynamic"' ||
    { cat "$work/cmake-unknown.log" >&2; fail "the message does not say there is no such component"; }
  echo "refused: there is no component \"dynamic\""
}
check "CMake find_package(tensorcast COMPONENTS dynamic): an unknown component is refused" \
  cmake_unknown_component

cmake_version_refused() {
  local next=$((major + 1)).0
  if cmake -S "$repo/tests/consumer" -B "$work/cmake-next-major" -DCMAKE_PREFIX_PATH="$prefix" \
    -DTENSORCAST_REQUEST="$next" >"$work/cmake-next-major.log" 2>&1; then
    fail "find_package(tensorcast $next) accepted version $version"
  fi
  grep -q "tensorcastConfig.cmake, version: $version" "$work/cmake-next-major.log" ||
    { cat "$work/cmake-next-major.log" >&2; fail "not refused for its version"; }
  echo "find_package(tensorcast $next) refuses $version, as SameMajorVersion says"
}
check "tensorcastConfigVersion.cmake: a request for the next major version is refused" \
  cmake_version_refused

cmake_relocated() {
  local moved=$work/moved-prefix build=$work/cmake-relocated
  cp -a "$prefix" "$moved"
  cmake -S "$repo/tests/consumer" -B "$build" -DCMAKE_PREFIX_PATH="$moved" >/dev/null
  cmake --build "$build" >/dev/null
  grep -q "$soname => $moved/$libdir_rel/$soname" <<<"$(env -u LD_LIBRARY_PATH ldd "$build/consumer_shared")" ||
    fail "the consumer of the moved tree does not load it: $(ldd "$build/consumer_shared")"
  tail -n 1 <<<"$(env -u LD_LIBRARY_PATH "$build/consumer_shared")"
  echo "built and ran against a copy of the prefix in $moved"
}
check "the CMake package works from a copy of the prefix elsewhere (relocatable)" cmake_relocated

pc_shared() {
  local exe=$work/pc_shared
  # shellcheck disable=SC2046 # pkg-config's output is a list of words
  cc "$repo/tests/consumer/main.c" -o "$exe" $(pkg-config --cflags --libs tensorcast) \
    -Wl,-rpath,"$(pkg-config --variable=libdir tensorcast)"
  run_consumer "$exe" "$libdir"
}
check "cc \$(pkg-config --cflags --libs tensorcast), rpath to its libdir (shared)" pc_shared

pc_cpp() {
  local exe=$work/pc_cpp
  # shellcheck disable=SC2046 # pkg-config's output is a list of words
  c++ -std=c++17 -Wall -Wextra -Wpedantic -Werror "$repo/examples/quickstart.cpp" -o "$exe" \
    $(pkg-config --cflags --libs tensorcast) -Wl,-rpath,"$(pkg-config --variable=libdir tensorcast)"
  "$exe" | tee "$work/pc_cpp.out"
  grep -q '65504 -> 0x7bff -> 65504' "$work/pc_cpp.out" || fail "unexpected output"
  ldd "$exe" | grep -F "$libdir/$soname" || fail "not linked against the installed library"
}
check "c++ -std=c++17 examples/quickstart.cpp (tensorcast.hpp) with pkg-config" pc_cpp

# pc_fully_static EXE: links tests/consumer/main.c with -static and the flags of
# `pkg-config --static`, checks that EXE has no dynamic section and runs it.
pc_fully_static() {
  local exe=$1
  # glibc warns that a static program calling getaddrinfo/getpwuid_r needs its shared
  # libraries at run time (Rust's std has such calls; tensorcast never makes them).
  # shellcheck disable=SC2046
  cc -static "$repo/tests/consumer/main.c" -o "$exe" \
    $(pkg-config --static --cflags --libs tensorcast) 2>"$exe.log" ||
    { cat "$exe.log" >&2; exit 1; }
  local unexpected
  unexpected=$(grep -v -e 'in statically linked applications requires at runtime' \
    -e ': in function ' "$exe.log" || true)
  [ -z "$unexpected" ] || fail "unexpected compiler or linker output: $unexpected"
  grep -q 'no dynamic section' <<<"$(readelf -d "$exe")" || fail "$exe is not fully static"
  run_consumer "$exe" none
}
pc_static() {
  pc_fully_static "$work/pc_static"
}
check "cc -static \$(pkg-config --static --cflags --libs tensorcast) (fully static)" pc_static

# The Go binding as bindings/go/README.md says to build it against an installed library:
# its example module (scripts/go-consumer.sh), vendored, with the pkg-config build tag
# and the README's rpath line instead of LD_LIBRARY_PATH.
go_pkgconfig() {
  local dir=$work/go-consumer
  bash "$repo/scripts/go-consumer.sh" "$dir"
  cd "$dir"
  go_env "$work/go-cache"
  export GOFLAGS=
  go mod vendor
  CGO_LDFLAGS="-Wl,-rpath,$(pkg-config --variable=libdir tensorcast)" \
    go build -mod=vendor -tags tensorcast_pkgconfig -o hello .
  grep -q "$soname => $libdir/$soname" <<<"$(env -u LD_LIBRARY_PATH ldd hello)" ||
    fail "the Go program does not load the installed library: $(env -u LD_LIBRARY_PATH ldd hello)"
  env -u LD_LIBRARY_PATH ./hello >output.txt
  diff -u expected-output.txt output.txt ||
    fail "the Go example's output differs from bindings/go/README.md's (- README, + actual)"
  head -n 2 output.txt
}
check "Go: the README example, vendored, -tags tensorcast_pkgconfig, rpath from pkg-config" go_pkgconfig
check "README.md's pkg-config, CMake and Go blocks against $prefix (tests/docs/native_snippets.py)" \
  python3 tests/docs/native_snippets.py "$prefix"

# install_variant KIND: configures build/cmake-install-KIND with the other library's
# TCAST_INSTALL_* option OFF, builds it (the same cargo flags and environment as above:
# cargo has nothing to do) and installs it into $work/prefix-KIND.
install_variant() {
  local kind=$1 option
  case $kind in
    shared) option=-DTCAST_INSTALL_STATIC=OFF ;;
    static) option=-DTCAST_INSTALL_SHARED=OFF ;;
  esac
  cmake -S . -B "build/cmake-install-$kind" -DTCAST_CARGO_PROFILE=release \
    -DTCAST_BUILD_TESTS=OFF -DTCAST_BUILD_EXAMPLES=OFF -DTCAST_INSTALL_SHARED=ON \
    -DTCAST_INSTALL_STATIC=ON "$option"
  cmake --build "build/cmake-install-$kind"
  cmake --install "build/cmake-install-$kind" --prefix "$work/prefix-$kind"
}

step "only the shared library: -DTCAST_INSTALL_STATIC=OFF, into $work/prefix-shared" \
  install_variant shared
shared_prefix=$work/prefix-shared
shared_libdir=$shared_prefix/$libdir_rel

check "shared only: the installed files are exactly the expected ones" \
  installed_files "$shared_prefix" shared

shared_pc() {
  local pc=$shared_libdir/pkgconfig/tensorcast.pc
  export PKG_CONFIG_PATH=$shared_libdir/pkgconfig
  cat "$pc"
  ! grep -q '^Libs.private' "$pc" || fail "tensorcast.pc has a Libs.private line"
  # (xargs: pkg-config ends its output with a space)
  [ "$(pkg-config --libs tensorcast | xargs)" = "-L$shared_libdir -ltensorcast" ] ||
    fail "pkg-config --libs: $(pkg-config --libs tensorcast)"
  [ "$(pkg-config --static --libs tensorcast | xargs)" = "-L$shared_libdir -ltensorcast" ] ||
    fail "pkg-config --static --libs: $(pkg-config --static --libs tensorcast)"
}
check "shared only: tensorcast.pc has no Libs.private (nothing for a static link)" shared_pc

shared_cmake() {
  consumer_build "$work/shared-default" "$shared_prefix"
  consumer_found "$work/shared-default.log" TRUE FALSE
  [ ! -e "$work/shared-default/consumer_static" ] || fail "tensorcast::tensorcast_static was defined"
  run_consumer "$work/shared-default/consumer_shared" "$shared_libdir"
}
check "shared only: find_package(tensorcast) finds tensorcast::tensorcast, no static target" \
  shared_cmake

shared_cmake_components() {
  consumer_build "$work/shared-components" "$shared_prefix" -DTENSORCAST_COMPONENTS=shared \
    -DTENSORCAST_OPTIONAL_COMPONENTS=static
  consumer_found "$work/shared-components.log" TRUE FALSE
  run_consumer "$work/shared-components/consumer_shared" "$shared_libdir"
}
check "shared only: find_package(tensorcast COMPONENTS shared OPTIONAL_COMPONENTS static)" \
  shared_cmake_components

shared_refuses_static() {
  consumer_refused "$work/shared-static" "$shared_prefix" static \
    "$shared_libdir/cmake/tensorcast/tensorcastTargets-static.cmake"
}
check "shared only: find_package(tensorcast COMPONENTS static) fails, naming what is missing" \
  shared_refuses_static

shared_pc_consumer() {
  local exe=$work/shared-pc
  export PKG_CONFIG_PATH=$shared_libdir/pkgconfig
  # shellcheck disable=SC2046 # pkg-config's output is a list of words
  cc "$repo/tests/consumer/main.c" -o "$exe" $(pkg-config --cflags --libs tensorcast) \
    -Wl,-rpath,"$(pkg-config --variable=libdir tensorcast)"
  run_consumer "$exe" "$shared_libdir"
}
check "shared only: cc \$(pkg-config --cflags --libs tensorcast)" shared_pc_consumer

step "only the static library: -DTCAST_INSTALL_SHARED=OFF, into $work/prefix-static" \
  install_variant static
static_prefix=$work/prefix-static
static_libdir=$static_prefix/$libdir_rel

check "static only: the installed files are exactly the expected ones" \
  installed_files "$static_prefix" static

static_pc() {
  local pc=$static_libdir/pkgconfig/tensorcast.pc
  export PKG_CONFIG_PATH=$static_libdir/pkgconfig
  cat "$pc"
  # -ltensorcast can only find libtensorcast.a here: the system libraries come with it.
  [ "$(pkg-config --libs tensorcast | xargs)" = "-L$static_libdir -ltensorcast $native_libs" ] ||
    fail "pkg-config --libs: $(pkg-config --libs tensorcast), expected the system libraries too"
  ! grep -q '^Libs.private' "$pc" || fail "tensorcast.pc has a Libs.private line"
}
check "static only: tensorcast.pc's Libs has the system libraries ($native_libs)" static_pc

static_cmake() {
  consumer_build "$work/static-default" "$static_prefix"
  consumer_found "$work/static-default.log" FALSE TRUE
  [ ! -e "$work/static-default/consumer_shared" ] || fail "tensorcast::tensorcast was defined"
  run_consumer "$work/static-default/consumer_static" none
}
check "static only: find_package(tensorcast) finds tensorcast::tensorcast_static, no shared target" \
  static_cmake

static_cmake_components() {
  consumer_build "$work/static-components" "$static_prefix" -DTENSORCAST_COMPONENTS=static \
    -DTENSORCAST_OPTIONAL_COMPONENTS=shared
  consumer_found "$work/static-components.log" FALSE TRUE
  run_consumer "$work/static-components/consumer_static" none
}
check "static only: find_package(tensorcast COMPONENTS static OPTIONAL_COMPONENTS shared)" \
  static_cmake_components

static_refuses_shared() {
  consumer_refused "$work/static-shared" "$static_prefix" shared \
    "$static_libdir/cmake/tensorcast/tensorcastTargets-shared.cmake"
}
check "static only: find_package(tensorcast COMPONENTS shared) fails, naming what is missing" \
  static_refuses_shared

static_pc_consumer() {
  local exe=$work/static-pc
  export PKG_CONFIG_PATH=$static_libdir/pkgconfig
  # A dynamically linked program with tensorcast inside, from plain `pkg-config --libs`.
  # shellcheck disable=SC2046 # pkg-config's output is a list of words
  cc "$repo/tests/consumer/main.c" -o "$exe" $(pkg-config --cflags --libs tensorcast)
  run_consumer "$exe" none
}
check "static only: cc \$(pkg-config --cflags --libs tensorcast) links libtensorcast.a" \
  static_pc_consumer

static_pc_fully_static() {
  export PKG_CONFIG_PATH=$static_libdir/pkgconfig
  pc_fully_static "$work/static-pc-static"
}
check "static only: cc -static \$(pkg-config --static --cflags --libs tensorcast)" \
  static_pc_fully_static

# What Fedora ships, and Debian when its -dev package leaves the static library out: the
# CMake files of a full install, but no libtensorcast.a.
no_static_prefix=$work/prefix-no-static
no_static_libdir=$no_static_prefix/$libdir_rel
no_static_copy() {
  cp -a "$prefix" "$no_static_prefix"
  rm "$no_static_libdir/libtensorcast.a"
}
step "a distribution without static libraries: the full install less libtensorcast.a" \
  no_static_copy

no_static_cmake() {
  consumer_build "$work/no-static-default" "$no_static_prefix"
  consumer_found "$work/no-static-default.log" TRUE FALSE
  run_consumer "$work/no-static-default/consumer_shared" "$no_static_libdir"
}
check "without libtensorcast.a: find_package(tensorcast) finds the shared library" no_static_cmake

no_static_refused() {
  consumer_refused "$work/no-static-static" "$no_static_prefix" static \
    "$no_static_libdir/libtensorcast.a"
}
check "without libtensorcast.a: find_package(tensorcast COMPONENTS static) fails, naming it" \
  no_static_refused

step "the static link's system libraries (cmake/native-static-libs.txt) against rustc"

# cmake/native-static-libs.txt is the one place that lists them; rustc says what they are.
native_static_libs() {
  local target_dir=$repo/build/native-static-libs printed from_rustc listed
  # A target directory of its own: the extra rustc arguments would make target/'s next
  # build of the library start over. rustc prints the list only when it compiles the
  # crate, and cargo does not repeat it for an up-to-date one: compile it anew. The list
  # is what the linked crates declare (std's among them), whatever the optimisation:
  # unoptimised, without debug information, the compile takes a tenth of a release one.
  cargo clean --quiet -p tensorcast-c --target-dir "$target_dir"
  CARGO_PROFILE_DEV_OPT_LEVEL=0 CARGO_PROFILE_DEV_DEBUG=false \
    cargo rustc --color never -p tensorcast-c --lib --crate-type staticlib --target-dir "$target_dir" \
    -- --print native-static-libs >"$work/native-static-libs.log" 2>&1 ||
    { cat "$work/native-static-libs.log" >&2; exit 1; }
  printed=$(sed -n 's/^note: native-static-libs: //p' "$work/native-static-libs.log")
  [ -n "$printed" ] || { cat "$work/native-static-libs.log" >&2; fail "rustc printed no list"; }
  # Less c and the unwinder gcc_s, which the C compiler driver links by itself.
  from_rustc=$(for word in $printed; do echo "${word#-l}"; done | grep -vx -e c -e gcc_s | xargs)
  listed=$(grep -v '^#' cmake/native-static-libs.txt | xargs)
  printf '%-30s %s\n' "$(rustc --version | cut -d' ' -f1-2) prints:" "$printed" \
    "less c and gcc_s:" "$from_rustc" "cmake/native-static-libs.txt:" "$listed"
  [ "$from_rustc" = "$listed" ] ||
    fail "cmake/native-static-libs.txt lists \"$listed\", rustc says \"$from_rustc\""
  # What the install made of the list.
  local pc_private targets_libs
  pc_private=$(sed -n 's/^Libs.private: //p' "$libdir/pkgconfig/tensorcast.pc")
  targets_libs=$(sed -n 's/^ *INTERFACE_LINK_LIBRARIES "\(.*\)")$/\1/p' \
    "$libdir/cmake/tensorcast/tensorcastTargets-static.cmake")
  printf '%-30s %s\n' "tensorcast.pc Libs.private:" "$pc_private" \
    "tensorcast::tensorcast_static:" "$targets_libs"
  [ "$pc_private" = "$(for name in $listed; do printf -- '-l%s\n' "$name"; done | xargs)" ] ||
    fail "tensorcast.pc's Libs.private is not the list"
  [ "$targets_libs" = "$(tr ' ' ';' <<<"$listed")" ] ||
    fail "tensorcastTargets.cmake's INTERFACE_LINK_LIBRARIES is not the list"
}
check "cmake/native-static-libs.txt is what rustc --print native-static-libs says" \
  native_static_libs

step "tensorcast as a subproject: tests/consumer with add_subdirectory() of this tree"

# The library's directory in the build tree (TensorcastCargo.cmake: cargo's target
# directory, release profile).
cargo_libdir=$(cd "${CARGO_TARGET_DIR:-target}" 2>/dev/null && pwd || echo "$repo/target")/release

cmake_subdirectory() {
  local build=$work/cmake-subdirectory targets
  cmake -S "$repo/tests/consumer" -B "$build" -DTENSORCAST_SOURCE_DIR="$repo" \
    >"$work/cmake-subdirectory.log" || { cat "$work/cmake-subdirectory.log" >&2; exit 1; }
  targets=$(sed -n 's/.*tensorcast from add_subdirectory(.*), targets: //p' "$work/cmake-subdirectory.log")
  echo "targets of tensorcast's directory: $targets"
  [ "$targets" = tensorcast_cargo ] ||
    fail "as a subproject tensorcast defines \"$targets\", not just tensorcast_cargo"
  grep -qx 'TCAST_BUILD_TESTS:BOOL=OFF' "$build/CMakeCache.txt" || fail "TCAST_BUILD_TESTS is not OFF"
  grep -qx 'TCAST_BUILD_EXAMPLES:BOOL=OFF' "$build/CMakeCache.txt" ||
    fail "TCAST_BUILD_EXAMPLES is not OFF"
  cmake --build "$build" >"$work/cmake-subdirectory-build.log" ||
    { cat "$work/cmake-subdirectory-build.log" >&2; exit 1; }
  local programs
  programs=$(find "$build/tensorcast" -path '*/CMakeFiles' -prune -o -type f -perm -u+x -print)
  [ -z "$programs" ] || fail "the subproject built programs: $programs"
  [ ! -e "$build/tensorcast/CTestTestfile.cmake" ] || fail "the subproject registered tests"
  echo "no test or example built or registered"
}
check "add_subdirectory(tensorcast): the library only, no test or example target" \
  cmake_subdirectory

subdirectory_shared() {
  run_consumer "$work/cmake-subdirectory/consumer_shared" "$cargo_libdir"
}
check "add_subdirectory(tensorcast): tensorcast::tensorcast (shared)" subdirectory_shared

subdirectory_static() {
  run_consumer "$work/cmake-subdirectory/consumer_static" none
}
check "add_subdirectory(tensorcast): tensorcast::tensorcast_static" subdirectory_static

printf '\ninstall: %d passed, %d failed\n' "$passed" "$failed"
if [ "$failed" -ne 0 ]; then
  echo "kept for inspection: prefix $prefix, consumer builds $work" >&2
  exit 1
fi
rm -rf "$work"
[ $# -gt 0 ] || rm -rf "$prefix"
