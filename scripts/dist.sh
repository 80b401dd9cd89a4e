#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Writes the release tarballs of the commit at HEAD under build/dist/:
#
#   tensorcast-<version>.tar.gz          `git archive` of HEAD, top directory
#                                        tensorcast-<version>/ (the version of HEAD's
#                                        Cargo.toml)
#   tensorcast-<version>-vendor.tar.gz   tensorcast-<version>/vendor/, the crates of HEAD's
#                                        Cargo.lock (`cargo vendor --locked`), and
#                                        tensorcast-<version>/.cargo/config.toml, which
#                                        puts vendor/ in the place of crates.io
#   SHA256SUMS                           the sha256 of both (cd build/dist && sha256sum -c
#                                        SHA256SUMS)
#
# Unpacked into one directory, the two give a tree that builds the library with no
# network and an empty CARGO_HOME (README.md, "For packagers"; scripts/test-dist.sh
# checks it):
#
#   tar -xzf tensorcast-<version>.tar.gz && tar -xzf tensorcast-<version>-vendor.tar.gz
#   cmake -S tensorcast-<version> -B build -DTCAST_CARGO_OFFLINE=ON && cmake --build build
#
# vendor/ holds in full only the crates that a build of the library compiles: its
# dependencies and build dependencies (proc macros among them) for every target, as
# `cargo tree -e normal,build --target all` lists them. Cargo resolves all of Cargo.lock
# before it builds anything, the dev-dependencies (cbindgen, cc and what they pull in)
# included, and stops when a locked crate is missing from a directory source, so each of
# those stays as a placeholder of three files: its Cargo.toml (what resolution reads), a
# .cargo-checksum.json with the checksum Cargo.lock records and no file list, and a
# src/lib.rs whose compile_error! names the crate, should anything try to build it. Such a
# tree builds the library; its Rust tests (`cargo test`) need a complete vendor directory
# (`cargo vendor --locked`) or the network. The placeholders keep the tarball at a
# fraction of the full set (which brings windows-sys, linux-raw-sys, cbindgen...).
#
# The same commit gives the same bytes: git archive dates its entries with the commit's
# time, and the vendor tarball is written with sorted names, owner 0, normalized modes and
# that same time; gzip -n stores no name or time.
#
#   bash scripts/dist.sh           writes them
#   bash scripts/dist.sh --reuse   keeps build/dist/ when it holds the tarballs this run
#                                  would write (build/dist/.made-from: the commit, this
#                                  script and scripts/lib.sh, cargo's version) and
#                                  SHA256SUMS still verifies; writes them otherwise. The
#                                  packaging steps (deb, rpm, newcomer) take them so after
#                                  the dist step, which runs it twice without --reuse to
#                                  prove the bytes reproducible.
#
# Archives HEAD, not the working tree (and says so when the tree has uncommitted
# changes). Needs git, tar, gzip, sha256sum and cargo; `cargo vendor` downloads the crates
# that CARGO_HOME does not have yet.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

install_missing git tar gzip

version=$(git show HEAD:Cargo.toml | sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' |
  head -n 1)
[ -n "$version" ] || {
  echo "error: no version in HEAD's Cargo.toml" >&2
  exit 1
}
dist_name=tensorcast-$version
out=$repo/build/dist
stage=$out/stage
case "${1:-}" in
  '' | --reuse) ;;
  *)
    echo "usage: bash scripts/dist.sh [--reuse]" >&2
    exit 2
    ;;
esac
# What the tarballs are made from: HEAD, the scripts that make them, cargo (its vendor).
made_from="$(git rev-parse HEAD) $(cat scripts/dist.sh scripts/lib.sh | sha256sum | cut -c1-16) $(cargo --version)"
if [ "${1:-}" = --reuse ] && [ "$(cat "$out/.made-from" 2>/dev/null)" = "$made_from" ] &&
  (cd "$out" && sha256sum --quiet -c SHA256SUMS); then
  echo "build/dist/ holds the tarballs of $made_from: reused"
  cat "$out/SHA256SUMS"
  exit 0
fi
source_tarball=$dist_name.tar.gz
vendor_tarball=$dist_name-vendor.tar.gz
commit=$(git rev-parse HEAD)
commit_time=$(git show -s --format=%ct HEAD)

if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "warning: the working tree has uncommitted changes; the tarballs hold HEAD ($commit)" >&2
fi
if [ -n "$(git ls-tree --name-only HEAD .cargo/)" ]; then
  echo "error: HEAD has a .cargo/ directory, which the vendor tarball's .cargo/config.toml" \
    "would overwrite" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$stage"

