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
  cross_sysroot=$PWD/build/rust-cross/$cross_deb_arch
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
  have "$cross_qemu" || missing+=(qemu-user)
  apt_install ${missing[@]+"${missing[@]}"}
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
  step "cross toolchain for $cross_triple (gcc, libc, qemu-user)" _cross_toolchain
  use_debian_rust
  step "the $cross_triple standard library of Debian's rustc, in ${cross_sysroot#"$PWD"/}" \
    _cross_target_std
  export RUSTFLAGS="--sysroot=$cross_sysroot/usr"
  local upper
  upper=$(echo "$cross_triple" | tr 'a-z-' 'A-Z_')
  export "CARGO_TARGET_${upper}_LINKER=$cross_gnu-gcc"
  export "CARGO_TARGET_${upper}_RUNNER=$cross_qemu -L /usr/$cross_gnu"
  export "CC_${cross_triple//-/_}=$cross_gnu-gcc"
  export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target/cross}
}
