#!/usr/bin/env bash
# writeback_test.sh - writes through the page cache reaching a real virtio disk, checked from the
# host byte for byte (tests/qemu/writeback.cmake).  tests/qemu/writeback_expect.py regenerates
# `blk write`'s xorshift64* stream and builds the expected image.
#   writeback_test.sh --dir DIR --board B --mode M [--blkdebug CFG]
# integrity: on a seeded random image of 2 MiB + 1536 bytes (the last page is partial), writes of
#   several seeds at aligned and unaligned offsets (a page, pages, page-crossing, sub-sector,
#   across a sector boundary, overlapping an earlier write, the partial last page, seed 0), then
#   `sync` and power-off: the image must equal the base with the writes applied in order, byte
#   for byte (untouched bytes unchanged).  A second boot reads every written range back through
#   `blk sha256` and must match the host's hash of the image.
# eio: QEMU's blkdebug fails writes touching sector 140 (inside the second of three written
#   ranges): the first `sync` prints `sync: vda: I/O error (-EIO)` once and fails, a second
#   `sync` prints nothing; the first and third ranges and every untouched byte are right on
#   the host image.
# flusher: tinymm.dirty_expire_ms=200 tinymm.dirty_writeback_ms=100, `blk write`, `sleep 1000`,
#   no sync: the flusher alone must have put the bytes on the image, and Dirty is 0 kB.
# throttle: 128 MiB of RAM, tinymm.dirty_ratio=2 tinymm.dirty_background_ratio=1, 12 MiB written
#   in one command: Dirty + Writeback, printed by meminfo right after, stay within the 2% limit
#   (about 2.5 MiB, not 12), and after `sync` the image is right.
# badinput: unknown disk, zero length, past the end, bad numbers, missing argument, `sync` with
#   an argument: one line each, status non-zero, nothing written (blk stats, image unchanged).
. "$(dirname "$0")/lib.sh"
tm_init writeback_test
check=$TM_CHECK dir="" board="" mode="" cfg=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --board) board=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    --blkdebug) cfg=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
here=$TM_QEMU
expect_py=$here/writeback_expect.py
fail() { tm_fail "$@"; }
tm_fresh_dir "$dir"
img=$dir/disk.img base=$dir/base.img

mkimg() {	# mkimg BYTES: the seeded image, kept as base.img too
  tm_mkimg "$img" "$1" 17
  cp "$img" "$base" || fail "cannot copy the image"
}
sha() { tm_sha "$img" "$1" "$2"; }	# sha OFFSET LENGTH: what `blk sha256` must print
writes_cmd() {	# OFF:LEN:SEED... -> "blk write vda OFF LEN SEED; ..."
  local run="" w
  for w in "$@"; do
    IFS=: read -r o l s <<<"$w"
    run="$run${run:+; }blk write vda $o $l $s"
  done
  printf '%s' "$run"
}
compare() {	# compare OFF:LEN:SEED...: the image against the base with these writes
  local msg
  msg=$("$expect_py" check "$img" "$base" "$@") || fail "host image: $msg"
  echo "writeback_test: the image matches the expected bytes ($# writes)"
}
# stats N: the N-th `blk stats` output's vda line as "writes write_bytes errors"
stats() { printf '%s\n' "$out" | awk -v n="$1" '/^tinymm> blk stats$/ { k++ } k == n && $1 == "vda" { print $7, $8, $11; exit }'; }

