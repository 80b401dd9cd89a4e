#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the Debian packages of tensorcast as a distribution would, from the release
# tarballs and offline, and checks them. The steps by hand are in docs/packaging.md
# ("Debian packages by hand"); this script:
#
#   1. takes the release tarballs: in a git checkout, scripts/dist.sh writes
#      build/dist/tensorcast-V.tar.gz and tensorcast-V-vendor.tar.gz; in a tree unpacked
#      from the source tarball, they are the two beside it (or in TCAST_DIST_DIR).
#   2. makes them the source package tensorcast_V-R.dsc (dpkg-source -b, build/deb/source),
#      unpacks it again (dpkg-source -x, build/deb/build) and builds it there with
#      `dpkg-buildpackage -us -uc -b -d -jN` (N: the cores) and Debian's rustc 1.85 unpacked in
#      the cache (use_debian_rust; the system's rustc is neither used nor touched,
#      and rustup's directories are not on PATH), no network: cargo's home is inside the
#      build directory and sees only the vendored crates. ctest runs the C and C++ suites
#      during the build. -d: dpkg does not check the Build-Depends, which name the
#      system's rustc.
#   3. checks the .debs, .changes and .buildinfo in build/deb/ (contents, symbols,
#      dependencies), and runs lintian --pedantic on the binary and source packages.
#   4. installs the packages into this machine (dpkg -i), builds and runs C and C++
#      programs against them through pkg-config and CMake's find_package (tests/consumer/,
#      examples/quickstart.cpp of the source tarball), and purges them again (also when a
#      check fails).
#
#   bash scripts/package-deb.sh
#
# Needs root (or sudo) for apt and dpkg -i. Installs what is missing from Debian's
# packages: debhelper, lintian, dpkg-dev, cmake, make, gcc, g++, pkg-config, binutils.
# Refuses to run when libtensorcast0 or libtensorcast-dev is installed already, or when
# /usr/include/tensorcast.h exists. Ends with "deb: N passed, M failed"; exits non-zero
# on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

version=$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
major=${version%%.*}
out=$repo/build/deb

# First, before the toolchain: from a checkout, dist.sh writes the tarballs; from an
# unpacked source tarball, they are the ones beside it.
release_tarballs "$version"

install_missing cmake make cc c++ pkg-config readelf nm
have dh lintian dpkg-buildpackage dpkg-source || apt_install debhelper lintian dpkg-dev
use_debian_rust

arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

rm -rf "$out"
mkdir -p "$out/source" "$out/build"

source_package() {
  cd "$out/source"
  cp "$tarball" "tensorcast_$version.orig.tar.gz"
  cp "$vendor_tarball" "tensorcast_$version.orig-vendor.tar.gz"
  # What dpkg-source -x makes of the two: the component tarball's top directory becomes
  # vendor/.
  tar -xzf "tensorcast_$version.orig.tar.gz"
  mkdir "tensorcast-$version/vendor"
  tar -xzf "tensorcast_$version.orig-vendor.tar.gz" -C "tensorcast-$version/vendor" \
    --strip-components=1
  cp -a "tensorcast-$version/packaging/debian" "tensorcast-$version/debian"
  dpkg-source -b "tensorcast-$version"
  rm -rf "tensorcast-$version"
}
step "source package from the release tarballs (dpkg-source -b)" source_package
dsc=$(echo "$out"/source/tensorcast_"$version"-*.dsc)
deb_version=$(sed -n 's/^Version: //p' "$dsc")
echo "source package: $dsc"

