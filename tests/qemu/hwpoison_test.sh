#!/usr/bin/env bash
# hwpoison_test.sh - memory_failure() on page-cache frames of a real virtio disk, through the
# shell, checked from the host (tests/qemu/hwpoison.cmake; docs/hwpoison.md).
#   hwpoison_test.sh --dir DIR --board B --free PFN [--mem M] [--timeout S]
# The frames caching a page are known only once the kernel has cached it, so the commands are
# typed at the console one by one (`blk pfn` names the frames), in one boot:
#   1. `blk sha256` of a 1 MiB seeded image (the host's digest); `blk write vda 12288 4096 7`
#      dirties page 3 (the flusher held off by tinymm.dirty_expire_ms).
#   2. `hwpoison inject` the frame of page 2 (clean) and of page 3 (dirty): v6.10's lines
#      "clean LRU page: Recovered" and "dirty LRU page: Recovered", and tinymm's "dirty data lost:
#      vda offset 12288 length 4096"; `page`/`kpageflags` show the frames hwpoison; the pages
#      are no longer cached (`blk pfn`), page 0 still is.
#   3. `blk sha256` again: the image's digest exactly (page 2 read again from the disk, page 3's
#      write lost); `sync` reports "sync: vda: I/O error (-EIO)" once, the next `sync` nothing.
#   4. `hwpoison list` names both frames; `hwpoison stats`: total and recovered up by 2;
#      meminfo's HardwareCorrupted up by 8 kB.
#   5. `hwpoison unpoison` both: HardwareCorrupted back, the list empty.
#   6. `hwpoison inject-hw` of a free frame (--free): Recovered; then unpoison of it, and of a
#      frame injected by software after it, are refused: "Unpoison: Disabled after HW memory
#      failure 0x<pfn>" and one shell line each.
#   7. `poweroff 0`: status 0, no kernel complaint, and the disk image is the original (the lost
#      write never reached it).
# DIR keeps disk.img and console.txt.
. "$(dirname "$0")/lib.sh"
tm_init hwpoison_test
dir="" board="" free="" mem=256M
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --board) board=$2; shift 2 ;;
    --free) free=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --timeout) TM_TIMEOUT=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
[ -n "$dir" ] && [ -n "$board" ] && [ -n "$free" ] || tm_usage "--dir, --board and --free are needed"
tm_init "hwpoison_test: $board"
tm_fresh_dir "$dir"
img=$dir/disk.img size=$((1024 * 1024))
tm_mkimg "$img" $size 23
image_sha=$(sha256sum "$img" | cut -d' ' -f1)
tm_boot "$dir" --board "$board" --mem "$mem" --disk "$img" --append "tinymm.dirty_expire_ms=600000"
fail() { tm_fail "$@"; }
cmd() { tm_cmd "$1"; }
has() { tm_out_has "$1"; }
want() { has "$1" || fail "after '$2': no line matching '$1'"; }
# Log lines carry a timestamp; the text after it is what v6.10 prints.
want_log() { want "^\[ *[0-9]+\.[0-9]{6}\] $1$" "$2"; }
pfn_of() {
  cmd "blk pfn vda $1"
  printf '%s\n' "$out" | sed -En "s/^blk pfn: vda: offset $1: pfn (0x[0-9a-f]+)$/\1/p"
}
corrupted_kb() {
  cmd meminfo
  printf '%s\n' "$out" | sed -En 's/^HardwareCorrupted: +([0-9]+) kB$/\1/p'
}
stat_of() { printf '%s\n' "$out" | sed -En "s/^node0 $1 ([0-9]+)$/\1/p"; }

# 1. Cached, page 3 dirty.
cmd "blk sha256 vda 0 $size"
want "^$image_sha$" "blk sha256"
cmd "blk write vda 12288 4096 7"
has . && fail "blk write printed something"
P=$(pfn_of 8192) Q=$(pfn_of 12288) R=$(pfn_of 0)
[ -n "$P" ] && [ -n "$Q" ] && [ -n "$R" ] || fail "blk pfn did not name the frames"
H=$(corrupted_kb)
[ "$H" = 0 ] || fail "HardwareCorrupted is '$H' kB before any injection"
cmd "hwpoison stats"
total0=$(stat_of total) recovered0=$(stat_of recovered)

