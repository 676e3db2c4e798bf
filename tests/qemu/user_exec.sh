#!/usr/bin/env bash
# user_exec.sh BOARD CASE - the shell's `exec` end to end on a virt board booted with the root
# filesystem image (boot_check.sh --rootfs: build/BOARD/rootfs.img as vda, tinymm.root=vda):
#   errors  exec of a missing file, a directory (/bin, /mnt) and no path: each fails with its
#           words (`/bin/nope: No such file or directory`, `/bin: Permission denied`, the usage)
#   hello   `exec /bin/hello a b` prints `hello from /bin/hello a b` and `exited with status 0`
#           (twice, the second without arguments); meminfo's AnonPages is back to its value
#           before; buddycheck and slabcheck pass
#   crash   each /bin/crash mode is killed by its signal (null, write-text, exec-data, stack:
#           SIGSEGV; illegal: SIGILL) and the kernel goes on: AnonPages back, buddycheck and
#           slabcheck pass, `version` answers
. "$(dirname "$0")/lib.sh"
tm_init user_exec
[ $# = 2 ] || tm_usage "usage: user_exec.sh BOARD errors|hello|crash"
board=$1 case=$2
img=$TM_TOP/build/$board/rootfs.img
[ -f "$img" ] || tm_fail "no $img (build it: make all)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
log=$tmp/console.log
modes="null write-text exec-data stack illegal"
case $case in
  errors)
    run="exec /bin/nope; exec /bin; exec /mnt; exec"
    status=1
    checks=(--expect '^/bin/nope: No such file or directory$' --expect '^/bin: Permission denied$'
            --expect '^/mnt: Permission denied$' --expect '^exec: usage: exec \[-b\] <path> \[args\.\.\.\]$') ;;
  hello)
    run="meminfo; exec /bin/hello a b; exec /bin/hello; meminfo; buddycheck; slabcheck"
    status=0
    checks=(--expect '^hello from /bin/hello a b$' --expect '^hello from /bin/hello$'
            --expect '^/bin/hello: exited with status 0$') ;;
  crash)
    run="meminfo"
    for m in $modes; do run="$run; exec /bin/crash $m"; done
    run="$run; meminfo; buddycheck; slabcheck; version"
    status=1			# the crashes fail their commands
    checks=(--expect "^tinymm [^ ]+ \\($board, ") ;;
  *) tm_usage "unknown case '$case' (errors, hello, crash)" ;;
esac
"$TM_CHECK" --board "$board" --rootfs --append "tinymm.run=$run" --status "$status" --timeout 60 \
  --expect "\\] VFS: Mounted root \\(ext2 filesystem\\) on device vda\\.$" "${checks[@]}" \
  --reject "BUG|WARNING|Kernel panic|Oops|slabcheck: FAILED|buddycheck: FAILED" >"$log" 2>&1
rc=$?
TM_LOG=$log
[ "$rc" = 0 ] || tm_fail "the session failed (boot_check status $rc)"

# What one command printed: the lines between its echo and the next prompt.
said() { tr -d '\r' <"$log" | sed -n "/^tinymm> $1\$/,/^tinymm> /p" | sed '1d;$d'; }

if [ "$case" = crash ]; then
  for m in $modes; do
    case $m in illegal) want='4 (SIGILL)' ;; *) want='11 (SIGSEGV)' ;; esac
    got=$(said "exec \\/bin\\/crash $m")
    grep -qxF "/bin/crash: killed by signal $want" <<<"$got" ||
      tm_fail "crash $m: wanted '/bin/crash: killed by signal $want', the shell said: $got"
  done
fi
if [ "$case" != errors ]; then
  grep -q '^buddycheck: ok (0 problems)' <(tr -d '\r' <"$log") || tm_fail "buddycheck did not pass"
  grep -q '^slabcheck: ok (0 problems)' <(tr -d '\r' <"$log") || tm_fail "slabcheck did not pass"
  anon=$(tr -d '\r' <"$log" | awk '/^AnonPages:/ { print $2 }')
  [ "$(wc -l <<<"$anon")" = 2 ] || tm_fail "wanted two meminfo AnonPages lines, got: $anon"
  [ "$(head -n1 <<<"$anon")" = "$(tail -n1 <<<"$anon")" ] ||
    tm_fail "AnonPages not back after the programs: $(tr '\n' ' ' <<<"$anon")kB"
fi
echo "user_exec: PASS ($board $case)"
