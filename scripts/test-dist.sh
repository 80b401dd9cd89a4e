#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Tests the release tarballs of scripts/dist.sh as a distribution uses them:
#
# - runs scripts/dist.sh (build/dist/), checks SHA256SUMS, and that a second run writes
#   the same bytes;
# - the source tarball holds exactly HEAD's tree, file for file and byte for byte, under
#   tensorcast-<version>/ (so no build/ or target/);
# - the vendor tarball holds only tensorcast-<version>/.cargo/config.toml and
#   tensorcast-<version>/vendor/: in full the crates a build of the library compiles (as
#   `cargo tree -e normal,build --target all` lists them here), placeholders for the rest
#   of Cargo.lock;
# - unpacks both into a fresh directory and builds the library there through CMake with an
#   empty CARGO_HOME, CARGO_NET_OFFLINE=true and -DTCAST_CARGO_OFFLINE=ON (cargo runs
#   with --locked --offline), with -DTCAST_DEBUGINFO=line-tables-only as for a -dbgsym
#   package, unoptimised (CARGO_PROFILE_RELEASE_OPT_LEVEL=0, a fifth of the CPU time:
#   what is proved is the tarballs, not the code, whose optimised build from the same
#   tarballs is the packages', steps deb and rpm; TCAST_DIST_OPT_LEVEL=3 builds it as
#   is), and installs it with DESTDIR (prefix /usr); runs the C quickstart; checks
#   that CARGO_HOME stayed without a registry, that the installed libraries hold neither
#   the unpacked tree's path nor CARGO_HOME's (nor this checkout's or the usual
#   CARGO_HOME's), and that the debug info names the compilation directories
#   tensorcast-<version> and tensorcast-<version>/vendor/<crate> (and the toolchain's
#   own, /rustc/<commit> and /rust/deps/...);
# - the same CMake build makes the onnxruntime plugin (-DTCAST_BUILD_ORT=ON, as the deb
#   and rpm packages build it: in the library's cargo run, so the core is compiled once):
#   checks that it is installed, its SONAME (libtensorcast_ort.so), that it exports only
#   onnxruntime's entry points and that it holds no build path either.
#
#   bash scripts/test-dist.sh
#
# The unpacked tree is in a `mktemp -d` directory, removed when every check passed and
# kept otherwise. Installs cmake, make, a C compiler, git and binutils from the system's
# packages when missing (Debian/Ubuntu). Ends with "dist: N passed, M failed"; exits
# nonzero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing cmake make cc git readelf

version=$(git show HEAD:Cargo.toml | sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' |
  head -n 1)
dist_name=tensorcast-$version
dist=$repo/build/dist
source_tarball=$dist/$dist_name.tar.gz
vendor_tarball=$dist/$dist_name-vendor.tar.gz
work=$(mktemp -d)

# check and fail: scripts/lib.sh.

step "bash scripts/dist.sh" bash scripts/dist.sh
first_sums=$(cat "$dist/SHA256SUMS")

step "the tarballs"

sums() {
  cd "$dist"
  sha256sum -c SHA256SUMS
}
check "build/dist/SHA256SUMS: sha256sum -c" sums

reproducible() {
  bash scripts/dist.sh >"$work/dist-again.log" 2>&1 || { cat "$work/dist-again.log" >&2; exit 1; }
  diff <(echo "$first_sums") "$dist/SHA256SUMS" || fail "a second run wrote other bytes"
  echo "the same sums from a second run"
}
check "scripts/dist.sh is reproducible: a second run writes the same bytes" reproducible

# The source tarball against `git ls-tree`: the same paths, and every file's git blob id
# (its bytes) the same.
source_is_git_tree() {
  local expected actual unpacked=$work/source-only
  expected=$(git ls-tree -r --format='%(objectname) %(path)' HEAD | sort -k 2)
  actual=$(tar -tzf "$source_tarball" | grep -v '/$' | sort)
  if grep -v "^$dist_name/" <<<"$actual"; then
    fail "entries outside $dist_name/"
  fi
  if grep -E "^$dist_name/(build|target)/" <<<"$actual"; then
    fail "build/ or target/ in the source tarball"
  fi
  diff <(awk '{print $2}' <<<"$expected") <(cut -d / -f 2- <<<"$actual") ||
    fail "the paths differ from git ls-tree HEAD (< git, > tarball)"
  mkdir "$unpacked"
  tar -xzf "$source_tarball" -C "$unpacked"
  local ids
  ids=$(cd "$unpacked/$dist_name" && awk '{print $2}' <<<"$expected" | git hash-object --stdin-paths)
  diff <(awk '{print $1}' <<<"$expected") <(echo "$ids") ||
    fail "file contents differ from HEAD's blobs"
  echo "$(wc -l <<<"$actual") files, HEAD's tree ($(git rev-parse --short HEAD)) byte for byte"
}
check "$dist_name.tar.gz is HEAD's tree exactly (no build/, no target/)" source_is_git_tree

