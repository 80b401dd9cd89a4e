#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
#
# The linker that tensorcast's CMake build gives cargo (cmake/TensorcastCargo.cmake), so
# that every function the shared library exports carries the symbol version
# TENSORCAST_<major> (docs/c-api.md, section 11): tcast_cast@@TENSORCAST_0 for 0.x.
#
# rustc links a cdylib with a version script of its own, an anonymous node
#     { global: tcast_bitcast; ...; local: *; };
# and GNU ld and lld refuse to combine an anonymous node with a named one, so a second
# script passed with -C link-arg cannot name the version. This wrapper gives the node
# rustc wrote the name instead, in a copy of rustc's file, and runs the real linker on
# the copy. The list of exported symbols stays rustc's.
#
# It acts on the link of libtensorcast.so itself, recognised by the SONAME capi/build.rs
# gives it (-Wl,-soname,libtensorcast.so.<major>), and on the onnxruntime plugin's
# (-DTCAST_BUILD_ORT=ON), recognised by the second version script its build.rs passes,
# core-local.map: a node `{ local: tcast_...; };` that hides the core's functions rustc
# lists as global. GNU ld refuses two anonymous nodes, so the plugin gets one script
# instead: a copy of rustc's without the lines naming a function of core-local.map (its
# `local: *;` then hides them). Build scripts, proc macros and everything else are linked
# unchanged. The major version, and so the node's name, comes
# from that SONAME. (rustc passes its arguments in an @file only when a command line is
# too long for the system; this wrapper would then see no SONAME and link unchanged, and
# the readelf checks of scripts/test-abi.sh would fail.)
#
#   TCAST_REAL_LINKER   the linker cargo would otherwise run, a C compiler driver
#                       (default: cc, cargo's own default)
#
# Used as cargo's linker for one target:
#   cargo build --config 'target.x86_64-unknown-linux-gnu.linker="/path/cmake/tensorcast-linker.sh"'
# or CARGO_TARGET_<TRIPLE>_LINKER=/path/cmake/tensorcast-linker.sh (with
# TCAST_REAL_LINKER=<cross gcc> for a cross build).
set -eu

real=${TCAST_REAL_LINKER:-cc}

soname=
script=
local_map=
for arg in "$@"; do
  case $arg in
    -Wl,-soname,libtensorcast.so.*) soname=${arg#-Wl,-soname,} ;;
    -Wl,--version-script=*/core-local.map) local_map=${arg#-Wl,--version-script=} ;;
    -Wl,--version-script=*) script=${arg#-Wl,--version-script=} ;;
  esac
done

fail() {
  echo "tensorcast-linker.sh: $*" >&2
  exit 1
}

# The plugin: rustc's script less the core's functions, and no core-local.map.
if [ -n "$local_map" ]; then
  if [ -z "$script" ] || [ ! -f "$script" ]; then
    fail "the plugin's link has core-local.map but no version script of rustc's"
  fi
  grep -o 'tcast_[A-Za-z0-9_]*' "$local_map" | sort -u >"$script.core-local"
  [ -s "$script.core-local" ] || fail "$local_map names no tcast_ function"
  grep -v -w -F -f "$script.core-local" "$script" >"$script.plugin" || true
  grep -q 'local:' "$script.plugin" || fail "rustc's version script $script has no local: part"
  for arg in "$@"; do
    shift
    case $arg in
      -Wl,--version-script=*/core-local.map) continue ;;
      -Wl,--version-script=*) arg=-Wl,--version-script=$script.plugin ;;
    esac
    set -- "$@" "$arg"
  done
  exec "$real" "$@"
fi

if [ -z "$soname" ]; then
  exec "$real" "$@"
fi

major=${soname#libtensorcast.so.}
case $major in
  '' | *[!0-9]*) fail "cannot read the major version from the SONAME $soname" ;;
esac
node=TENSORCAST_$major

[ -n "$script" ] ||
  fail "no -Wl,--version-script=FILE among rustc's arguments for $soname: cannot version its symbols"
[ -f "$script" ] || fail "rustc's version script $script does not exist"

# rustc's script is one anonymous node: its first line is "{" and no other line opens a
# node. Anything else is a form this wrapper does not know; refuse it rather than link
# an unversioned library.
first=$(sed -n '1p' "$script")
opening=$(grep -c '{' "$script" || true)
if [ "$first" != "{" ] || [ "$opening" != 1 ]; then
  fail "rustc's version script $script is not one anonymous node:
$(cat "$script")"
fi

versioned=$script.$node
sed "1s/^{\$/$node {/" "$script" >"$versioned"

# The arguments again, rustc's script replaced by the named copy.
for arg in "$@"; do
  shift
  case $arg in
    -Wl,--version-script=*) arg=-Wl,--version-script=$versioned ;;
  esac
  set -- "$@" "$arg"
done
exec "$real" "$@"