binary_packages() {
  cd "$out/build"
  dpkg-source -x "$dsc" "tensorcast-$version"
  cd "tensorcast-$version"
  # Debian's rustc first; the rest of PATH without rustup's proxies (~/.cargo/bin), so
  # that nothing can reach the rustup toolchain.
  local path=$DEBIAN_RUST_BIN dir
  local IFS=:
  for dir in $PATH; do
    case $dir in "$DEBIAN_RUST_BIN" | */.cargo/bin | */.rustup/*) ;; *) path+=:$dir ;; esac
  done
  unset IFS
  echo "rustc: $RUSTC ($("$RUSTC" --version))"
  echo "log: $out/build.log"
  if ! env -u RUSTUP_TOOLCHAIN PATH="$path" RUSTC="$RUSTC" CARGO="$CARGO" \
    dpkg-buildpackage -us -uc -b -d -j"$(nproc)" >"$out/build.log" 2>&1; then
    tail -n 60 "$out/build.log" >&2
    echo "error: dpkg-buildpackage failed (the whole log: $out/build.log)" >&2
    return 1
  fi
  grep -E '^(100% tests passed|Total Test time)|tests passed, .* failed' "$out/build.log" || true
  cd ..
  mv ./*.deb ./*.changes ./*.buildinfo "$out/"
}
step "dpkg-buildpackage -us -uc -b -d -j$(nproc) (Debian's rustc $("$RUSTC" --version | cut -d' ' -f2), offline)" \
  binary_packages
ls -l "$out"

lib_deb=$out/libtensorcast${major}_${deb_version}_$arch.deb
dev_deb=$out/libtensorcast-dev_${deb_version}_$arch.deb
ort_deb=$out/libtensorcast-ort_${deb_version}_$arch.deb
dbgsym_deb=$out/libtensorcast${major}-dbgsym_${deb_version}_$arch.deb
changes=$out/tensorcast_${deb_version}_$arch.changes

step "the packages"

toolchain() {
  local log=$out/build.log
  grep -x "rustc $("$RUSTC" --version | cut -d' ' -f2-)" "$log" ||
    fail "the build log does not show $RUSTC --version"
  local cargo_line
  cargo_line=$(grep -F "$CARGO build --lib" "$log" | head -n 1) || fail "cargo was not $CARGO"
  # What cargo was asked to do (less the --remap-path-prefix flags of its environment).
  grep -o -E "$CARGO build( --[a-z-]+)+" <<<"$cargo_line"
  grep -q -E "$CARGO build .*--locked .*--offline" <<<"$cargo_line" ||
    fail "cargo did not run with --locked --offline"
  ! grep -n -e '\.cargo/bin' -e '\.rustup/' "$log" || fail "the build log names rustup's directories"
  # The vendored crates only: cargo's home in the build directory downloaded nothing.
  local home
  home=$out/build/tensorcast-$version/obj-$(dpkg-architecture -qDEB_HOST_GNU_TYPE)/cargo-home
  [ -f "$home/config.toml" ] || fail "no cargo home at $home"
  cat "$home/config.toml"
  if [ -e "$home/registry" ] || [ -e "$home/git" ]; then fail "cargo fetched into $home"; fi
  ! grep -n -e 'Downloading' -e 'Updating crates.io' "$log" || fail "cargo went to the network"
}
check "built with Debian's rustc and cargo $("$RUSTC" --version | cut -d' ' -f2), --locked --offline, from the vendored crates" \
  toolchain

ctest_ran() {
  ctest_passed_in "$out/build.log"
}
check "ctest ran the C and C++ suites during the build and all passed" ctest_ran

# contents DEB EXPECTED...: the files and links of DEB, less its doc directory, are
# exactly EXPECTED.
contents() {
  local deb=$1 expected actual
  shift
  expected=$(printf '%s\n' "$@" | sort)
  actual=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -v '/$' | sed 's|^\./||' |
    grep -v '^usr/share/doc/' | sort)
  if [ "$expected" != "$actual" ]; then
    diff <(echo "$expected") <(echo "$actual") >&2 || true
    fail "$(basename "$deb") holds other files than expected (< expected, > packaged)"
  fi
  printf '%s\n' "$actual"
  dpkg-deb --fsys-tarfile "$deb" | tar -t | grep -x "./usr/share/doc/[^/]*/copyright" ||
    fail "no copyright file"
}
lib_contents() {
  contents "$lib_deb" "usr/lib/$multiarch/libtensorcast.so.$version" \
    "usr/lib/$multiarch/libtensorcast.so.$major"
  dpkg-deb -c "$lib_deb" | grep -F "libtensorcast.so.$major -> libtensorcast.so.$version"
}
check "libtensorcast$major: the shared library and its SONAME link" lib_contents

