#!/usr/bin/env bash
# tests/lint/shellcheck.sh [--selftest] - shellcheck (Debian's package) over every shell script in tests/,
# tools/ and board/ (the image recipes), found by name (*.sh) or by a sh/bash first line, so a new script is never left out.
# Settings: .shellcheckrc at the top of the tree.  The scripts' count and names are printed.
# --selftest: the check itself: a script with two real bugs (an unquoted variable that splits, a
# `cd` whose failure is ignored) must make shellcheck fail and name both codes.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v shellcheck >/dev/null ||
  { echo "shellcheck.sh: shellcheck is not installed (tools/install-deps installs it)"; exit 1; }

if [ "${1:-}" = --selftest ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # shellcheck disable=SC2016  # the $1 and $f are the bad script's, written as they are
  printf '#!/bin/sh\nf=$1\ncd $f\nrm -f *.o\n' >"$tmp/bad.sh"
  out=$(cd "$top" && shellcheck "$tmp/bad.sh" 2>&1)
  rc=$?
  printf '%s\n' "$out"
  [ "$rc" != 0 ] || { echo "shellcheck.sh: FAIL: a script with bugs passed"; exit 1; }
  for code in SC2086 SC2164; do
    grep -q "$code" <<<"$out" || { echo "shellcheck.sh: FAIL: $code not reported"; exit 1; }
  done
  echo "shellcheck.sh: the bad script fails (exit $rc) with SC2086 and SC2164, as it must"
  exit 0
fi

cd "$top" || exit 1
# The tree's files (tracked, or new and not ignored); without git, every file below the three.
files() { git ls-files -co --exclude-standard tests tools board 2>/dev/null || find tests tools board -type f; }
mapfile -t scripts < <(files | sort -u | while read -r f; do
  case "$f" in
    *.sh) echo "$f" ;;
    *.py|*.c|*.h|*.cmake|*.dts*|*.md|*.log|*.txt) ;;
    *) head -n1 "$f" 2>/dev/null | grep -Eq '^#!.*\b(ba)?sh\b' && echo "$f" ;;
  esac
done)
[ ${#scripts[@]} -gt 10 ] || { echo "shellcheck.sh: FAIL: only ${#scripts[@]} scripts found"; exit 1; }
echo "shellcheck.sh: ${#scripts[@]} scripts: ${scripts[*]}"
shellcheck "${scripts[@]}" || { echo "shellcheck.sh: FAIL"; exit 1; }
echo "shellcheck.sh: PASS"
