#!/usr/bin/env bash
# Builds and tests tensorcast with the oldest rustc it supports (Cargo.toml's
# rust-version, 1.85): Debian's rustc-web, as a distribution builds it. Installs the
# toolchain when missing (scripts/lib.sh: install_debian_rust). Runs clippy with that
# toolchain's lints too, and every Rust test, in its own target directory.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_debian_rust

# debian_cargo SUBCOMMAND [ARG...]: the target directory goes before any `--`.
debian_cargo() {
  local subcommand=$1
  shift
  PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc cargo "$subcommand" --target-dir target/msrv "$@"
}

grep -q '^rust-version = "1.85"$' Cargo.toml
PATH=/usr/bin:$PATH rustc --version
step "clippy -D warnings with rustc 1.85" debian_cargo clippy --all-targets -- -D warnings
step "cargo test with rustc 1.85" debian_cargo test
