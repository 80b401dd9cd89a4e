# SPDX-License-Identifier: MIT OR Apache-2.0
# shellcheck shell=bash
# Shared helpers of the scripts in scripts/ (sourced, not run):
#
#   source "$(dirname "$0")/lib.sh"     (after `set -euo pipefail`)
#
#   step NAME [COMMAND [ARG...]]
#       Prints "==> NAME" and runs COMMAND (a program or a shell function) in a subshell
#       with errexit on, so that any failing command inside a function fails the step.
#       When it fails, prints "FAILED: NAME (exit N)" and exits the script with N. What the
#       command sets, exports or cd's does not outlive the step; one that took 5 s or
#       more ends with "<== NAME: N s". Without COMMAND, prints the heading only (for
#       lines such as "all tests passed").
#   step --keep-going NAME COMMAND [ARG...]
#       The same, but after a failure the script goes on, with NAME appended to the array
#       failed_steps: for a script that runs several independent steps and reports them
#       together.
#   Call step as a command of its own, never inside `if`, `||`, `&&` or `!`: bash turns
#   errexit off for everything run there, and a step's failing commands would go unseen.
#
#   check NAME COMMAND [ARG...]
#       Runs COMMAND (a program or a shell function) in a subshell with errexit on, so
#       that any failing command in it fails the check, prints "PASS: NAME (N s)" or
#       "FAIL: NAME (N s)" with its wall time, and counts it in the globals `passed` and `failed` (0 at first);
#       the script goes on either way. A script of checks ends with its summary line,
#       printf '%s: %d passed, %d failed' ..., and fails when `failed` is not 0.
#
#   fail MESSAGE
#       Inside a check: prints MESSAGE to stderr and ends the check as failed.
#
#   ctest_passed_in LOG
#       Inside a check: LOG (a package build's log) holds CTest's summary with every test
#       passed, and at least 20 of them (the C and C++ suites); prints the line.
#
#   build_paths_absent PATH... -- FILE...
#       Inside a check: prints how many lines of each FILE hold each PATH (grep -a -F), and
#       fails when any does: a built library must not hold the build machine's paths.
#
#   have COMMAND...
#       True when every COMMAND is on PATH.
#
#   install_missing NAME...
#       Installs, through apt_install, the Debian/Ubuntu packages that bring the NAMEs
#       that are missing: commands looked up on PATH (cc: gcc libc6-dev; c++: g++; go:
#       golang-go; mcs: mono-mcs; mono: mono-runtime; readelf, nm: binutils; any other
#       command: the package of its name), and python3-venv (Python's venv and ensurepip
#       modules).
#
#   apt_install [PACKAGE...]
#       Installs the Debian/Ubuntu packages given (none given, nothing to do) as a step
#       "installing PACKAGE...": with sudo when not root, non-interactively, waiting for
#       another apt/dpkg run to release its lock. `apt-get update` runs once per run of the
#       test command: the first call exports TCAST_APT_UPDATED=1, which the scripts it
#       starts inherit. Fails naming the packages apt-get could not install.
#
#   deb_download DIR PACKAGE[:ARCH][=VERSION]...
#       Downloads .deb files without installing them; fails naming the one not found.
#
#   check_doc_links DIR
#       For every *.md under DIR, follows each relative Markdown link, inline ](target)
#       or reference "[name]: target" (less its #anchor; http(s)://, mailto: and
#       pure-anchor links skipped), and fails naming each file, link and target that is
#       not in the tree under DIR; prints how many links it followed.
#
#   use_debian_rust
#       Debian's rustc 1.85 (DEBIAN_RUST_VERSION), unpacked into the cache
#       (tcast_cache_dir), never installed; exports RUSTC, RUSTDOC, CARGO and DEBIAN_RUST_BIN (below).

step() {
  local keep_going=0
  if [ "${1:-}" = --keep-going ]; then
    keep_going=1
    shift
  fi
  local name=$1 start=$SECONDS
  shift
  printf '\n==> %s\n' "$name"
  [ $# -gt 0 ] || return 0
  # Not `"$@" || status=$?`: bash ignores errexit inside anything run as the left side of
  # `||`, so a function's failing first command would go unseen.
  local errexit=0 status
  case $- in *e*) errexit=1 ;; esac
  set +e
  (
    set -e
    "$@"
  )
  status=$?
  [ "$errexit" -eq 0 ] || set -e
  [ $((SECONDS - start)) -lt 5 ] || printf '<== %s: %d s\n' "$name" $((SECONDS - start))
  if [ "$status" -ne 0 ]; then
    printf '\nFAILED: %s (exit %d)\n' "$name" "$status" >&2
    [ "$keep_going" -eq 1 ] || exit "$status"
    failed_steps+=("$name")
  fi
}

