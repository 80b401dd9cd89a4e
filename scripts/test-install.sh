#!/usr/bin/env bash
# Tests tensorcast as an installed system library: builds it with CMake (release profile,
# build dir build/cmake-install), installs it into a fresh prefix, checks what was
# installed (files, links, SONAME, exported symbols, package metadata) and builds and runs
# a separate C project against it (tests/consumer/) four ways: CMake find_package with the
# shared and the static library, and plain cc with pkg-config, shared and --static; and
# the Go binding's README example, vendored, with -tags tensorcast_pkgconfig.
# Checks cmake/native-static-libs.txt against `cargo rustc -- --print native-static-libs`
# (in build/native-static-libs, a target directory of its own, where the library is
# compiled anew each run), and builds the same C project with this tree taken in by
# add_subdirectory(): the same target names, and no test or example of tensorcast's built.
#
#   bash scripts/test-install.sh [prefix]
#
# The prefix defaults to a new `mktemp -d` directory; the consumers are built in another
# temporary directory. Both are removed when every check passed and kept otherwise.
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

passed=0
failed=0
# check NAME FUNCTION: runs FUNCTION in a subshell with errexit in force, so that any
# failing command in it fails the check, and counts the outcome.
check() {
  local name=$1
  shift
  printf -- '--- %s\n' "$name"
  set +e
  (
    set -e
    "$@"
  )
  local status=$?
  set -e
  if [ $status -eq 0 ]; then
    passed=$((passed + 1))
    printf 'PASS: %s\n' "$name"
  else
    failed=$((failed + 1))
    printf 'FAIL: %s\n' "$name"
  fi
}

# fail MESSAGE: ends the current check with a message.
fail() {
  printf '%s\n' "$*" >&2
  exit 1
}

build_and_install() {
  cmake -S . -B build/cmake-install -DTCAST_CARGO_PROFILE=release \
    -DTCAST_BUILD_TESTS=OFF -DTCAST_BUILD_EXAMPLES=OFF
  cmake --build build/cmake-install
  cmake --install build/cmake-install --prefix "$prefix"
}
step "build and install tensorcast $version (release) into $prefix" build_and_install
# GNUInstallDirs picks the library directory; under a prefix other than /usr it is "lib".
libdir_rel=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' build/cmake-install/CMakeCache.txt)
includedir_rel=$(sed -n 's/^CMAKE_INSTALL_INCLUDEDIR:[A-Z]*=//p' build/cmake-install/CMakeCache.txt)
libdir=$prefix/$libdir_rel
includedir=$prefix/$includedir_rel
echo "library directory: $libdir"

step "what was installed"

installed_files() {
  local expected actual
  expected=$(printf '%s\n' \
    "$includedir_rel/tensorcast.h" \
    "$includedir_rel/tensorcast.hpp" \
    "$libdir_rel/$real_name" \
    "$libdir_rel/$soname" \
    "$libdir_rel/libtensorcast.so" \
    "$libdir_rel/libtensorcast.a" \
    "$libdir_rel/cmake/tensorcast/tensorcastConfig.cmake" \
    "$libdir_rel/cmake/tensorcast/tensorcastConfigVersion.cmake" \
    "$libdir_rel/cmake/tensorcast/tensorcastTargets.cmake" \
    "$libdir_rel/pkgconfig/tensorcast.pc" | sort)
  actual=$(cd "$prefix" && find . -mindepth 1 \( -type f -o -type l \) | sed 's|^\./||' | sort)
  if [ "$expected" != "$actual" ]; then
    diff <(echo "$expected") <(echo "$actual") >&2 || true
    fail "the installed files differ from the expected list (< expected, > installed)"
  fi
  cmp "$includedir/tensorcast.h" include/tensorcast.h
  cmp "$includedir/tensorcast.hpp" include/tensorcast.hpp
  [ -f "$libdir/$real_name" ] && [ ! -L "$libdir/$real_name" ] || fail "$real_name is not a file"
  printf '%s\n' "$actual"
}
check "the installed files are exactly the expected ones" installed_files

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

cmake_consumer() {
  local build=$work/cmake-consumer
  cmake -S "$repo/tests/consumer" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake-consumer.log" ||
    { cat "$work/cmake-consumer.log" >&2; exit 1; }
  grep 'tensorcast .* from' "$work/cmake-consumer.log"
  cmake --build "$build" >"$work/cmake-consumer-build.log" ||
    { cat "$work/cmake-consumer-build.log" >&2; exit 1; }
}

cmake_shared() {
  cmake_consumer
  run_consumer "$work/cmake-consumer/consumer_shared" "$libdir"
}
check "CMake find_package(tensorcast CONFIG): tensorcast::tensorcast (shared)" cmake_shared

cmake_static() {
  run_consumer "$work/cmake-consumer/consumer_static" none
}
check "CMake find_package(tensorcast CONFIG): tensorcast::tensorcast_static" cmake_static

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

pc_static() {
  local exe=$work/pc_static
  # glibc warns that a static program calling getaddrinfo/getpwuid_r needs its shared
  # libraries at run time (Rust's std has such calls; tensorcast never makes them).
  # shellcheck disable=SC2046
  cc -static "$repo/tests/consumer/main.c" -o "$exe" \
    $(pkg-config --static --cflags --libs tensorcast) 2>"$work/pc_static.log" ||
    { cat "$work/pc_static.log" >&2; exit 1; }
  local unexpected
  unexpected=$(grep -v -e 'in statically linked applications requires at runtime' \
    -e ': in function ' "$work/pc_static.log" || true)
  [ -z "$unexpected" ] || fail "unexpected compiler or linker output: $unexpected"
  grep -q 'no dynamic section' <<<"$(readelf -d "$exe")" || fail "$exe is not fully static"
  run_consumer "$exe" none
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

step "the static link's system libraries (cmake/native-static-libs.txt) against rustc"

# cmake/native-static-libs.txt is the one place that lists them; rustc says what they are.
native_static_libs() {
  local target_dir=$repo/build/native-static-libs printed from_rustc listed
  # A target directory of its own: the extra rustc arguments would make target/'s next
  # build of the library start over. rustc prints the list only when it compiles the
  # crate, and cargo does not repeat it for an up-to-date one: compile it anew.
  cargo clean --quiet --release -p tensorcast --target-dir "$target_dir"
  cargo rustc --color never --release --lib --crate-type staticlib --target-dir "$target_dir" \
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
    "$libdir/cmake/tensorcast/tensorcastTargets.cmake")
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
