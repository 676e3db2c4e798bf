#!/usr/bin/env bash
# ext2_errors.sh BOARD - bad input on ext2 gets the matching error in words and loses nothing:
# a disk that fills up (ENOSPC: the file keeps exactly the bytes that fit, the blocks a failed
# write allocated past its end go again, another file is untouched), a read-only mount (EROFS,
# the image unchanged), a missing path (ENOENT), a file used as a directory (ENOTDIR), a name
# of 256 bytes (ENAMETOOLONG), a directory not empty (ENOTEMPTY); then e2fsck -fn is clean and
# debugfs dumps the bytes that were written.
. "$(dirname "$0")/lib.sh"
tm_init ext2_errors
[ $# = 1 ] || tm_usage "ext2_errors.sh BOARD"
board=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
img=$tmp/tiny.img
head -c 20000 /dev/urandom >"$tmp/keep"
mke2fs -q -F -t ext2 -b 1024 "$img" 2M >/dev/null || tm_fail "mke2fs failed"
debugfs -w -R "write $tmp/keep keep" "$img" >/dev/null 2>&1 || tm_fail "debugfs write failed"
keep=$(sha256sum <"$tmp/keep" | cut -d' ' -f1)
long=$(printf 'x%.0s' $(seq 256))
"$TM_CHECK" --board "$board" --disk "$img" --timeout 60 --append "tinymm.root=vda" \
  --input "mkdir /$long\rmkdir /d\rfwrite /d/f 0 1 1\rrmdir /d\rcat /nope\rls /keep/x\rfwrite /big 0 4000000 5\rls -l /big\rsha256sum /keep\rumount /\rpoweroff\r" \
  --expect '^fwrite: /big: ENOSPC$' --expect "^$keep  /keep$" --expect '^cat: /nope: ENOENT$' \
  --expect '^ls: /keep/x: ENOTDIR$' --expect "^mkdir: /$long: ENAMETOOLONG$" \
  --expect '^rmdir: /d: ENOTEMPTY$' --reject 'Unhandled|BUG|WARNING' >"$tmp/log" 2>&1 ||
  { tail -n 30 "$tmp/log"; tm_fail "the session failed"; }
size=$(sed -nE 's/^-rw-r--r-- +1 0 0 +([0-9]+) .* \/big$/\1/p' "$tmp/log")
[ -n "$size" ] && [ "$size" -gt 1000000 ] || tm_fail "no size for /big after ENOSPC ($size)"
e2fsck -fn "$img" >"$tmp/fsck" 2>&1 || { cat "$tmp/fsck"; tm_fail "e2fsck -fn: not clean after ENOSPC"; }
debugfs -R "dump /big $tmp/big" "$img" >/dev/null 2>&1
want=$(python3 "$TM_QEMU/writeback_expect.py" stream 5 "$size" | sha256sum | cut -d' ' -f1)
[ "$(sha256sum <"$tmp/big" | cut -d' ' -f1)" = "$want" ] || tm_fail "/big does not hold the $size bytes that fit"
# Read-only: every change refused with EROFS, the image byte for byte as it was.
before=$(sha256sum <"$img")
"$TM_CHECK" --board "$board" --disk "$img" --timeout 60 \
  --input "mkdir /mnt\rmount vda /mnt ro\rfwrite /mnt/new 0 10 1\rrm /mnt/keep\rmkdir /mnt/d2\rtruncate /mnt/keep 0\rsha256sum /mnt/keep\rumount /mnt\rpoweroff\r" \
  --expect '^fwrite: /mnt/new: EROFS$' --expect '^rm: /mnt/keep: EROFS$' \
  --expect '^mkdir: /mnt/d2: EROFS$' --expect '^truncate: /mnt/keep: EROFS$' \
  --expect "^$keep  /mnt/keep$" >"$tmp/log2" 2>&1 || { tail -n 30 "$tmp/log2"; tm_fail "read-only session"; }
[ "$(sha256sum <"$img")" = "$before" ] || tm_fail "a read-only mount changed the image"
echo "ext2_errors: PASS (ENOSPC keeps $size exact bytes, e2fsck clean; EROFS changes nothing)"
