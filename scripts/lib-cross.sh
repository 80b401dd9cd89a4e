# SPDX-License-Identifier: MIT OR Apache-2.0
# shellcheck shell=bash
# Building tensorcast for another CPU with Debian's Rust toolchain (sourced, not run, after
# scripts/lib.sh):
#
#   source scripts/lib.sh
#   source scripts/lib-cross.sh
#
# The same setup as scripts/test-cross.sh, in the same places, so that each reuses what the
# other unpacked: Debian's rustc DEBIAN_RUST_VERSION (lib.sh, use_debian_rust) and the
# target's standard library from the same source package, both in the cache
# (tcast_cache_dir), the cross C compiler and C library from the system's packages, a
# static qemu-user chosen by cross_qemu_choose (below), and builds under target/cross/
# (CARGO_TARGET_DIR, when set, instead).
#
#   cross_target TRIPLE
#       Sets cross_triple, cross_deb_arch (arm64, s390x), cross_gnu (aarch64-linux-gnu,
#       s390x-linux-gnu: the prefix of the cross tools and their directory under /usr),
#       cross_qemu (qemu-aarch64, qemu-s390x) and cross_sysroot. Fails for another
#       triple, naming those it knows.
#
#   cross_setup TRIPLE
#       cross_target, then, as steps: the foreign dpkg architecture, the cross toolchain
#       (installed when missing), the emulator (cross_qemu_choose: sets cross_qemu to its
#       path), Debian's rustc (use_debian_rust) and the target's standard library. Exports what cargo needs for `--target TRIPLE`: RUSTFLAGS (the
#       target's sysroot: only the target's units get it under --target, build scripts
#       and proc macros run on the host with its own), CARGO_TARGET_<TRIPLE>_LINKER, the
#       _RUNNER (qemu with the target's C library) and CC_<triple> for the cc crate, and
#       CARGO_TARGET_DIR. Call it outside any step: the exports are for the rest of the
#       script.

cross_target() {
  cross_triple=$1
  case $cross_triple in
    aarch64-unknown-linux-gnu) cross_deb_arch=arm64 cross_gnu=aarch64-linux-gnu cross_qemu=qemu-aarch64 ;;
    s390x-unknown-linux-gnu) cross_deb_arch=s390x cross_gnu=s390x-linux-gnu cross_qemu=qemu-s390x ;;
    *)
      echo "error: no cross setup for '$cross_triple': aarch64-unknown-linux-gnu or s390x-unknown-linux-gnu" >&2
      return 2
      ;;
  esac
  cross_sysroot=$(tcast_cache_dir)/rust-cross-${DEBIAN_RUST_VERSION//[:~+]/_}/$cross_deb_arch
}

_cross_as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  else
    sudo "$@"
  fi
}

# The foreign architecture, then package lists that know its packages (the lists fetched
# before it was added have none of them).
_cross_foreign_architecture() {
  if ! have dpkg apt-get; then
    echo "error: no dpkg/apt-get here: install the $cross_triple cross toolchain by hand" >&2
    return 1
  fi
  if ! dpkg --print-foreign-architectures | grep -qx "$cross_deb_arch"; then
    _cross_as_root dpkg --add-architecture "$cross_deb_arch"
    _cross_as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq
  fi
}

_cross_toolchain() {
  local missing=()
  have "$cross_gnu-gcc" || missing+=("gcc-$cross_gnu")
  [ -e "/usr/$cross_gnu/lib/libc.so" ] || missing+=("libc6-dev-$cross_deb_arch-cross")
  apt_install ${missing[@]+"${missing[@]}"}
}

# qemu-user, from Debian's packages, never installed: the static emulators of a package
# are unpacked into the cache (tcast_cache_dir), under the package's version, and used by
# path. Two are tried, in this order, and the first that starts and joins a thread within
# QEMU_SMOKE_SECONDS is the one every emulated step of the run uses:
#
#   system      qemu-user-static of the system's own suite (bookworm: 7.2)
#   backports   qemu-user of the suite's backports (bookworm-backports: 10.0, static)
#
# Bookworm's 7.2 never returns from pthread_create on some current machines (an AMD EPYC
# of family 26 with Linux 6.18: 100% CPU, forever); 10.0 runs threads there. Where 7.2
# works it goes first: it ran the emulated tests in about two thirds of 10.0's CPU time
# here (cast::lowp_tests on aarch64: 52 s against 76 s).
QEMU_KINDS=(system backports)
QEMU_SMOKE_SECONDS=20

