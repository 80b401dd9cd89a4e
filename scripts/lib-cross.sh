# SPDX-License-Identifier: MIT OR Apache-2.0
# shellcheck shell=bash
# Building tensorcast for another CPU with Debian's Rust toolchain (sourced, not run, after
# scripts/lib.sh):
#
#   source scripts/lib.sh
#   source scripts/lib-cross.sh
#
# The same setup as scripts/test-cross.sh, in the same places, so that each reuses what the
# other unpacked: Debian's rustc DEBIAN_RUST_VERSION in build/rust-1.85 (lib.sh,
# use_debian_rust), the target's standard library from the same source package in
# build/rust-cross/<debian arch>, the cross C compiler and C library and qemu-user from the
# system's packages, and builds under target/cross/ (CARGO_TARGET_DIR, when set, instead).
#
#   cross_target TRIPLE
#       Sets cross_triple, cross_deb_arch (arm64, s390x), cross_gnu (aarch64-linux-gnu,
#       s390x-linux-gnu: the prefix of the cross tools and their directory under /usr),
#       cross_qemu (qemu-aarch64, qemu-s390x) and cross_sysroot. Fails for another
#       triple, naming those it knows.
#
#   cross_setup TRIPLE
#       cross_target, then, as steps: the foreign dpkg architecture, the cross toolchain
#       (installed when missing), Debian's rustc (use_debian_rust) and the target's
#       standard library. Exports what cargo needs for `--target TRIPLE`: RUSTFLAGS (the
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

# qemu-user, pinned: Debian bookworm's own qemu 7.2 never returns from pthread_create
# under qemu-aarch64 on some current machines (an AMD EPYC of family 26 with Linux 6.18),
# so every emulated run takes the static binaries of this version (one file per CPU, no
# dependencies), from the system's package lists or, on Debian 12, its backports suite.
# Unpacked once into the cache (tcast_cache_dir), never installed: the system's qemu, if
# any, stays as it is.
QEMU_DEB_VERSION=1:10.0.2+ds-2+deb13u1~bpo12+1

#   qemu_dir
#       Prints the directory that holds qemu-aarch64 and qemu-s390x of QEMU_DEB_VERSION
#       (its name carries the version).
qemu_dir() {
  echo "$(tcast_cache_dir)/qemu-user-${QEMU_DEB_VERSION//[:~+]/_}"
}

#   qemu_unpack
#       Unless qemu_dir holds them, downloads qemu-user QEMU_DEB_VERSION (apt-get download:
#       the system's lists, else private lists of its backports suite, made beside the
#       cache, never the system's) and keeps its qemu-aarch64 and qemu-s390x there.
qemu_unpack() {
  local dir tmp spec=qemu-user=$QEMU_DEB_VERSION
  dir=$(qemu_dir)
  if [ -x "$dir/qemu-aarch64" ] && [ -x "$dir/qemu-s390x" ]; then
    echo "already unpacked in $dir: $("$dir/qemu-aarch64" --version | head -n 1)"
    return 0
  fi
  tmp=$dir.tmp.$$
  rm -rf "$tmp"
  mkdir -p "$tmp/debs"
  local sandbox=()
  [ "$(id -u)" -ne 0 ] || sandbox=(-o APT::Sandbox::User=root)
  if _tcast_apt_knows "$spec"; then
    (cd "$tmp/debs" && apt-get download -qq ${sandbox[@]+"${sandbox[@]}"} "$spec")
  else
    # The suite's backports, through lists of its own: the machine's apt configuration is
    # left as it is. The archive is the one the system's lists name for its own suite.
    local codename uri apt_private
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    # shellcheck disable=SC2016 # apt's own field names, not the shell's
    uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
      awk -v suite="$codename" '$2 == suite { print $1; exit }')
    if [ -z "$codename" ] || [ -z "$uri" ]; then
      echo "error: cannot get $spec: apt does not know it, and no Debian archive for this" \
        "system's suite is configured to look in its backports" >&2
      return 1
    fi
    mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $codename-backports main" \
      >"$tmp/sources.list"
    apt_private=(-o "Dir::Etc::SourceList=$tmp/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache" ${sandbox[@]+"${sandbox[@]}"})
    apt-get "${apt_private[@]}" update -qq
    if ! (cd "$tmp/debs" && apt-get "${apt_private[@]}" download -qq "$spec"); then
      echo "error: cannot get $spec from $codename or $codename-backports" >&2
      return 1
    fi
  fi
  dpkg -x "$tmp"/debs/*.deb "$tmp/root"
  mkdir -p "$tmp/bin"
  mv "$tmp/root/usr/bin/qemu-aarch64" "$tmp/root/usr/bin/qemu-s390x" "$tmp/bin/"
  rm -rf "$dir"
  mv "$tmp/bin" "$dir"
  rm -rf "$tmp"
  "$dir/qemu-aarch64" --version | head -n 1
}

# The emulator must run threads (the tests start them): a program that starts and joins
# one, under a time limit, so that an emulator that hangs fails here in seconds, saying
# so, instead of at CI's limit.
QEMU_SMOKE_SECONDS=60
_cross_qemu_threads() {
  local dir status=0
  dir=$(mktemp -d)
  printf '%s\n' '#include <pthread.h>' '#include <stdio.h>' \
    'static void *run(void *arg) { return arg; }' \
    'int main(void) { pthread_t t; void *out = 0; int x = 7;' \
    '  if (pthread_create(&t, 0, run, &x) || pthread_join(t, &out) || out != &x) return 1;' \
    '  puts("a thread started and joined"); return 0; }' >"$dir/thread.c"
  "$cross_gnu-gcc" -O1 -pthread -o "$dir/thread" "$dir/thread.c"
  timeout --kill-after=5 "$QEMU_SMOKE_SECONDS" "$cross_qemu" -L "/usr/$cross_gnu" "$dir/thread" || status=$?
  rm -rf "$dir"
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "error: $cross_qemu ($("$cross_qemu" --version | head -n 1)) did not start and join one" \
      "thread in $QEMU_SMOKE_SECONDS s: this emulator hangs on this machine, and every emulated test would" >&2
    return 1
  elif [ "$status" -ne 0 ]; then
    echo "error: a program that starts and joins one thread failed under $cross_qemu (exit $status)" >&2
    return 1
  fi
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
  step "qemu-user $QEMU_DEB_VERSION (static), in $(qemu_dir)" qemu_unpack
  cross_qemu=$(qemu_dir)/$cross_qemu
  step "$cross_qemu runs a thread (within $QEMU_SMOKE_SECONDS s)" _cross_qemu_threads
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
