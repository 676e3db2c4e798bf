#!/usr/bin/env bash
# pagecache_test.sh - the page cache over a real virtio disk, checked from the host
# (tests/qemu/pagecache.cmake).
#   pagecache_test.sh --dir DIR --board B --mode integrity|readahead|eio [--blkdebug CFG]
# integrity: a seeded random image of 3 MiB + 1234 bytes; `blk sha256` of aligned, unaligned,
#   folio-crossing ranges, the partial last page and the whole disk, each compared with Python's
#   hashlib over the same bytes of the image.
# readahead: a 64 MiB image read cold and sequentially through `blk sha256` (4 KiB chunks, no
#   larger than the readahead maximum); after the first MiB (the window has ramped up) the
#   requests' average size, from `blk stats` deltas, must be >= 90% of 128 KiB.  Then the cache
#   is dropped and the same amount is read at random (`blk readrand`, 4 KiB reads at random
#   16 KiB-aligned offsets): the disk must be asked for exactly one page per read that missed the
#   cache, not a byte more: no readahead.
# eio: QEMU's blkdebug fails reads of sector 8 (page 1): reading page 1 through the cache fails
#   with a clear line, twice (the folio was not left uptodate: the device is asked again); pages
#   0 and 2 read right.
# badinput: an unknown disk, a zero length, ranges past the end, a bad number: one line each,
#   status non-zero, no I/O; the disk still reads right afterwards.
. "$(dirname "$0")/lib.sh"
tm_init pagecache_test
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
fail() { tm_fail "$@"; }
tm_fresh_dir "$dir"
img=$dir/disk.img

mkimg() { tm_mkimg "$img" "$1" 16; }
sha() { tm_sha "$img" "$1" "$2"; }	# sha OFFSET LENGTH: what `blk sha256` must print
# stats N: the N-th `blk stats` output's vda line as "reads read_bytes ra_reads ra_bytes errors"
stats() { printf '%s\n' "$out" | awk -v n="$1" '/^tinymm> blk stats$/ { k++ } k == n && $1 == "vda" { print $2, $3, $5, $6, $11; exit }'; }

