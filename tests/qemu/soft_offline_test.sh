#!/usr/bin/env bash
# soft_offline_test.sh - soft offline of page-cache frames over a real virtio disk, checked from
# the host (tests/qemu/soft_offline.cmake; docs/hwpoison.md, "Soft offline").
#   soft_offline_test.sh --dir DIR --board B [--mem M] [--timeout S]
# One boot, typed at the console, because the frames are only known once the kernel has cached
# the pages (`blk pfn` tells them):
#   1. `blk sha256 vda 0 <all>` of a 1 MiB seeded image: the host's digest; `blk write vda
#      12288 4096 7` makes page 3 dirty (the flusher held off: tinymm.dirty_expire_ms).
#   2. `blk pfn vda 8192` and `blk pfn vda 12288`: P (a clean page) and Q (the dirty one);
#      `meminfo`'s HardwareCorrupted: H kB.
#   3. `hwpoison soft-offline P`, `hwpoison soft-offline Q`: no error.
#   4. `blk sha256` of everything again: the host's digest of the image with page 3 written, no
#      read error; `page P` / `page Q` show hwpoison; `blk pfn` shows other frames now, and the
#      one for page 3 is dirty (`page`); HardwareCorrupted is H + 8 kB; `hwpoison stats` (the
#      memory_failure statistics) unchanged, as v6.10 counts soft offline there not at all;
#      `hwpoison list` names P and Q.
#   5. Bad input: a pfn past the end of memory, one below RAM (a hole), one not a number: one
#      line each naming the command, HardwareCorrupted unchanged.
#   6. `sync`, `poweroff 0`: exit status 0, and the image on the host holds the written page:
#      writeback wrote the new frame's bytes (tests/qemu/writeback_expect.py).
# DIR keeps disk.img, base.img and console.txt.
. "$(dirname "$0")/lib.sh"
tm_init soft_offline_test
here=$TM_QEMU
dir="" board="" mem=256M
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --board) board=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --timeout) TM_TIMEOUT=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
[ -n "$dir" ] && [ -n "$board" ] || tm_usage "--dir and --board are needed"
tm_init "soft_offline_test: $board"
tm_fresh_dir "$dir"
img=$dir/disk.img base=$dir/base.img size=$((1024 * 1024))
fail() { tm_fail "$@"; }
run() { tm_cmd "$1"; }
tm_mkimg "$base" $size 19
cp "$base" "$img" || fail "cannot copy the image"
# What the disk holds once page 3 is written: its digest, for every `blk sha256` after the write.
want_sha=$(PYTHONDONTWRITEBYTECODE=1 python3 - "$base" "$here/writeback_expect.py" <<'EOF'
import hashlib, importlib.util, sys
spec = importlib.util.spec_from_file_location("we", sys.argv[2])
we = importlib.util.module_from_spec(spec)
spec.loader.exec_module(we)
data = bytearray(open(sys.argv[1], "rb").read())
data[12288:16384] = we.stream(7, 4096)
print(hashlib.sha256(data).hexdigest())
EOF
) || fail "cannot compute the expected digest"
base_sha=$(sha256sum "$base" | cut -d' ' -f1)

tm_boot "$dir" --board "$board" --mem "$mem" --disk "$img" --append "tinymm.dirty_expire_ms=600000"

line() { printf '%s\n' "$out" | grep -E -- "$1"; }
pfn_of() {	# pfn_of OFFSET: the frame caching that byte of vda
  run "blk pfn vda $1"
  line "^blk pfn: vda: offset $1: pfn 0x[0-9a-f]+$" | sed -E 's/.* pfn (0x[0-9a-f]+)$/\1/'
}
corrupted() {	# meminfo's HardwareCorrupted, in kB
  run meminfo
  line '^HardwareCorrupted: +[0-9]+ kB$' | sed -E 's/^HardwareCorrupted: +([0-9]+) kB$/\1/'
}
no_error() {	# the last command printed nothing that looks like a failure
  ! line '(error|fail|invalid|not valid|usage|unknown|busy|-E[A-Z]+)' >/dev/null ||
    fail "'$1' printed an error"
}

