#!/usr/bin/env bash
# The README's first command: builds the library and runs the C quickstart
# (examples/quickstart.c) through CMake, in build/cmake:
#
#   cmake -S . -B build/cmake
#   cmake --build build/cmake --target quickstart
#   build/cmake/quickstart
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

step "cmake -S . -B build/cmake" cmake -S . -B build/cmake
step "cmake --build build/cmake --target quickstart" \
  cmake --build build/cmake --target quickstart
step "build/cmake/quickstart" build/cmake/quickstart
