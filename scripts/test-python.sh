#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Python wheel pytensorcast (docs/python.md): builds it (scripts/build-wheel.sh),
# checks its tag with auditwheel (build/venv-wheel-tools, tests/python/requirements-tools.txt),
# installs it with `pip install --no-index --only-binary :all:` into a fresh venv
# (build/venv-python: removed and made again each run, with the pins of
# tests/python/requirements.txt: numpy, ml_dtypes, onnxruntime and pytest only) with a
# PATH of that venv alone, so that nothing can be compiled, and runs
# tests/python against the installed copy (never the source tree), the 2 GiB checkpoint
# conversion included; then tests/python/smoke.py against the same wheel in a venv with
# numpy 1.26.4 and ml_dtypes 0.5.1 (build/venv-python-numpy1), and
# scripts/bench-python.py once, as information.
#
#   bash scripts/test-python.sh      extra arguments go to pytest
#
# Ends with pytest's summary line and "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing python3-venv
wheel=$(bash scripts/build-wheel.sh | tail -n 1)
echo "wheel: $wheel"

pinned_venv build/venv-wheel-tools tests/python/requirements-tools.txt
tag=$(basename "$wheel" .whl | cut -d- -f5)
shown=$(build/venv-wheel-tools/bin/auditwheel show "$wheel")
echo "$shown"
tr -d '\n' <<<"$shown" | grep -qF "platform tag: \"$tag\"" || fail "auditwheel does not agree with the wheel's tag $tag"
echo "auditwheel: $tag"

venv=build/venv-python
pinned_venv --fresh "$venv" tests/python/requirements.txt
# Installing the wheel must compile nothing: pip may take binary distributions only
# (--only-binary :all:, and --no-index: the wheel is the one file it may read), and it
# runs with a PATH of the venv alone, so no compiler, cargo or rustc of the machine is
# there to run, wherever the machine keeps one (Debian's rustc-web lives in /usr/bin).
step "pip install --no-index --only-binary :all: $wheel (PATH: the venv only)" \
  env PATH="$PWD/$venv/bin" "$venv/bin/pip" install --quiet --disable-pip-version-check \
  --no-index --only-binary :all: "$wheel"
# The tests run without Rust's toolchains on PATH all the same (the ones of rustup and of
# this repository): nothing they start may build the library.
clean_path=$(tr ':' '\n' <<<"$PATH" | grep -v -e '\.cargo' -e 'rust' | paste -sd:)

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
tests=$PWD/tests/python
# From an empty directory, so that nothing of the source tree can be imported.
work=$(mktemp -d)
(cd "$work" && env PATH="$clean_path" "$OLDPWD/$venv/bin/python" -m pytest -q -p no:cacheprovider \
  --basetemp="$OLDPWD/build/pytest-python" "$tests" "$@") | tee "$log" || status=$?
rm -rf build/pytest-python

# numpy 1: the same wheel beside numpy 1.26.4 and ml_dtypes 0.5.1, smoke-tested.
np1=build/venv-python-numpy1
pinned_venv --fresh "$np1" tests/python/requirements-numpy1.txt
env PATH="$PWD/$np1/bin" "$np1/bin/pip" install --quiet --disable-pip-version-check --no-index \
  --only-binary :all: "$wheel"
(cd "$work" && "$OLDPWD/$np1/bin/python" "$tests/smoke.py") | tee -a "$log" || status=$?

"$venv/bin/python" scripts/bench-python.py --quick || echo "bench-python.py failed (information only)"
rm -rf "$work"

# pytest's summary line ("463 passed in 23.1s") and smoke.py's ("6 passed, 0 failed"), added up.
summary=$({
  grep -E '[0-9]+ (passed|failed|errors?).* in [0-9.]+s' "$log" | tail -1
  grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1
} || true)
count() {
  local n
  n=$(grep -oE "[0-9]+ $1" <<<"$summary" | grep -oE '^[0-9]+' | awk '{s += $1} END {print s + 0}') || n=0
  echo "${n:-0}"
}
passed=$(count passed)
failed=$(( $(count failed) + $(count 'errors?') ))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1
fi
echo "$passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