# 1. Cache the disk, dirty page 3.
run "blk sha256 vda 0 $size"
[ "$(line '^[0-9a-f]{64}$')" = "$base_sha" ] || fail "the first read differs from the image"
run "blk write vda 12288 4096 7"
no_error "blk write"

# 2. The frames, the counter.
P=$(pfn_of 8192)
Q=$(pfn_of 12288)
[ -n "$P" ] && [ -n "$Q" ] || fail "blk pfn did not name the frames"
run "page $Q"
line '\(.*dirty.*\)' >/dev/null || fail "page 3 (pfn $Q) is not dirty before the soft offline"
H=$(corrupted)
[ -n "$H" ] || fail "meminfo has no HardwareCorrupted line"
run "hwpoison stats"
stats=$out

# 3. Soft offline, clean and dirty.
run "hwpoison soft-offline $P"
no_error "hwpoison soft-offline $P"
run "hwpoison soft-offline $Q"
no_error "hwpoison soft-offline $Q"

# 4. Nothing lost, nothing unreadable; the old frames poisoned, the pages in new ones.
run "blk sha256 vda 0 $size"
line 'read error' >/dev/null && fail "a read error after the soft offline"
[ "$(line '^[0-9a-f]{64}$')" = "$want_sha" ] || fail "the disk reads differently after the soft offline"
for f in "$P" "$Q"; do
  run "page $f"
  line '\(.*hwpoison.*\)' >/dev/null || fail "page $f does not show hwpoison"
done
P2=$(pfn_of 8192)
Q2=$(pfn_of 12288)
[ -n "$P2" ] && [ "$P2" != "$P" ] || fail "page 2 is still cached in $P (or not at all: '$P2')"
[ -n "$Q2" ] && [ "$Q2" != "$Q" ] || fail "page 3 is still cached in $Q (or not at all: '$Q2')"
run "page $Q2"
line '\(.*dirty.*\)' >/dev/null || fail "page 3's new frame $Q2 is not dirty"
H2=$(corrupted)
[ "$H2" = $((H + 8)) ] || fail "HardwareCorrupted went from $H to $H2 kB, not by 8 kB"
# v6.10 counts soft offline in num_poisoned_pages only, not in memory_failure's statistics.
run "hwpoison stats"
[ "$out" = "$stats" ] || fail "soft offline changed the memory_failure statistics"
run "hwpoison list"
line "^$P: " >/dev/null && line "^$Q: " >/dev/null || fail "hwpoison list does not name $P and $Q"

# 5. Bad input: one line each, nothing counted.
run memmap
end=$(line '^\[mem 0x[0-9a-f]+-0x[0-9a-f]+\] ' | sed -E 's/^\[mem 0x[0-9a-f]+-0x([0-9a-f]+)\].*/\1/' | sort | tail -1)
[ -n "$end" ] || fail "memmap printed no regions"
past=$(printf '0x%x' $(( (16#$end + 1) >> 12 )))
for bad in "$past" 0x10 zz; do
  run "hwpoison soft-offline $bad"
  [ "$(printf '%s\n' "$out" | grep -c .)" = 1 ] || fail "'hwpoison soft-offline $bad' printed $(printf '%s\n' "$out" | grep -c .) lines, not one"
  line '^hwpoison' >/dev/null || fail "'hwpoison soft-offline $bad' did not name the command"
done
H3=$(corrupted)
[ "$H3" = "$H2" ] || fail "bad input changed HardwareCorrupted from $H2 to $H3 kB"

# 6. Written back from the new frame.
run sync
no_error sync
tm_poweroff 0
tm_no_complaints "$(tm_console)"
python3 "$here/writeback_expect.py" check "$img" "$base" 12288:4096:7 || fail "the image is not what was written"
echo "soft_offline_test: $board: pfn $P -> $P2 (clean), $Q -> $Q2 (dirty, written back from it); HardwareCorrupted $H -> $H2 kB"