failed_steps=()

passed=0
failed=0

check() {
  local name=$1 status start=$SECONDS
  shift
  printf -- '--- %s\n' "$name"
  set +e
  (
    set -e
    "$@"
  )
  status=$?
  set -e
  if [ $status -eq 0 ]; then
    passed=$((passed + 1))
    printf 'PASS: %s (%d s)\n' "$name" $((SECONDS - start))
  else
    failed=$((failed + 1))
    printf 'FAIL: %s (%d s)\n' "$name" $((SECONDS - start))
  fi
}

fail() {
  printf '%s\n' "$*" >&2
  exit 1
}

ctest_passed_in() {
  local line
  line=$(grep -E '^100% tests passed, 0 tests failed out of [0-9]+' "$1") ||
    fail "no ctest summary in the build log"
  echo "$line"
  [ "$(awk '{print $NF}' <<<"$line")" -ge 20 ] || fail "fewer tests than the C and C++ suites hold"
}

build_paths_absent() {
  local paths=() file path count found=0
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    paths+=("$1")
    shift
  done
  shift
  for file in "$@"; do
    for path in "${paths[@]}"; do
      count=$(grep -a -c -F -- "$path" "$file" || true)
      echo "${file##*/}: $count line(s) with $path"
      [ "$count" -eq 0 ] || found=1
    done
  done
  [ "$found" -eq 0 ] || fail "a library holds a path of the build machine"
}

#   tcast_cache_dir
#       Prints the directory where the test command keeps, between runs on one machine,
#       what it fetched or made from pinned inputs (Debian's rustc, the cross standard
#       libraries, qemu, venvs, test data, tools), each under a name that holds its
#       version or the hash of its inputs: $TCAST_CACHE_DIR, else
#       ${XDG_CACHE_HOME:-~/.cache}/tensorcast-ci. Deleting it costs time only.
tcast_cache_dir() {
  echo "${TCAST_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tensorcast-ci}"
}

# pinned_venv [--fresh] VENV REQUIREMENTS: the Python venv VENV with the pins of
# REQUIREMENTS installed (a no-op when they are there) and then checked, so that a stale
# venv fails here, naming each package that does not match its pin. The venv itself is
# kept in the cache (tcast_cache_dir), named after the hash of REQUIREMENTS and of the
# Python that made it, and VENV is a link to it: a later run, in any clone, finds it made.
# With --fresh, VENV is made anew in place (uv's download cache still serves): for a venv
# that a test installs into. The venvs are made and filled by uv (UV_VERSION, uv_bin),
# seeded with pip, which the tests that install as users do (pip install ., a wheel, an
# sdist) still run: uv makes a venv in a tenth of a second where `python3 -m venv` and pip
# took 8-10 CPU-seconds (ensurepip, bytecode), and a full test run makes about fifteen.
pinned_venv() {
  local fresh=0
  if [ "$1" = --fresh ]; then
    fresh=1
    shift
  fi
  local venv=$1 requirements=$2 key kept
  mkdir -p "$(dirname "$venv")"
  if [ "$fresh" -eq 1 ]; then
    rm -rf "$venv"
    step "creating $venv (the pins of $requirements)" new_venv "$venv"
  else
    key=$({ cat "$requirements"; python3 -c 'import sys; print(sys.version, sys.executable)'; } |
      sha256sum | cut -c1-16)
    kept=$(tcast_cache_dir)/venvs/$(basename "$venv")-$key
    # .complete is written once the pins were checked: a venv a run left half made is made
    # anew.
    if [ ! -f "$kept/.complete" ] || ! "$kept/bin/python" -c '' 2>/dev/null; then
      rm -rf "$kept"
      mkdir -p "$(dirname "$kept")"
      step "creating $venv (the pins of $requirements), kept as $kept" new_venv "$kept"
    fi
    if [ "$(readlink "$venv" 2>/dev/null)" != "$kept" ]; then
      rm -rf "$venv"
      ln -s "$kept" "$venv"
    fi
  fi
  UV_PYTHON_DOWNLOADS=never "$(uv_bin)" pip install --quiet --python "$venv/bin/python" \
    -r "$requirements"
  "$venv/bin/python" - "$venv" "$requirements" <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version

wrong = []
for line in open(sys.argv[2]):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, pinned = line.split("==")
    try:
        found = version(name)
    except PackageNotFoundError:
        found = "missing"
    if found != pinned:
        wrong.append(f"{name} {found} (pinned {pinned})")
if wrong:
    sys.exit(f"{sys.argv[1]} does not hold the pins: " + ", ".join(wrong))
PY
  [ -n "${kept:-}" ] || return 0
  touch "$kept/.complete"
}

