#!/usr/bin/env bash
# balloon_inflate_test.sh - the virtio balloon inflated and deflated through QEMU's monitor, seen
# from the guest (meminfo, kpageflags through page-types' table) and from QEMU (`info balloon`)
# (tests/qemu/balloon.cmake; docs/balloon.md).
#   balloon_inflate_test.sh --board B [--mode device|nodevice]
# A 256 MiB guest with -device virtio-balloon-device,free-page-reporting=on and tools/run
# --monitor.  `balloon 192` is sent to the monitor (64 MiB less: a target of 16384 pages); once the
# shell's `balloon` says 16384 pages are in: MemTotal must have fallen by exactly 65536 kB,
# MemAvailable by 60-68 MiB, `kpageflags` over all of RAM through tools/kpageflags-extract and
# tools/pagemap.py (page-types' table) must count 16384 offline frames, and `info balloon` must say
# actual=192.  One balloon frame is moved with `migrate <pfn>` (the migration core and the driver's
# migratepage): the old frame is not offline any more, the new one is, the balloon, MemTotal and
# actual unchanged.  Then `balloon 256` (and `drain`: the frames come back through the per-CPU lists,
# which MemAvailable does not count): MemTotal back to what it was, MemAvailable within 4 MiB,
# no offline frame, actual=256, and the free page reporting line still at boot.
# nodevice: the same without the device (the monitor refuses `balloon`); the meminfo check must
# fail: it is the twin that shows the check can.
# cap: `balloon 1` asks for 65280 pages, more than the guest manages: one line says it is capped,
#   the balloon takes what the allocator gives, one line says it is out of puff (and retries),
#   the shell still answers; `balloon 256` brings MemTotal back.  Each line exactly once.
# bad_used: tinymm.balloon_inject=inflate-bad-used-len, `balloon 192`: the first inflate request
#   comes back with a used length the ring refuses: one line, the device failed, the balloon's
#   pages back with the guest (MemTotal as before), reporting off.
. "$(dirname "$0")/lib.sh"
tm_init balloon_inflate_test
board="" mode=device
while [ $# -gt 0 ]; do
  case "$1" in
    --board) board=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
append=()
case "$mode" in
  device|cap) qemu=(-- -device "virtio-balloon-device,free-page-reporting=on") ;;
  bad_used) qemu=(-- -device "virtio-balloon-device,free-page-reporting=on")
    append=(--append "tinymm.balloon_inject=inflate-bad-used-len") ;;
  nodevice) qemu=() ;;
  *) tm_usage "unknown mode '$mode'" ;;
esac
[ -n "$board" ] || tm_usage "no --board"
fail() { tm_fail "$@"; }
first=0x80000
[ "$board" = qemu-virt-arm ] && first=0x40000
pages=65536		# 256 MiB of 4 KiB frames

dir=$(mktemp -d) TM_RMDIR=1
mon=$dir/monitor.sock
tm_boot "$dir" --board "$board" --mem 256M --monitor "$mon" "${append[@]}" "${qemu[@]}"
monitor() { "$TM_QEMU/qemu_monitor.py" "$mon" "$@" || fail "QEMU's monitor: $*"; }
kb() { awk -v n="$1" '$1 == n":" { print $2 }' <<<"$out"; }
meminfo() { tm_cmd meminfo; total=$(kb MemTotal); avail=$(kb MemAvailable); }
# balloon_at N: the shell's `balloon` says N pages are in (within 20 s).
balloon_at() {
  local end=$((SECONDS + 20))
  while :; do
    tm_cmd balloon
    tm_out_has "^balloon: $1 pages " && return 0
    [ $SECONDS -lt $end ] || fail "the balloon did not reach $1 pages within 20 s: $out"
    sleep 0.5
  done
}
# offline_frames: kpageflags over all of RAM -> the binary file -> page-types' table: the pages
# of every row whose flags include offline.
offline_frames() {
  local log=$dir/kpf.log
  tm_cmd "kpageflags $first $pages"
  printf '%s\n' "$out" >"$log"
  "$TM_TOP/tools/kpageflags-extract" "$log" "$dir/kpf.bin" >/dev/null || fail "kpageflags-extract failed"
  "$TM_TOP/tools/pagemap.py" -a "$first+$pages" "$dir/kpf.bin" >"$dir/page-types.txt" ||
    fail "pagemap.py failed"
  awk -F'\t' '$NF ~ /(^|,)offline(,|$)/ { n += $2 } END { print n + 0 }' "$dir/page-types.txt"
}

