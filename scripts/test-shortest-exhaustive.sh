#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Proves FLOAT -> shortest text exact for every FLOAT: the shortest digits of every
# positive finite FLOAT (2^31 - 2^23 bit patterns; the sign does not change them) from
# tensorcast (src/cast/text/shortest.rs) compared with ryu's, then the whole text of
# every 4093rd pattern and of random ones against ryu's digits laid out as numpy's str()
# (`cargo test` runs the same test with every 4093rd pattern for the digits too, and
# the step shortest of scripts/test.sh with every 5th). On all the cores there are;
# minutes of CPU time. Installs nothing (cargo fetches the
# dev-dependencies, ryu among them, from crates.io).
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

check "every FLOAT's shortest digits against ryu's, texts in numpy's layout" every_float
printf 'test-shortest-exhaustive: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