# The uv that makes the venvs (pinned_venv), from PyPI at UV_VERSION.
UV_VERSION=0.13.9

#   uv_bin
#       Prints the path of uv UV_VERSION, installed once (by pip, into a venv of its own in
#       the cache) when it is not there.
uv_bin() {
  local root
  root=$(tcast_cache_dir)/uv-$UV_VERSION
  if ! "$root/bin/uv" --version 2>/dev/null | grep -qF "uv $UV_VERSION"; then
    rm -rf "$root"
    mkdir -p "$(dirname "$root")"
    python3 -m venv "$root" >&2
    "$root/bin/pip" install --quiet --disable-pip-version-check "uv==$UV_VERSION" >&2
  fi
  echo "$root/bin/uv"
}

#   new_venv DIR
#       A new venv in DIR for the machine's python3, with pip in it (uv venv --seed).
new_venv() {
  UV_PYTHON_DOWNLOADS=never "$(uv_bin)" venv --quiet --seed --python "$(command -v python3)" "$1"
}

have() {
  local command
  for command in "$@"; do
    command -v "$command" >/dev/null 2>&1 || return 1
  done
}

install_missing() {
  local name packages=()
  for name in "$@"; do
    case $name in
      python3-venv) if python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then continue; fi ;;
      *) if have "$name"; then continue; fi ;;
    esac
    case $name in
      cc) packages+=(gcc libc6-dev) ;;
      c++) packages+=(g++) ;;
      go) packages+=(golang-go) ;;
      mcs) packages+=(mono-mcs) ;;
      mono) packages+=(mono-runtime) ;;
      readelf | nm) packages+=(binutils) ;;
      *) packages+=("$name") ;;
    esac
  done
  # Once each (readelf and nm come in one package), in the order named.
  local package unique=()
  for package in ${packages[@]+"${packages[@]}"}; do
    case " ${unique[*]-} " in *" $package "*) ;; *) unique+=("$package") ;; esac
  done
  apt_install ${unique[@]+"${unique[@]}"}
}

