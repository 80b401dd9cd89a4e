#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Coverage-guided fuzzing of tensorcast (cargo-fuzz, libFuzzer, AddressSanitizer): the
# targets of fuzz/fuzz_targets/ (parse_text, format_roundtrip, np_dtype, capi_cast,
# shapes), each checking properties against a reference, not only "no crash".
#
#   bash scripts/fuzz.sh --ci          each target for 15 s from the committed corpus (which
#                                       it replays first), one after another on one core:
#                                       the bounded step of scripts/test.sh, which runs it
#                                       beside another step
#   bash scripts/fuzz.sh N_MINUTES     each target for N minutes, all at once (before a
#                                       release: at least 30)
#   bash scripts/fuzz.sh --minimize    merges the seeds (scripts/fuzz-seeds.py) and the
#                                       inputs the runs found into fuzz/corpus/, minimized
#
# Runs start from fuzz/corpus/<target> plus the seeds, and grow a scratch corpus in
# build/fuzz/corpus/<target> (the committed one changes only with --minimize). Per target
# it prints the executions, libFuzzer's coverage (cov: edges, ft: features) and the
# corpus size; a failure prints the reproducer (its bytes and `cargo fuzz fmt`) and makes
# the script fail. Installs cargo-fuzz (pinned) when missing; needs a nightly toolchain
# (`rustup toolchain install nightly` if there is none).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

TARGETS=(parse_text format_roundtrip np_dtype capi_cast shapes)
# A slow input is a finding too (the parsers promise linear time).
TIMEOUT_S=10

mode=${1:-}
case $mode in
  --ci) seconds=15 width=1 ;;
  --minimize) seconds=0 width=1 ;;
  ''|*[!0-9]*)
    echo "usage: bash scripts/fuzz.sh --ci | N_MINUTES | --minimize" >&2
    exit 2
    ;;
  *) seconds=$((mode * 60)) width=${#TARGETS[@]} ;;
esac

if ! rustup toolchain list | grep -q '^nightly'; then
  echo "==> installing a nightly toolchain (cargo-fuzz needs -Zsanitizer)"
  rustup toolchain install nightly --profile minimal
fi
# cargo-fuzz, pinned, kept in the cache (scripts/lib.sh: cargo_fuzz_install).
cargo_fuzz_install
cargo fuzz --version

work=$PWD/build/fuzz
rm -rf "$work/seeds"
python3 scripts/fuzz-seeds.py "$work/seeds"

# Clippy over the targets in the fuzzers' own build (scripts/lib.sh: lint_while_building;
# fuzz/'s crate is its workspace's only member), for the runs below too.
lint_while_building "$(rustup which --toolchain nightly clippy-driver)"
echo "==> cargo +nightly fuzz build (AddressSanitizer, release, debug assertions; clippy -D warnings)"
(cd fuzz && cargo +nightly fuzz build)

if [ "$mode" = --minimize ]; then
  for t in "${TARGETS[@]}"; do
    mkdir -p "fuzz/corpus/$t" "$work/corpus/$t"
    # Everything into the committed corpus, then cmin keeps, in place, the smallest
    # inputs that reach every edge all of them reach (edges only, not hit counts: a
    # corpus of hundreds of inputs rather than tens of thousands).
    find "$work/seeds/$t" "$work/corpus/$t" -type f -exec cp -n {} "fuzz/corpus/$t"/ \;
    (cd fuzz && cargo +nightly fuzz cmin "$t" "corpus/$t" -- -use_counters=0) \
      > "$work/$t.cmin.log" 2>&1 ||
      { tail -20 "$work/$t.cmin.log"; exit 1; }
    echo "$t: $(find "fuzz/corpus/$t" -type f | wc -l) inputs in fuzz/corpus/$t"
  done
  exit 0
fi

run_target() {
  local t=$1
  mkdir -p "$work/corpus/$t" "fuzz/corpus/$t" "fuzz/artifacts/$t"
  (cd fuzz && cargo +nightly fuzz run "$t" "$work/corpus/$t" "corpus/$t" "$work/seeds/$t" -- \
    -max_total_time="$seconds" -timeout="$TIMEOUT_S" -rss_limit_mb=4096 \
    -print_final_stats=1) > "$work/$t.log" 2>&1
}

report() {
  local t=$1 status=$2 log=$work/$1.log
  local execs cov
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || true)
  cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  printf '%-18s %s  executions %s, %s, corpus %s inputs\n' "$t" \
    "$([ "$status" = 0 ] && echo passed || echo FAILED)" "${execs:-?}" "${cov:-cov: ?}" \
    "$(find "$work/corpus/$t" -type f | wc -l)"
  if [ "$status" != 0 ]; then
    grep -E 'panicked|ERROR: |SUMMARY' -A4 "$log" | head -40 || tail -40 "$log"
    local input
    # The newest artifact: its modification time first, then its path.
    input=$(find "fuzz/artifacts/$t" -type f -printf '%T@ %p\n' 2>/dev/null | sort -rn | head -1 |
      cut -d' ' -f2- || true)
    if [ -n "$input" ]; then
      echo "reproducer: $input ($(wc -c < "$input") bytes): cargo +nightly fuzz run $t ../$input"
      od -A d -t x1 "$input" | head -20
      (cd fuzz && cargo +nightly fuzz fmt "$t" "../$input" 2>/dev/null | head -20) || true
    else
      tail -30 "$log"
    fi
  fi
}

# Each target runs on its own core for the whole time: batches of `width` at once.
[ "$width" -ge 1 ] || width=1
echo "==> fuzzing ${TARGETS[*]} for $seconds s each, $width at once"
declare -A status pids
for ((first = 0; first < ${#TARGETS[@]}; first += width)); do
  batch=("${TARGETS[@]:first:width}")
  for t in "${batch[@]}"; do
    run_target "$t" & pids[$t]=$!
  done
  for t in "${batch[@]}"; do
    if wait "${pids[$t]}"; then status[$t]=0; else status[$t]=1; fi
  done
done

failed=0
for t in "${TARGETS[@]}"; do
  report "$t" "${status[$t]}"
  [ "${status[$t]}" = 0 ] || failed=1
done
if [ $failed = 1 ]; then
  echo "FAILED: fuzzing found a failure (logs in build/fuzz/)" >&2
  exit 1
fi
echo "fuzzing: ${#TARGETS[@]} targets passed"
