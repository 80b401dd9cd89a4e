#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
#
# The ABI checks of docs/c-api.md, section 11, on the libraries the CMake build makes (the
# ones that get installed):
#
#   1. Symbol versions: readelf shows every function the shared library exports as
#      tcast_*@@TENSORCAST_<major>, and a C program linked against it (the CMake test
#      test_status) records tcast_*@TENSORCAST_<major>.
#   2. The symbols list abi/libtensorcast<major>.symbols (dpkg-gensymbols format; the
#      Debian package's symbols file) against `nm -D --defined-only`: every symbol listed,
#      nothing more, all versioned; and dpkg-gensymbols -c4 agrees.
#   3. The ABI gate: abidiff of the shared library against the committed ABI of the last
#      release, abi/libtensorcast.so.<major>.abi (abidw of libabigail), with the
#      suppressions of abi/tensorcast.abignore. Added functions pass; any other change
#      fails. Then the gate is put to the test on deliberately changed copies of the
#      sources (an added export must pass; a changed signature, a field inserted in the
#      middle of tcast_cast_options or of tcast_error, a field added at the end of
#      tcast_cast_options, which tcast_cast_options_default returns by value, and a
#      removed export must fail; a change inside the opaque tcast_np_dtype must pass),
#      in three builds: the two changes that must pass in one, those that must fail in
#      two (changes of one line or of one struct's layout never share a build), each of
#      these shown in the report of the refusing comparison.
#   4. The static library: `nm -g --defined-only` of libtensorcast.a shows tcast_* only;
#      test_status links it and runs; and a C program (tests/coexist/main.c) links it
#      beside a Rust static library built by another rustc (tests/coexist: the rustup
#      nightly when there is one, and Debian's rustc 1.85 unpacked into build/rust-1.85),
#      in both orders, and runs. The same link with cargo's own
#      libtensorcast.a must fail with `multiple definition of rust_eh_personality'.
#
#   bash scripts/test-abi.sh            the checks
#   bash scripts/test-abi.sh --bless    first rewrites abi/libtensorcast.so.<major>.abi and
#                                       abi/libtensorcast<major>.symbols from this build
#                                       (at a release only: see docs/c-api.md, section 11)
#
# Everything is built under build/abi/ (kept, so a second run is incremental): one CMake
# build (release profile with debug info, which abidw reads, at opt-level 0 unless
# TCAST_ABI_OPT_LEVEL says otherwise or --bless; incremental) in build/abi/cmake, with
# its own cargo target directory build/abi/target, of a copy of the sources in
# build/abi/variants/src: checks 1, 2, 3 and 4 read its libraries as built from the
# unchanged copy, then the three changed copies of check 3 are built by the same CMake
# build, one incremental build after another (last, as they change its libraries); the other
# Rust library in build/abi/coexist-*. Installs what is missing (Debian/Ubuntu): cmake,
# make, a C compiler, binutils, abigail-tools, dpkg-dev. Ends with "abi: N passed, M
# failed" and exits nonzero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

bless=0
case ${1:-} in
  --bless) bless=1 ;;
  '') ;;
  *)
    echo "usage: bash scripts/test-abi.sh [--bless]" >&2
    exit 2
    ;;
esac

start=$SECONDS
install_missing cmake make cc readelf nm
missing=()
have abidw abidiff || missing+=(abigail-tools)
have dpkg-gensymbols || missing+=(dpkg-dev)
apt_install ${missing[@]+"${missing[@]}"}

version=$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1)
major=${version%%.*}
soname=libtensorcast.so.$major
node=TENSORCAST_$major
baseline=abi/$soname.abi
symbols_file=abi/libtensorcast$major.symbols
suppressions=abi/tensorcast.abignore

out=$repo/build/abi
build=$out/cmake
cargo_target=$out/target
so=$cargo_target/release/libtensorcast.so
cargo_static=$cargo_target/release/libtensorcast.a
static=$build/tensorcast-static/libtensorcast.a
mkdir -p "$out"

