#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Python package pytensorcast (docs/python.md), as users and packagers meet it:
#
# 1. the manylinux wheel (scripts/build-wheel.sh: maturin, zig cc for glibc 2.17), its
#    tag checked with auditwheel (build/venv-wheel-tools, tests/python/requirements-tools.txt),
#    installed with `pip install --no-index --only-binary :all:` into a fresh venv
#    (build/venv-python: the pins of tests/python/requirements.txt, numpy, ml_dtypes,
#    onnxruntime and pytest only) with a PATH of that venv alone, so that nothing can be
#    compiled; tests/python, tests/convert (the checkpoint converter, a 2 GiB sharded
#    conversion included) and tests/docs (the Python and shell snippets of README.md,
#    docs/python.md and the onnxruntime README, run from their text) run against the
#    installed copy (never the source tree);
#    tests/python/smoke.py against the same wheel beside numpy 1.26.4 and ml_dtypes 0.5.1
#    (build/venv-python-numpy1);
# 2. `pip install .` of this tree into a fresh venv (build/venv-python-source), maturin
#    fetched into pip's isolated build environment under the pins of
#    tests/python/requirements-build.txt (PIP_CONSTRAINT), and tests/python against it;
#    its cargo run shares the wheel's target directory, target and linker, so the core
#    the wheel's build compiled is linked, not compiled again;
# 3. `python -m build --sdist` (build/venv-python-build), then `pip install` of that
#    sdist into a fresh venv (build/venv-python-sdist) as a user or a distribution would
#    (its own isolated build, nothing but the Rust toolchain on PATH: the core compiled,
#    at opt-level 0, from the sdist's sources: the build takes about half the time of one
#    at opt-level 1, and tests/python's threads then run the kernels' large unoptimised
#    frames, as a Rust program's dev profile would), and tests/python against it.
#
# The source builds carry no onnxruntime library (ort_library_path()); their runs find
# the one the wheel's build made through PYTENSORCAST_ORT_LIB. scripts/bench-python.py
# runs once at the end, as information.
#
#   bash scripts/test-python.sh      extra arguments go to pytest
#
# Ends with the summary lines added up: "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing python3-venv
wheel=$(bash scripts/build-wheel.sh | tail -n 1)
echo "wheel: $wheel"

pinned_venv build/venv-wheel-tools tests/python/requirements-tools.txt
tags=$(basename "$wheel" .whl | cut -d- -f5)
shown=$(build/venv-wheel-tools/bin/auditwheel show "$wheel")
echo "$shown"
tag=$(tr -d '\n' <<<"$shown" | grep -oE 'platform tag: *"[^"]*"' | head -1 | sed 's/.*"\(.*\)"/\1/')
tr '.' '\n' <<<"$tags" | grep -qxF "$tag" || fail "auditwheel's tag $tag is not one of the wheel's, $tags"
echo "auditwheel: $tag (the wheel's tags: $tags)"

log=$(mktemp)
work=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$work"' EXIT
status=0
tests=$PWD/tests/python
# The tests run without Rust's toolchains on PATH (the ones of rustup and of this
# repository): nothing they start may build the library.
clean_path=$(tr ':' '\n' <<<"$PATH" | grep -v -e '\.cargo' -e 'rust' | paste -sd:)

# run_suite LABEL VENV [ENV...]: the test directories of $suites against VENV's
# pytensorcast, from an empty directory, so that nothing of the source tree can be
# imported.
run_suite() {
  local label=$1 venv=$PWD/$2
  shift 2
  printf '\n==> %s against %s\n' "${suites[*]#"$PWD"/}" "$label"
  (cd "$work" && env PATH="$clean_path" "$@" "$venv/bin/python" -m pytest -q -p no:cacheprovider \
    --basetemp="$OLDPWD/build/pytest-python" "${suites[@]}" "${pytest_args[@]}") | tee -a "$log" || status=$?
  rm -rf build/pytest-python
}
pytest_args=("$@")