case "$mode" in
integrity)
  size=$((3 * 1024 * 1024 + 1234))
  mkimg $size
  ranges="0:4096 1:4095 4095:2 4000:10000 12345:200000 0x2ff000:4096 $((size - 777)):777 0:$size"
  run="" want=()
  for r in $ranges; do
    run="$run${run:+; }blk sha256 vda ${r%%:*} ${r##*:}"
    want+=("$(sha "${r%%:*}" "${r##*:}")")
  done
  out=$("$check" --board "$board" --disk "$img" --append "tinymm.run=$run" --timeout 60) ||
    { printf '%s\n' "$out"; fail "boot failed"; }
  printf '%s\n' "$out"
  mapfile -t got < <(printf '%s\n' "$out" | grep -E '^[0-9a-f]{64}$')
  [ ${#got[@]} = ${#want[@]} ] || fail "${#got[@]} digests printed, expected ${#want[@]}"
  i=0
  for r in $ranges; do
    [ "${got[$i]}" = "${want[$i]}" ] || fail "blk sha256 vda ${r/:/ }: ${got[$i]}, the host says ${want[$i]}"
    echo "pagecache_test: blk sha256 vda ${r/:/ } matches the host"
    i=$((i + 1))
  done
  ;;
readahead)
  mkimg $((64 * 1024 * 1024))
  run="blk stats; blk sha256 vda 0 1048576; blk stats; blk sha256 vda 1048576 66060288; blk stats; drop_caches; blk stats; blk readrand vda 67108864 4096 7; blk stats"
  out=$("$check" --board "$board" --mem 256M --disk "$img" --append "tinymm.run=$run" --timeout 240) ||
    { printf '%s\n' "$out" | tail -20; fail "boot failed"; }
  printf '%s\n' "$out"
  [ "$(printf '%s\n' "$out" | grep -E '^[0-9a-f]{64}$' | sed -n 2p)" = "$(sha 1048576 66060288)" ] ||
    fail "the sequential read's bytes differ from the image"
  read -r r2 b2 _ _ _ <<<"$(stats 2)"
  read -r r3 b3 _ _ _ <<<"$(stats 3)"
  read -r r4 b4 _ _ _ <<<"$(stats 4)"
  read -r r5 b5 _ _ e5 <<<"$(stats 5)"
  [ -n "$r3" ] && [ -n "$r5" ] || fail "no blk stats lines for vda"
  reqs=$((r3 - r2)) bytes=$((b3 - b2))
  [ $reqs -gt 0 ] || fail "no requests during the sequential read"
  avg=$((bytes / reqs))
  echo "pagecache_test: sequential, after ramp-up: $reqs requests, $bytes bytes, average $avg (90% of 131072 is 117964)"
  [ $avg -ge 117964 ] || fail "average request $avg bytes, below 90% of the 128 KiB readahead maximum"
  # shellcheck disable=SC2046  # the two counts, split into $1 and $2
  set -- $(printf '%s\n' "$out" | sed -n 's/^blk readrand: \([0-9]*\) reads of 4096 bytes, \([0-9]*\) found cached$/\1 \2/p')
  [ $# = 2 ] || fail "no blk readrand summary"
  misses=$(($1 - $2)) rbytes=$((b5 - b4))
  echo "pagecache_test: random: $1 reads of 4 KiB, $misses missed the cache; the disk was asked for $((r5 - r4)) requests, $rbytes bytes"
  [ $rbytes = $((misses * 4096)) ] || fail "random reads made the disk read $rbytes bytes, expected exactly $misses x 4096 (no readahead)"
  [ "$e5" = 0 ] || fail "$e5 errors"
  ;;
eio)
  mkimg $((1024 * 1024))
  run="blk sha256 vda 0 4096; blk sha256 vda 4096 4096; blk stats; blk sha256 vda 4096 4096; blk stats; blk sha256 vda 8192 4096"
  drive="-drive file=blkdebug:$cfg:$img,if=none,id=d0,format=raw -device virtio-blk-device,drive=d0"
  out=$("$check" --board "$board" --status 1 --qemu "$drive" --append "tinymm.run=$run" --timeout 60) ||
    { printf '%s\n' "$out"; fail "boot failed"; }
  printf '%s\n' "$out"
  mapfile -t got < <(printf '%s\n' "$out" | grep -E '^[0-9a-f]{64}$')
  [ ${#got[@]} = 2 ] || fail "${#got[@]} digests, expected 2 (pages 0 and 2)"
  [ "${got[0]}" = "$(sha 0 4096)" ] || fail "page 0 differs from the image"
  [ "${got[1]}" = "$(sha 8192 4096)" ] || fail "page 2 differs from the image"
  n=$(printf '%s\n' "$out" | grep -c '^blk: vda: read error at offset 0x1000: I/O error (-EIO)$')
  [ "$n" = 2 ] || fail "expected the read error line twice for page 1, got $n"
  read -r _ _ _ _ e1 <<<"$(stats 1)"
  read -r _ _ _ _ e2 <<<"$(stats 2)"
  [ "$e2" -gt "$e1" ] || fail "the second read of page 1 did not go to the device (errors $e1 -> $e2): left uptodate?"
  ;;
badinput)
  # Bad ranges and names: one line each, the command fails, nothing is read, nothing breaks.
  mkimg $((1024 * 1024))
  run="blk sha256 vdz 0 1; blk sha256 vda 0 0; blk sha256 vda 1048576 1; blk sha256 vda 1048000 577; blk sha256 vda 0 1x; blk stats; blk readrand vda 0 4096; blk sha256 vda 1048575 1"
  out=$("$check" --board "$board" --status 1 --disk "$img" --append "tinymm.run=$run" --timeout 30 \
    --expect "^blk: no device 'vdz'$" --expect "^blk: zero length$" \
    --expect "^blk: range 0x100000\+0x1 is past the end of vda \(1048576 bytes\)$" \
    --expect "^blk: range 0xffdc0\+0x241 is past the end of vda \(1048576 bytes\)$" \
    --expect "^blk: invalid number '1x'$" --expect "^blk: readrand: bad numbers") ||
    { printf '%s\n' "$out"; fail "boot failed"; }
  printf '%s\n' "$out"
  read -r r _ _ _ _ <<<"$(stats 1)"
  # One read: the partition scan's of the MBR at boot (block/partitions/core.c).
  [ "$r" = 1 ] || fail "the bad commands read from the disk ($((r - 1)) requests)"
  [ "$(printf '%s\n' "$out" | grep -E '^[0-9a-f]{64}$')" = "$(sha 1048575 1)" ] ||
    fail "the last byte, read after the bad commands, is wrong"
  ;;
*) fail "unknown mode '$mode'" ;;
esac
echo "pagecache_test: PASS"
