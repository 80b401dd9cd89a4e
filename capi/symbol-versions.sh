#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
#
# Names the version node of libtensorcast.so's exports in a plain `cargo build -p
# tensorcast-c`, as cmake/tensorcast-linker.sh does in the CMake build: every function
# then carries TENSORCAST_<major> (docs/c-api.md, section 11), whichever of the two builds
# wrote target/release/libtensorcast.so.
#
# capi/build.rs passes it to the C compiler driver (GCC) that rustc links the cdylib with,
# as `-wrapper sh,<this file>,TENSORCAST_<major>`: GCC then runs each program of the link
# through it, as `sh <this file> TENSORCAST_<major> PROGRAM ARGS...`. For the linker
# (collect2, or ld when GCC runs it directly) it rewrites rustc's version script, an
# anonymous node `{ global: tcast_...; local: *; };`, into a copy whose node has the name,
# and runs the linker on the copy; a second version script cannot do it, since GNU ld and
# lld refuse to combine an anonymous node with a named one. Other programs run unchanged,
# and so does a link whose script is already named (the CMake build's, where
# cmake/tensorcast-linker.sh ran first).
set -eu

fail() {
  echo "capi/symbol-versions.sh: $*" >&2
  exit 1
}

[ $# -ge 2 ] || fail "usage: symbol-versions.sh NODE PROGRAM [ARG...]"
node=$1
shift
case ${1##*/} in
  collect2 | ld | ld.* | *-ld | *-ld.*) ;;
  *) exec "$@" ;;
esac

script=
for arg in "$@"; do
  case $arg in
    --version-script=*) script=${arg#--version-script=} ;;
  esac
done
# No version script: not the library's link but another of the package's (cargo before
# 1.87 hands cdylib link arguments to the library's test executable too): nothing to name.
[ -n "$script" ] || exec "$@"
[ -f "$script" ] || fail "the version script $script does not exist"

first=$(sed -n '1p' "$script")
opening=$(grep -c '{' "$script" || true)
if [ "$first" = "$node {" ] && [ "$opening" = 1 ]; then
  exec "$@"
fi
if [ "$first" != "{" ] || [ "$opening" != 1 ]; then
  fail "the version script $script is not one anonymous node:
$(cat "$script")"
fi

versioned=$script.$node
sed "1s/^{\$/$node {/" "$script" >"$versioned"
for arg in "$@"; do
  shift
  case $arg in
    --version-script=*) arg=--version-script=$versioned ;;
  esac
  set -- "$@" "$arg"
done
exec "$@"
