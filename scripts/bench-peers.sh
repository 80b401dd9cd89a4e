#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The peer benchmark (scripts/bench-peers.py): tensorcast beside memcpy, onnxruntime and
# numpy/ml_dtypes, one process, one thread; writes docs/perf/peers.md and
# docs/perf/peers.png. The peers live in a venv of their own, build/venv-peers, with the
# pins of scripts/bench-peers-requirements.txt (created when missing; the pins are
# installed on every run, a no-op when they are there). Not part of the test command's
# pass/fail: it reports where tensorcast stands. A few minutes on 2 cores.
#
#   scripts/bench-peers.sh [--n N] [--text-n N] [--runs R] [--table FILE] [--chart FILE]
#                          [--only TEXT] [--busy]
#
# --busy times everything twice in the same runs, idle and with a compute-bound neighbour
# process on the other CPU, and each figure reads "idle / busy".
#
# TCAST_LIB overrides the library (default target/release/libtensorcast.so, built here
# with cargo build --release -p tensorcast-c when TCAST_LIB is not set).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

venv=build/venv-peers
requirements=scripts/bench-peers-requirements.txt

install_missing python3-venv

pinned_venv "$venv" "$requirements"

lib=${TCAST_LIB:-}
if [ -z "$lib" ]; then
  step "building the release library" cargo build --release --quiet -p tensorcast-c
  lib=target/release/libtensorcast.so
fi
"$venv/bin/python" scripts/bench-peers.py --lib "$lib" "$@"