venv=build/venv-python
pinned_venv --fresh "$venv" tests/python/requirements.txt
# Installing the wheel must compile nothing: pip may take binary distributions only
# (--only-binary :all:, and --no-index: the wheel is the one file it may read), and it
# runs with a PATH of the venv alone, so no compiler, cargo or rustc of the machine is
# there to run, wherever the machine keeps one (Debian's rustc-web lives in /usr/bin).
step "pip install --no-index --only-binary :all: $wheel (PATH: the venv only)" \
  env PATH="$PWD/$venv/bin" "$venv/bin/pip" install --quiet --disable-pip-version-check \
  --no-index --only-binary :all: "$wheel"
# The wheel: the package's suite (tests/python), the converter's (tests/convert: the
# package's Python code only, the same files in every install, and I/O-heavy, so it runs
# here alone) and the docs' snippets (tests/docs).
suites=("$tests" "$PWD/tests/convert" "$PWD/tests/docs")
run_suite "the wheel" "$venv"
suites=("$tests")

# numpy 1: the same wheel beside numpy 1.26.4 and ml_dtypes 0.5.1, smoke-tested.
np1=build/venv-python-numpy1
pinned_venv --fresh "$np1" tests/python/requirements-numpy1.txt
env PATH="$PWD/$np1/bin" "$np1/bin/pip" install --quiet --disable-pip-version-check --no-index \
  --only-binary :all: "$wheel"
(cd "$work" && "$OLDPWD/$np1/bin/python" "$tests/smoke.py") | tee -a "$log" || status=$?

# The onnxruntime library of the wheel's build, for the source builds' runs.
ort_lib=$PWD/target/wheel/x86_64-unknown-linux-gnu/release/libtensorcast_ort.so
export PIP_CONSTRAINT=$PWD/tests/python/requirements-build.txt

# 2. pip install . (the wheel's target directory, target and linker: see above).
source_venv=build/venv-python-source
pinned_venv --fresh "$source_venv" tests/python/requirements.txt
step "pip install . (maturin $(sed -n 's/^maturin==//p' tests/python/requirements-build.txt), in pip's build isolation)" \
  env CARGO_TARGET_DIR="$PWD/target/wheel" MATURIN_PEP517_ARGS="--target x86_64-unknown-linux-gnu" \
  CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER="$PWD/scripts/ort-wheel-linker.sh" \
  TCAST_ORT_REAL_LINKER="$PWD/build/zig/cc-x86_64-linux-gnu.2.17.sh" \
  "$source_venv/bin/pip" install --quiet --disable-pip-version-check .
run_suite "pip install ." "$source_venv" PYTENSORCAST_ORT_LIB="$ort_lib"

# 3. The sdist, and pip install of it with nothing but the Rust toolchain.
pinned_venv build/venv-python-build tests/python/requirements-build.txt
rm -rf build/sdist
step "python -m build --sdist" build/venv-python-build/bin/python -m build --sdist --outdir build/sdist .
sdist=$(ls build/sdist/pytensorcast-*.tar.gz)
tar -tzf "$sdist" | sed 's/^/  /'
sdist_venv=build/venv-python-sdist
pinned_venv --fresh "$sdist_venv" tests/python/requirements.txt
# At opt-level 1 (CARGO_PROFILE_RELEASE_OPT_LEVEL=1): what is proved here is that the
# sdist builds and installs with a Rust toolchain alone, and that its extension passes
# the suite; the fully optimised build of the same sources is the wheel's and `pip
# install .`'s, tested above. Measured on Zen 4, build and suite in CPU-seconds: opt-level
# 0 40 + 80 (the exhaustive astype tests run ten times slower), 1 74 + 9.
step "pip install $sdist (its own build: the core compiled from the sdist, opt-level 0)" \
  env -u CARGO_TARGET_DIR CARGO_PROFILE_RELEASE_OPT_LEVEL=0 \
  "$sdist_venv/bin/pip" install --quiet --disable-pip-version-check "$sdist"
run_suite "pip install of the sdist" "$sdist_venv" PYTENSORCAST_ORT_LIB="$ort_lib"

"$venv/bin/python" scripts/bench-python.py --quick || echo "bench-python.py failed (information only)"

# pytest's summary lines ("463 passed in 23.1s", one per run) and smoke.py's ("6 passed,
# 0 failed"), added up.
summary=$({
  grep -E '[0-9]+ (passed|failed|errors?).* in [0-9.]+s' "$log"
  grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log"
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
