#!/usr/bin/env bash
# kcore_uptime.sh BOARD OPTIONS MS [boot_check options...] - `uptime` and `sleep` at the shell
# (tests/qemu/kcore.cmake).  Boots with "OPTIONS tinymm.run=uptime" (OPTIONS - for none; MS - for
# one uptime) or "OPTIONS tinymm.run=uptime; sleep MS; uptime", passes the remaining options on
# to boot_check.sh, and checks that every `uptime` printed exactly one line "up <s>.<6 digits>"
# right after its prompt, that no other line looks like one, and (with MS) that the second
# uptime is at least MS ms and less than 2 s after the first.
. "$(dirname "$0")/lib.sh"
tm_init kcore_uptime
[ $# -ge 3 ] || tm_usage "usage: kcore_uptime.sh BOARD OPTIONS MS [boot_check options...]"
check=$TM_CHECK board=$1 opts=$2 ms=$3
shift 3
[ "$opts" = - ] && opts=""
fail() { tm_fail "$@"; }
if [ "$ms" = - ]; then
  run="uptime" want=1
else
  run="uptime; sleep $ms; uptime" want=2
fi
out=$("$check" --board "$board" --timeout 10 --append "${opts:+$opts }tinymm.run=$run" "$@")
rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || fail "boot_check failed"
# Every line that looks like uptime's output, and every one that follows an uptime prompt.
all=$(printf '%s\n' "$out" | grep -Ec '^up ')
good=$(printf '%s\n' "$out" | grep -Ec '^up [0-9]+\.[0-9]{6}$')
after=$(printf '%s\n' "$out" | awk 'p { print } { p = ($0 == "tinymm> uptime") }' |
  grep -Ec '^up [0-9]+\.[0-9]{6}$')
[ "$all" = "$want" ] || fail "$all lines begin with 'up ', expected $want"
[ "$good" = "$want" ] || fail "$good lines match ^up [0-9]+\\.[0-9]{6}\$, expected $want"
[ "$after" = "$want" ] || fail "only $after of the $want uptime prompts are followed by their line"
[ "$ms" = - ] && { echo "kcore_uptime: PASS"; exit 0; }
# shellcheck disable=SC2046  # the two uptimes' seconds and microseconds, split into $1..$4
set -- $(printf '%s\n' "$out" | sed -n 's/^up \([0-9]*\)\.\([0-9]\{6\}\)$/\1 \2/p')
# In microseconds; awk, because the fraction has leading zeros that sh would read as octal.
d=$(awk -v s1="$1" -v u1="$2" -v s2="$3" -v u2="$4" \
  'BEGIN { printf "%d", (s2 * 1000000 + u2) - (s1 * 1000000 + u1) }')
echo "kcore_uptime: the uptimes are $d us apart around 'sleep $ms'"
[ "$d" -ge $(( ms * 1000 )) ] || fail "$d us is less than the $ms ms slept"
[ "$d" -lt 2000000 ] || fail "$d us is 2 s or more for a $ms ms sleep"
echo "kcore_uptime: PASS"
