#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Builds the release shared library for another CPU with Debian's Rust toolchain (rustc
# 1.85, the crate's rust-version, as a distribution builds it) and checks what it built:
#
#   bash scripts/build-cross-lib.sh aarch64-unknown-linux-gnu
#       -> target/cross/aarch64-unknown-linux-gnu/release/libtensorcast.so
#
# (s390x-unknown-linux-gnu works the same way.) The setup is scripts/test-cross.sh's, from
# scripts/lib-cross.sh, in the same places (build/rust-1.85, build/rust-cross/<arch>,
# target/cross), so each reuses what the other unpacked; installs the cross gcc, C library
# and qemu-user when missing. Then `cargo build --release -p tensorcast-c --target TRIPLE` (the
# release profile: test-cross.sh builds the test profile, whose overflow checks and
# opt-level differ, so nothing of its build is what ships) and the checks, all run, each
# reported:
#
#   1. ELF header: a 64-bit shared object (DYN) for the target's machine;
#   2. dynamic section: SONAME libtensorcast.so.<major of Cargo.toml>, no RPATH/RUNPATH;
#   3. exports: the defined global symbols are exactly the functions include/tensorcast.h
#      declares (each tcast_*, with or without a symbol version);
#   4. it runs: bindings/csharp/tests/package/native-load.c, built with the cross gcc and
#      run under qemu-user, dlopens the file by its path (as the C# package's resolver
#      does) and checks the version, two casts, an error and that the CPU line names the
#      target's arch;
#   5. the checks catch a wrong library: 1 fails for the host's C library, 2, 3 and 4 for
#      the target's.
#
# Prints `N passed, N failed` and the wall time at the end; exits non-zero on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh
# shellcheck source=scripts/lib-cross.sh
source scripts/lib-cross.sh

if [ $# -ne 1 ]; then
  echo "usage: bash scripts/build-cross-lib.sh aarch64-unknown-linux-gnu|s390x-unknown-linux-gnu" >&2
  exit 2
fi
cross_target "$1" || exit 2
case $cross_triple in
  aarch64-*) elf_machine=AArch64 rust_arch=aarch64 ;;
  s390x-*) elf_machine="IBM S/390" rust_arch=s390x ;;
esac

start=$SECONDS
install_missing readelf
cross_setup "$cross_triple"

lib=$CARGO_TARGET_DIR/$cross_triple/release/libtensorcast.so
work=$PWD/build/cross-lib/$cross_triple
major=$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([0-9]*\)\..*/\1/p' Cargo.toml | head -n 1)

# Linked through cmake/tensorcast-linker.sh, which runs the cross gcc, so that the
# functions carry TENSORCAST_<major> as the CMake build's do (the NuGet package ships it).
release_build() {
  "$RUSTC" --version
  export TCAST_REAL_LINKER=$cross_gnu-gcc
  versioned_cargo_build --target "$cross_triple"
  ls -l "$lib"
}
step "cargo build --release --lib --target $cross_triple (Debian rustc 1.85, versioned)" release_build