# 2. The clean page, then the dirty one.
cmd "hwpoison inject $P"
want_log "Memory failure: $P: recovery action for clean LRU page: Recovered" "hwpoison inject $P"
has "dirty data lost" && fail "a clean page was reported lost"
has "^hwpoison" && fail "hwpoison inject $P failed"
cmd "hwpoison inject $Q"
want_log "Memory failure: $Q: dirty data lost: vda offset 12288 length 4096" "hwpoison inject $Q"
want_log "Memory failure: $Q: recovery action for dirty LRU page: Recovered" "hwpoison inject $Q"
for f in "$P" "$Q"; do
  cmd "page $f"
  want '^flags: 0x[0-9a-f]+\(.*hwpoison.*\)$' "page $f"
  want '^page: refcount:1 mapcount:0 mapping:0+ ' "page $f"
  cmd "kpageflags $f 1"
  flags=$(printf '%s\n' "$out" | sed -En "s/^$f (0x[0-9a-f]+)$/\1/p")
  [ -n "$flags" ] && [ $(( flags >> 19 & 1 )) = 1 ] || fail "kpageflags $f: no KPF_HWPOISON in '$flags'"
done
cmd "blk pfn vda 8192"
want "^blk pfn: vda: offset 8192 is not cached$" "blk pfn vda 8192"
[ "$(pfn_of 0)" = "$R" ] || fail "page 0 left its frame $R"

# 3. Read back: the disk's bytes; the loss reported to sync once.
cmd "blk sha256 vda 0 $size"
want "^$image_sha$" "blk sha256 after the injections"
has "error" && fail "a read error after the injections"
cmd sync
want "^sync: vda: I/O error \(-EIO\)$" "sync"
cmd sync
has . && fail "the second sync reported something"

# 4. What was recorded.
cmd "hwpoison list"
want "^$P: clean LRU page: Recovered \(page-cache page, software\)$" "hwpoison list"
want "^$Q: dirty LRU page: Recovered \(page-cache page, software\)$" "hwpoison list"
cmd "hwpoison stats"
[ "$(stat_of total)" = $((total0 + 2)) ] && [ "$(stat_of recovered)" = $((recovered0 + 2)) ] ||
  fail "hwpoison stats: total/recovered did not grow by 2"
[ "$(corrupted_kb)" = $((H + 8)) ] || fail "HardwareCorrupted did not grow by 8 kB"

# 5. Unpoisoned.
for f in "$P" "$Q"; do
  cmd "hwpoison unpoison $f"
  want_log "Unpoison: Software-unpoisoned page $f" "hwpoison unpoison $f"
done
[ "$(corrupted_kb)" = "$H" ] || fail "HardwareCorrupted is not back to $H kB"
cmd "hwpoison list"
want "^hwpoison list: no poisoned frames$" "hwpoison list after unpoison"

# 6. A hardware report turns unpoison off, for every frame.
cmd "hwpoison inject-hw $free"
want_log "Memory failure: $free: recovery action for free buddy page: Recovered" "hwpoison inject-hw $free"
cmd "hwpoison unpoison $free"
want_log "Unpoison: Disabled after HW memory failure $free" "hwpoison unpoison $free"
want "^hwpoison unpoison: pfn $free: refused: disabled after a hardware memory failure \(-EOPNOTSUPP\)$" \
  "hwpoison unpoison $free"
S=$(pfn_of 0)
cmd "hwpoison inject $S"
want_log "Memory failure: $S: recovery action for clean LRU page: Recovered" "hwpoison inject $S"
cmd "hwpoison unpoison $S"
want_log "Unpoison: Disabled after HW memory failure $S" "hwpoison unpoison $S"
cmd "hwpoison list"
want "^$free: free buddy page: Recovered \(free page, hardware\)$" "hwpoison list"
want "^$S: clean LRU page: Recovered \(page-cache page, software\)$" "hwpoison list"

# 7. Off; the disk never saw the lost write.
tm_poweroff 0
tm_no_complaints "$(tm_console)"
[ "$(sha256sum "$img" | cut -d' ' -f1)" = "$image_sha" ] || fail "the disk image changed"
echo "hwpoison_test: $board: clean $P and dirty $Q recovered, read back from the disk, unpoisoned; inject-hw $free disabled unpoison"
