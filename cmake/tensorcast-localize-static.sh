#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
#
# Turns the static library cargo built into one whose only global symbols are tcast_*
# (docs/c-api.md, section 11), so that a program can link it beside another Rust static
# library, built by any other rustc: cargo's libtensorcast.a holds Rust's whole runtime
# (std, core, alloc, compiler_builtins, ...) with its symbols global, and two copies of
# it in one link collide (multiple definition of `rust_eh_personality', and more).
#
#   tensorcast-localize-static.sh LD OBJCOPY AR INPUT OUTPUT
#
# LD, OBJCOPY and AR are the binutils of the target (CMake's CMAKE_LINKER, CMAKE_OBJCOPY,
# CMAKE_AR); INPUT is cargo's libtensorcast.a, OUTPUT the archive to write (replaced in one
# step). Three steps:
#   1. LD -r links every object of INPUT into one relocatable object, where the library's
#      references to its runtime are resolved once and for all; section groups are
#      dissolved (--force-group-allocation), so that no COMDAT group of this runtime can
#      be merged with one of the same name from another Rust library.
#   2. OBJCOPY makes every global symbol but tcast_* local, and drops the LLVM bitcode and
#      address-significance sections rustc leaves in its runtime's objects: merged by
#      step 1 they describe nothing real any more (and a linker plugin would misread them).
#   3. AR puts that one object, tensorcast.o, in a new archive (deterministic: no dates,
#      owners or modes).
# Symbols the library needs from the system (libc, libm, libgcc_s...) stay undefined, to be
# resolved as before by the libraries of cmake/native-static-libs.txt.
#
# Does nothing when OUTPUT is newer than INPUT and than this script.
set -eu

if [ $# -ne 5 ]; then
  echo "usage: $0 LD OBJCOPY AR INPUT OUTPUT" >&2
  exit 2
fi
ld=$1
objcopy=$2
ar=$3
input=$4
output=$5

if [ -f "$output" ] && [ -n "$(find "$output" -newer "$input" -newer "$0")" ]; then
  exit 0
fi

work=$output.localize.d
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

"$ld" -r --force-group-allocation -o "$work/merged.o" \
  --whole-archive "$input" --no-whole-archive
"$objcopy" --wildcard --keep-global-symbol='tcast_*' \
  --remove-section=.llvmbc --remove-section=.llvmcmd --remove-section=.llvm_addrsig \
  "$work/merged.o" "$work/tensorcast.o"
"$ar" rcsD "$work/libtensorcast.a" "$work/tensorcast.o"
mv -f "$work/libtensorcast.a" "$output"
