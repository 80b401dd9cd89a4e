#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the RPM packages of tensorcast with the spec of the release tarball
# (packaging/rpm/tensorcast.spec), from the same two tarballs as the Debian packages, on
# this machine with Debian's rpm, and checks them:
#
#   1. scripts/dist.sh writes the source and vendor tarballs (in a tree unpacked from the
#      source tarball: the two beside it, or in TCAST_DIST_DIR); they become Source0 and
#      Source1 in build/rpm/SOURCES, the spec is taken out of the source tarball.
#   2. `rpmbuild -bs` writes the source RPM; `rpmbuild -bb --nodeps` builds the binary
#      RPMs with Debian's rustc 1.85 unpacked in the cache (use_debian_rust, passed
#      as the spec's tcast_rustc/tcast_cargo; rustup's directories are not on PATH),
#      offline, with the C and C++ test suites in %check. --nodeps: the BuildRequires
#      name Fedora's packages, which rpm's database here does not hold.
#   3. The contents, dependencies and bundled() provides of the RPMs are checked, and
#      rpmlint runs on the spec, the source RPM and the binary RPMs.
#   4. The RPMs are installed into a scratch root (rpm --root, its own database, nothing
#      installed into this machine), and a C and a C++ program are built against that
#      tree through pkg-config and CMake's find_package and run.
#
#   bash scripts/package-rpm.sh
#
# Installs what is missing from Debian's packages: rpm, rpmlint, cmake, make, gcc, g++,
# pkg-config, binutils. Everything it writes is under build/rpm/. Ends with
# "rpm: N passed, M failed"; exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

version=$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
major=${version%%.*}
top=$repo/build/rpm

# First, before the toolchain: from a checkout, dist.sh writes the tarballs; from an
# unpacked source tarball, they are the ones beside it.
release_tarballs "$version"

install_missing cmake make cc c++ pkg-config readelf rpmlint
have rpmbuild || apt_install rpm
use_debian_rust

rm -rf "$top"
mkdir -p "$top"/{SOURCES,SPECS,BUILD,RPMS,SRPMS,src}
cp "$tarball" "$vendor_tarball" "$top/SOURCES/"
# The tree %prep makes, for the checks (rpmbuild removes its own when done).
tar -xzf "$tarball" -C "$top/src"
tar -xzf "$vendor_tarball" -C "$top/src"
src=$top/src/tensorcast-$version
cp "$src/packaging/rpm/tensorcast.spec" "$top/SPECS/"
spec=$top/SPECS/tensorcast.spec

