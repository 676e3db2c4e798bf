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
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
board="" mode="" mem=512M window=15 drop=300
while [ $# -gt 0 ]; do
  case "$1" in
    --board) board=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --drop) drop=$2; shift 2 ;;
    *) echo "balloon_test: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$mode" in
  reporting) qemu=(-- -device virtio-balloon-device,free-page-reporting=on) ;;
  nodevice) qemu=() ;;
  *) echo "balloon_test: unknown mode '$mode'" >&2; exit 2 ;;
esac

dir=$(mktemp -d)
pid=""
cleanup() {
  # Only the QEMU this script started, by its pid.
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  exec 3>&- 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
fail() {
  tr -d '\r' <"$dir/raw"
  echo "balloon_test: FAIL: $*"
  exit 1
}

# The console's input is a FIFO held open read-write here (so opening it never blocks and QEMU
# never sees end-of-file); what we type goes in through fd 3.
mkfifo "$dir/in" || { echo "balloon_test: cannot make a FIFO"; exit 1; }
exec 3<>"$dir/in"
"$top/tools/run" --board "$board" --mem "$mem" "${qemu[@]}" <&3 >"$dir/raw" 2>&1 &
pid=$!
# tools/run execs QEMU, so $! is QEMU itself; if a wrapper ever stays in between, take its
# qemu-system-* child.
qpid=""
for _ in $(seq 1 100); do
  kill -0 "$pid" 2>/dev/null || fail "QEMU exited at start-up"
  for p in "$pid" $(ps -o pid= --ppid "$pid" 2>/dev/null); do
    case "$(cat "/proc/$p/comm" 2>/dev/null)" in qemu-system*) qpid=$p ;; esac
  done
  [ -n "$qpid" ] && break
  sleep 0.1
done
[ -n "$qpid" ] || fail "no qemu-system process found under pid $pid"

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$qpid/status" 2>/dev/null; }
lines() { tr -d '\r' <"$dir/raw" | grep -Ec -- "$1"; }
# wait_for REGEX COUNT SECONDS: until COUNT lines match (QEMU still running), else fail.
wait_for() {
  local end=$((SECONDS + $3))
  while [ "$(lines "$1")" -lt "$2" ]; do
    kill -0 "$qpid" 2>/dev/null || fail "QEMU exited while waiting for '$1'"
    [ $SECONDS -lt $end ] || fail "no '$1' within $3 s"
    sleep 0.05
  done
}
now_ms() { date +%s%3N; }

wait_for '^tinymm> $' 1 20
printf 'memhog 400\r' >&3
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
printf 'reporting\r' >&3
printf 'memhog 400\r' >&3
wait_for '^memhog: (freed 400 MiB|.*wrong|only )' 2 30
after=$(rss_kib)
printf 'poweroff 0\r' >&3
for _ in $(seq 1 100); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -0 "$pid" 2>/dev/null && fail "no power-off within 10 s"
wait "$pid"
rc=$?
pid=""
tr -d '\r' <"$dir/raw"
out=$(tr -d '\r' <"$dir/raw")
echo "balloon_test: $board $mode: $figure; RSS after the second memhog $((after / 1024)) MiB"
[ "$rc" = 0 ] || fail "exit status $rc, expected 0"
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