# check and fail: scripts/lib.sh.

# The ABI, as abidw writes the baseline: without the paths of this build and the source
# positions, which change with every edit and say nothing about the ABI, and without the
# empty translation units of the dependencies and of Rust's runtime (named by paths of
# the builder's CARGO_HOME and rustc's sources, and describing nothing).
abidw_baseline() {
  abidw --no-corpus-path --no-comp-dir-path --no-show-locs "$1" |
    awk '/^  <abi-instr / { held = $0; next }
         held != "" { if ($0 ~ /^  <\/abi-instr>$/) { held = ""; next } print held; held = "" }
         { print }'
}

# The verdict of the gate on a library: abidiff against the baseline, the additions
# filtered out (--no-added-syms: a new function is allowed within a major version).
# Prints abidiff's full report (additions included), then its exit status with the
# additions left out, 0 when nothing but additions changed. abidiff's status is a bit
# set: 1 error, 2 usage error, 4 ABI change, 8 incompatible ABI change. libabigail 2.2
# gives 4, not 8, for a changed parameter list or struct layout, so any bit fails.
# With a second argument, writes the report of the comparison that gives the status (the
# additions left out) into that file.
abi_verdict() {
  local lib=$1 refused=${2:-/dev/null} status=0
  abidiff --suppressions "$suppressions" "$baseline" "$lib" >&2 || true
  abidiff --no-added-syms --suppressions "$suppressions" "$baseline" "$lib" >"$refused" ||
    status=$?
  echo "$status"
}

describe_status() {
  case $1 in
    0) echo "0 (no change but additions)" ;;
    *)
      local bits=()
      (($1 & 1)) && bits+=(error)
      (($1 & 2)) && bits+=(usage-error)
      (($1 & 4)) && bits+=(ABI-change)
      (($1 & 8)) && bits+=(incompatible-change)
      echo "$1 (${bits[*]})"
      ;;
  esac
}

# --- the CMake build ---------------------------------------------------------------

# Unoptimised, unless blessing or asked: the exports, their symbol versions and the types
# abidw reads do not depend on the optimisation (the variants below, built at opt-level 0,
# pass the same gate), and the build takes a fifth of the CPU time. TCAST_ABI_OPT_LEVEL=3
# checks the release build as it ships; --bless writes the baseline from that one.
opt_level=${TCAST_ABI_OPT_LEVEL:-0}
[ "$bless" -eq 0 ] || opt_level=3

variants=$out/variants
copy=$variants/src

copy_sources() {
  # What the CMake build and `cargo build -p tensorcast-c` need (the workspace's members:
  # capi/, which it builds, integrations/ and python/, whose manifests cargo reads; the
  # header, the C tests), and a pristine copy beside it to start each variant from.
  rm -rf "$variants/pristine" "$copy"
  mkdir -p "$variants/pristine/python" "$variants/pristine/tests"
  cp -R Cargo.toml Cargo.lock build.rs CMakeLists.txt src benches capi integrations cmake include \
    "$variants/pristine/"
  cp -R python/Cargo.toml python/src "$variants/pristine/python/"
  cp -R tests/c "$variants/pristine/tests/"
  cp -R "$variants/pristine" "$copy"
}
step "a copy of the sources in ${variants#"$repo"/}" copy_sources

# cmake_env COMMAND...: COMMAND in the environment of this script's CMake build: the
# release profile with debug info (for abidw) at $opt_level, incremental, in 16 codegen
# units (the variants rebuild the core one after another; the ABI depends on neither),
# in a cargo target directory of its own (the test command's other release builds in
# target/ keep theirs).
cmake_env() {
  CARGO_TARGET_DIR=$cargo_target CARGO_PROFILE_RELEASE_DEBUG=true \
    CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt_level CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_INCREMENTAL=1 "$@"
}