# The onnxruntime plugin (-DTCAST_BUILD_ORT=ON) in a package of its own, in the directory
# of docs/packaging.md, "The onnxruntime plugin": `dpkg -c` lists it; its SONAME and its
# three exports as integrations/onnxruntime/build.rs links it; no libtensorcast needed.
ort_contents() {
  local so=usr/lib/$multiarch/tensorcast/libtensorcast_ort.so dir symbols
  contents "$ort_deb" "$so"
  dpkg-deb -c "$ort_deb" | grep -F "./$so" || fail "dpkg -c does not list $so"
  dir=$(mktemp -d)
  dpkg-deb -x "$ort_deb" "$dir"
  readelf -d "$dir/$so" | grep -F "Library soname: [libtensorcast_ort.so]" ||
    fail "the plugin's SONAME is not libtensorcast_ort.so"
  symbols=$(nm -D --defined-only "$dir/$so" | awk '{print $NF}' | sort | xargs)
  [ "$symbols" = "CreateEpFactories RegisterCustomOps ReleaseEpFactory" ] ||
    fail "the plugin exports: $symbols"
  rm -rf "$dir"
  ! dpkg-deb -f "$ort_deb" Depends | grep -q libtensorcast || fail "libtensorcast-ort depends on libtensorcast"
  echo "Depends: $(dpkg-deb -f "$ort_deb" Depends); exports $symbols"
}
check "libtensorcast-ort: the onnxruntime plugin in /usr/lib/$multiarch/tensorcast/" ort_contents

dev_contents() {
  contents "$dev_deb" usr/include/tensorcast.h usr/include/tensorcast.hpp \
    "usr/lib/$multiarch/libtensorcast.so" "usr/lib/$multiarch/libtensorcast.a" \
    "usr/lib/$multiarch/pkgconfig/tensorcast.pc" \
    "usr/lib/$multiarch/cmake/tensorcast/tensorcastConfig.cmake" \
    "usr/lib/$multiarch/cmake/tensorcast/tensorcastConfigVersion.cmake" \
    "usr/lib/$multiarch/cmake/tensorcast/tensorcastTargets-shared.cmake" \
    "usr/lib/$multiarch/cmake/tensorcast/tensorcastTargets-static.cmake"
  dpkg-deb -c "$dev_deb" | grep -F "libtensorcast.so -> libtensorcast.so.$major"
  # The documents of the -dev package, the upstream changelog of both.
  local listing
  # The -dev package's documents, named as in the source tree.
  listing=$(dpkg-deb --fsys-tarfile "$dev_deb" | tar -t | sed -n 's#^\./usr/share/doc/libtensorcast-dev/##p')
  # Uncompressed (dh_compress --exclude=.md), so that their relative links still lead somewhere.
  grep -x 'docs/c-api.md' <<<"$listing" || fail "no docs/c-api.md"
  grep -x 'README.md' <<<"$listing" || fail "no README.md"
  ! grep -E '\.md\.gz$' <<<"$listing" || fail "compressed Markdown documents (their links break)"
  grep -x 'bindings/csharp/README.md' <<<"$listing" ||
    fail "no bindings/csharp/README.md (README.md links to it)"
  grep -x 'changelog.gz' <<<"$listing" || fail "no upstream changelog"
  dpkg-deb --fsys-tarfile "$lib_deb" | tar -t | grep -x "./usr/share/doc/libtensorcast$major/changelog.gz" ||
    fail "libtensorcast$major has no upstream changelog"
  # Every relative link of its Markdown leads to a file of the package.
  local unpacked
  unpacked=$(mktemp -d)
  dpkg-deb -x "$dev_deb" "$unpacked"
  check_doc_links "$unpacked/usr/share/doc/libtensorcast-dev"
  rm -rf "$unpacked"
}
check "libtensorcast-dev: headers, static library, .so link, pkg-config and CMake files, docs linking only to its files" dev_contents