apt_install() {
  [ $# -gt 0 ] || return 0
  step "installing $*" _tcast_apt_get "$@"
  export TCAST_APT_UPDATED=1
}

# Sets the array apt_get to the apt-get command line: with sudo when not root,
# non-interactive, waiting for another apt/dpkg run to release its lock.
_tcast_apt_command() {
  apt_get=()
  [ "$(id -u)" -eq 0 ] || apt_get=(sudo)
  # sudo resets the environment: DEBIAN_FRONTEND goes through env, inside it.
  apt_get+=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
}

# The body of apt_install's step.
_tcast_apt_get() {
  if ! have apt-get; then
    echo "error: $* missing and no apt-get here: install the equivalent packages by hand" >&2
    return 1
  fi
  local apt_get
  _tcast_apt_command
  if [ -z "${TCAST_APT_UPDATED:-}" ]; then
    "${apt_get[@]}" update -qq
  fi
  if ! "${apt_get[@]}" install -y -qq "$@"; then
    echo "error: apt-get could not install: $* (apt-cache policy NAME lists the versions apt knows)" >&2
    return 1
  fi
}

#   deb_download DIR PACKAGE[:ARCH][=VERSION]...
#       Downloads the .deb of each PACKAGE into DIR (apt-get download: nothing installed,
#       no root needed), running `apt-get update` first when apt does not know one of them
#       yet (once per run of the test command, as apt_install). Fails naming the package
#       and version that could not be had.
deb_download() {
  local dir=$1 spec apt_get
  shift
  mkdir -p "$dir"
  for spec in "$@"; do
    if ! _tcast_apt_knows "$spec" && [ -z "${TCAST_APT_UPDATED:-}" ]; then
      _tcast_apt_command
      "${apt_get[@]}" update -qq
      export TCAST_APT_UPDATED=1
    fi
    if ! _tcast_apt_knows "$spec"; then
      echo "error: cannot get $spec: not in apt's package lists" \
        "(apt-cache policy ${spec%%[:=]*} lists the versions apt knows)" >&2
      return 1
    fi
  done
  # As root, apt would fall back to downloading as root anyway (DIR is not _apt's), after
  # a warning; say so beforehand.
  local sandbox=()
  [ "$(id -u)" -ne 0 ] || sandbox=(-o APT::Sandbox::User=root)
  for spec in "$@"; do
    if ! (cd "$dir" && apt-get download -qq ${sandbox[@]+"${sandbox[@]}"} "$spec"); then
      echo "error: could not download $spec (apt-get download into $dir failed)" >&2
      return 1
    fi
  done
}

# True when apt's package lists hold SPEC (PACKAGE[:ARCH][=VERSION]). Not apt-cache's
# status alone: it is 0 for a known package at an unknown version.
_tcast_apt_knows() {
  [ -n "$(apt-cache show "$1" 2>/dev/null)" ]
}

# Debian's rustc 1.85 (rustc-web of Debian 12, the rustc of Debian 13), which is the
# crate's rust-version, as a distribution builds it. Never installed: the system's rustc
# (rustc-web 1.96 from Debian's security updates on an up-to-date Debian 12, or none) and
# the rustup toolchain (the main one) stay as they are. Its packages, and the libraries
# they need that the system lacks (apt-cache depends: libllvm19, libpcre3, ...), are
# downloaded and unpacked with dpkg -x into DEBIAN_RUST_PREFIX, and run from there.
DEBIAN_RUST_VERSION=1.85.0+dfsg3-1~deb12u3
DEBIAN_RUST_PACKAGES=(rustc-web cargo-web rust-web-clippy libstd-rust-web-dev libstd-rust-web-1.85)
# Kept in the cache (tcast_cache_dir), named after the version, across runs and clones.
# (The version's ~ and + become _ in the name: paths reach debian/rules and rpm macros.)
DEBIAN_RUST_PREFIX=$(tcast_cache_dir)/rust-${DEBIAN_RUST_VERSION//[:~+]/_}

#   use_debian_rust
#       Unpacks Debian's rustc DEBIAN_RUST_VERSION into DEBIAN_RUST_PREFIX (in the cache,
#       tcast_cache_dir, named after the version) unless it is there and runs, as a step,
#       then exports what runs it: RUSTC, RUSTDOC, CARGO (which cargo-clippy runs),
#       DEBIAN_RUST_BIN (its bin directory, first on PATH; cargo-clippy and clippy-driver
#       are there) and LD_LIBRARY_PATH (its private libraries). rustc finds its sysroot,
#       the host's standard library, beside its librustc_driver. Call it outside any step:
#       the exports are for the rest of the script. gcc and libc6-dev, which rustc links
#       with, are installed as usual (install_missing cc) when missing. Fails when the
#       system's Rust packages (dpkg-query: rustc*, cargo*, libstd-rust*, rust-*) are not
#       the same afterwards.
use_debian_rust() {
  install_missing cc
  local prefix=$DEBIAN_RUST_PREFIX before
  before=$(_tcast_system_rust)
  step "Debian's rustc $DEBIAN_RUST_VERSION, unpacked in $DEBIAN_RUST_PREFIX (the system's rustc untouched)" \
    debian_rust_unpack "$prefix" "$DEBIAN_RUST_VERSION"
  if [ "$(_tcast_system_rust)" != "$before" ]; then
    echo "error: the system's Rust packages changed while Debian's rustc was unpacked:" >&2
    diff <(echo "$before") <(_tcast_system_rust) >&2 || true
    return 1
  fi
  _tcast_debian_rust_env "$prefix"
}

# The system's Rust packages, with their versions and states.
_tcast_system_rust() {
  ! have dpkg-query ||
    dpkg-query -W -f='${Package}:${Architecture} ${Version} ${db:Status-Abbrev}\n' \
      'rustc*' 'cargo*' 'libstd-rust*' 'rust-*' 2>/dev/null || true
}

_tcast_debian_rust_env() {
  local prefix=$1
  export DEBIAN_RUST_BIN=$prefix/usr/bin
  export RUSTC=$DEBIAN_RUST_BIN/rustc RUSTDOC=$DEBIAN_RUST_BIN/rustdoc CARGO=$DEBIAN_RUST_BIN/cargo
  export PATH=$DEBIAN_RUST_BIN:$PATH
  local libs
  libs=$(cat "$prefix/.ld-library-path")
  export LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
}

# True when the toolchain in PREFIX runs and is rustc VERSION's (its upstream part);
# with -v, says what does not.
_tcast_debian_rust_runs() {
  local verbose=0
  if [ "$1" = -v ]; then
    verbose=1
    shift
  fi
  local prefix=$1 version=$2 release
  [ -f "$prefix/.deb-version" ] && [ "$(cat "$prefix/.deb-version")" = "$version" ] &&
    [ -f "$prefix/.ld-library-path" ] || return 1
  release=${version%%+*}
  (
    _tcast_debian_rust_env "$prefix"
    local tool out status=0
    for tool in rustc rustdoc cargo clippy-driver; do
      if ! out=$("$DEBIAN_RUST_BIN/$tool" -vV 2>&1); then
        status=1
        [ "$verbose" -eq 0 ] || printf 'error: %s does not run:\n%s\n' "$DEBIAN_RUST_BIN/$tool" "$out" >&2
      fi
    done
    if ! out=$("$RUSTC" -vV 2>&1) || ! grep -qx "release: $release" <<<"$out"; then
      status=1
      [ "$verbose" -eq 0 ] || echo "error: $RUSTC is not rustc $release" >&2
    fi
    exit "$status"
  )
}

#   debian_rust_unpack PREFIX VERSION
#       The body of use_debian_rust's step: unless PREFIX holds Debian's rustc VERSION
#       and it runs, downloads DEBIAN_RUST_PACKAGES at VERSION and every package they
#       depend on (recursively) that is not installed here, and unpacks them into PREFIX
#       with dpkg -x. Fails naming the package and version that could not be had, or the
#       tool that does not run.
debian_rust_unpack() {
  local prefix=$1 version=$2
  if _tcast_debian_rust_runs "$prefix" "$version"; then
    _tcast_debian_rust_env "$prefix"
    echo "already unpacked in $prefix: $("$RUSTC" --version)"
    return 0
  fi
  if [ -d "$prefix" ]; then
    echo "$prefix holds no working rustc $version: unpacking it again"
    _tcast_debian_rust_runs -v "$prefix" "$version" 2>&1 | sed 's/^/  /' || true
  fi
  if ! have apt-get apt-cache dpkg dpkg-query; then
    echo "error: no apt-get/dpkg here to fetch Debian's rustc $version: install rustc 1.85 by hand" >&2
    return 1
  fi
  local package specs=()
  for package in "${DEBIAN_RUST_PACKAGES[@]}"; do
    specs+=("$package=$version")
  done
  rm -rf "$prefix" "$prefix.debs"
  # The pinned packages first: their dependencies are only known once apt knows them.
  deb_download "$prefix.debs" "${specs[@]}"
  local missing
  missing=$(_tcast_deb_missing_depends "${specs[@]}")
  if [ -n "$missing" ]; then
    echo "not installed here, unpacked beside it: $(echo "$missing" | tr '\n' ' ')"
    # shellcheck disable=SC2086 # one package name per word
    deb_download "$prefix.debs" $missing
  fi
  local deb
  for deb in "$prefix.debs"/*.deb; do
    dpkg -x "$deb" "$prefix"
  done
  rm -rf "$prefix.debs"
  # Every directory of shared libraries in the packages (usr/lib/<multiarch>, and
  # lib/<multiarch> of packages not merged into /usr), outside rustlib (the sysroot's).
  find "$prefix" -path "$prefix/usr/lib/rustlib" -prune -o \( -type f -o -type l \) \
    -name 'lib*.so*' -printf '%h\n' | sort -u | paste -sd: >"$prefix/.ld-library-path"
  echo "$version" >"$prefix/.deb-version"
  if ! _tcast_debian_rust_runs -v "$prefix" "$version"; then
    echo "error: Debian's rustc $version, unpacked in $prefix, does not run (above)" >&2
    return 1
  fi
  _tcast_debian_rust_env "$prefix"
  "$RUSTC" --version
}

# Prints, one a line, the packages that the packages given (NAME=VERSION) depend on
# (Depends and Pre-Depends, recursively through those printed) and that are not
# installed here: their candidate versions get unpacked beside them. Alternatives are
# met by any installed one, else the first is taken; virtual packages (libc-dev, a C
# compiler) are left to the system (install_missing cc).
_tcast_deb_missing_depends() {
  local queue=("$@") seen=" " spec name line dep group=() member satisfied
  for spec in "$@"; do
    seen+="${spec%%=*} "
  done
  while [ ${#queue[@]} -gt 0 ]; do
    spec=${queue[0]}
    queue=("${queue[@]:1}")
    while IFS= read -r line; do
      case $line in
        " |Depends: "* | " |PreDepends: "*) group+=("${line#*: }") ;;
        "  Depends: "* | "  PreDepends: "*)
          group+=("${line#*: }")
          satisfied=0
          dep=
          for member in "${group[@]}"; do
            case $member in
              "<"*) satisfied=1 ;;
              *)
                member=${member%:any}
                if dpkg-query -W -f='${db:Status-Abbrev}\n' "$member" 2>/dev/null | grep -q '^ii'; then
                  satisfied=1
                fi
                [ -n "$dep" ] || dep=$member
                ;;
            esac
          done
          group=()
          [ "$satisfied" -eq 0 ] || continue
          case $seen in *" $dep "*) continue ;; esac
          seen+="$dep "
          queue+=("$dep")
          echo "$dep"
          ;;
      esac
    done < <(apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
      --no-replaces --no-enhances "$spec")
  done
}

#   go_env FALLBACK_CACHE
#       Exports what every Go step here runs under: cgo on, nothing downloaded
#       (GOPROXY=off), the installed toolchain only (GOTOOLCHAIN=local), and the build
#       cache where Go puts it (~/.cache/go-build) unless that is unusable, then
#       FALLBACK_CACHE. GOFLAGS is the caller's.
go_env() {
  export CGO_ENABLED=1 GOPROXY=off GOTOOLCHAIN=local
  local gocache
  gocache=$(go env GOCACHE 2>/dev/null || true)
  if [ -z "$gocache" ] || [ "$gocache" = off ] || ! mkdir -p "$gocache" 2>/dev/null ||
    [ ! -w "$gocache" ]; then
    export GOCACHE=$1
  fi
}

#   nuget_rid
#       Prints this machine's NuGet runtime identifier (linux-x64, linux-arm64), the
#       runtimes/RID/native directory of the C# package; fails on other machines.
nuget_rid() {
  case $(uname -m) in
    x86_64) echo linux-x64 ;;
    aarch64) echo linux-arm64 ;;
    *)
      echo "error: no NuGet runtime identifier known here for $(uname -m)" >&2
      return 1
      ;;
  esac
}

#   versioned_cargo_build [--target TRIPLE] [-p PACKAGE]...
#       cargo build --release --lib with cargo linking the cdylib through
#       cmake/tensorcast-linker.sh, as the CMake build does, so that its functions carry
#       the symbol version TENSORCAST_<major> (docs/c-api.md section 11): for the
#       libraries the project ships outside CMake (the NuGet package's natives). A cross
#       build passes --target TRIPLE and sets TCAST_REAL_LINKER to its C compiler. CARGO
#       and RUSTC (default cargo, rustc) are the toolchain. A copy without versions, from
#       a plain cargo build, is removed first, so that a cargo whose fingerprint does not
#       cover the linker links it again. With -p, the packages named (tensorcast-c, the C
#       library, otherwise): `-p tensorcast-c -p tensorcast-ort` builds the onnxruntime
#       plugin too, with the same linker setting, which cargo's fingerprint of every crate
#       covers, so both link one compiled core (the wrapper passes any other link through).
versioned_cargo_build() {
  local triple target=() packages=()
  triple=$("${RUSTC:-rustc}" -vV | sed -n 's/^host: //p')
  while [ $# -ge 2 ] && { [ "$1" = --target ] || [ "$1" = -p ]; }; do
    case $1 in
      --target) triple=$2 target=(--target "$2") ;;
      -p) packages+=(-p "$2") ;;
    esac
    shift 2
  done
  if [ $# -ne 0 ]; then
    echo "usage: versioned_cargo_build [--target TRIPLE] [-p PACKAGE]..." >&2
    return 2
  fi
  [ ${#packages[@]} -gt 0 ] || packages=(-p tensorcast-c)
  local lib=${CARGO_TARGET_DIR:-target}/release/libtensorcast.so
  [ ${#target[@]} -eq 0 ] || lib=${CARGO_TARGET_DIR:-target}/$triple/release/libtensorcast.so
  if [ -f "$lib" ] && ! readelf -V -W "$lib" | grep -q 'Name: TENSORCAST_'; then
    rm -f "$lib"
  fi
  "${CARGO:-cargo}" build --release --lib "${target[@]}" "${packages[@]}" \
    --config "target.$triple.linker=\"$_tcast_lib_root/cmake/tensorcast-linker.sh\""
}

#   lint_while_building CLIPPY_DRIVER
#       Exports RUSTC_WORKSPACE_WRAPPER=CLIPPY_DRIVER and CLIPPY_ARGS carrying -D warnings,
#       as `cargo clippy` hands them to its driver for its check build: every later cargo
#       build of this shell compiles the workspace's own crates through clippy-driver,
#       which lints them as it compiles (a lint is then a build error), so they need no
#       check build of their own. Cargo's fingerprint covers the wrapper: a build meant
#       to reuse the linted one runs with the same exports.
lint_while_building() {
  export RUSTC_WORKSPACE_WRAPPER=$1 CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__
}

#   needed_crates
#       What a build of the library compiles, as vendor/'s directory names (NAME-VERSION),
#       from the current directory's workspace: the trees of its default members (the core
#       and capi/; a blank line between them), less the workspace's own packages (path
#       sources), for every target. Offline and --locked: from CARGO_HOME or vendor/.
needed_crates() {
  cargo tree --offline --locked --quiet -e normal,build --target all --prefix none -f '{p}' |
    awk 'NF >= 2 && $3 !~ /^\(\// { sub(/^v/, "", $2); print $1 "-" $2 }' | sort -u
}

#   cmake_release_library [PACKAGE...]
#       The release library of this machine as the CMake build makes it
#       (cmake/TensorcastCargo.cmake: linked through cmake/tensorcast-linker.sh, so every
#       export carries TENSORCAST_<major>, and the build's paths remapped), configured in
#       build/cmake-lib and built as its target tensorcast_cargo alone: the same cargo
#       command, flags and target directory as the ctest step's build/cmake, so after that
#       step cargo has nothing to compile, and target/release/libtensorcast.so stays the
#       library the other steps tested. The workspace's PACKAGEs are built with it, by the
#       same command (TCAST_CARGO_FLAGS): `tensorcast-ort` links the core compiled for
#       the library, and only its own crate is compiled. Needs cmake and make
#       (install_missing).
cmake_release_library() {
  local flags=() package
  for package in "$@"; do
    flags+=(-p "$package")
  done
  cmake -S "$_tcast_lib_root" -B "$_tcast_lib_root/build/cmake-lib" -DTCAST_CARGO_PROFILE=release \
    -DTCAST_BUILD_TESTS=OFF -DTCAST_BUILD_EXAMPLES=OFF \
    "-DTCAST_CARGO_FLAGS=$(IFS=';'; echo "${flags[*]}")" >/dev/null
  cmake --build "$_tcast_lib_root/build/cmake-lib" --target tensorcast_cargo
}

#   versioned_exports LIBRARY
#       Inside a check or step: every symbol LIBRARY defines in its dynamic table is a
#       function tcast_*@@TENSORCAST_<major> (the major from Cargo.toml), besides GNU
#       ld's absolute symbol naming the version; prints how many. docs/c-api.md section 11.
versioned_exports() {
  local so=$1 major node defined others count
  major=$(sed -n 's/^version[[:space:]]*=[[:space:]]*"\([0-9]*\)\..*/\1/p' "$_tcast_lib_root/Cargo.toml" | head -n 1)
  node=TENSORCAST_$major
  # Defined global and weak dynamic symbols: Ndx is not UND (local ones, such as the
  # section symbols aarch64's ld writes, are not exported). GNU ld also writes the
  # version's name as an absolute symbol (Ndx ABS, name $node); lld does not.
  defined=$(readelf --dyn-syms -W "$so" |
    awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") {print $4, $7, $8}')
  others=$(grep -v -E "^FUNC [0-9]+ tcast_[a-z0-9_]+@@$node\$" <<<"$defined" |
    grep -v -x "OBJECT ABS $node" || true)
  [ -z "$others" ] || fail "$so defines besides tcast_*@@$node functions: $others"
  count=$(grep -c "@@$node\$" <<<"$defined" || true)
  [ "$count" -gt 0 ] || fail "$so has no tcast_*@@$node at all"
  echo "$so: $count functions, all tcast_*@@$node"
}

# The repository root, for the helpers above that name its files.
_tcast_lib_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# release_tarballs VERSION: sets tarball and vendor_tarball to the release tarballs of
# VERSION. In a git checkout, scripts/dist.sh --reuse writes them (build/dist/), or keeps
# the ones an earlier run wrote of the same commit. In a tree unpacked
# from the source tarball (no git), they are taken from TCAST_DIST_DIR, else from the
# directory that holds the tree (where `tar -xzf tensorcast-V.tar.gz` left both); a
# missing one stops here, before anything slow (a toolchain download) has run.
release_tarballs() {
  local version=$1 dir
  if git -C "$PWD" rev-parse --is-inside-work-tree >/dev/null 2>&1 && [ -e "$PWD/.git" ]; then
    step "release tarballs (scripts/dist.sh --reuse)" bash scripts/dist.sh --reuse
    dir=$PWD/build/dist
  else
    dir=${TCAST_DIST_DIR:-$(dirname "$PWD")}
    dir=$(cd "$dir" && pwd)
    echo "an unpacked release tree (no git): the release tarballs of $dir"
  fi
  tarball=$dir/tensorcast-$version.tar.gz
  vendor_tarball=$dir/tensorcast-$version-vendor.tar.gz
  local file
  for file in "$tarball" "$vendor_tarball"; do
    if [ ! -f "$file" ]; then
      echo "error: $file is missing: a tree unpacked from the source tarball needs both" \
        "release tarballs beside it (or in TCAST_DIST_DIR)" >&2
      exit 1
    fi
  done
  echo "source tarball: $tarball"
  echo "vendor tarball: $vendor_tarball"
}

check_doc_links() {
  local dir=$1 page link target count=0 broken=()
  while IFS= read -r -d '' page; do
    while IFS= read -r link; do
      case $link in
        '['*) link=${link#*]:} link=${link#"${link%%[![:space:]]*}"} ;;
        *) link=${link#](} link=${link%)} ;;
      esac
      case $link in http://* | https://* | mailto:* | '#'*) continue ;; esac
      target=${link%%#*}
      count=$((count + 1))
      [ -e "$(dirname "$page")/$target" ] ||
        broken+=("${page#"$dir"/}: ($link) -> ${target} is not installed")
    done < <(grep -o -E '\]\([^)[:space:]]+\)|^\[[^]]+\]:[[:space:]]*[^[:space:]]+' "$page" || true)
  done < <(find "$dir" -name '*.md' -print0)
  if [ "${#broken[@]}" -gt 0 ]; then
    printf 'broken link: %s\n' "${broken[@]}" >&2
    fail "${#broken[@]} of $count relative links of the Markdown under $dir lead nowhere"
  fi
  echo "$count relative links of the Markdown under $dir, all to files in the tree"
}

#   onnx118_data VENV
#       onnx 1.18.0's backend node test data (the STRING Cast tests, which only it ships:
#       onnx 1.18.0 cannot be installed beside 1.22.0, so its wheel is downloaded with
#       VENV's pip and the data taken out of it), kept in the cache under its version and
#       linked as build/onnx-1.18.0.
onnx118_data() {
  local venv=$1 kept tmp
  kept=$(tcast_cache_dir)/onnx-1.18.0
  if [ ! -f "$kept/.complete" ]; then
    tmp=$kept.tmp.$$
    rm -rf "$kept" "$tmp"
    mkdir -p "$tmp"
    "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps \
      --only-binary=:all: -d "$tmp" onnx==1.18.0
    "$venv/bin/python" tests/conformance/extract_node_data.py "$tmp"/onnx-1.18.0-*.whl "$tmp/data"
    rm -f "$tmp"/onnx-1.18.0-*.whl
    touch "$tmp/.complete"
    mv "$tmp" "$kept"
  fi
  if [ "$(readlink build/onnx-1.18.0 2>/dev/null)" != "$kept" ]; then
    rm -rf build/onnx-1.18.0
    mkdir -p build
    ln -s "$kept" build/onnx-1.18.0
  fi
}

# cargo-fuzz, pinned, for scripts/fuzz.sh: installed once into the cache (cargo install
# --root), named after its version, and put first on PATH by cargo_fuzz_install.
CARGO_FUZZ_VERSION=0.13.2
cargo_fuzz_root() {
  echo "$(tcast_cache_dir)/cargo-fuzz-$CARGO_FUZZ_VERSION"
}

#   cargo_fuzz_install
#       Installs cargo-fuzz CARGO_FUZZ_VERSION into cargo_fuzz_root unless it is there, and
#       exports PATH with its bin directory first (call it outside a step to keep PATH).
cargo_fuzz_install() {
  local root
  root=$(cargo_fuzz_root)
  if ! "$root/bin/cargo-fuzz" --version 2>/dev/null | grep -qF "$CARGO_FUZZ_VERSION"; then
    cargo install cargo-fuzz --locked --version "$CARGO_FUZZ_VERSION" --root "$root"
  fi
  export PATH=$root/bin:$PATH
}
