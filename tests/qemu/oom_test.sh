#!/usr/bin/env bash
# oom_test.sh BOARD [sleeper|spinner] - the OOM killer end to end (docs/oom.md).
# oom_test.sh BOARD: one boot runs
#   exec -b /bin/sleep 600000; meminfo; exec /bin/oom; ps; vmstat; meminfo; exec /bin/hello;
#   buddycheck; slabcheck
# and checks that
#   - /bin/oom ran (at least its "16 MiB touched" line) and was killed: exactly one
#     `Out of memory: Killed process <pid> (oom) total-vm:..kB, anon-rss:..kB, file-rss:..kB,
#     shmem-rss:0kB, UID:0 pgtables:..kB oom_score_adj:0` line, in Linux's words, whose
#     anon-rss is at least half of MemTotal (the victim was the task holding the memory) and
#     whose pid is not the sleeper's; the shell says `/bin/oom: killed by signal 9 (SIGKILL)`;
#   - the other task goes on: after the kill `ps` still lists the sleeper's pid as `sleep`;
#   - vmstat's oom_kill is exactly 1 (one victim, no second kill while it exited);
#   - the victim's memory all came back: AnonPages after equals AnonPages before (the sleeper's);
#   - the shell goes on: /bin/hello runs, buddycheck and slabcheck pass, status 1 (only the
#     killed exec failed), and no BUG (check_mm's rss-counter report), WARNING, panic, Oops or
#     unhandled-fault report anywhere.
# The virt boards boot the rootfs image as vda with 256 MiB; the RAM-disk boards (root on ram1)
# their own RAM, but the HiFive Unleashed 512 MiB instead of its 8 GiB (filling 8 GiB page by
# page under QEMU would take minutes and prove nothing more).
# oom_test.sh BOARD sleeper (a virt board, 256 MiB): the biggest task is asleep in a system
# call.  `exec -b /bin/oom -h 160` touches 160 MiB and sleeps; then `exec /bin/oom` grows until
# memory runs out: the sleeper must be the first victim (its kill line first, its pid, anon-rss
# at least 160 MiB), its sleep must end so it dies and its memory comes back, the grower then
# goes on and is killed second: oom_kill 2, AnonPages 0 kB again, both checks pass.
# oom_test.sh BOARD spinner (a virt board, 256 MiB): the same with `exec -b /bin/oom -s 160`,
# the biggest task spinning on system calls (mprotect of its 160 MiB, each call walking every
# pte; its user-mode part is a few instructions): it must die at the end of the call it is in
# when chosen (every return to user mode takes a pending kill, the system-call fast paths too),
# so its memory comes back and the grower, killed second, had grown past 160 MiB; a victim that
# did not die would be passed over after OOM_VICTIM_TIMEOUT_MS and still hold its 160 MiB.
. "$(dirname "$0")/lib.sh"
tm_init oom
[ $# = 1 ] || [ $# = 2 ] || tm_usage "usage: oom_test.sh BOARD [sleeper|spinner]"
board=$1 case=${2:-plain}
[ -f "$TM_TOP/board/$board/qemu.conf" ] || tm_usage "unknown board '$board'"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
log=$tmp/console.log
run="exec -b /bin/sleep 600000; meminfo; exec /bin/oom; ps; vmstat; meminfo; exec /bin/hello; buddycheck; slabcheck"
reject="BUG|WARNING|Kernel panic|Oops|unhandled (signal|page fault)|slabcheck: FAILED|buddycheck: FAILED"
kill_re='^Out of memory: Killed process ([0-9]+) \(oom\) total-vm:([0-9]+)kB, anon-rss:([0-9]+)kB, file-rss:([0-9]+)kB, shmem-rss:0kB, UID:0 pgtables:([0-9]+)kB oom_score_adj:0$'
if [ "$case" = sleeper ] || [ "$case" = spinner ]; then
  case $board in qemu-virt-*) ;; *) tm_usage "$case needs a virt board" ;; esac
  if [ "$case" = sleeper ]; then opt=-h said="holding 160 MiB"; else opt=-s said="spinning on 160 MiB"; fi
  run="meminfo; exec -b /bin/oom $opt 160; sleep 6000; exec /bin/oom; vmstat; meminfo; buddycheck; slabcheck"
  "$TM_CHECK" --board "$board" --rootfs --mem 256M --append "tinymm.run=$run" --status 1 \
    --timeout 240 --reject "$reject" >"$log" 2>&1
  rc=$?
  TM_LOG=$log
  [ "$rc" = 0 ] || tm_fail "the session failed (boot_check status $rc)"
  clean=$(tr -d '\r' <"$log" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //')
  holder=$(sed -nE 's|^/bin/oom: pid ([0-9]+)$|\1|p' <<<"$clean")
  [ -n "$holder" ] || tm_fail "exec -b /bin/oom $opt 160 printed no pid"
  # The holder was holding before the grower started (the shell's sleep gave it the time).
  sed -n '/^tinymm> exec \/bin\/oom$/q;p' <<<"$clean" | grep -qxF "oom: $said" ||
    tm_fail "the holder did not say '$said' before the grower started"
  kills=$(grep -E "$kill_re" <<<"$clean")
  [ "$(grep -c . <<<"$kills")" = 2 ] || tm_fail "wanted two OOM kill lines, got: $kills"
  first=$(head -n1 <<<"$kills" | sed -E "s/$kill_re/\\1/")
  first_anon=$(head -n1 <<<"$kills" | sed -E "s/$kill_re/\\3/")
  second=$(tail -n1 <<<"$kills" | sed -E "s/$kill_re/\\1/")
  second_anon=$(tail -n1 <<<"$kills" | sed -E "s/$kill_re/\\3/")
  [ "$first" = "$holder" ] || tm_fail "the first victim was pid $first, not the sleeping holder $holder"
  [ "$first_anon" -ge $((160 * 1024)) ] || tm_fail "the holder's anon-rss ${first_anon}kB < 160 MiB"
  [ "$second" != "$holder" ] || tm_fail "the holder was killed twice"
  # The holder's 160 MiB came back before the second kill: the grower got past it.
  [ "$second_anon" -gt $((160 * 1024)) ] ||
    tm_fail "the grower's anon-rss ${second_anon}kB at its kill is not above 160 MiB: the holder's memory never came back"
  grep -qxF '/bin/oom: killed by signal 9 (SIGKILL)' <<<"$clean" ||
    tm_fail "the shell did not report the grower killed by SIGKILL"
  [ "$(awk '$1 == "oom_kill" { print $2 }' <<<"$clean")" = 2 ] ||
    tm_fail "vmstat oom_kill is not 2: $(grep '^oom_kill' <<<"$clean")"
  [ "$(grep -c '^AnonPages: *0 kB$' <<<"$clean")" = 2 ] ||
    tm_fail "AnonPages not 0 kB before and after: $(grep '^AnonPages:' <<<"$clean" | tr '\n' ' ')"
  grep -q '^buddycheck: ok (0 problems)' <<<"$clean" || tm_fail "buddycheck did not pass"
  grep -q '^slabcheck: ok (0 problems)' <<<"$clean" || tm_fail "slabcheck did not pass"
  echo "oom: PASS ($board $case: holder $holder killed first with anon-rss ${first_anon}kB, then pid $second with ${second_anon}kB)"
  exit 0
fi
[ "$case" = plain ] || tm_usage "unknown case '$case' (sleeper, spinner, or none)"
case $board in
  qemu-virt-*)
    "$TM_CHECK" --board "$board" --rootfs --mem 256M --append "tinymm.run=$run" --status 1 \
      --timeout 240 --reject "$reject" >"$log" 2>&1 ;;
  *)
    # shellcheck source=/dev/null
    mem=$(. "$TM_TOP/board/$board/qemu.conf" && echo "${QEMU_MEM_DEFAULT:-256M}")
    [ "$board" = hifive-unleashed ] && mem=512M
    "$TM_CHECK" --board "$board" --mem "$mem" --append "tinymm.root=ram1 tinymm.run=$run" \
      --status 1 --timeout 400 --reject "$reject" >"$log" 2>&1 ;;