dependencies() {
  local lib_depends dev_depends
  lib_depends=$(dpkg-deb -f "$lib_deb" Depends)
  dev_depends=$(dpkg-deb -f "$dev_deb" Depends)
  echo "libtensorcast$major Depends: $lib_depends"
  echo "libtensorcast-dev Depends: $dev_depends"
  grep -q 'libc6 (>= ' <<<"$lib_depends" || fail "libtensorcast$major does not depend on libc6"
  grep -q "libtensorcast$major (= $deb_version)" <<<"$dev_depends" ||
    fail "libtensorcast-dev does not depend on libtensorcast$major (= $deb_version)"
  [ "$(dpkg-deb -f "$lib_deb" Multi-Arch)" = same ] || fail "libtensorcast$major is not Multi-Arch: same"
  dpkg-deb --fsys-tarfile "$dbgsym_deb" | tar -t | grep '\.debug$' ||
    fail "the -dbgsym package holds no .debug file"
}
check "dependencies: libc6 (from the symbols), -dev on the same version, a -dbgsym package" \
  dependencies

# The binaries name no directory of this machine: CMake maps the source tree and cargo's
# home to fixed names (TCAST_REMAP_PATHS), the C flags of dpkg-buildflags do the same
# for C. Debug sections are decompressed first (dh_strip compresses them).
no_build_paths() {
  local dir file copy hits found=0
  dir=$(mktemp -d)
  for file in "$lib_deb" "$dev_deb" "$ort_deb" "$dbgsym_deb"; do
    dpkg-deb -x "$file" "$dir"
  done
  while IFS= read -r file; do
    copy=$dir/decompressed
    objcopy --decompress-debug-sections "$file" "$copy"
    hits=$(grep -a -o -F -e "$out/build" -e "$repo" "$copy" | sort | uniq -c || true)
    if [ -n "$hits" ]; then
      echo "${file#"$dir"}: $hits" >&2
      found=1
    else
      echo "${file#"$dir"}: no path of this machine"
    fi
  done < <(find "$dir" -type f \( -name '*.so.*' -o -name '*.so' -o -name '*.a' -o -name '*.debug' \) | sort)
  rm -rf "$dir"
  [ "$found" -eq 0 ] || fail "the packaged binaries hold paths of the build machine"
}
check "the library, the static library and the debug symbols hold no path of the build machine" \
  no_build_paths

# The symbols file of the package is abi/libtensorcast0.symbols (of the source tarball,
# which is this tree's), and dpkg-gensymbols found the library to match it (it warns
# about any difference).
symbols() {
  local dir abi=abi/libtensorcast$major.symbols
  cmp "$repo/$abi" "$out/build/tensorcast-$version/$abi" || fail "the source tarball's $abi is not this tree's"
  dir=$(mktemp -d)
  dpkg-deb -e "$lib_deb" "$dir"
  [ -f "$dir/symbols" ] || fail "libtensorcast$major has no symbols control file"
  [ -f "$dir/shlibs" ] || fail "libtensorcast$major has no shlibs control file"
  cat "$dir/shlibs"
  head -n 3 "$dir/symbols"
  echo " ... $(grep -c '^ ' "$dir/symbols") symbols"
  diff <(grep '^ ' "$repo/$abi" | sort) <(grep '^ ' "$dir/symbols" | sort) ||
    fail "the packaged symbols differ from $abi (< abi, > packaged)"
  ! grep -n 'dpkg-gensymbols: warning' "$out/build.log" ||
    fail "dpkg-gensymbols warned: the library and $abi differ"
  rm -rf "$dir"
}
check "the symbols file is abi/libtensorcast$major.symbols, and the library matches it" symbols