cmake_build() {
  cmake_env cmake -S "$copy" -B "$build" -DTCAST_CARGO_PROFILE=release -DTCAST_BUILD_TESTS=ON \
    -DTCAST_BUILD_EXAMPLES=OFF -DTCAST_BUILD_CXX=OFF -DTCAST_INSTALL_DOCS=OFF >"$out/configure.log" ||
    { cat "$out/configure.log" >&2; return 1; }
  cmake_env cmake --build "$build" --target test_status test_status_static
  [ -f "$so" ] && [ -f "$static" ]
}
step "CMake build of tensorcast $version (release profile at opt-level $opt_level, debug info) in ${build#"$repo"/}" cmake_build

# build_variant: the library of the changed copy, rebuilt by the CMake build above (an
# incremental cargo build, linked by cmake/tensorcast-linker.sh as every CMake build of
# it is, so that its symbols carry the version); prints its path.
build_variant() {
  cmake_env cmake --build "$build" --target tensorcast_cargo >&2
  echo "$so"
}

if [ "$bless" -eq 1 ]; then
  bless_files() {
    mkdir -p abi
    abidw_baseline "$so" >"$baseline"
    # The symbols list: those listed keep their version, new ones get this one.
    local old=
    [ -f "$symbols_file" ] && old=$(cat "$symbols_file")
    {
      echo "$soname libtensorcast$major #MINVER#"
      echo "* Build-Depends-Package: libtensorcast-dev"
      {
        echo "$node@$node"
        nm -D --defined-only "$so" | awk '$2 != "A" {print $3}' | sed 's/@@/@/'
      } | LC_ALL=C sort -u | while read -r symbol; do
        local since
        since=$(awk -v s="$symbol" '$1 == s {print $2}' <<<"$old")
        echo " $symbol ${since:-$version}"
      done
    } >"$symbols_file"
    echo "wrote $baseline and $symbols_file:"
    cat "$symbols_file"
  }
  step "--bless: the ABI baseline and the symbols list from this build" bless_files
fi

step "symbol versions (readelf)"

version_definition() {
  local defs
  defs=$(readelf -V -W "$so" | sed -n '/\.gnu\.version_d/,/\.gnu\.version_r/p')
  echo "$defs"
  grep -q "Flags: BASE .*Name: $soname\$" <<<"$defs" || fail "no base version named $soname"
  grep -q "Flags: none .*Name: $node\$" <<<"$defs" || fail "no version definition $node"
  [ "$(grep -c 'Name: ' <<<"$defs")" -eq 2 ] || fail "other version definitions than $soname and $node"
}
check "readelf -V: the shared library defines the version $node" version_definition

exported_versioned() {
  versioned_exports "$so"
  readelf --dyn-syms -W "$so" | grep -E " tcast_(cast|version)@@" || true
}
check "readelf --dyn-syms: every exported function is tcast_*@@$node" exported_versioned

consumer_versioned() {
  local exe=$build/test_status needs unversioned
  needs=$(readelf -V -W "$exe" | sed -n '/\.gnu\.version_r/,$p')
  grep -q "File: $soname" <<<"$needs" || fail "$exe does not need a version of $soname"
  grep -q "Name: $node " <<<"$needs" || fail "$exe does not need $node"
  grep -A3 "File: $soname" <<<"$needs"
  unversioned=$(readelf --dyn-syms -W "$exe" | awk '$7 == "UND" {print $8}' | grep '^tcast_' |
    grep -v "@$node\$" || true)
  [ -z "$unversioned" ] || fail "references to tcast_* without @$node: $unversioned"
  readelf --dyn-syms -W "$exe" | awk '$7 == "UND" && $8 ~ /^tcast_/ {print "  " $8}'
  "$exe" >/dev/null
}
check "a C program linked against it (test_status) records tcast_*@$node and runs" consumer_versioned

step "the symbols list ${symbols_file} (dpkg-gensymbols format)"