# Debian's rustc first; the rest of PATH without rustup's proxies (~/.cargo/bin).
build_path=$DEBIAN_RUST_BIN
IFS=: read -r -a path_dirs <<<"$PATH"
for dir in "${path_dirs[@]}"; do
  case $dir in "$DEBIAN_RUST_BIN" | */.cargo/bin | */.rustup/*) ;; *) build_path+=:$dir ;; esac
done
rpmbuild_cmd=(env -u RUSTUP_TOOLCHAIN PATH="$build_path" rpmbuild --define "_topdir $top"
  --define "tcast_rustc $RUSTC" --define "tcast_cargo $CARGO")

step "rpmbuild -bs (the source RPM)" "${rpmbuild_cmd[@]}" -bs "$spec"

binary_rpms() {
  echo "rustc: $RUSTC ($("$RUSTC" --version))"
  echo "log: $top/build.log"
  if ! "${rpmbuild_cmd[@]}" -bb --nodeps "$spec" >"$top/build.log" 2>&1; then
    tail -n 60 "$top/build.log" >&2
    echo "error: rpmbuild failed (the whole log: $top/build.log)" >&2
    return 1
  fi
  grep -E '^(100% tests passed|Total Test time)' "$top/build.log" || true
  find "$top/RPMS" "$top/SRPMS" -name '*.rpm' -printf '%P\n' | sort
}
step "rpmbuild -bb --nodeps (Debian's rustc $("$RUSTC" --version | cut -d' ' -f2), offline)" binary_rpms

release=$(rpmspec -q --srpm --qf '%{release}' "$spec")
arch=$(rpm --eval '%{_arch}')
lib_rpm=$top/RPMS/$arch/tensorcast-$version-$release.$arch.rpm
devel_rpm=$top/RPMS/$arch/tensorcast-devel-$version-$release.$arch.rpm
ort_rpm=$top/RPMS/$arch/tensorcast-ort-$version-$release.$arch.rpm
srpm=$top/SRPMS/tensorcast-$version-$release.src.rpm
libdir=$(rpm --eval '%{_libdir}')

step "the packages"

spec_version() {
  local spec_version
  spec_version=$(rpmspec -q --srpm --qf '%{version}' "$spec")
  echo "spec: $spec_version, Cargo.toml: $version"
  [ "$spec_version" = "$version" ] || fail "the spec's Version is not Cargo.toml's"
}
check "the spec's Version is the crate's" spec_version

toolchain() {
  local log=$top/build.log
  grep -x "rustc $("$RUSTC" --version | cut -d' ' -f2-)" "$log" ||
    fail "the build log does not show $RUSTC --version"
  local cargo_line
  cargo_line=$(grep -F "$CARGO build --lib" "$log" | head -n 1) || fail "cargo was not $CARGO"
  # What cargo was asked to do (less the --remap-path-prefix flags of its environment).
  grep -o -E "$CARGO build( --[a-z-]+)+" <<<"$cargo_line"
  grep -q -E "$CARGO build .*--locked .*--offline" <<<"$cargo_line" ||
    fail "cargo did not run with --locked --offline"
  grep -x '+ export CARGO_HOME=.*/BUILD/tensorcast-[^/]*/\.cargo-home' "$log" ||
    fail "cargo's home was not in the build tree"
  ! grep -n -e '\.cargo/bin' -e '\.rustup/' "$log" || fail "the build log names rustup's directories"
  ! grep -n -e 'Downloading' -e 'Updating crates.io' -e 'Locking [0-9]' "$log" ||
    fail "cargo went to the network or changed the lock file"
}
check "built with Debian's rustc and cargo $("$RUSTC" --version | cut -d' ' -f2), --locked --offline, from the vendored crates" \
  toolchain

ctest_ran() {
  ctest_passed_in "$top/build.log"
}
check "%check: ctest ran the C and C++ suites and all passed" ctest_ran

# contents RPM EXPECTED...: the files and links of RPM, less documentation and licence
# files, are exactly EXPECTED.
contents() {
  local rpm=$1 expected actual
  shift
  expected=$(printf '%s\n' "$@" | sort)
  # Not the directories, the %doc (d) and %license (l) files, nor the build-id links
  # rpm adds.
  actual=$(rpm -qp --qf '[%{filenames}\t%{fileflags:fflags}\t%{filemodes:perms}\n]' "$rpm" |
    awk -F'\t' '$2 !~ /[dl]/ && $3 !~ /^d/ && $1 !~ /^\/usr\/lib\/\.build-id\// {print $1}' | sort)
  if [ "$expected" != "$actual" ]; then
    diff <(echo "$expected") <(echo "$actual") >&2 || true
    fail "$(basename "$rpm") holds other files than expected (< expected, > packaged)"
  fi
  printf '%s\n' "$actual"
}
lib_contents() {
  contents "$lib_rpm" "$libdir/libtensorcast.so.$version" "$libdir/libtensorcast.so.$major"
  rpm -qp --qf '[%{filenames} %{filelinktos}\n]' "$lib_rpm" |
    grep -x "$libdir/libtensorcast.so.$major libtensorcast.so.$version" || fail "no SONAME link"
  rpm -qp --qf '[%{filenames} %{filemodes:perms}\n]' "$lib_rpm" |
    grep -x "$libdir/libtensorcast.so.$version -rwxr-xr-x" || fail "the library is not mode 0755"
  rpm -qp --qf '[%{filenames} %{fileflags:fflags}\n]' "$lib_rpm" | grep -E '/LICENSE-(MIT|APACHE) l$' ||
    fail "the licence files are not marked %license"
  # cargo built it with debug information, which find-debuginfo moves into
  # tensorcast-debuginfo on Fedora (Debian's rpm runs no find-debuginfo; its brp-strip
  # removes the debug sections and keeps the symbol table).
  grep -E "Finished .release. profile \[optimized \+ debuginfo\]" "$top/build.log" ||
    fail "the library was built without debug information"
}
check "tensorcast: the shared library (0755, built with debug information), its SONAME link, licences" lib_contents