source_tarball_step() {
  git archive --format=tar --prefix="$dist_name/" HEAD | gzip -n -9 >"$out/$source_tarball"
}
step "git archive HEAD ($commit) -> build/dist/$source_tarball" source_tarball_step

# The crates, vendored from the Cargo.lock of the archived tree.
vendor_step() {
  tar -xzf "$out/$source_tarball" -C "$stage"
  cd "$stage/$dist_name"
  # Directory names with versions: the names below are name-version.
  cargo vendor --locked --versioned-dirs --quiet vendor >/dev/null
  mkdir .cargo
  cat >.cargo/config.toml <<'TOML'
# From tensorcast's vendor tarball (scripts/dist.sh): cargo takes every crates.io crate
# from vendor/, beside this directory, and never asks the network.
[source.crates-io]
replace-with = "vendored-sources"

[source.vendored-sources]
directory = "vendor"
TOML
}
step "cargo vendor --locked (HEAD's Cargo.lock)" vendor_step

placeholders_step() {
  cd "$stage/$dist_name"
  local needed dir crate checksum lib build sources source full=0 placeholder=0
  needed=$(needed_crates)
  [ -n "$needed" ] || {
    echo "cargo tree listed no dependency" >&2
    exit 1
  }
  for dir in vendor/*/; do
    crate=$(basename "$dir")
    if grep -qxF "$crate" <<<"$needed"; then
      full=$((full + 1))
      continue
    fi
    checksum=$(sed -n 's/.*"package":"\([0-9a-f]\{64\}\)".*/\1/p' "$dir/.cargo-checksum.json")
    [ -n "$checksum" ] || {
      echo "$crate: no package checksum in its .cargo-checksum.json" >&2
      exit 1
    }
    # The library target's source (src/lib.rs unless [lib] names another) and the build
    # script's, if the manifest names one: what cargo would compile first.
    lib=$(awk '/^\[/ { in_lib = ($0 == "[lib]") } in_lib && /^path = "/ { print $3 }' \
      "$dir/Cargo.toml" | tr -d '"')
    build=$(sed -n 's/^build = "\(.*\)"$/\1/p' "$dir/Cargo.toml")
    sources="${lib:-src/lib.rs} $build"
    find "$dir" -mindepth 1 -maxdepth 1 ! -name Cargo.toml -exec rm -rf {} +
    printf '{"files":{},"package":"%s"}' "$checksum" >"$dir/.cargo-checksum.json"
    for source in $sources; do
      mkdir -p "$(dirname "$dir/$source")"
      printf '%s\n' \
        "// A placeholder from tensorcast's vendor tarball (scripts/dist.sh): $crate is locked" \
        "// in Cargo.lock but not needed to build the library; only its Cargo.toml is here." \
        "compile_error!(\"$crate is a placeholder in vendor/: only the crates the tensorcast library needs are vendored; run \`cargo vendor --locked\` for all of them\");" \
        >"$dir/$source"
      # A build script's placeholder needs a main to report only the error above.
      [ "$source" != "$build" ] || echo 'fn main() {}' >>"$dir/$source"
    done
    placeholder=$((placeholder + 1))
  done
  echo "vendor/: $full crates in full, $placeholder placeholders" \
    "(dev-dependencies and other targets' crates)"
  # Every crate the library needs is there in full.
  local missing
  missing=$(for crate in $needed; do [ -d "vendor/$crate" ] || echo "$crate"; done)
  [ -z "$missing" ] || {
    echo "not vendored: $missing" >&2
    exit 1
  }
  # Cargo resolves the tree from vendor/ alone.
  local empty_home
  empty_home=$(mktemp -d)
  CARGO_HOME=$empty_home CARGO_NET_OFFLINE=true needed_crates >/dev/null
  rm -rf "$empty_home"
}
step "vendor/: the library's crates in full, placeholders for the rest of Cargo.lock" \
  placeholders_step

vendor_tarball_step() {
  cd "$stage"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$commit_time" \
    --mode='u+rwX,go+rX,go-w' --format=gnu -cf - "$dist_name/.cargo" "$dist_name/vendor" |
    gzip -n -9 >"$out/$vendor_tarball"
}
step "tar of vendor/ and .cargo/config.toml -> build/dist/$vendor_tarball" vendor_tarball_step

rm -rf "$stage"
(cd "$out" && sha256sum "$source_tarball" "$vendor_tarball" >SHA256SUMS)
echo "$made_from" >"$out/.made-from"
step "build/dist/SHA256SUMS"
cat "$out/SHA256SUMS"
(cd "$out" && du -h "$source_tarball" "$vendor_tarball")
