# migtest_lib.sh - starting and stopping /bin/migtest (user/migtest.c) from a test that drives
# the shell (migrate_test.sh, compaction_user_test.sh).  Sourced after lib.sh (tm_cmd, $out).
# shellcheck shell=bash
# shellcheck disable=SC2154  # $out is lib.sh's: the last command's output
# shellcheck disable=SC2034  # $pid and $gens are for the script that sources this one

# migtest_start [-s PAGES] SECONDS: migtest on /mnt/m in the background, stopped by /mnt/stop;
# its pid in $pid once it said "ready" (within 90 s).
migtest_start() {
  tm_cmd "exec -b /bin/migtest $* /mnt/stop"
  pid=$(sed -n 's|^/bin/migtest: pid \([1-9][0-9]*\)$|\1|p' <<<"$out")
  [ -n "$pid" ] || tm_fail "exec -b printed no '/bin/migtest: pid <n>' line"
  tm_wait "migtest: ready$" 1 90
}

# migtest_stop: the stop file written; migtest must say "0 bad words: ok" (its last word before
# exit(0), said after its child's status was checked) and then leave `ps` (it is zapped after)
# within 60 s.  Its generation count in $gens.
migtest_stop() {
  local end=$((SECONDS + 60))
  tm_cmd "fwrite /mnt/stop 0 1 1"
  tm_wait "migtest: [0-9]+ generations, [0-9]+ bad words: (ok|FAIL)$" 1 120
  tm_console | grep -q "migtest: [1-9][0-9]* generations, 0 bad words: ok$" ||
    tm_fail "migtest: $(tm_console | grep 'migtest: .*FAIL' | head -n 2)"
  while tm_cmd ps; grep -Eq "^ *$pid " <<<"$out"; do
    [ $SECONDS -lt $end ] || tm_fail "migtest still in ps 60 s after saying ok"
    tm_cmd "sleep 200"
  done
  gens=$(tm_console | sed -n 's/.*migtest: \([0-9]*\) generations, 0 bad words: ok$/\1/p' | tail -n 1)
}
