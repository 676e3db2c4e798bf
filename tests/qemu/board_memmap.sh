#!/usr/bin/env bash
# board_memmap.sh BOARD MEM [boot_check.sh options...] - a real board's memory map: boot with
# tinymm.run="memmap; buddyinfo; meminfo" through boot_check.sh --memcheck (the regions add up
# to exactly MEM, MemTotal is their usable part) plus the caller's --expect lines, then check
# that buddyinfo's free blocks add up to MemFree (every free page is in the buddy lists: the
# per-CPU lists are empty before the first allocation of the shell).
. "$(dirname "$0")/lib.sh"
tm_init board_memmap
[ $# -ge 2 ] || tm_usage "board_memmap.sh BOARD MEM [boot_check.sh options...]"
board=$1 mem=$2
shift 2
out=$("$(dirname "$0")/boot_check.sh" --board "$board" --mem "$mem" --timeout 40 \
  --append "tinymm.run=memmap; buddyinfo; meminfo" --memcheck "$@")
rc=$?
printf '%s\n' "$out"
[ "$rc" = 0 ] || tm_fail "boot_check.sh failed (status $rc)"
free=$(sed -nE 's/^MemFree: +([0-9]+) kB$/\1/p' <<<"$out")
pages=$(awk '/^Node [0-9]+, zone/ { for (i = 5; i <= NF; i++) s += $i * 2 ^ (i - 5) } END { print s + 0 }' <<<"$out")
[ -n "$free" ] || tm_fail "no MemFree line"
[ $(( pages * 4 )) = "$free" ] || tm_fail "buddyinfo holds $pages free pages ($(( pages * 4 )) kB), MemFree is $free kB"
echo "board_memmap: PASS: buddyinfo $pages free pages = MemFree $free kB"
