#!/usr/bin/env bash
# swap_lib.sh - what the swap tests share (swap_test.sh on the virt boards, swap_sd_test.sh on
# the Orange Pi PC and the HiFive Unleashed): reading meminfo's swap lines and vmstat, the
# drained check, waiting for tasks to be gone, a command that must not be refused, an area
# listed by `swaps`.  Sourced after lib.sh (tm_cmd, $out).
# shellcheck disable=SC2154  # $out is lib.sh's: the last command's output

# field NAME: the number after "NAME" (meminfo "Name:" or vmstat "name") in $out, or "".
field() { awk -v k="$1" '$1 == k { print $2; exit }' <<<"$out"; }
# meminfo_swap: meminfo, its SwapTotal and SwapFree in $swap_total, $swap_free (kB).
meminfo_swap() {
  tm_cmd meminfo
  swap_total=$(field SwapTotal:) swap_free=$(field SwapFree:)
  [ -n "$swap_total" ] && [ -n "$swap_free" ] && [ -n "$(field SwapCached:)" ] ||
    tm_fail "meminfo lacks SwapTotal:, SwapFree: or SwapCached:"
}
# wait_gone PID...: every task PID has left `ps` (within 60 s).  A background anonhog prints
# "all ok" before it exits; until it is gone its last pages (the stack, zapped last) are still
# counted, so the leak checks wait for this first (AnonPages 4 kB seen once).
wait_gone() {
  local end=$((SECONDS + 60)) p left
  while :; do
    tm_cmd ps
    left=
    for p in "$@"; do grep -Eq "^ *$p " <<<"$out" && left="$left $p"; done
    [ -z "$left" ] && return 0
    [ $SECONDS -lt $end ] || tm_fail "task(s)$left still in ps 60 s after saying all ok"
    tm_cmd "sleep 200"
  done
}
# swap_drained WHEN: SwapFree equals SwapTotal again, or the slots still used are all the swap
# cache's (a few tries, 300 ms apart; a slot held by anything else is a leak).
swap_drained() {
  local cached
  for _ in 1 2 3 4 5; do
    meminfo_swap
    cached=$(field SwapCached:)
    # Every slot free, or held only by the swap cache: a folio whose write was still in flight
    # when its task exited keeps its slot until reclaim or swapoff frees it (v6.10's too).
    [ "$swap_free" = "$swap_total" ] && return 0
    [ -n "$cached" ] && [ $((swap_total - swap_free)) -le "$cached" ] && return 0
    tm_cmd "sleep 300"
  done
  tm_fail "SwapFree ${swap_free} kB is not SwapTotal ${swap_total} kB less SwapCached ${cached:-?} kB: slots leaked ($1)"
}
# ok_cmd CMD: CMD printed none of its "cmd: " refusal lines.
ok_cmd() {
  tm_cmd "$1"
  ! tm_out_has "^(\\[ *[0-9.]+\\] )?${1%% *}: " || tm_fail "'$1' was refused: $out"
}
# in_swaps DEV: `swaps` lists /dev/DEV (columns padded with blanks or tabs); $swaps_line is its line.
in_swaps() {
  tm_cmd swaps
  swaps_line=$(grep -E "^/dev/$1[[:space:]]" <<<"$out")
  [ -n "$swaps_line" ]
}