# _qemu_apt KIND APT-ARGS...: apt-get or apt-cache (the first of APT-ARGS) on KIND's lists:
# the system's, or private lists of the backports of the system's suite, kept in the cache
# (the machine's apt configuration is left as it is; the archive is the one the system's
# lists name for its own suite).
_qemu_apt() {
  local kind=$1 tool=$2
  shift 2
  if [ "$kind" = system ]; then
    "$tool" "$@"
    return
  fi
  local codename uri lists
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  lists=$(tcast_cache_dir)/apt-$codename-backports
  if [ ! -f "$lists/sources.list" ]; then
    # shellcheck disable=SC2016 # apt's own field names, not the shell's
    uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
      awk -v suite="$codename" '$2 == suite { print $1; exit }')
    if [ -z "$codename" ] || [ -z "$uri" ]; then
      echo "error: no Debian archive for this system's suite is configured: no backports to look in" >&2
      return 1
    fi
    mkdir -p "$lists/lists/partial" "$lists/cache/archives/partial"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $codename-backports main" \
      >"$lists/sources.list.new"
    mv "$lists/sources.list.new" "$lists/sources.list"
  fi
  local private=(-o "Dir::Etc::SourceList=$lists/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$lists/lists" -o "Dir::Cache=$lists/cache")
  [ "$(id -u)" -ne 0 ] || private+=(-o APT::Sandbox::User=root)
  if [ "$tool" = apt-get ] && [ "$1" = update ]; then
    "$tool" "${private[@]}" "$@"
    return
  fi
  # Lists older than a day are fetched again first (a newer version may have replaced
  # the one they name).
  if [ -z "$(find "$lists/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
    apt-get "${private[@]}" update -qq
  fi
  "$tool" "${private[@]}" "$@"
}

# qemu_version KIND: the version of KIND's package that apt would take.
qemu_version() {
  local package="qemu-user-static"
  [ "$1" = system ] || package="qemu-user"
  _qemu_apt "$1" apt-cache policy "$package" | sed -n 's/^ *Candidate: //p' | grep -v '(none)' || true
}

