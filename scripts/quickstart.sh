#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The README's first command: builds the library and runs the C quickstart
# (examples/quickstart.c) through CMake, in build/cmake:
#
#   cmake -S . -B build/cmake -DTCAST_CARGO_PROFILE=release
#   cmake --build build/cmake --target quickstart
#   build/cmake/quickstart
#
# The library lands in target/release (the release profile is asked for explicitly, so
# that a build/cmake configured for debug earlier cannot send it elsewhere), with the
# link named after its SONAME, libtensorcast.so.0 -> libtensorcast.so, which CMake's
# cargo target (cmake/TensorcastCargo.cmake) makes after each cargo run: the quickstart
# loads the library by that name, and so do the Go binding's programs
# (bindings/go/README.md, whose quick start runs this script).
#
# What a Rust toolchain alone does not bring (cmake, make, a C compiler) is installed
# first from the system's packages when missing (Debian/Ubuntu, with sudo when not root),
# through scripts/lib.sh as the test command does. Stops at the first failing step and
# names it.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing cmake make cc

step "cmake -S . -B build/cmake -DTCAST_CARGO_PROFILE=release" \
  cmake -S . -B build/cmake -DTCAST_CARGO_PROFILE=release
step "cmake --build build/cmake --target quickstart" \
  cmake --build build/cmake --target quickstart
step "build/cmake/quickstart" build/cmake/quickstart
