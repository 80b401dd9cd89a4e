#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Writes the example module of bindings/go/README.md ("Using it from your own module")
# into DIR, as a user would copy it: DIR/go.mod (its replace line pointed at this
# checkout's bindings/go), DIR/main.go, and DIR/expected-output.txt, the output the
# README says `go run .` prints; and DIR/build-library.sh, the commands of the README's
# quick start step 2 (building the library), to be run from the repository root. Used by
# scripts/test-go.sh and scripts/test-install.sh, so that what the README shows is what
# they build and run.
#
#   bash scripts/go-consumer.sh DIR
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
readme="$root"/"bindings/go/README.md"
dir=$1
mkdir -p "$dir"

# block MARKER: the lines of the fenced block whose first line is MARKER, MARKER included.
block() {
  awk -v marker="$1" '
    !inside && $0 == marker { inside = 1 }
    inside && /^```/ { exit }
    inside { print }
  ' "$readme"
}
block '// go.mod' | sed "s|=> /path/to/tensorcast/bindings/go|=> $root/bindings/go|" >"$dir/go.mod"
block '// main.go' >"$dir/main.go"
# The block after the line "`go run .` prints:".
awk '
  /^`go run \.` prints:$/ { found = 1; next }
  found && /^```/ { if (inside) exit; inside = 1; next }
  inside { print }
' "$readme" >"$dir/expected-output.txt"

# The quick start's step 2: the lines after the comment "# 2. The library" up to the
# blank line that ends the step, comments left out.
{
  echo 'set -euo pipefail'
  awk '
    /^# 2\. The library/ { inside = 1; next }
    inside && /^$/ { exit }
    inside && !/^#/ { print }
  ' "$readme"
} >"$dir/build-library.sh"
[ "$(wc -l <"$dir/build-library.sh")" -gt 1 ] ||
  { echo "error: found no build command in the quick start of $readme" >&2; exit 1; }

for f in go.mod main.go expected-output.txt build-library.sh; do
  [ -s "$dir/$f" ] || { echo "error: found no $f in $readme" >&2; exit 1; }
done
grep -q "=> $root/bindings/go\$" "$dir/go.mod" ||
  { echo "error: the README's go.mod has no replace line to rewrite" >&2; exit 1; }