esac
rc=$?
TM_LOG=$log
[ "$rc" = 0 ] || tm_fail "the session failed (boot_check status $rc)"
clean=$(tr -d '\r' <"$log" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] //')

sleeper=$(sed -nE 's|^/bin/sleep: pid ([0-9]+)$|\1|p' <<<"$clean")
[ -n "$sleeper" ] || tm_fail "exec -b /bin/sleep printed no pid"
grep -q '^oom: 16 MiB touched$' <<<"$clean" || tm_fail "/bin/oom never got to 16 MiB"
kills=$(grep -E "$kill_re" <<<"$clean")
[ "$(grep -c . <<<"$kills")" = 1 ] ||
  tm_fail "wanted exactly one OOM kill line for oom, got: $(grep 'Out of memory' <<<"$clean")"
victim=$(sed -E "s/$kill_re/\\1/" <<<"$kills")
anon=$(sed -E "s/$kill_re/\\3/" <<<"$kills")
[ "$victim" != "$sleeper" ] || tm_fail "the OOM killer chose the sleeper (pid $sleeper)"
total=$(awk '/^MemTotal:/ { print $2; exit }' <<<"$clean")
[ -n "$total" ] && [ "$anon" -ge $((total / 2)) ] ||
  tm_fail "the victim's anon-rss ${anon}kB is not at least half of MemTotal ${total}kB"
grep -qxF '/bin/oom: killed by signal 9 (SIGKILL)' <<<"$clean" ||
  tm_fail "the shell did not report /bin/oom killed by SIGKILL"
# ps after the kill: the sleeper's row, still there.
grep -qE "^ *$sleeper +[0-9]+ .* sleep\$" <<<"$(sed -n '/^tinymm> ps$/,/^tinymm> /p' <<<"$clean")" ||
  tm_fail "the sleeper (pid $sleeper) is gone from ps after the kill"
[ "$(awk '$1 == "oom_kill" { print $2 }' <<<"$clean")" = 1 ] ||
  tm_fail "vmstat oom_kill is not 1: $(grep '^oom_kill' <<<"$clean")"
anonpages=$(awk '/^AnonPages:/ { print $2 }' <<<"$clean")
[ "$(wc -l <<<"$anonpages")" = 2 ] || tm_fail "wanted two meminfo AnonPages lines, got: $anonpages"
[ "$(head -n1 <<<"$anonpages")" = "$(tail -n1 <<<"$anonpages")" ] ||
  tm_fail "AnonPages not back after the kill: $(tr '\n' ' ' <<<"$anonpages")kB"
grep -qxF 'hello from /bin/hello' <<<"$clean" || tm_fail "/bin/hello did not run after the kill"
grep -q '^buddycheck: ok (0 problems)' <<<"$clean" || tm_fail "buddycheck did not pass"
grep -q '^slabcheck: ok (0 problems)' <<<"$clean" || tm_fail "slabcheck did not pass"
echo "oom: PASS ($board: pid $victim killed with anon-rss ${anon}kB of ${total}kB)"
