#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
#
# The linker cmake/tensorcast-linker.sh runs in scripts/build-wheel.sh's build. rustc
# (1.85, Debian's, at least) links a cdylib with one anonymous version script listing the
# core's tcast_* functions as global, and the crate's build.rs adds a second anonymous
# script (core-local.map) making them local; GNU ld refuses two anonymous version nodes
# ("anonymous version tag cannot be combined with other version tags"). This wrapper
# links with one script instead: a copy of rustc's without the lines that name a
# function of core-local.map (its `local: *;` then hides them), and without the second
# script. Every other link runs unchanged.
#
#   TCAST_ORT_REAL_LINKER   the linker to run (default: cc); not TCAST_REAL_LINKER, which
#                           names this script to the wrapper before it
set -eu

real=${TCAST_ORT_REAL_LINKER:-cc}
rustc_script=
local_map=
for arg in "$@"; do
  case $arg in
    -Wl,--version-script=*core-local.map) local_map=${arg#-Wl,--version-script=} ;;
    -Wl,--version-script=*) rustc_script=${arg#-Wl,--version-script=} ;;
  esac
done
if [ -z "$local_map" ] || [ -z "$rustc_script" ]; then
  exec "$real" "$@"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -o 'tcast_[a-z0-9_]*' "$local_map" | sort -u >"$work/names"
grep -v -w -F -f "$work/names" "$rustc_script" >"$work/list" || true

first=1
for arg in "$@"; do
  if [ "$first" -eq 1 ]; then
    set --
    first=0
  fi
  case $arg in
    -Wl,--version-script=*core-local.map) ;;
    "-Wl,--version-script=$rustc_script") set -- "$@" "-Wl,--version-script=$work/list" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
"$real" "$@"
