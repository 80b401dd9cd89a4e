#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The repository checks in one command: generated files fresh (the header, the binding
# tables, the ml_dtypes level copies), doc citations, the module graph's floors and
# cycles, the bindings' hand-written enums, the C++ header's tests, SPDX lines, and the
# test command's step list. Each is also part of `bash scripts/test.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test header --test citations --test module_graph \
  --test binding_enums --test cpp_header --test spdx
bash scripts/test-steps.sh