passed=0
failed=0
# check NAME COMMAND...: a step that does not stop the script, counted.
check() {
  local before=${#failed_steps[@]}
  step --keep-going "$@"
  if [ ${#failed_steps[@]} -gt "$before" ]; then
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}

# elf_header FILE MACHINE: FILE is an ELF64 shared object for MACHINE (readelf's name).
elf_header() {
  local header
  header=$(readelf -h "$1")
  grep -E '^ +(Class|Type|Machine):' <<<"$header"
  grep -qE '^ +Class: +ELF64$' <<<"$header" || { echo "error: $1 is not ELF64" >&2; return 1; }
  grep -qE '^ +Type: +DYN ' <<<"$header" || { echo "error: $1 is not a shared object" >&2; return 1; }
  grep -qE "^ +Machine: +$2\$" <<<"$header" || { echo "error: $1 is not for $2" >&2; return 1; }
}
check "ELF header of ${lib#"$PWD"/}: ELF64, DYN, $elf_machine" elf_header "$lib" "$elf_machine"

# dynamic_section FILE: SONAME libtensorcast.so.<major>, no RPATH/RUNPATH.
dynamic_section() {
  local dynamic
  dynamic=$(readelf -d "$1")
  grep -E '\((SONAME|NEEDED|RPATH|RUNPATH)\)' <<<"$dynamic"
  grep -qF "Library soname: [libtensorcast.so.$major]" <<<"$dynamic" ||
    { echo "error: $1 has no SONAME libtensorcast.so.$major" >&2; return 1; }
  if grep -qE '\((RPATH|RUNPATH)\)' <<<"$dynamic"; then
    echo "error: $1 has an RPATH or RUNPATH" >&2
    return 1
  fi
}
check "dynamic section: SONAME libtensorcast.so.$major, no RPATH/RUNPATH" dynamic_section "$lib"

# exports FILE: the defined global and weak symbols of FILE's dynamic table (Ndx not UND;
# not ABS, which the version definitions are), their versions (@VERSION, @@VERSION) cut
# off, are the functions include/tensorcast.h declares.
exports() {
  local name
  name=$(basename "$1")
  mkdir -p "$work"
  readelf --dyn-syms -W "$1" |
    awk '$5 == "GLOBAL" || $5 == "WEAK" { if ($7 != "UND" && $7 != "ABS") print $8 }' |
    sed 's/@.*//' | sort -u >"$work/$name.exported"
  grep -E '^[a-z]' include/tensorcast.h | grep -vE '^(typedef|#)' |
    grep -oE '\btcast_[a-z0-9_]+\(' | tr -d '(' | sort -u >"$work/declared.txt"
  echo "$(wc -l <"$work/$name.exported") exported, $(wc -l <"$work/declared.txt") declared in include/tensorcast.h"
  readelf --dyn-syms -W "$1" | awk '$8 ~ /^tcast_(version|cast)(@|$)/ { print "  " $8 }'
  diff -u "$work/declared.txt" "$work/$name.exported" ||
    { echo "error: $1's exports differ from the header's functions (- header, + library)" >&2; return 1; }
}
check "exports: exactly the header's tcast_* functions" exports "$lib"
check "symbol versions: every export is tcast_*@@TENSORCAST_$major" versioned_exports "$lib"

loader=$work/native-load
build_loader() {
  mkdir -p "$work"
  "$cross_gnu-gcc" -std=c11 -O1 -Wall -Wextra -Werror -Iinclude \
    bindings/csharp/tests/package/native-load.c -o "$loader" -ldl
  readelf -h "$loader" | grep -E '^ +Machine:'
}
check "native-load.c built with $cross_gnu-gcc" build_loader

# run_loader LIBRARY: native-load under qemu with the target's C library.
run_loader() {
  timeout --kill-after=10 300 "$cross_qemu" -L "/usr/$cross_gnu" "$loader" "$1" "$rust_arch"
}
check "under $cross_qemu: dlopen by path, version, casts, an error, arch=$rust_arch" run_loader "$lib"

# The checks themselves, on libraries they must refuse: the host's C library (another
# machine) fails the ELF check, and the target's C library (the right machine, not
# tensorcast) fails the SONAME, exports and qemu checks.
wrong_libraries() {
  local host_libc target_libc=/usr/$cross_gnu/lib/libc.so.6 status=0
  host_libc=$(cc -print-file-name=libc.so.6)
  if [ ! -f "$host_libc" ] || [ ! -f "$target_libc" ]; then
    echo "error: no $host_libc or $target_libc" >&2
    return 1
  fi
  refuse() {
    if "$@" >/dev/null 2>&1; then
      echo "error: accepted: $*" >&2
      status=1
    else
      echo "refused: $*"
    fi
  }
  refuse elf_header "$host_libc" "$elf_machine"
  refuse dynamic_section "$target_libc"
  refuse exports "$target_libc"
  refuse run_loader "$target_libc"
  return "$status"
}
check "the checks refuse the host's and the target's C library" wrong_libraries

echo
echo "$cross_triple: ${lib#"$PWD"/}"
echo "wall time: $((SECONDS - start)) s (install, build and checks)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