# Tags that cannot be fixed in this repository; every other error or warning fails.
allowed_tags=(
  # The first entry of debian/changelog closes no bug: a first upload to Debian closes
  # the ITP bug filed for it, and no ITP exists for tensorcast. Fixed by whoever uploads
  # it to Debian, with the bug's number.
  initial-upload-closes-no-bugs
)
# run_lintian WHAT: lintian --pedantic (and info tags) on WHAT; fails on an error or
# warning other than allowed_tags.
run_lintian() {
  local log tag unexpected
  log=$out/lintian-$(basename "$1").txt
  # --fail-on none: the exit status says whether lintian itself failed.
  lintian --pedantic --display-info --fail-on none "$1" >"$log" 2>&1 ||
    { cat "$log" >&2; fail "lintian failed"; }
  grep -v '^running with root privileges' "$log" || true
  unexpected=$(grep -E '^[EW]: ' "$log" || true)
  for tag in "${allowed_tags[@]}"; do
    unexpected=$(grep -v -E "^[EW]: [^ ]+ ?[^:]*: $tag( |$)" <<<"$unexpected" || true)
  done
  [ -z "$unexpected" ] || fail "lintian errors or warnings: $unexpected"
}
check "lintian --pedantic: the binary packages (the .changes)" run_lintian "$changes"
check "lintian --pedantic: the source package (the .dsc)" run_lintian "$dsc"

step "installed into this machine (dpkg -i), consumers built against them"

dpkg_cmd=(dpkg)
[ "$(id -u)" -eq 0 ] || dpkg_cmd=(sudo dpkg)
installed_here=0
purge_packages() {
  [ "$installed_here" -eq 1 ] || return 0
  "${dpkg_cmd[@]}" --purge libtensorcast-dev "libtensorcast$major" >/dev/null 2>&1
}
trap purge_packages EXIT

none_installed() {
  local package
  for package in "libtensorcast$major" libtensorcast-dev; do
    if dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^.[iUFHWt]'; then
      fail "$package is installed already: purge it first (dpkg --purge $package)"
    fi
  done
  [ ! -e /usr/include/tensorcast.h ] ||
    fail "/usr/include/tensorcast.h exists already (a tensorcast installed into /usr by hand?)"
}
step "nothing of tensorcast installed before" none_installed
installed_here=1
step "dpkg -i libtensorcast$major libtensorcast-dev" "${dpkg_cmd[@]}" -i "$lib_deb" "$dev_deb"

src=$out/build/tensorcast-$version
work=$(mktemp -d)
libdir=/usr/lib/$multiarch
soname=libtensorcast.so.$major

# runs EXE without LD_LIBRARY_PATH (use_debian_rust sets one), checks its last line, and
# that it loads the installed library (shared) or needs none (static).
run_program() {
  local exe=$1 expect=$2 linkage=$3 output
  output=$(env -u LD_LIBRARY_PATH "$exe")
  echo "$output"
  grep -q -F -- "$expect" <<<"$output" || fail "$exe did not print: $expect"
  if [ "$linkage" = shared ]; then
    grep -q "Shared library: \[$soname\]" <<<"$(readelf -d "$exe")" || fail "$exe does not need $soname"
    env -u LD_LIBRARY_PATH ldd "$exe" | grep -E "$soname => (/usr)?/lib/$multiarch/$soname" ||
      fail "$exe does not load $libdir/$soname: $(env -u LD_LIBRARY_PATH ldd "$exe")"
    ! readelf -d "$exe" | grep -E 'RPATH|RUNPATH' || fail "$exe has an rpath"
  else
    ! readelf -d "$exe" | grep -q 'Shared library: \[libtensorcast' || fail "$exe needs a shared libtensorcast"
  fi
}
consumer_line="tensorcast $version: f32 -> f16 -> f32 ok"
cpp_line='65504 -> 0x7bff -> 65504'

pkgconfig_c() {
  env -u PKG_CONFIG_PATH pkg-config --modversion tensorcast | grep -x "$version"
  [ "$(env -u PKG_CONFIG_PATH pkg-config --variable=libdir tensorcast)" = "$libdir" ] || fail "libdir"
  echo "pkg-config --cflags --libs tensorcast: $(pkg-config --cflags --libs tensorcast)"
  # shellcheck disable=SC2046 # pkg-config's output is a list of words
  cc -std=c11 -Wall -Wextra -Werror "$src/tests/consumer/main.c" -o "$work/pc_c" \
    $(env -u PKG_CONFIG_PATH pkg-config --cflags --libs tensorcast)
  run_program "$work/pc_c" "$consumer_line" shared
}
check "C, pkg-config: cc tests/consumer/main.c \$(pkg-config --cflags --libs tensorcast)" pkgconfig_c

