#!/usr/bin/env bash
# user_ram.sh BOARD [--hello-status N] - the shell's `exec` on a board with no disk driver, booted
# with tinymm.root=ram1: the kernel's built-in copy of build/BOARD/rootfs.img (docs/brd.md).
# One boot runs `exec /bin/hello a b; exec /bin/crash null; exec /bin/crash illegal; exec
# /bin/memtest 64 4; exec /bin/sysfuzz 1 20000; meminfo; buddycheck; slabcheck`, and each
# command's own lines must say:
#   hello            `hello from /bin/hello a b` and `/bin/hello: exited with status 0`
#   crash null       `/bin/crash: killed by signal 11 (SIGSEGV)`
#   crash illegal    `/bin/crash: killed by signal 4 (SIGILL)`
#   memtest          `memtest: all ok`, status 0; sysfuzz its summary line, status 0
#   meminfo          `AnonPages: 0 kB` (every task's anonymous memory given back)
#   buddycheck, slabcheck   `ok (0 problems)`
# --hello-status N: one boot runs hello alone and wants status N from it: with N != 0 the check
# must fail (the test user_ram.check_catches_wrong_status; hello alone, as the rest of the
# session cannot change that check's verdict).
# user_ram.sh BOARD forkcow: one boot runs `/bin/forkcow hold` with two `pagemap`s
# (tests/qemu/forkcow_hold.sh: the page shared while the child lives, the parent's own again
# after, the same pfn), then `exec /bin/forkcow 8; sleep 200; meminfo; buddycheck; slabcheck`
# (docs/fork.md): forkcow's ok lines and status 0, then AnonPages 0 kB (its orphaned grandchild
# is gone by then) and both checks ok.
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/qemu/forkcow_hold.sh
. "$(dirname "$0")/forkcow_hold.sh"
tm_init user_ram
[ $# = 1 ] || [ $# = 2 ] || [ $# = 3 ] || tm_usage "usage: user_ram.sh BOARD [--hello-status N | forkcow]"
board=$1 hello_status=0 case=exec
if [ $# = 2 ]; then
  [ "$2" = forkcow ] || tm_usage "usage: user_ram.sh BOARD [--hello-status N | forkcow]"
  case=forkcow
fi
if [ $# = 3 ]; then
  [ "$2" = --hello-status ] || tm_usage "usage: user_ram.sh BOARD [--hello-status N]"
  hello_status=$3 case=hello
fi
[ -f "$TM_TOP/board/$board/qemu.conf" ] || tm_usage "unknown board '$board'"
# shellcheck source=/dev/null
mem=$(. "$TM_TOP/board/$board/qemu.conf" && echo "${QEMU_MEM_DEFAULT:-256M}")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
log=$tmp/console.log
run="exec /bin/hello a b; exec /bin/crash null; exec /bin/crash illegal; exec /bin/memtest 64 4; exec /bin/sysfuzz 1 20000; meminfo; buddycheck; slabcheck"
# status 1: the crashes fail their commands, and the session goes on to the checks.
status=1
if [ "$case" = forkcow ]; then
  run="$forkcow_hold; exec /bin/forkcow 8; sleep 200; meminfo; buddycheck; slabcheck"
  status=0
elif [ "$case" = hello ]; then
  run="exec /bin/hello a b" status=0
fi
"$TM_CHECK" --board "$board" --mem "$mem" --append "tinymm.root=ram1 tinymm.run=$run" --status $status \
  --timeout 90 --expect "\\] VFS: Mounted root \\(ext2 filesystem\\) on device ram1\\.$" \
  --reject "BUG|WARNING|Kernel panic|Oops" >"$log" 2>&1
rc=$?
TM_LOG=$log
[ "$rc" = 0 ] || tm_fail "the session failed (boot_check status $rc)"

# What one command printed: the lines between its echo and the next prompt.
said() { tr -d '\r' <"$log" | sed -n "/^tinymm> ${1//\//\\/}\$/,/^tinymm> /p" | sed '1d;$d'; }
want() {	# want COMMAND LINE: COMMAND's output holds LINE
  local got
  got=$(said "$1")
  grep -qxF "$2" <<<"$got" || tm_fail "$1: wanted '$2', the shell said: $got"
}
if [ "$case" = forkcow ]; then
  for l in 'forkcow: one child ok' 'forkcow: 8 children ok' 'forkcow: statuses ok' \
           'forkcow: own pages again ok' 'forkcow: all ok' '/bin/forkcow: exited with status 0'; do
    want 'exec /bin/forkcow 8' "$l"
  done
  forkcow_hold_check "$(tr -d '\r' <"$log")"
  want meminfo 'AnonPages:             0 kB'
  want buddycheck 'buddycheck: ok (0 problems)'
  want slabcheck 'slabcheck: ok (0 problems)'
  echo "user_ram: PASS ($board forkcow)"
  exit 0
fi
want 'exec /bin/hello a b' 'hello from /bin/hello a b'
want 'exec /bin/hello a b' "/bin/hello: exited with status $hello_status"
if [ "$case" = hello ]; then
  echo "user_ram: PASS ($board hello, status $hello_status)"
  exit 0
fi
want 'exec /bin/crash null' '/bin/crash: killed by signal 11 (SIGSEGV)'
want 'exec /bin/crash illegal' '/bin/crash: killed by signal 4 (SIGILL)'
want 'exec /bin/memtest 64 4' 'memtest: all ok'
want 'exec /bin/memtest 64 4' '/bin/memtest: exited with status 0'
want 'exec /bin/sysfuzz 1 20000' '/bin/sysfuzz: exited with status 0'
said 'exec /bin/sysfuzz 1 20000' | grep -qE '^sysfuzz: 20000 calls, [0-9]+ errors' ||
  tm_fail "sysfuzz: no summary line"
want meminfo 'AnonPages:             0 kB'
want buddycheck 'buddycheck: ok (0 problems)'
want slabcheck 'slabcheck: ok (0 problems)'
echo "user_ram: PASS ($board)"