symbols_list() {
  [ -f "$symbols_file" ] || fail "$symbols_file is missing (bash scripts/test-abi.sh --bless writes it)"
  local header listed actual
  header=$(head -n 1 "$symbols_file")
  [ "$header" = "$soname libtensorcast$major #MINVER#" ] || fail "first line: $header"
  # Listed: " name@version minver" lines, the version definition ($node@$node) aside.
  listed=$(sed -n 's/^ \([^ ]*\) [^ ]*$/\1/p' "$symbols_file" | grep -v -x "$node@$node" | LC_ALL=C sort)
  grep -q -x " $node@$node [0-9.]*" "$symbols_file" || fail "the version definition $node@$node is not listed"
  # nm prints name@@version for a default version; the absolute symbol GNU ld makes of
  # the version's name (type A) is the version definition, checked by readelf -V.
  actual=$(nm -D --defined-only "$so" | awk '$2 != "A" {print $3}' | LC_ALL=C sort)
  local unversioned
  unversioned=$(grep -v "@@$node\$" <<<"$actual" || true)
  [ -z "$unversioned" ] || fail "exported without the version $node: $unversioned"
  if [ "$listed" != "${actual//@@/@}" ]; then
    diff <(echo "$listed") <(echo "${actual//@@/@}") >&2 || true
    fail "nm -D differs from $symbols_file (< listed, > exported)"
  fi
  echo "$(wc -l <<<"$listed") functions listed, exported and versioned, and $node@$node"
}
check "$symbols_file lists exactly what nm -D --defined-only shows, all @$node" symbols_list

gensymbols() {
  local dir=$out/gensymbols
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$so" "$dir/$soname"
  # -c4: any difference (a symbol missing, a new one) fails; -O writes what it found.
  (cd "$dir" && dpkg-gensymbols -v"$version" -plibtensorcast"$major" -Ppkg -e"$soname" \
    -I"$repo/$symbols_file" -O"$dir/found.symbols" -c4)
  diff -u "$symbols_file" "$dir/found.symbols" || fail "dpkg-gensymbols writes another list"
  echo "dpkg-gensymbols -c4: no difference"
}
check "dpkg-gensymbols -c4 with $symbols_file as the template finds no difference" gensymbols

step "the ABI gate: abidiff against ${baseline}"

baseline_gate() {
  [ -f "$baseline" ] || fail "$baseline is missing (bash scripts/test-abi.sh --bless writes it)"
  local status
  # Kept: the added functions it counts are those of the release the variants add to.
  status=$(abi_verdict "$so" 2>"$variants/unchanged.report")
  cat "$variants/unchanged.report"
  echo "abidiff's status with additions filtered out: $(describe_status "$status")"
  [ "$status" -eq 0 ] || fail "the ABI changed incompatibly since $baseline"
}
check "abidiff $baseline and this build: nothing changed but additions" baseline_gate

# edit FILE FROM TO: replaces the line FROM (whole, exact) by the lines TO in the copy's
# FILE; fails unless FROM occurs exactly once, so that a variant never builds unchanged.
edit() {
  local file=$copy/$1 from=$2 to=$3 count
  count=$(grep -c -x -F -- "$from" "$file" || true)
  [ "$count" -eq 1 ] || fail "$1: the line '$from' occurs $count times, not once"
  cp "$file" "$file.before"
  FROM=$from TO=$to perl -0pi -e 's/^\Q$ENV{FROM}\E$/$ENV{TO}/m' "$file"
  if cmp -s "$file" "$file.before"; then
    fail "$1: the edit did not apply"
  fi
  rm -f "$file.before"
}