vendor_contents() {
  local entries needed unpacked=$work/vendor-only dir crate files full=0 placeholders=0
  entries=$(tar -tzf "$vendor_tarball")
  if grep -v -E "^$dist_name/(\.cargo/|\.cargo/config\.toml|vendor/.*)$" <<<"$entries"; then
    fail "entries other than $dist_name/.cargo/config.toml and $dist_name/vendor/"
  fi
  mkdir "$unpacked"
  tar -xzf "$vendor_tarball" -C "$unpacked"
  cat "$unpacked/$dist_name/.cargo/config.toml"
  if ! grep -qx 'replace-with = "vendored-sources"' "$unpacked/$dist_name/.cargo/config.toml" ||
    ! grep -qx 'directory = "vendor"' "$unpacked/$dist_name/.cargo/config.toml"; then
    fail "config.toml does not put vendor/ in the place of crates.io"
  fi
  # What the library compiles, from this checkout (the crates are in CARGO_HOME since
  # dist.sh vendored them).
  needed=$(needed_crates)
  for dir in "$unpacked/$dist_name"/vendor/*/; do
    crate=$(basename "$dir")
    files=$(cd "$dir" && find . -type f | sed 's|^\./||' | sort | xargs)
    if grep -qxF "$crate" <<<"$needed"; then
      # In full: its checksum file lists its files.
      grep -q '"files":{"' "$dir/.cargo-checksum.json" || fail "$crate is needed but not in full"
      full=$((full + 1))
    else
      # A placeholder: Cargo.toml, the checksum without files, and sources (the library's,
      # the build script's) that stop any compilation.
      grep -qx '{"files":{},"package":"[0-9a-f]\{64\}"}' "$dir/.cargo-checksum.json" ||
        fail "$crate is not needed, but its checksum file lists files"
      local source stubs=0
      for source in $files; do
        case $source in
          .cargo-checksum.json | Cargo.toml) ;;
          *.rs)
            grep -q "^compile_error!(\"$crate is a placeholder" "$dir/$source" ||
              fail "$crate's $source does not stop a compilation"
            stubs=$((stubs + 1))
            ;;
          *) fail "$crate is not needed, but is more than a placeholder: $files" ;;
        esac
      done
      [ "$stubs" -gt 0 ] || fail "$crate's placeholder has no source"
      placeholders=$((placeholders + 1))
    fi
  done
  for crate in $needed; do
    [ -d "$unpacked/$dist_name/vendor/$crate" ] || fail "$crate is needed and not vendored"
  done
  echo "vendor/: $full crates in full ($(xargs <<<"$needed")), $placeholders placeholders"
}
check "$dist_name-vendor.tar.gz: .cargo/config.toml and vendor/ (the library's crates in full)" \
  vendor_contents

step "both unpacked in $work, built offline with an empty CARGO_HOME"

tree=$work/unpacked/$dist_name
cargo_home=$work/cargo-home
build_offline() {
  mkdir -p "$work/unpacked" "$cargo_home"
  tar -xzf "$source_tarball" -C "$work/unpacked"
  tar -xzf "$vendor_tarball" -C "$work/unpacked"
  cd "$tree"
  # Nothing of this machine's Rust set-up but the toolchain: no target directory or flags
  # from the environment, an empty CARGO_HOME, and no network for cargo.
  unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
  export CARGO_HOME=$cargo_home CARGO_NET_OFFLINE=true
  cmake -S . -B build -DCMAKE_INSTALL_PREFIX=/usr -DTCAST_CARGO_PROFILE=release \
    -DTCAST_CARGO_LOCKED=ON -DTCAST_CARGO_OFFLINE=ON -DTCAST_DEBUGINFO=line-tables-only \
    -DTCAST_BUILD_TESTS=OFF -DTCAST_BUILD_CXX=OFF -DTCAST_BUILD_EXAMPLES=ON -DTCAST_BUILD_ORT=ON
  CARGO_PROFILE_RELEASE_OPT_LEVEL=${TCAST_DIST_OPT_LEVEL:-0} cmake --build build --verbose 2>&1 |
    tee "$work/build.log"
  # As a package build installs: into a staging directory.
  DESTDIR=$work/stage cmake --install build
}
check "cmake -DTCAST_CARGO_OFFLINE=ON -DTCAST_DEBUGINFO=line-tables-only -DTCAST_BUILD_ORT=ON, build, DESTDIR install" \
  build_offline

# The installed libraries, what a package ships (the library directory is GNUInstallDirs'
# choice for /usr).
installed_so=$(find "$work/stage" -name "libtensorcast.so.$version" 2>/dev/null | head -n 1)
installed_a=$(find "$work/stage" -name libtensorcast.a 2>/dev/null | head -n 1)
installed_ort=$(find "$work/stage" -name libtensorcast_ort.so 2>/dev/null | head -n 1)
echo "installed: ${installed_so:-no libtensorcast.so.$version} ${installed_a:-no libtensorcast.a}" \
  "${installed_ort:-no libtensorcast_ort.so}"

cargo_flags() {
  grep -E 'cargo build --lib --release --locked --offline .*-p tensorcast-ort' "$work/build.log" ||
    fail "no cargo build --locked --offline of the library and the plugin in the build log"
}
check "cargo ran with --locked --offline, the plugin (-p tensorcast-ort) in the same run" cargo_flags

quickstart() {
  local output
  output=$(env -u LD_LIBRARY_PATH "$tree/build/quickstart")
  echo "$output"
  grep -q "^tensorcast $version: float32 -> float16 / bfloat16 -> float32" <<<"$output" ||
    fail "no title line"
  grep -q '0x3c00' <<<"$output" || fail "1.0 is not 0x3c00 in float16"
}
check "the C quickstart runs against the library built from the tarballs" quickstart

cargo_home_empty() {
  local contents
  contents=$(cd "$cargo_home" && find . -mindepth 1 | sort)
  echo "CARGO_HOME holds: ${contents:-nothing}"
  if grep -E '^\./(registry|git)(/|$)' <<<"$contents"; then
    fail "cargo fetched into CARGO_HOME"
  fi
}
check "CARGO_HOME has no registry or git directory after the build" cargo_home_empty

# The libraries name no directory of the build machine: neither the unpacked tree nor
# the empty CARGO_HOME (both in $work), nor this checkout or the usual CARGO_HOME.
installed_paths() {
  if [ -z "$installed_so" ] || [ -z "$installed_a" ] || [ -z "$installed_ort" ]; then
    fail "the libraries were not installed"
  fi
  build_paths_absent "$work" "$repo" "${CARGO_HOME:-$HOME/.cargo}" -- "$installed_so" "$installed_a" \
    "$installed_ort"
}
check "the installed .so, .a and plugin hold neither the build folder's nor CARGO_HOME's path" \
  installed_paths

# Debug info that a -dbgsym package can use, under the remapped names: the compilation
# directory of tensorcast's code is tensorcast-<version> (its line tables name src/...
# relative to it), those of the vendored crates compiled on their own
# tensorcast-<version>/vendor/<crate>, and the line tables name the vendored sources
# inlined into tensorcast's code (half's) as tensorcast-<version>/vendor/<crate>.
debug_info() {
  local so=$installed_so dirs half
  [ -n "$so" ] || fail "libtensorcast.so.$version was not installed"
  readelf -S "$so" | grep -q '\.debug_line' || fail "no .debug_line in libtensorcast.so"
  dirs=$(readelf --debug-dump=info "$so" 2>/dev/null | sed -n 's/.*DW_AT_comp_dir *:.*): //p' |
    sort -u)
  echo "compilation directories (DW_AT_comp_dir):"
  printf '  %s\n' "${dirs//$'\n'/$'\n'  }"
  grep -qx "$dist_name" <<<"$dirs" || fail "no compilation directory $dist_name"
  grep -q "^$dist_name/vendor/" <<<"$dirs" || fail "no compilation directory $dist_name/vendor/*"
  if grep -v -e "^$dist_name\(/vendor/[^/]*\)\?$" -e '^/rustc/[0-9a-f]*$' -e '^/rust/deps/' <<<"$dirs"; then
    fail "compilation directories other than $dist_name, its vendor/ crates and the toolchain's"
  fi
  half=$(readelf --debug-dump=rawline "$so" 2>/dev/null | grep -oE "$dist_name/vendor/half-[^[:space:]]*" |
    sort -u)
  [ -n "$half" ] || fail "the line tables name no $dist_name/vendor/half-*"
  echo "line tables: $half"
}
check "debug info: compilation directories $dist_name and $dist_name/vendor/*" debug_info

# The onnxruntime plugin, built from the same tarballs in the library's cargo run above
# (every crate it needs must be in vendor/) and installed where the packages put it.
plugin_offline() {
  local so=$installed_ort exported
  [ -n "$so" ] || fail "libtensorcast_ort.so was not installed"
  echo "installed: ${so#"$work/stage"}"
  readelf -d "$so" | grep -q 'Library soname: \[libtensorcast_ort.so\]' ||
    fail "libtensorcast_ort.so's SONAME is not libtensorcast_ort.so: $(readelf -d "$so" | grep SONAME)"
  exported=$(nm -D --defined-only "$so" | awk '{print $NF}' | sort | tr '\n' ' ')
  echo "libtensorcast_ort.so exports: $exported"
  [ "$exported" = "CreateEpFactories RegisterCustomOps ReleaseEpFactory " ] ||
    fail "libtensorcast_ort.so exports more than onnxruntime's entry points"
}
check "the onnxruntime plugin, built offline from the tarballs, installed: its SONAME and exports" \
  plugin_offline

printf '\ndist: %d passed, %d failed\n' "$passed" "$failed"
if [ "$failed" -ne 0 ]; then
  echo "kept for inspection: $work" >&2
  exit 1
fi
rm -rf "$work"
