#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Regenerates every generated file and region from the library's registry: the C header
# and its Go copy, the C++, Go and C# dtype and status tables, and the copies of the
# measured ml_dtypes casting levels (xtask/src/main.rs). `--check` writes nothing and
# fails naming each stale file. tests/header.rs runs the same check under cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --quiet --release --locked --manifest-path xtask/Cargo.toml -- generate "$@"