# variant NAME EXPECT EDIT-FUNCTION...: starts the copy afresh, applies the edits, builds,
# and checks the gate's verdict: EXPECT is pass (status 0) or fail (the ABI-change bit
# set, and neither error bit: abidiff failing to read a file proves nothing). Keeps the
# full report in NAME.report and the refusing comparison's (--no-added-syms: what sets
# the status) in NAME.refused.
variant() {
  local name=$1 expect=$2 edit_function lib status
  shift 2
  rm -rf "$copy/src"
  cp -R "$variants/pristine/src" "$copy/src"
  for edit_function in "$@"; do
    "$edit_function"
  done
  lib=$(build_variant)
  status=$(abi_verdict "$lib" "$variants/$name.refused" 2>"$variants/$name.report")
  sed 's/^/    /' "$variants/$name.report"
  echo "verdict: $(describe_status "$status")"
  case $expect in
    pass) [ "$status" -eq 0 ] || fail "the gate refused a build it must accept" ;;
    fail)
      [ "$status" -ne 0 ] || fail "the gate accepted a build it must refuse"
      if [ $((status & 3)) -ne 0 ] || [ $((status & 4)) -eq 0 ]; then
        fail "abidiff failed to compare"
      fi
      ;;
  esac
}

# refused NAME CHANGE LINE: the refusing comparison of variant NAME reports LINE, so CHANGE
# fails the gate on its own: abidiff's status with --no-added-syms is nonzero exactly when
# that report lists a change, whichever.
refused() {
  grep -F -- "$3" "$variants/$1.refused" || fail "the refusing report does not show $2 ($3)"
}


added_export() {
  cat >>"$copy/src/ffi/status.rs" <<'EOF'

/// Added by scripts/test-abi.sh: a new export.
#[no_mangle]
pub extern "C" fn tcast_abi_gate_added() -> i32 {
    7
}
EOF
}
# The added functions abidiff counts in a variant's report (0 when it reports nothing).
added_count() {
  local count
  count=$(grep -o -m 1 '[0-9]* Added functions\{0,1\}$' "$1" | cut -d' ' -f1 || true)
  echo "${count:-0}"
}
changed_signature() {
  edit src/ffi/status.rs 'pub extern "C" fn tcast_version() -> *const c_char {' \
    'pub extern "C" fn tcast_version(needed: *mut u64) -> *const c_char {
    let _ = needed;'
}

options_field() {
  # After `saturate`, before `round_mode` (a line of tcast_cast_options alone:
  # tcast_qdq_options has a `saturate` too).
  edit src/ffi/types.rs '    pub round_mode: i32,' '    /// Inserted by scripts/test-abi.sh.
    pub inserted: i32,
    pub round_mode: i32,'
  edit src/ffi/cast.rs '        saturate: i32::from(d.saturate),' '        saturate: i32::from(d.saturate),
        inserted: 0,'
}

error_field() {
  edit src/ffi/types.rs '    pub status: i32,' '    pub status: i32,
    /// Inserted by scripts/test-abi.sh.
    pub inserted: i64,'
}

options_field_at_end() {
  edit src/ffi/types.rs '    pub executor: *const tcast_executor,' '    pub executor: *const tcast_executor,
    /// Added by scripts/test-abi.sh.
    pub added_at_end: i32,'
  edit src/ffi/cast.rs '        saturate: i32::from(d.saturate),' '        saturate: i32::from(d.saturate),
        added_at_end: 0,'
}

removed_export() {
  edit src/ffi/status.rs 'pub extern "C" fn tcast_version() -> *const c_char {' \
    'pub extern "C" fn tcast_version_renamed() -> *const c_char {'
}

opaque_change() {
  edit src/np/dtype/grammar.rs '    pub refused: Option<(Rules, String)>,' \
    '    pub refused: Option<(Rules, String)>,
    pub inserted: [u64; 3],'
  perl -0pi -e 's/^( *)Ok\(Parsed \{$/$1Ok(Parsed {\n$1    inserted: [0; 3],/mg' \
    "$copy/src/np/dtype/grammar.rs"
  grep -q 'inserted: \[0; 3\],' "$copy/src/np/dtype/grammar.rs" || fail "grammar.rs: no initializer edited"
}

# --- the static library ---------------------------------------------------------------

step "the static library: only tcast_* global, beside another Rust static library"

# Global defined symbols of an archive, from readelf (nm reads an object with embedded
# LLVM bitcode through the installed linker plugin, if any, and may see no symbols).
archive_globals() {
  readelf -s -W "$1" | awk '($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" {print $8}'
}