devel_contents() {
  contents "$devel_rpm" /usr/include/tensorcast.h /usr/include/tensorcast.hpp \
    "$libdir/libtensorcast.so" "$libdir/pkgconfig/tensorcast.pc" \
    "$libdir/cmake/tensorcast/tensorcastConfig.cmake" \
    "$libdir/cmake/tensorcast/tensorcastConfigVersion.cmake" \
    "$libdir/cmake/tensorcast/tensorcastTargets-shared.cmake"
  rpm -qp --qf '[%{filenames} %{fileflags:fflags}\n]' "$devel_rpm" | grep -E '/docs/c-api\.md d$' ||
    fail "docs/c-api.md is not marked %doc"
  rpm -qp --qf '[%{filenames} %{fileflags:fflags}\n]' "$devel_rpm" | grep -E '/(README|CHANGELOG|SECURITY)\.md d$' ||
    fail "README, CHANGELOG and SECURITY are not marked %doc"
}
check "tensorcast-devel: headers, .so link, pkg-config and CMake files, the documents, no static library" devel_contents

# The onnxruntime plugin (-DTCAST_BUILD_ORT=ON) in a package of its own, in
# %{_libdir}/tensorcast/ (docs/packaging.md): rpm -qlp lists it, mode 0755 (so that rpm
# strips it and extracts its debug information), its SONAME and three exports as
# integrations/onnxruntime/build.rs links it, and it requires no libtensorcast.
ort_contents() {
  local so=$libdir/tensorcast/libtensorcast_ort.so dir symbols
  contents "$ort_rpm" "$so"
  rpm -qlp "$ort_rpm" | grep -x "$so" || fail "rpm -qlp does not list $so"
  rpm -qp --qf '[%{filenames} %{filemodes:perms}\n]' "$ort_rpm" | grep -x "$so -rwxr-xr-x" ||
    fail "the plugin is not mode 0755"
  rpm -qp --qf '[%{filenames} %{fileflags:fflags}\n]' "$ort_rpm" | grep -E '/LICENSE-(MIT|APACHE) l$' ||
    fail "the licence files are not marked %license"
  dir=$(mktemp -d)
  (cd "$dir" && rpm2cpio "$ort_rpm" | cpio -idm --quiet)
  readelf -d "$dir$so" | grep -F "Library soname: [libtensorcast_ort.so]" ||
    fail "the plugin's SONAME is not libtensorcast_ort.so"
  symbols=$(nm -D --defined-only "$dir$so" | awk '{print $NF}' | sort | xargs)
  [ "$symbols" = "CreateEpFactories RegisterCustomOps ReleaseEpFactory" ] ||
    fail "the plugin exports: $symbols"
  rm -rf "$dir"
  ! rpm -qp --requires "$ort_rpm" | grep -q libtensorcast || fail "tensorcast-ort requires libtensorcast"
  echo "exports $symbols"
}
check "tensorcast-ort: the onnxruntime plugin in $libdir/tensorcast/" ort_contents

# Both packages unpacked together (tensorcast-devel requires tensorcast): every relative
# link of their Markdown leads to a file of one of them.
doc_links() {
  local unpacked rpm_file
  unpacked=$(mktemp -d)
  for rpm_file in "$lib_rpm" "$devel_rpm"; do
    (cd "$unpacked" && rpm2cpio "$rpm_file" | cpio -idm --quiet)
  done
  check_doc_links "$unpacked/usr/share/doc/tensorcast"
  rm -rf "$unpacked"
}
check "tensorcast and tensorcast-devel: their documents link only to their files" doc_links

dependencies() {
  local provides requires
  provides=$(rpm -qp --provides "$lib_rpm")
  requires=$(rpm -qp --requires "$devel_rpm")
  echo "tensorcast provides:"
  printf '  %s\n' "${provides//$'\n'/$'\n'  }"
  echo "tensorcast-devel requires:"
  printf '  %s\n' "${requires//$'\n'/$'\n'  }"
  grep -qx "libtensorcast.so.$major()(64bit)" <<<"$provides" || fail "no libtensorcast.so.$major()(64bit)"
  grep -qx "tensorcast(x86-64) = $version-$release" <<<"$requires" ||
    grep -qx "tensorcast = $version-$release" <<<"$requires" ||
    fail "tensorcast-devel does not require tensorcast = $version-$release"
}
check "dependencies: the SONAME provided, -devel requires the same version and release" dependencies

