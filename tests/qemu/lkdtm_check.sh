#!/usr/bin/env bash
# lkdtm_check.sh - boot a board with `tinymm.run=lkdtm TEST` and check that the test trapped as it
# must (kernel/lkdtm.c; docs/mmu.md, "lkdtm"):
#     lkdtm_check.sh --board B --test TEST --report REGEX [--panic WHY] [--timeout S]
# - exit status 1 after "Kernel panic - not syncing: WHY" (default "Fatal exception": a trap,
#   not a returned command, which would also give 1; EXHAUST_STACK's is "Kernel stack overflow");
# - LKDTM's own line "lkdtm: Performing direct entry TEST";
# - no "lkdtm: FAIL" line (a test whose access returned prints one: "FAIL: survived bad write",
#   "FAIL: func returned", ...);
# - a line matching REGEX, the trap report, after the last "lkdtm: attempting bad ... at ADDR"
#   line; "@ADDR@" in REGEX stands for that ADDR, so the report must name the address LKDTM
#   attacked (the two print it alike: 0x and the pointer's width).
# Boots through boot_check.sh, whose console is printed; a failure ends in "lkdtm_check: FAIL: why".
. "$(dirname "$0")/lib.sh"
tm_init lkdtm_check
board="" test="" report="" panic="Fatal exception" timeout=10
while [ $# -gt 0 ]; do
  case "$1" in
    --board) board=$2; shift 2 ;;
    --test) test=$2; shift 2 ;;
    --report) report=$2; shift 2 ;;
    --panic) panic=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
[ -n "$board" ] && [ -n "$test" ] && [ -n "$report" ] || tm_usage "need --board, --test and --report"

out=$("$TM_CHECK" --board "$board" --append "tinymm.run=lkdtm $test" --status 1 --timeout "$timeout" \
  --expect "lkdtm: Performing direct entry $test$" \
  --expect "Kernel panic - not syncing: $panic$" --reject "lkdtm: FAIL")
rc=$?
printf '%s\n' "$out"
[ "$rc" = 0 ] || tm_fail "boot_check failed (above)"

# The report must come after the last LKDTM line naming an address, and name that address.
attempt=$(grep -nE 'lkdtm: attempting bad .* at 0x[0-9a-f]+$' <<<"$out" | tail -n1)
if [[ $report == *@ADDR@* ]]; then
  [ -n "$attempt" ] || tm_fail "no 'lkdtm: attempting bad ... at <address>' line"
  addr=${attempt##* }
  report=${report//@ADDR@/$addr}
fi
after=${attempt%%:*}
found=$(tail -n +"$(( ${after:-0} + 1 ))" <<<"$out" | grep -E -- "$report" | head -n1)
[ -n "$found" ] || tm_fail "no trap report matching '$report' after the LKDTM line"
echo "lkdtm_check: PASS: $test on $board: ${found#*] }"
