#!/usr/bin/env bash
# lru_test.sh - the LRU lists over a real virtio disk, checked from the host (tests/qemu/lru.cmake).
#   lru_test.sh --dir DIR --board B
# A 1 MiB disk (256 pages) is read whole three times through `blk sha256`, with `lru` (which
# drains the batches, so the counts after it are exact), `vmstat` and `meminfo` before and after
# each pass.  v6.10's two-touch rule says:
#   pass 1: 256 new folios, each touched once: inactive_file +256, PG_referenced, active same;
#   pass 2: each touched again while inactive: all 256 move to active_file (pgactivate +256),
#           PG_referenced cleared; inactive_file back where it was;
#   pass 3: touched on the active list: PG_referenced again, nothing moves.
# Also: pgpgin grows by exactly the disk's 1024 KiB in pass 1 and not at all after; meminfo's
# Active(file)/Inactive(file) are vmstat's counts x 4 kB; every vmstat line is `name value`
# and Linux's names are all there.
. "$(dirname "$0")/lib.sh"
tm_init lru_test
check=$TM_CHECK dir="" board=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --board) board=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
fail() { tm_fail "$@"; }
tm_fresh_dir "$dir"
img=$dir/disk.img
tm_mkimg "$img" $((1 << 20)) 17

snap="lru; vmstat; meminfo"
run="$snap; blk sha256 vda 0 1048576; $snap; blk sha256 vda 0 1048576; $snap; blk sha256 vda 0 1048576; $snap"
out=$("$check" --board "$board" --disk "$img" --append "tinymm.run=$run" --timeout 60) ||
  { printf '%s\n' "$out"; fail "boot failed"; }
printf '%s\n' "$out"

# block N CMD: the output of the N-th run of CMD (the lines after its echo, up to the next one)
block() { printf '%s\n' "$out" | awk -v n="$1" -v c="tinymm> $2" '/^tinymm> / { k += ($0 == c); on = ($0 == c && k == n); next } on'; }
# val N CMD NAME: NAME's value in the N-th CMD output (vmstat / lru: "name value"; meminfo: kB)
val() { block "$1" "$2" | awk -v k="$3" '$1 == k || $1 == k":" { print $2; exit }'; }

for n in 1 2 3 4; do
  bad=$(block $n vmstat | grep -vcE '^[a-z_]+ [0-9]+$')
  [ "$bad" = 0 ] || fail "vmstat $n: $bad lines are not 'name value'"
  for name in nr_free_pages nr_inactive_file nr_active_file nr_unevictable nr_file_pages nr_dirty \
      nr_writeback pgpgin pgpgout pgactivate pgdeactivate pgscan_kswapd pgscan_direct pgsteal_kswapd \
      pgsteal_direct workingset_refault_file workingset_activate_file workingset_restore_file \
      workingset_nodereclaim; do
    [ -n "$(val $n vmstat $name)" ] || fail "vmstat $n has no $name"
  done
  for l in inactive_file active_file; do
    [ "$(val $n lru $l)" = "$(val $n vmstat nr_$l)" ] || fail "pass $n: lru's $l and vmstat's nr_$l differ"
  done
  [ "$(val $n meminfo 'Active(file)')" = $(( $(val $n vmstat nr_active_file) * 4 )) ] ||
    fail "pass $n: meminfo Active(file) is not vmstat nr_active_file x 4 kB"
  [ "$(val $n meminfo 'Inactive(file)')" = $(( $(val $n vmstat nr_inactive_file) * 4 )) ] ||
    fail "pass $n: meminfo Inactive(file) is not vmstat nr_inactive_file x 4 kB"
  [ -n "$(val $n meminfo 'Unevictable')" ] || fail "meminfo $n has no Unevictable"
done
d() { echo $(( $(val "$2" vmstat "$1") - $(val "$3" vmstat "$1") )); }	# d NAME LATER EARLIER
[ "$(d nr_inactive_file 2 1)" = 256 ] || fail "pass 1: nr_inactive_file grew by $(d nr_inactive_file 2 1), not 256"
[ "$(d nr_active_file 2 1)" = 0 ] || fail "pass 1: nr_active_file moved by $(d nr_active_file 2 1), not 0"
[ "$(d pgpgin 2 1)" = 1024 ] || fail "pass 1: pgpgin grew by $(d pgpgin 2 1) KiB, not 1024"
[ "$(d nr_active_file 3 2)" = 256 ] || fail "pass 2: nr_active_file grew by $(d nr_active_file 3 2), not 256"
[ "$(d nr_inactive_file 3 1)" = 0 ] || fail "pass 2: nr_inactive_file is $(d nr_inactive_file 3 1) above the start, not 0"
[ "$(d pgactivate 3 2)" = 256 ] || fail "pass 2: pgactivate grew by $(d pgactivate 3 2), not 256"
[ "$(d nr_active_file 4 3)" = 0 ] || fail "pass 3: nr_active_file moved by $(d nr_active_file 4 3)"
[ "$(d pgpgin 4 2)" = 0 ] || fail "passes 2 and 3 read $(d pgpgin 4 2) KiB from the disk, not 0"
# The flags of the newest folios, as `lru` prints them (%pGp order: referenced|uptodate|lru|active)
grep -qE '^inactive_file: pfn 0x[0-9a-f]+ index [0-9]+ flags: 0x[0-9a-f]+\(referenced\|uptodate\|lru\|node=' <<<"$(block 2 lru)" ||
  fail "pass 1: the newest inactive folio is not referenced|uptodate|lru"
grep -qE '^active_file: pfn 0x[0-9a-f]+ index [0-9]+ flags: 0x[0-9a-f]+\(uptodate\|lru\|active\|node=' <<<"$(block 3 lru)" ||
  fail "pass 2: the newest active folio is not uptodate|lru|active (referenced cleared)"
grep -qE '^active_file: pfn 0x[0-9a-f]+ index [0-9]+ flags: 0x[0-9a-f]+\(referenced\|uptodate\|lru\|active\|node=' <<<"$(block 4 lru)" ||
  fail "pass 3: the newest active folio is not referenced|uptodate|lru|active"
echo "lru_test: ok"
