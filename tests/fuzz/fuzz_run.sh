#!/usr/bin/env bash
# fuzz_run.sh - run one of the memory manager's libFuzzer targets (tests/fuzz/tests.cmake) and
# judge the run from what the fuzzer itself printed.
#   fuzz_run.sh run NAME FUZZER DIR [RUNS MAX_LEN MIN_OPS]
#     Seed 1, no corpus: RUNS (1400) inputs of up to MAX_LEN (600) bytes; the run must exit 0,
#     say "Done RUNS runs", and count at least MIN_OPS (200000) operations ("NAME_fuzz: N
#     operations in ...").  A failed check or a sanitizer report stops it with the input in
#     DIR/NAME-crash-<sha1>.
#   fuzz_run.sh must-abort NAME FUZZER DIR WANT [ALSO]
#     One input with NAME_FUZZ_BREAK set by the caller (a corruption made on purpose): the run
#     must exit non-zero with a line matching "NAME_fuzz: WANT" (and one matching ALSO, if given):
#     the proof that the checks the run above relies on can fail.
set -uo pipefail
[ $# -ge 4 ] || { echo "usage: fuzz_run.sh run|must-abort NAME FUZZER DIR [WANT [ALSO]]" >&2; exit 2; }
mode=$1 name=$2 fuzzer=$3 dir=$4
case "$mode" in
run)
  runs=${5:-1400} max_len=${6:-600} min_ops=${7:-200000}
  out=$("$fuzzer" -seed=1 -runs="$runs" -max_len="$max_len" -len_control=0 -timeout=25 \
    -artifact_prefix="$dir/$name-" -print_final_stats=1 2>&1)
  rc=$?
  # The coverage progress lines are many and say nothing a failure needs.
  printf '%s\n' "$out" | grep -v $'^#[0-9]*\t\\(NEW\\|REDUCE\\|pulse\\)'
  ops=$(printf '%s\n' "$out" | sed -n "s/^${name}_fuzz: \\([0-9]*\\) operations in .*/\\1/p")
  echo "fuzz.$name: exit status $rc, ${ops:-no} operations"
  [ "$rc" = 0 ] && grep -q "^Done $runs runs in " <<<"$out" && [ "${ops:-0}" -ge "$min_ops" ]
  ;;
must-abort)
  [ $# -ge 5 ] || { echo "fuzz_run.sh: must-abort needs WANT" >&2; exit 2; }
  want=$5 also=${6:-}
  out=$("$fuzzer" -runs=1 -artifact_prefix="$dir/$name-break-" 2>&1)
  rc=$?
  printf '%s\n' "$out"
  echo "exit status $rc"
  [ "$rc" -ne 0 ] && grep -Eq -- "${name}_fuzz: $want" <<<"$out" &&
    { [ -z "$also" ] || grep -Eq -- "$also" <<<"$out"; }
  ;;
*)
  echo "fuzz_run.sh: unknown mode '$mode'" >&2
  exit 2
  ;;
esac