meminfo
total0=$total avail0=$avail
[ -n "$total0" ] && [ -n "$avail0" ] || fail "no MemTotal/MemAvailable line"
log_re='^(tinymm> )?\[ *[0-9]+\.[0-9]{6}\] virtio-balloon virtio-mmio@0x[0-9a-f]+: '
if [ "$mode" = cap ]; then
  monitor "balloon 1"
  tm_wait "${log_re}out of puff: " 1 20
  sleep 1		# retries every 200 ms: still one line each
  tm_cmd balloon
  tm_out_has '^balloon: [0-9]+ pages \([0-9]+ MiB\) inflated, target 65280 pages' || fail "balloon: $out"
  echo "balloon_inflate_test: $board: balloon 1: $(grep '^balloon: ' <<<"$out")"
  meminfo
  echo "balloon_inflate_test: $board: balloon 1: MemTotal $total0 -> $total kB"
  [ "$total" -lt $((total0 - 150000)) ] || fail "MemTotal $total kB: the balloon took less than 150 MB"
  monitor "balloon 256"
  balloon_at 0
  meminfo
  [ "$total" = "$total0" ] || fail "MemTotal $total kB after deflating, want $total0"
  TM_TIMEOUT=10 tm_poweroff 0
  con=$(tm_console)
  tm_no_complaints "$con"
  n=$(grep -Ec "${log_re}target 65280 pages is above the guest's [0-9]+; capped to [0-9]+$" <<<"$con")
  [ "$n" = 1 ] || fail "$n 'capped' lines, want exactly 1"
  n=$(grep -Ec "${log_re}out of puff: no free page for the balloon at [0-9]+ of [0-9]+ pages; retrying every 200 ms$" <<<"$con")
  [ "$n" = 1 ] || fail "$n 'out of puff' lines, want exactly 1"
  echo "balloon_inflate_test: PASS"
  exit 0
fi
if [ "$mode" = bad_used ]; then
  monitor "balloon 192"
  tm_wait "${log_re}device error: used ring len " 1 20
  balloon_at 0
  tm_cmd balloon
  tm_out_has '^balloon: 0 pages \(0 MiB\) inflated, target 0 pages, 0 isolated, device failed$' || fail "balloon: $out"
  meminfo
  [ "$total" = "$total0" ] || fail "MemTotal $total kB after the device failed, want $total0"
  tm_cmd reporting
  tm_out_has '^reporting: off' || fail "reporting still on: $out"
  TM_TIMEOUT=10 tm_poweroff 0
  con=$(tm_console)
  tm_no_complaints "$con"
  grep -Eq "${log_re}device error: used ring len [0-9]+ .*; device failed, the balloon's [0-9]+ pages go back to the guest, free page reporting off$" <<<"$con" ||
    fail "no 'device error ... device failed' line"
  echo "balloon_inflate_test: PASS"
  exit 0
fi
t0=$(date +%s%3N)
if [ "$mode" = device ]; then
  monitor "balloon 192"
  balloon_at 16384
else
  "$TM_QEMU/qemu_monitor.py" "$mon" "balloon 192"
  sleep 2
