#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
#
# README.md's promises, checked:
#
#   1. It shows the two commands, each alone in a ```sh block: `bash scripts/quickstart.sh`
#      and `bash scripts/test.sh`, the command .ci/run runs; and it stays a front door of
#      at most 200 lines.
#   2. Its C program ("A first program in C", the one ```c block) compiles with the `cc`
#      line the README gives, against the library the first command leaves in
#      target/release, and again with -std=c11 -Wall -Wextra -Wpedantic -Werror.
#   3. The program prints what the README's comment on `./first` says it prints.
#
# The library is built first with the README's first command (scripts/quickstart.sh,
# which installs cmake, make and a C compiler when missing).
#
#   bash scripts/test-readme.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/lib.sh
source scripts/lib.sh

repo=$PWD
readme=README.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

step "the README's first command: bash scripts/quickstart.sh" bash scripts/quickstart.sh

# block LANG: the lines inside the README's ```LANG blocks, each block followed by a line
# holding only ``` (so that blocks stay apart).
block() {
  awk -v open="\`\`\`$1" '$0 == open { inside = 1; next }
    inside && $0 == "```" { inside = 0; print "```"; next }
    inside { print }' "$readme"
}

two_commands() {
  local sh_blocks lines
  sh_blocks=$(block sh)
  grep -qx 'bash scripts/quickstart.sh' <<<"$sh_blocks" || fail "no \`\`\`sh line 'bash scripts/quickstart.sh'"
  grep -qx 'bash scripts/test.sh' <<<"$sh_blocks" || fail "no \`\`\`sh line 'bash scripts/test.sh'"
  grep -qx 'exec bash scripts/test.sh' .ci/run || fail ".ci/run does not exec 'bash scripts/test.sh'"
  lines=$(wc -l <"$readme")
  [ "$lines" -le 200 ] || fail "$readme has $lines lines, more than 200"
  echo "both commands shown; .ci/run runs the second; $lines lines"
}
check "README.md shows the two commands, .ci/run runs the test command, <= 200 lines" two_commands

# The install line configures the library only: no C or C++ test is built for a user who
# installs it (the option is CMakeLists.txt's).
install_line() {
  local line
  line=$(block sh | grep -m 1 '^cmake -S \. ') || fail "no \`\`\`sh line 'cmake -S . ...'"
  echo "$line"
  grep -q -- '-DTCAST_BUILD_TESTS=OFF' <<<"$line" || fail "the install line builds the tests"
  grep -q '^option(TCAST_BUILD_TESTS ' CMakeLists.txt || fail "CMakeLists.txt has no TCAST_BUILD_TESTS"
}
check "README.md's install line builds no tests (-DTCAST_BUILD_TESTS=OFF)" install_line

# The program, and the README's command that builds it, run in a scratch directory whose
# include/ and target/ are the repository's.
program() {
  local count
  count=$(grep -cx '```c' "$readme" || true)
  [ "$count" -eq 1 ] || fail "$readme has $count \`\`\`c blocks, not 1"
  block c | sed '$d' >"$tmp/first.c"
  ln -sfn "$repo/include" "$tmp/include"
  ln -sfn "$repo/target" "$tmp/target"
  wc -l <"$tmp/first.c"
}
check "README.md's C program: one \`\`\`c block" program

readme_cc() {
  local line
  line=$(block sh | grep -E '^cc .*first\.c' || true)
  [ -n "$line" ] || fail "no 'cc ... first.c' line in a \`\`\`sh block"
  echo "$line"
  (cd "$tmp" && eval "$line")
  [ -x "$tmp/first" ] || fail "the cc line made no ./first"
}
check "README.md's C program compiles with the README's cc line" readme_cc

strict_cc() {
  cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude "$tmp/first.c" -Ltarget/release \
    -ltensorcast -o "$tmp/first-strict"
}
check "README.md's C program compiles with -std=c11 -Wall -Wextra -Wpedantic -Werror" strict_cc

output() {
  local claimed actual
  # "./first   # 1 -> 0x3c00, 0.1 -> 0x2e66": the comment, one line per comma.
  claimed=$(block sh | sed -n 's|^\./first *# *||p' | sed 's/, /\n/g')
  [ -n "$claimed" ] || fail "no './first   # ...' line in a \`\`\`sh block"
  actual=$(cd "$tmp" && ./first)
  if [ "$claimed" != "$actual" ]; then
    diff <(echo "$claimed") <(echo "$actual") >&2 || true
    fail "the program's output differs from the README's comment (< README, > actual)"
  fi
  echo "$actual"
}
check "README.md's C program prints what the README says" output

printf '\nreadme: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
