#!/usr/bin/env bash
# balloon_test.sh - free page reporting seen from the host: QEMU's resident set shrinks when the
# guest frees memory (tests/qemu/balloon.cmake; docs/page_reporting.md, "virtio-balloon").
#   balloon_test.sh --board B --mode reporting|nodevice [--mem 512M] [--window 15] [--drop 300]
# The guest boots with --mem RAM (and, in mode reporting, -device
# virtio-balloon-device,free-page-reporting=on), and `memhog 400` is typed at its shell: 400 MiB
# taken from the page allocator, every byte written and checked, all freed.  QEMU's VmRSS
# (/proc/<pid>/status) is sampled while memhog runs and read when `memhog: freed 400 MiB` is
# printed; the higher of the two is the baseline (see below), and RSS is then polled for
# --window seconds.
# reporting: RSS must fall by at least --drop MiB from the baseline within the window (the
#   reporting worker runs a pass 2 s after the frees, one every 2 s while work is left).
# nodevice: the same without the device: RSS must NOT fall that far (the check can fail).
# Both then type `memhog 400` again, which must succeed (the memory the host discarded is
# usable and reads back what is written), and `poweroff 0`: exit status 0.
# The figures are printed: balloon_test: <board> <mode>: RSS ... MiB -> lowest ... MiB ...
. "$(dirname "$0")/lib.sh"
tm_init balloon_test
board="" mode="" mem=512M window=15 drop=300
while [ $# -gt 0 ]; do
  case "$1" in
    --board) board=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --drop) drop=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
case "$mode" in
  reporting) qemu=(-- -device "virtio-balloon-device,free-page-reporting=on") ;;
  nodevice) qemu=() ;;
  *) tm_usage "unknown mode '$mode'" ;;
esac

dir=$(mktemp -d) TM_RMDIR=1
fail() { tm_fail "$@"; }
tm_boot "$dir" --board "$board" --mem "$mem" "${qemu[@]}"
qpid=$(tm_qemu_pid) || exit 1
rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$qpid/status" 2>/dev/null; }
lines() { tm_count "$1"; }
wait_for() { tm_wait "$@"; }
now_ms() { date +%s%3N; }

tm_type 'memhog 400'
# The baseline is the RSS memhog built up: its peak, sampled while it runs, or the value at its
# `freed` line if higher.  Not just the latter: memhog frees block by block after checking each,
# and on a loaded host that can take longer than the reporting worker's 2 s delay, so passes may
# already have handed some of the freed memory back when the line appears (seen: 189 MiB at the
# line after a 450 MiB peak, with 3 boards and 5 other QEMUs on 2 CPUs).
peak=0 end=$((SECONDS + 30))
while [ "$(lines '^memhog: freed 400 MiB$')" -lt 1 ]; do
  r=$(rss_kib)
  [ -n "$r" ] || fail "QEMU exited while memhog ran"
  [ "$r" -gt "$peak" ] && peak=$r
  [ $SECONDS -lt $end ] || fail "no 'memhog: freed 400 MiB' within 30 s"
  sleep 0.05
done
at_line=$(rss_kib)
[ -n "$at_line" ] || fail "cannot read VmRSS of pid $qpid"
base=$(( at_line > peak ? at_line : peak ))
t0=$(now_ms) low=$base low_ms=0 hit_ms=""
while [ $(( $(now_ms) - t0 )) -lt $((window * 1000)) ]; do
  r=$(rss_kib)
  [ -n "$r" ] || fail "QEMU exited while its RSS was watched"
  if [ "$r" -lt "$low" ]; then
    low=$r low_ms=$(( $(now_ms) - t0 ))
  fi
  if [ $(( (base - low) / 1024 )) -ge "$drop" ]; then
    hit_ms=$low_ms
    # Reporting: done as soon as it is shown.  No device: keep watching the whole window.
    [ "$mode" = reporting ] && break
  fi
  sleep 0.2
done
fell=$(( (base - low) / 1024 ))
figure="RSS peak $((peak / 1024)) MiB, $((at_line / 1024)) MiB at 'memhog: freed' -> lowest $((low / 1024)) MiB"
figure="$figure after $((low_ms / 1000)).$(( low_ms % 1000 / 100 )) s (fell $fell MiB, needed $drop within $window s)"
echo "balloon_test: $board $mode: $figure"
tm_type reporting
tm_type 'memhog 400'
wait_for '^memhog: (freed 400 MiB|.*wrong|only )' 2 30
after=$(rss_kib)
TM_TIMEOUT=10 tm_poweroff 0
tm_console
out=$(tm_console)
echo "balloon_test: $board $mode: $figure; RSS after the second memhog $((after / 1024)) MiB"
[ "$(lines '^memhog: freed 400 MiB$')" = 2 ] || fail "the second memhog 400 failed: the memory is not usable"
! grep -Eq -- 'BUG|panic|Unhandled|Bad page|timed out|device error|reads back wrong' <<<"$out" ||
  fail "an error line was printed"
case "$mode" in
  reporting)
    grep -Eq -- '^\[ *[0-9.]+\] virtio-balloon virtio-mmio@0x[0-9a-f]+: free page reporting on \(queue 3 ' <<<"$out" ||
      fail "no 'free page reporting on (queue 3 ...' line at boot"
    [ -n "$hit_ms" ] || fail "RSS fell $fell MiB within $window s, less than $drop MiB: nothing went back to the host"
    ;;
  nodevice)
    ! grep -q 'virtio-balloon' <<<"$out" || fail "a balloon line without a balloon device"
    [ -z "$hit_ms" ] || fail "RSS fell $fell MiB without a balloon device: the test cannot tell"
    ;;
esac
echo "balloon_test: PASS"