case "$mode" in
integrity)
  size=$((2 * 1024 * 1024 + 1536))
  mkimg $size
  ws=(0:4096:1 8192:12288:2 30000:5000:3 70000:100:4 82431:2:5 4000:200:6
      200000:300000:0 $((size - 3000)):3000:7 1048576:4096:8 1052672:1:9)
  out=$("$check" --board "$board" --disk "$img" --append "tinymm.run=$(writes_cmd "${ws[@]}"); sync" \
    --timeout 60) || { printf '%s\n' "$out"; fail "boot failed"; }
  printf '%s\n' "$out"
  compare "${ws[@]}"
  run="" want=()
  for w in "${ws[@]}"; do
    IFS=: read -r o l _ <<<"$w"
    run="$run${run:+; }blk sha256 vda $o $l"
    want+=("$(sha "$o" "$l")")
  done
  out=$("$check" --board "$board" --disk "$img" --append "tinymm.run=$run" --timeout 60) ||
    { printf '%s\n' "$out"; fail "second boot failed"; }
  printf '%s\n' "$out"
  mapfile -t got < <(printf '%s\n' "$out" | grep -E '^[0-9a-f]{64}$')
  [ ${#got[@]} = ${#want[@]} ] || fail "${#got[@]} digests printed, expected ${#want[@]}"
  for i in "${!want[@]}"; do
    [ "${got[$i]}" = "${want[$i]}" ] || fail "second boot: blk sha256 of write ${ws[$i]}: ${got[$i]}, the host says ${want[$i]}"
  done
  echo "writeback_test: the second boot reads all ${#want[@]} ranges back right"
  ;;
eio)
  mkimg $((1024 * 1024))
  ws=(0:8192:1 65536:16384:2 262144:4096:3)
  drive="-drive file=blkdebug:$cfg:$img,if=none,id=d0,format=raw -device virtio-blk-device,drive=d0"
  out=$("$check" --board "$board" --status 1 --qemu "$drive" --timeout 60 \
    --append "tinymm.run=$(writes_cmd "${ws[@]}"); blk stats; sync; blk stats; sync; version; blk stats") ||
    { printf '%s\n' "$out"; fail "boot failed"; }
  printf '%s\n' "$out"
  n=$(printf '%s\n' "$out" | grep -c '^sync: vda: I/O error (-EIO)$')
  [ "$n" = 1 ] || fail "the write error was reported $n times, expected exactly once"
  # the second sync prints nothing: the next line after its echo is the next command's
  after=$(printf '%s\n' "$out" | tr -d '\r' | awk '/^tinymm> sync$/ { k++; next } k == 2 { print; exit }')
  [ "$after" = "tinymm> version" ] || fail "the second sync printed '$after'"
  read -r _ _ e1 <<<"$(stats 1)"
  read -r w2 _ e2 <<<"$(stats 2)"
  read -r w3 _ e3 <<<"$(stats 3)"
  [ "$e1" = 0 ] || fail "errors before sync: the writes reached the disk early?"
  [ "$e2" -gt 0 ] || fail "no write error counted: blkdebug did not fire"
  [ "$w2" -gt 0 ] || fail "no successful writes"
  [ "$w3" = "$w2" ] && [ "$e3" = "$e2" ] || fail "the second sync wrote again ($w2/$e2 -> $w3/$e3): failed folios redirtied?"
  compare 0:8192:1 65536:16384:- 262144:4096:3
  ;;
flusher)
  mkimg $((1024 * 1024))
  ws=(12345:20000:9 524288:8192:10)
  out=$("$check" --board "$board" --disk "$img" --timeout 60 \
    --append "tinymm.dirty_expire_ms=200 tinymm.dirty_writeback_ms=100 tinymm.run=$(writes_cmd "${ws[@]}"); meminfo; sleep 1000; meminfo" \
    --expect "^Dirty: +0 kB$" --expect "^Writeback: +0 kB$") ||
    { printf '%s\n' "$out"; fail "boot failed"; }
  printf '%s\n' "$out"
  d1=$(printf '%s\n' "$out" | sed -n 's/^Dirty: *\([0-9]*\) kB$/\1/p' | head -1)
  [ "$d1" -gt 0 ] || fail "Dirty was $d1 kB right after the writes: nothing left for the flusher to do?"
  compare "${ws[@]}"
  ;;
throttle)
  mkimg $((16 * 1024 * 1024))
  ws=(4096:12582912:11)
  out=$("$check" --board "$board" --mem 128M --disk "$img" --timeout 120 \
    --append "tinymm.dirty_ratio=2 tinymm.dirty_background_ratio=1 tinymm.run=$(writes_cmd "${ws[@]}"); meminfo; sync; meminfo") ||
    { printf '%s\n' "$out"; fail "boot failed"; }
  printf '%s\n' "$out"
  read -r _ free buffers dirty wb <<<"$(printf '%s\n' "$out" | awk '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 }
    /^Buffers:/ { b = $2 } /^Dirty:/ { d = $2 } /^Writeback:/ { print t, f, b, d, $2; exit }')"
  [ -n "$wb" ] || fail "no meminfo after the write"
  limit=$(( (free + buffers) * 2 / 100 + 64 ))
  echo "writeback_test: after 12 MiB written: Dirty $dirty kB + Writeback $wb kB, limit about $limit kB"
  [ $((dirty + wb)) -le $limit ] || fail "Dirty + Writeback = $((dirty + wb)) kB, above the 2% limit ($limit kB): writers not throttled"
  compare "${ws[@]}"
  ;;
badinput)
  mkimg $((1024 * 1024))
  run="blk stats; blk write vdz 0 1 1; blk write vda 0 0 1; blk write vda 1048576 1 1; blk write vda 1048000 577 1; blk write vda 0 1x 1; blk write vda 0 1 zz; blk write vda 0 1; sync now; sync; blk stats"
  out=$("$check" --board "$board" --status 1 --disk "$img" --append "tinymm.run=$run" --timeout 30 \
    --expect "^blk: no device 'vdz'$" --expect "^blk: zero length$" \
    --expect "^blk: range 0x100000\+0x1 is past the end of vda \(1048576 bytes\)$" \
    --expect "^blk: range 0xffdc0\+0x241 is past the end of vda \(1048576 bytes\)$" \
    --expect "^blk: invalid number '1x'$" --expect "^blk: invalid number 'zz'$" \
    --expect "^blk: usage: blk write <dev> <offset> <length> <seed>$" \
    --expect "^sync: unexpected argument 'now'$") ||
    { printf '%s\n' "$out"; fail "boot failed"; }
  printf '%s\n' "$out"
  read -r w _ e <<<"$(stats 2)"
  [ "$w" = 0 ] && [ "$e" = 0 ] || fail "the bad commands wrote to the disk ($w writes, $e errors)"
  compare
  ;;
*) fail "unknown mode '$mode'" ;;
esac
echo "writeback_test: PASS"