static_globals() {
  local before after nm_all nm_other
  before=$(archive_globals "$cargo_static" | wc -l)
  after=$(archive_globals "$static" | wc -l)
  nm_all=$(nm -g --defined-only "$static" | awk 'NF == 3 {print $3}')
  nm_other=$(grep -v '^tcast_' <<<"$nm_all" || true)
  echo "global symbols defined: cargo's libtensorcast.a $before, the CMake build's $after" \
    "(nm -g --defined-only: $(wc -l <<<"$nm_all"), readelf: $after)"
  [ -z "$nm_other" ] || fail "nm -g --defined-only shows besides tcast_*: $(head <<<"$nm_other")"
  [ "$(archive_globals "$static" | grep -vc '^tcast_')" -eq 0 ] || fail "readelf sees other globals"
  [ "$(wc -l <<<"$nm_all")" -eq "$after" ] || fail "nm and readelf disagree"
  [ "$after" -eq "$(nm -D --defined-only "$so" | awk '$2 != "A"' | wc -l)" ] ||
    fail "the static library's tcast_* are not the shared library's"
  ar t "$static"
}
check "nm -g --defined-only of the CMake-built libtensorcast.a: tcast_* only" static_globals

static_test() {
  "$build/test_status_static"
  grep -q 'libtensorcast' <<<"$(readelf -d "$build/test_status_static")" && fail "linked a shared libtensorcast"
  echo "test_status_static ran"
}
check "test_status_static (CMake, tensorcast::tensorcast_static) links it and runs" static_test

# The other Rust toolchains: the rustup nightly when there is one, and Debian's rustc 1.85,
# unpacked into build/rust-1.85 (never installed: scripts/lib.sh, use_debian_rust; the msrv
# step has usually unpacked it already).
others=()
if have rustup && rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  others+=(nightly)
fi
stable_version=$(rustc --version)
# use_debian_rust exports what runs Debian's toolchain for the rest of a script: keep it
# for the debian builds below only.
saved_ld_library_path=${LD_LIBRARY_PATH-unset}
saved_path=$PATH
use_debian_rust
debian_env=(env "RUSTC=$RUSTC" "RUSTDOC=$RUSTDOC" "LD_LIBRARY_PATH=$LD_LIBRARY_PATH" "PATH=$PATH")
debian_cargo=$CARGO
debian_rustc=$RUSTC
unset RUSTC RUSTDOC CARGO DEBIAN_RUST_BIN
export PATH=$saved_path
if [ "$saved_ld_library_path" = unset ]; then
  unset LD_LIBRARY_PATH
else
  export LD_LIBRARY_PATH=$saved_ld_library_path
fi
others+=(debian)

other_cargo() {
  case $1 in
    nightly) cargo +nightly "${@:2}" ;;
    debian) "${debian_env[@]}" "$debian_cargo" "${@:2}" ;;
  esac
}
other_rustc() {
  case $1 in
    nightly) rustc +nightly --version ;;
    debian) "${debian_env[@]}" "$debian_rustc" --version ;;
  esac
}

# link_coexist EXE ARCHIVE... : cc tests/coexist/main.c with the archives in this order.
link_coexist() {
  local exe=$1
  shift
  # shellcheck disable=SC2046 # the list is words
  cc -I include tests/coexist/main.c "$@" -o "$exe" \
    $(grep -v '^#' cmake/native-static-libs.txt | xargs -n1 printf -- '-l%s ')
}

