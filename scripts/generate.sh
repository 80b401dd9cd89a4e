#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Regenerates every generated file and region from the library's registry: the C header
# and its Go copy, the C++, Go and C# dtype and status tables, the copies of the measured
# ml_dtypes casting levels and the library's dispatch table over the low-precision formats
# (xtask/src/main.rs). `--check` writes nothing and fails naming each stale file.
# tests/header.rs runs the same check under cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."
# First the files compiled into the library (the dispatch table over the low-precision
# formats, which the other generators' casts run through), then, with the library rebuilt
# on them, everything.
xtask() { cargo run --quiet --release --locked --manifest-path xtask/Cargo.toml -- "$@"; }
xtask generate --library "$@"
xtask generate "$@"
