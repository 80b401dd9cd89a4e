# shellcheck shell=bash
# Shared helpers of the scripts in scripts/ (sourced, not run):
#
#   source "$(dirname "$0")/lib.sh"     (after `set -euo pipefail`)
#
#   step NAME [COMMAND [ARG...]]
#       Prints "==> NAME" and runs COMMAND (a program or a shell function) in a subshell
#       with errexit on, so that any failing command inside a function fails the step.
#       When it fails, prints "FAILED: NAME (exit N)" and exits the script with N. What the
#       command sets, exports or cd's does not outlive the step. Without COMMAND, prints
#       the heading only (for lines such as "all tests passed").
#   step --keep-going NAME COMMAND [ARG...]
#       The same, but after a failure the script goes on, with NAME appended to the array
#       failed_steps: for a script that runs several independent steps and reports them
#       together.
#   Call step as a command of its own, never inside `if`, `||`, `&&` or `!`: bash turns
#   errexit off for everything run there, and a step's failing commands would go unseen.
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
#       starts inherit.

step() {
  local keep_going=0
  if [ "${1:-}" = --keep-going ]; then
    keep_going=1
    shift
  fi
  local name=$1
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
  if [ "$status" -ne 0 ]; then
    printf '\nFAILED: %s (exit %d)\n' "$name" "$status" >&2
    [ "$keep_going" -eq 1 ] || exit "$status"
    failed_steps+=("$name")
  fi
}

failed_steps=()

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

# The body of apt_install's step.
_tcast_apt_get() {
  if ! have apt-get; then
    echo "error: $* missing and no apt-get here: install the equivalent packages by hand" >&2
    return 1
  fi
  local apt=()
  [ "$(id -u)" -eq 0 ] || apt=(sudo)
  # sudo resets the environment: DEBIAN_FRONTEND goes through env, inside it.
  apt+=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
  if [ -z "${TCAST_APT_UPDATED:-}" ]; then
    "${apt[@]}" update -qq
  fi
  "${apt[@]}" install -y -qq "$@"
}

# The rustc that Debian 12 (rustc-web) and Debian 13 ship, which is the crate's
# rust-version: Debian's build, installed beside the rustup toolchain (which stays the
# main one and first on PATH). Its binaries are /usr/bin/rustc, /usr/bin/cargo and
# /usr/bin/cargo-clippy; run them with PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc.
DEBIAN_RUST_VERSION=1.85.0+dfsg3-1~deb12u3

#   install_debian_rust
#       Installs Debian's rustc-web, cargo-web and rust-web-clippy at DEBIAN_RUST_VERSION
#       (with the host's standard library), those not installed at that version.
install_debian_rust() {
  local v=$DEBIAN_RUST_VERSION package missing=()
  for package in rustc-web cargo-web rust-web-clippy libstd-rust-web-dev libstd-rust-web-1.85; do
    [ "$(dpkg-query -W -f='${Version}' "$package" 2>/dev/null || true)" = "$v" ] ||
      missing+=("$package=$v")
  done
  apt_install ${missing[@]+"${missing[@]}"}
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
