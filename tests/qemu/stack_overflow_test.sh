#!/usr/bin/env bash
# stack_overflow_test.sh BOARD - `fault stack` in the shell thread overflows its vmalloc stack
# into the guard page below it (tests/qemu/sched.cmake; docs/kernel-core.md, "Thread stacks").
# Checks: exit status 1; the report in Linux's words (handle_bad_stack's three lines, ARM's die
# line or RISC-V's trap line, `Kernel panic - not syncing: Kernel stack overflow`); the thread named (`Comm: shell`);
# the "Task stack" range equal to the one `fault stack` announced for the shell thread; the
# faulting address inside the page just below that stack; and no other complaint (no second
# trap, no canary panic, no BUG or WARNING, no "Fatal exception").
. "$(dirname "$0")/lib.sh"
tm_init stack_overflow_test
[ $# = 1 ] || tm_usage "usage: stack_overflow_test.sh BOARD"
board=$1
fail() { tm_fail "$@"; }
# The die() line is ARM's (arch/arm/traps.c); RISC-V's report prints the trap instead.
arch_line="Internal error: kernel stack overflow: 0 \\[#1\\] ARM$"
[ "$board" = qemu-virt-arm ] || arch_line="Unhandled trap: store/AMO page fault at 0x[0-9a-f]+, sp 0x[0-9a-f]+$"
out=$("$TM_CHECK" --board "$board" --timeout 10 --status 1 --append "tinymm.run=fault stack" \
  --expect "^fault: stack: recursing in 'shell' \\(pid [0-9]+\\), stack \\[0x[0-9a-f]+-0x[0-9a-f]+\\), guard page 0x[0-9a-f]+$" \
  --expect "Insufficient stack space to handle exception!$" \
  --expect "Task stack: +\\[0x[0-9a-f]+\\.\\.0x[0-9a-f]+\\]$" \
  --expect "Overflow stack: +\\[0x[0-9a-f]+\\.\\.0x[0-9a-f]+\\]$" \
  --expect "$arch_line" \
  --expect "CPU: 0 PID: [0-9]+ Comm: shell$" \
  --expect "Kernel panic - not syncing: Kernel stack overflow$" \
  --reject "BUG|WARNING:|Bad page|Fatal exception|inside the trap handler|canary|returned without a trap")
rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || fail "boot_check failed"
# The range `fault stack` announced, the one the report printed, and the faulting address.
announced=$(sed -nE "s/^fault: stack: recursing in 'shell' .*, stack \\[(0x[0-9a-f]+)-(0x[0-9a-f]+)\\).*/\\1 \\2/p" <<<"$out")
reported=$(sed -nE 's/.*Task stack: +\[(0x[0-9a-f]+)\.\.(0x[0-9a-f]+)\]$/\1 \2/p' <<<"$out")
addr=$(sed -nE -e 's/.*Unhandled exception: data abort: translation fault \(level [23]\) on write at (0x[0-9a-f]+)$/\1/p' \
  -e 's/.*Unhandled trap: store\/AMO page fault at (0x[0-9a-f]+), sp .*/\1/p' <<<"$out")
[ -n "$announced" ] && [ -n "$reported" ] || fail "no stack range announced or reported"
[ "$announced" = "$reported" ] || fail "report's task stack '$reported' is not the shell's '$announced'"
[ "$(wc -l <<<"$addr")" = 1 ] && [ -n "$addr" ] || fail "not exactly one write fault reported: '$addr'"
lo=${reported%% *}
(( addr < lo && addr >= lo - 4096 )) ||
  fail "fault address $addr is not in the guard page [$(printf '%#x' $((lo - 4096))), $lo) below the stack"
[ "$(grep -c 'Insufficient stack space' <<<"$out")" = 1 ] || fail "more than one overflow report"
echo "stack_overflow_test: ok: $board, stack $reported, write at $addr in the guard page"