coexist() {
  local other=$1 dir=$out/coexist-$1 lib log
  other_rustc "$other"
  echo "tensorcast: $stable_version"
  other_cargo "$other" build --release --quiet --locked --manifest-path tests/coexist/Cargo.toml \
    --target-dir "$dir/target"
  lib=$dir/target/release/libtcast_coexist.a
  # Before: cargo's own archive, with Rust's runtime global, cannot be linked beside it.
  local order
  for order in tensorcast-first other-first; do
    log=$dir/before-$order.log
    local archives=("$cargo_static" "$lib")
    [ "$order" = tensorcast-first ] || archives=("$lib" "$cargo_static")
    if link_coexist "$dir/before-$order" "${archives[@]}" >"$log" 2>&1; then
      fail "cargo's libtensorcast.a linked beside it ($order): this test proves nothing"
    fi
    grep -q "multiple definition of \`rust_eh_personality'" "$log" ||
      { cat "$log" >&2; fail "cargo's archive failed to link for another reason"; }
    echo "cargo's libtensorcast.a, $order: $(grep -m1 -o "multiple definition of \`rust_eh_personality'.*" "$log" | cut -c1-140)..."
  done
  # After: the CMake build's archive, in both orders, links and runs.
  for order in tensorcast-first other-first; do
    local archives=("$static" "$lib")
    [ "$order" = tensorcast-first ] || archives=("$lib" "$static")
    link_coexist "$dir/after-$order" "${archives[@]}"
    echo "the CMake build's libtensorcast.a, $order: linked; runs:"
    "$dir/after-$order" | sed 's/^/  /'
    [ "$("$dir/after-$order" | tail -n 1)" = "both libraries ok" ] || fail "wrong output"
  done
}
for other in "${others[@]}"; do
  check "libtensorcast.a and tests/coexist built by another rustc ($other) link in both orders and run" \
    coexist "$other"
done

# --- the gate on deliberately changed sources (last: they rebuild the libraries) ------

step "the ABI gate on deliberately changed copies of the sources"

# Both changes that must pass, in one build.
passing() {
  variant passing pass added_export opaque_change
  # One more added function than the unchanged sources have over the baseline (the
  # exports added since the last release, such as tcast_cast_options_init, are in both).
  local since_release
  since_release=$(added_count "$variants/unchanged.report")
  [ "$(added_count "$variants/passing.report")" -eq $((since_release + 1)) ] ||
    fail "abidiff did not see the addition (expected $((since_release + 1)) added functions)"
  grep -q "tcast_abi_gate_added@@$node" "$variants/passing.report" || fail "not as tcast_abi_gate_added@@$node"
  grep -q "tcast_np_dtype" "$variants/passing.report" && fail "the opaque type's change was reported"
  # Without the suppression, the same build is refused for the opaque type (the added
  # export is left out by --no-added-syms): the suppression is what lets it pass.
  local status=0 unsuppressed=$variants/passing.unsuppressed
  abidiff --no-added-syms "$baseline" "$so" >"$unsuppressed" || status=$?
  echo "without $suppressions: $(describe_status "$status")"
  [ "$status" -ne 0 ] || fail "the change did not reach the ABI at all: this variant proves nothing"
  grep -q "tcast_np_dtype" "$unsuppressed" || fail "refused without $suppressions, but not for tcast_np_dtype"
}
check "an added export (tcast_abi_gate_added) and a field added inside the opaque tcast_np_dtype ($suppressions): the gate passes" \
  passing

check "tcast_version gains a parameter, a field inserted in the middle of tcast_cast_options and one in the middle of tcast_error: the gate fails" \
  variant middle fail changed_signature options_field error_field
check "  of them, tcast_version's added parameter" \
  refused middle "the parameter" "parameter 1 of type 'u64*' was added"
check "  of them, round_mode moved by the field inserted in tcast_cast_options" \
  refused middle "round_mode moving" "'i32 round_mode' offset changed from 64 to 96"
check "  of them, index moved by the field inserted in tcast_error" \
  refused middle "index moving" "'i64 index' offset changed from 64 to 128"

check "a field added at the end of tcast_cast_options (returned by value) and an export removed (tcast_version renamed): the gate fails" \
  variant end fail options_field_at_end removed_export
check "  of them, the field added at the end" \
  refused end "the field added at the end" "'i32 added_at_end', at offset 256"
check "  of them, the removed export" \
  refused end "the removal" "1 Removed function"

printf '\nwall time: %d s\n' $((SECONDS - start))
printf '\nabi: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