pkgconfig_c_static() {
  # glibc warns that a static program calling getaddrinfo/getpwuid_r needs its shared
  # libraries at run time (Rust's std has such calls; tensorcast never makes them).
  # shellcheck disable=SC2046
  cc -static "$src/tests/consumer/main.c" -o "$work/pc_c_static" \
    $(env -u PKG_CONFIG_PATH pkg-config --static --cflags --libs tensorcast) 2>"$work/static.log" ||
    { cat "$work/static.log" >&2; exit 1; }
  run_program "$work/pc_c_static" "$consumer_line" static
}
check "C, pkg-config --static: the static library of libtensorcast-dev" pkgconfig_c_static

pkgconfig_cpp() {
  # shellcheck disable=SC2046
  c++ -std=c++17 -Wall -Wextra -Wpedantic -Werror "$src/examples/quickstart.cpp" -o "$work/pc_cpp" \
    $(env -u PKG_CONFIG_PATH pkg-config --cflags --libs tensorcast)
  run_program "$work/pc_cpp" "$cpp_line" shared
}
check "C++17, pkg-config: examples/quickstart.cpp (tensorcast.hpp)" pkgconfig_cpp

cmake_c() {
  env -u CMAKE_PREFIX_PATH cmake -S "$src/tests/consumer" -B "$work/cmake-c" >"$work/cmake-c.log" ||
    { cat "$work/cmake-c.log" >&2; exit 1; }
  grep "tensorcast $version from $libdir/cmake/tensorcast" "$work/cmake-c.log" ||
    { cat "$work/cmake-c.log" >&2; fail "find_package did not find the installed package"; }
  cmake --build "$work/cmake-c" >"$work/cmake-c-build.log" || { cat "$work/cmake-c-build.log" >&2; exit 1; }
  run_program "$work/cmake-c/consumer_shared" "$consumer_line" shared
  run_program "$work/cmake-c/consumer_static" "$consumer_line" static
}
check "C, CMake find_package(tensorcast): tests/consumer, shared and static targets" cmake_c

cmake_cpp() {
  mkdir -p "$work/cpp-project"
  cat >"$work/cpp-project/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(quickstart_cpp LANGUAGES CXX)
find_package(tensorcast $major.0 CONFIG REQUIRED)
message(STATUS "tensorcast \${tensorcast_VERSION} from \${tensorcast_DIR}")
add_executable(quickstart_cpp "$src/examples/quickstart.cpp")
target_compile_features(quickstart_cpp PRIVATE cxx_std_17)
target_compile_options(quickstart_cpp PRIVATE -Wall -Wextra -Wpedantic -Werror)
target_link_libraries(quickstart_cpp PRIVATE tensorcast::tensorcast)
EOF
  env -u CMAKE_PREFIX_PATH cmake -S "$work/cpp-project" -B "$work/cmake-cpp" >"$work/cmake-cpp.log" ||
    { cat "$work/cmake-cpp.log" >&2; exit 1; }
  grep "tensorcast $version from $libdir/cmake/tensorcast" "$work/cmake-cpp.log" ||
    { cat "$work/cmake-cpp.log" >&2; fail "find_package did not find the installed package"; }
  cmake --build "$work/cmake-cpp" >"$work/cmake-cpp-build.log" ||
    { cat "$work/cmake-cpp-build.log" >&2; exit 1; }
  run_program "$work/cmake-cpp/quickstart_cpp" "$cpp_line" shared
}
check "C++17, CMake find_package(tensorcast): examples/quickstart.cpp" cmake_cpp

purged() {
  purge_packages
  local leftover
  leftover=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' libtensorcast-dev "libtensorcast$major" 2>/dev/null |
    grep -v ' pn *$' || true)
  [ -z "$leftover" ] || fail "still known to dpkg: $leftover"
  if [ -e /usr/include/tensorcast.h ] || [ -e "$libdir/$soname" ]; then fail "files left behind"; fi
  echo "purged: libtensorcast-dev libtensorcast$major"
}
check "dpkg --purge removes both packages and their files" purged
installed_here=0
rm -rf "$work"

printf '\ndeb: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