fi
ms=$(( $(date +%s%3N) - t0 ))
meminfo
echo "balloon_inflate_test: $board: balloon 192: MemTotal $total0 -> $total kB, MemAvailable $avail0 -> $avail kB (${ms} ms)"
[ $((total0 - total)) = 65536 ] || fail "MemTotal fell $((total0 - total)) kB, want 65536"
drop=$((avail0 - avail))
[ "$drop" -ge 61440 ] && [ "$drop" -le 69632 ] || fail "MemAvailable fell $drop kB, want 60-68 MiB"
off=$(offline_frames)
echo "balloon_inflate_test: $board: page-types counts $off offline frames"
[ "$off" = 16384 ] || fail "page-types counts $off offline frames, want 16384"
info=$(monitor "info balloon")
[ "$info" = "balloon: actual=192" ] || fail "QEMU's info balloon says '$info', want 'balloon: actual=192'"
# One balloon frame moved by the migration core (`migrate <pfn>`): the driver inflates the new
# frame and deflates the old one; the balloon keeps its size, MemTotal stays, the offline frame
# is the new one now.
old_pfn=$(python3 -c 'import array, sys
w = array.array("Q"); w.frombytes(open(sys.argv[1], "rb").read())
print(hex(next(p for p in range(len(w)) if w[p] >> 23 & 1)))' "$dir/kpf.bin") || fail "no offline frame in kpf.bin"
tm_cmd "migrate $old_pfn"
tm_out_has "^migrate: $old_pfn -> 0x[0-9a-f]+ \(movable" || fail "migrate $old_pfn: $out"
new_pfn=$(sed -nE "s/^migrate: $old_pfn -> (0x[0-9a-f]+) .*/\1/p" <<<"$out")
echo "balloon_inflate_test: $board: balloon frame $old_pfn migrated to $new_pfn"
tm_cmd "kpageflags $old_pfn 1"
kpf_old=$(sed -nE "s/^$old_pfn (0x[0-9a-f]+)$/\1/p" <<<"$out")
tm_cmd "kpageflags $new_pfn 1"
kpf_new=$(sed -nE "s/^$new_pfn (0x[0-9a-f]+)$/\1/p" <<<"$out")
[ -n "$kpf_old" ] && [ -n "$kpf_new" ] || fail "no kpageflags line for $old_pfn or $new_pfn"
[ $(( kpf_old >> 23 & 1 )) = 0 ] || fail "the old frame $old_pfn is still offline ($kpf_old)"
[ $(( kpf_new >> 23 & 1 )) = 1 ] || fail "the new frame $new_pfn is not offline ($kpf_new)"
tm_cmd balloon
tm_out_has '^balloon: 16384 pages \(64 MiB\) inflated, target 16384 pages, 0 isolated$' || fail "balloon: $out"
meminfo
[ $((total0 - total)) = 65536 ] || fail "MemTotal fell $((total0 - total)) kB after the migration, want 65536"
info=$(monitor "info balloon")
[ "$info" = "balloon: actual=192" ] || fail "after the migration QEMU's info balloon says '$info'"

monitor "balloon 256"
balloon_at 0
# The frames went back one by one through put_page(), so most wait on the per-CPU lists, which
# MemFree and MemAvailable do not count (as in Linux): `drain` gives them to the buddy lists.
tm_cmd drain
meminfo
echo "balloon_inflate_test: $board: balloon 256: MemTotal $total kB, MemAvailable $avail kB"
[ "$total" = "$total0" ] || fail "MemTotal $total kB after deflating, want $total0"
[ $((avail0 - avail)) -le 4096 ] && [ $((avail - avail0)) -le 4096 ] ||
  fail "MemAvailable $avail kB after deflating, want within 4 MiB of $avail0"
off=$(offline_frames)
[ "$off" = 0 ] || fail "$off offline frames after deflating"
info=$(monitor "info balloon")
[ "$info" = "balloon: actual=256" ] || fail "QEMU's info balloon says '$info', want 'balloon: actual=256'"
tm_cmd buddycheck
tm_out_has "^buddycheck: ok " || fail "buddycheck: $out"
TM_TIMEOUT=10 tm_poweroff 0
con=$(tm_console)
tm_no_complaints "$con"
grep -Eq 'virtio-balloon virtio-mmio@0x[0-9a-f]+: free page reporting on \(queue 3 ' <<<"$con" ||
  fail "no 'free page reporting on (queue 3 ...' line: reporting is not on beside inflation"
grep -q 'timed out\|device error' <<<"$con" && fail "a device error line"
echo "balloon_inflate_test: PASS"
