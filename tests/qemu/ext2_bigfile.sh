#!/usr/bin/env bash
# ext2_bigfile.sh BOARD - a file four times the RAM: the board boots with 32 MiB, writes a
# 128 MiB file on an ext2 root (tinymm.root=vda) with `fwrite`, reads it back with `sha256sum`,
# unmounts and powers off; the hash must be the host's for the same stream, and then on the host
# e2fsck -fn must find the filesystem clean and debugfs must dump exactly those bytes.  Reclaim
# and writeback of ext2's folios and of its metadata buffers carry the whole run.
. "$(dirname "$0")/lib.sh"
tm_init ext2_bigfile
[ $# = 1 ] || tm_usage "ext2_bigfile.sh BOARD"
board=$1 size=$((128 << 20)) seed=21
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
img=$tmp/big.img
mke2fs -q -F -t ext2 -b 4096 "$img" 200M >/dev/null || tm_fail "mke2fs failed"
want=$(python3 "$TM_QEMU/writeback_expect.py" stream $seed $size | sha256sum | cut -d' ' -f1)
"$TM_CHECK" --board "$board" --mem 32M --disk "$img" --timeout 240 \
  --append "tinymm.root=vda tinymm.run=fwrite /huge 0 $size $seed; sha256sum /huge; umount /; poweroff" \
  --expect "^$want  /huge$" --expect "^MemTotal|Memory: [0-9]+K/3[0-9]{4}K available" \
  --reject 'EIO|ENOMEM|ENOSPC|Unhandled|BUG|WARNING' || tm_fail "the session failed"
e2fsck -fn "$img" >"$tmp/fsck" 2>&1 || { cat "$tmp/fsck"; tm_fail "e2fsck -fn: not clean"; }
debugfs -R "dump /huge $tmp/huge" "$img" >/dev/null 2>&1
got=$(sha256sum <"$tmp/huge" | cut -d' ' -f1)
[ "$got" = "$want" ] || tm_fail "debugfs dump of /huge: $got, written $want"
echo "ext2_bigfile: PASS (128 MiB written and read back in 32 MiB, e2fsck clean, bytes exact)"