# qemu_unpack KIND: unless the cache holds them, downloads KIND's package at the version
# qemu_version gives and keeps its qemu-aarch64 and qemu-s390x (under those names) in
# qemu-user-<version>/; prints that directory last.
qemu_unpack() {
  local kind=$1 package="qemu-user-static" suffix="-static" version dir tmp
  if [ "$kind" != system ]; then
    package="qemu-user" suffix=""
  fi
  if [ "$kind" = system ] && [ -z "${TCAST_APT_UPDATED:-}" ] && [ -z "$(qemu_version system)" ]; then
    local apt_get=()
    _tcast_apt_command
    "${apt_get[@]}" update -qq
    export TCAST_APT_UPDATED=1
  fi
  version=$(qemu_version "$kind")
  if [ -z "$version" ]; then
    echo "error: apt knows no $package in the $kind lists" >&2
    return 1
  fi
  dir=$(tcast_cache_dir)/qemu-user-${version//[:~+]/_}
  if [ ! -x "$dir/qemu-aarch64" ] || [ ! -x "$dir/qemu-s390x" ]; then
    tmp=$dir.tmp.$$
    rm -rf "$tmp"
    mkdir -p "$tmp/debs"
    # (Run where errexit may be off: each command's failure is checked.)
    local fetch=(_qemu_apt backports apt-get download -qq)
    # The system's lists: lib.sh's deb_download (apt's sandbox, its error naming the version).
    [ "$kind" != system ] || fetch=(deb_download .)
    if ! (cd "$tmp/debs" && "${fetch[@]}" "$package=$version") >&2 ||
      ! dpkg -x "$tmp"/debs/*.deb "$tmp/root" || ! mkdir -p "$tmp/bin" ||
      ! mv "$tmp/root/usr/bin/qemu-aarch64$suffix" "$tmp/bin/qemu-aarch64" ||
      ! mv "$tmp/root/usr/bin/qemu-s390x$suffix" "$tmp/bin/qemu-s390x"; then
      echo "error: could not unpack qemu-aarch64 and qemu-s390x of $package $version" >&2
      rm -rf "$tmp"
      return 1
    fi
    rm -rf "$dir"
    mv "$tmp/bin" "$dir" || return 1
    rm -rf "$tmp"
  fi
  echo "$dir"
}

# qemu_threads QEMU: a program that starts and joins one thread (the tests start them),
# built with the cross compiler, under QEMU within QEMU_SMOKE_SECONDS; false when it
# hangs or fails, saying so.
qemu_threads() {
  local qemu=$1 dir status=0
  dir=$(mktemp -d)
  printf '%s\n' '#include <pthread.h>' '#include <stdio.h>' \
    'static void *run(void *arg) { return arg; }' \
    'int main(void) { pthread_t t; void *out = 0; int x = 7;' \
    '  if (pthread_create(&t, 0, run, &x) || pthread_join(t, &out) || out != &x) return 1;' \
    '  puts("a thread started and joined"); return 0; }' >"$dir/thread.c"
  "$cross_gnu-gcc" -O1 -pthread -o "$dir/thread" "$dir/thread.c"
  timeout --kill-after=5 "$QEMU_SMOKE_SECONDS" "$qemu" -L "/usr/$cross_gnu" "$dir/thread" || status=$?
  rm -rf "$dir"
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "$qemu ($("$qemu" --version | head -n 1)) did not start and join one thread in" \
      "$QEMU_SMOKE_SECONDS s: it hangs on this machine" >&2
    return 1
  elif [ "$status" -ne 0 ]; then
    echo "a program that starts and joins one thread failed under $qemu (exit $status)" >&2
    return 1
  fi
}

#   cross_qemu_choose
#       After cross_target: sets cross_qemu to the path of the first emulator of
#       QEMU_KINDS that runs a thread for cross_triple (unpacked when missing); fails,
#       naming each one tried and why, when none does.
cross_qemu_choose() {
  local kind dir name=$cross_qemu
  for kind in "${QEMU_KINDS[@]}"; do
    if ! dir=$(qemu_unpack "$kind" | tail -n 1) || [ ! -x "$dir/$name" ]; then
      echo "no $kind qemu to try" >&2
      continue
    fi
    if qemu_threads "$dir/$name"; then
      cross_qemu=$dir/$name
      echo "the emulator: $cross_qemu ($("$cross_qemu" --version | head -n 1))"
      return 0
    fi
  done
  echo "error: no emulator of ${QEMU_KINDS[*]} runs a thread for $cross_triple here" >&2
  return 1
}

# The target's standard library at DEBIAN_RUST_VERSION, unpacked (never installed) unless
# it is there already.
_cross_target_std() {
  local stamp=$cross_sysroot/.deb-version
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$DEBIAN_RUST_VERSION" ] &&
    [ -d "$cross_sysroot/usr/lib/rustlib/$cross_triple/lib" ]; then
    echo "already unpacked in $cross_sysroot"
    return 0
  fi
  rm -rf "$cross_sysroot" "$cross_sysroot.debs"
  deb_download "$cross_sysroot.debs" \
    "libstd-rust-web-dev:$cross_deb_arch=$DEBIAN_RUST_VERSION" \
    "libstd-rust-web-1.85:$cross_deb_arch=$DEBIAN_RUST_VERSION"
  local deb
  for deb in "$cross_sysroot.debs"/*.deb; do
    dpkg -x "$deb" "$cross_sysroot"
  done
  rm -rf "$cross_sysroot.debs"
  if [ ! -d "$cross_sysroot/usr/lib/rustlib/$cross_triple/lib" ]; then
    echo "error: no $cross_triple standard library in the unpacked packages" >&2
    return 1
  fi
  echo "$DEBIAN_RUST_VERSION" >"$stamp"
}

cross_setup() {
  cross_target "$1"
  step "foreign architecture $cross_deb_arch" _cross_foreign_architecture
  step "cross toolchain for $cross_triple (gcc, libc)" _cross_toolchain
  # Not a step: cross_qemu is for the rest of the script (the step's output the same).
  printf '\n==> %s\n' "qemu-user for $cross_triple: the first of ${QEMU_KINDS[*]} that runs a thread in $QEMU_SMOKE_SECONDS s"
  cross_qemu_choose
  use_debian_rust
  step "the $cross_triple standard library of Debian's rustc, in $cross_sysroot" \
    _cross_target_std
  export RUSTFLAGS="--sysroot=$cross_sysroot/usr"
  local upper
  upper=$(echo "$cross_triple" | tr 'a-z-' 'A-Z_')
  export "CARGO_TARGET_${upper}_LINKER=$cross_gnu-gcc"
  export "CARGO_TARGET_${upper}_RUNNER=$cross_qemu -L /usr/$cross_gnu"
  export "CC_${cross_triple//-/_}=$cross_gnu-gcc"
  export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target/cross}
}
