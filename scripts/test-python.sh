#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Python wheel pytensorcast (docs/python.md): builds it (scripts/build-wheel.sh),
# checks its tag with auditwheel (build/venv-wheel-tools, tests/python/requirements-tools.txt),
# installs it with `pip install --no-index` into a fresh venv (build/venv-python: removed
# and made again each run, with the pins of tests/python/requirements.txt: numpy,
# ml_dtypes, onnxruntime and pytest only) with no cargo or rustc on PATH, and runs
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
rm -rf "$venv"
pinned_venv "$venv" tests/python/requirements.txt
# No Rust on PATH: installing the wheel must compile nothing.
clean_path=$(tr ':' '\n' <<<"$PATH" | grep -v -e '\.cargo' -e 'rust' | paste -sd:)
step "pip install --no-index $wheel (no cargo, no rustc on PATH)" \
  env PATH="$clean_path" "$venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
env PATH="$clean_path" sh -c '! command -v cargo && ! command -v rustc' >/dev/null ||
  fail "cargo or rustc is still on the PATH of the install"

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
rm -rf "$np1"
pinned_venv "$np1" tests/python/requirements-numpy1.txt
"$np1/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
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