# Every crate compiled into the library (cargo's normal dependencies for this target,
# which the vendored tree resolves offline) is a bundled(crate(NAME)) = VERSION of the
# spec, at the version of Cargo.lock, and nothing else is. The workspace's own packages
# (path sources: the core and capi/, one tree each, a blank line between) are not.
bundled() {
  local from_cargo from_rpm
  from_cargo=$(cd "$src" &&
    CARGO_HOME=$PWD/.cargo-home "$CARGO" tree --offline --locked -e normal,no-proc-macro --prefix none \
      --target "$("$RUSTC" -vV | sed -n 's/^host: //p')" --format '{p}' |
    sed 's/ (\*)$//' | grep -v -e '^$' -e ' (/' | sed 's/^\([^ ]*\) v\([^ ]*\).*/bundled(crate(\1)) = \2/' | sort -u)
  from_rpm=$(rpm -qp --provides "$lib_rpm" | grep '^bundled(' | sort)
  printf '%s\n' "$from_rpm"
  [ "$from_cargo" = "$from_rpm" ] ||
    { diff <(echo "$from_cargo") <(echo "$from_rpm") >&2 || true; fail "bundled() provides differ from cargo tree (< cargo, > rpm)"; }
  # The plugin compiles the same crates in (the core and nothing else of its own).
  [ "$(rpm -qp --provides "$ort_rpm" | grep '^bundled(' | sort)" = "$from_rpm" ] ||
    fail "tensorcast-ort's bundled() provides differ from tensorcast's"
}
check "bundled(crate()) provides: the crates compiled in, at Cargo.lock's versions" bundled

# rpmlint as Fedora runs it, as far as this machine allows: with the spec's rpmlintrc
# (packaging/rpm/tensorcast.rpmlintrc: the generic tags Fedora's rules contradict, each
# with its reason) and a list of valid licences. Fedora's rpmlint takes that list from
# fedora-license-data; here it holds the SPDX identifiers the spec uses, all of them
# allowed in Fedora, so that a misspelt one still fails.
cat >"$top/rpmlint.toml" <<'EOF'
ValidLicenses = ["MIT", "Apache-2.0", "BSL-1.0", "BSD-2-Clause"]
EOF
# Tags that cannot be fixed in this repository; every other error or warning fails.
allowed_rpmlint=(
  # The packages are not signed: a distribution's build system signs what it ships.
  no-signature
  # Debian's rpm makes no -debuginfo packages (no redhat-rpm-config: find-debuginfo is
  # not run) and its brp-strip strips with -g only, which keeps the symbol table. On
  # Fedora, find-debuginfo strips the library into tensorcast-debuginfo.
  unstripped-binary-or-object
)
run_rpmlint() {
  local log=$top/rpmlint-$1.txt tag unexpected
  shift
  rpmlint -c "$top/rpmlint.toml" -r "$src/packaging/rpm/tensorcast.rpmlintrc" "$@" >"$log" 2>&1 || true
  cat "$log"
  grep -q -E '[0-9]+ packages and [0-9]+ specfiles checked; [0-9]+ errors, [0-9]+ warnings' "$log" ||
    fail "rpmlint printed no summary"
  unexpected=$(grep -E '^[^ ]+: [EW]: ' "$log" || true)
  for tag in ${allowed_rpmlint[@]+"${allowed_rpmlint[@]}"}; do
    unexpected=$(grep -v -E ": [EW]: $tag( |$)" <<<"$unexpected" || true)
  done
  [ -z "$unexpected" ] || fail "rpmlint errors or warnings: $unexpected"
}
# All at once, as Fedora's CI does: each filter of the rpmlintrc must match some tag of
# some package (rpmlint reports an unused one as an error).
check "rpmlint: the spec, the source RPM and the binary RPMs" \
  run_rpmlint all "$spec" "$srpm" "$lib_rpm" "$devel_rpm" "$ort_rpm"

step "installed into a scratch root (rpm --root), consumers built against it"

root=$top/root
install_scratch() {
  rm -rf "$root"
  mkdir -p "$root"
  rpm --root "$root" --initdb
  # --nodeps: the scratch root holds no glibc package; the programs run on this system's.
  rpm --root "$root" -i --nodeps "$lib_rpm" "$devel_rpm"
  rpm --root "$root" -qa | sort
}
step "rpm --root build/rpm/root -i tensorcast tensorcast-devel" install_scratch

