#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Proves FLOAT -> shortest text exact for every FLOAT: all 2^32 bit patterns formatted by
# tensorcast (src/cast/text/shortest.rs) and compared with ryu's shortest digits laid out
# as numpy's str() (the same test `cargo test` runs on every 4093rd pattern). On all the
# cores there are; several minutes of CPU time in all. Installs nothing (cargo fetches
# the dev-dependencies, ryu among them, from crates.io).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

passed=0
failed=0

every_float() {
  TCAST_SHORTEST_EXHAUSTIVE=1 cargo test --release --lib \
    cast::text::shortest::tests::float_texts_are_ryus_digits_in_numpys_layout -- --exact
}

check "every FLOAT's shortest text against ryu's digits in numpy's layout" every_float
printf 'test-shortest-exhaustive: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