work=$(mktemp -d)
soname=libtensorcast.so.$major
consumer_line="tensorcast $version: f32 -> f16 -> f32 ok"
cpp_line='65504 -> 0x7bff -> 65504'

# run_program EXE EXPECT: runs EXE with the scratch root's library directory as its only
# LD_LIBRARY_PATH, checks its output and that it loaded the library from there.
run_program() {
  local exe=$1 expect=$2 output
  output=$(env LD_LIBRARY_PATH="$root$libdir" "$exe")
  echo "$output"
  grep -q -F -- "$expect" <<<"$output" || fail "$exe did not print: $expect"
  env LD_LIBRARY_PATH="$root$libdir" ldd "$exe" | grep -F "$soname => $root$libdir/$soname" ||
    fail "$exe does not load $root$libdir/$soname"
}

# pkg-config of the scratch root: its .pc, with the root prefixed to -I and -L
# (PKG_CONFIG_SYSROOT_DIR), /usr/include kept (it is not this system's).
pc() {
  env PKG_CONFIG_LIBDIR="$root$libdir/pkgconfig" PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR="$root" \
    PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1 PKG_CONFIG_ALLOW_SYSTEM_LIBS=1 pkg-config "$@"
}

pkgconfig_c() {
  pc --modversion tensorcast | grep -x "$version"
  echo "pkg-config --cflags --libs tensorcast: $(pc --cflags --libs tensorcast)"
  # shellcheck disable=SC2046 # pkg-config's output is a list of words
  cc -std=c11 -Wall -Wextra -Werror "$src/tests/consumer/main.c" -o "$work/pc_c" $(pc --cflags --libs tensorcast)
  run_program "$work/pc_c" "$consumer_line"
}
check "C, pkg-config: tests/consumer/main.c against $libdir of the scratch root" pkgconfig_c

pkgconfig_cpp() {
  # shellcheck disable=SC2046
  c++ -std=c++17 -Wall -Wextra -Wpedantic -Werror "$src/examples/quickstart.cpp" -o "$work/pc_cpp" \
    $(pc --cflags --libs tensorcast)
  run_program "$work/pc_cpp" "$cpp_line"
}
check "C++17, pkg-config: examples/quickstart.cpp" pkgconfig_cpp

# A CMake project of LANGUAGE building SOURCE against tensorcast::tensorcast, found in
# the scratch root through CMAKE_PREFIX_PATH.
cmake_consumer() {
  local name=$1 lang=$2 source=$3 expect=$4 dir=$work/$1
  mkdir -p "$dir"
  cat >"$dir/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project($name LANGUAGES $lang)
# As CMake searches on Fedora: lib64 directories too (CMake turns that off on Debian,
# which has none).
set_property(GLOBAL PROPERTY FIND_LIBRARY_USE_LIB64_PATHS TRUE)
find_package(tensorcast $major.0 CONFIG REQUIRED)
message(STATUS "tensorcast \${tensorcast_VERSION} from \${tensorcast_DIR}")
add_executable($name "$source")
target_link_libraries($name PRIVATE tensorcast::tensorcast)
EOF
  if [ "$lang" = CXX ]; then
    echo "target_compile_features($name PRIVATE cxx_std_17)" >>"$dir/CMakeLists.txt"
  fi
  cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$root/usr" >"$dir/configure.log" ||
    { cat "$dir/configure.log" >&2; exit 1; }
  grep "tensorcast $version from $root$libdir/cmake/tensorcast" "$dir/configure.log" ||
    { cat "$dir/configure.log" >&2; fail "find_package did not find the scratch root's package"; }
  cmake --build "$dir/build" >"$dir/build.log" || { cat "$dir/build.log" >&2; exit 1; }
  run_program "$dir/build/$name" "$expect"
}
check "C, CMake find_package(tensorcast) in the scratch root: tests/consumer/main.c" \
  cmake_consumer consumer_c C "$src/tests/consumer/main.c" "$consumer_line"
check "C++17, CMake find_package(tensorcast) in the scratch root: examples/quickstart.cpp" \
  cmake_consumer quickstart_cpp CXX "$src/examples/quickstart.cpp" "$cpp_line"
rm -rf "$work"

printf '\nrpm: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
