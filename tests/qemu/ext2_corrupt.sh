#!/usr/bin/env bash
# ext2_corrupt.sh BOARD CASE - a damaged ext2 image (made by mke2fs, damaged by debugfs -w or a
# byte poke), mounted read-only at /mnt (the root is a ramfs) and used: the kernel must print
# one clear line naming the problem, refuse the mount or fail the operation with the right
# error (EUCLEAN / EIO / ELOOP), never crash or hang, and leave the image byte for byte as it
# was.  CASE: bad_magic, blocks_past_end, inode_count, dir_rec_len_0, dir_rec_len_past_block,
# block_past_end, symlink_loop, dir_alias.  dir_alias is mounted read-write (a rename or rmdir
# on a read-only mount stops at EROFS before any lock): directory /d with an entry "self" naming
# /d, and /a/x naming /b (debugfs ln: directories with two names); mv and rmdir through those
# names must be ELOOP with the VFS's one line, not a recursive i_rwsem (which was a panic).
# Its image changes (the mount's superblock write), so only its survival is checked.
. "$(dirname "$0")/lib.sh"
tm_init ext2_corrupt
[ $# = 2 ] || tm_usage "ext2_corrupt.sh BOARD CASE"
board=$1 case=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
img=$tmp/c.img
"$TM_QEMU/ext2_image.sh" "$img" 1024 32M >/dev/null || tm_fail "ext2_image.sh failed"
dfs() { debugfs -w -R "$1" "$img" >/dev/null 2>&1 || tm_fail "debugfs -w '$1' failed"; }
# shellcheck disable=SC2059  # the format is the two escaped bytes, built on purpose
poke16() { printf "$(printf '\\x%02x\\x%02x' $(($2 & 255)) $(($2 >> 8)))" |
  dd of="$img" bs=1 seek="$1" conv=notrunc status=none; }
first_block() { debugfs -R "blocks $1" "$img" 2>/dev/null | awk '{ print $1 }'; }
use="ls /mnt" mode=ro more=()
case "$case" in
bad_magic)            poke16 $((1024 + 56)) 0x1234
                      want='ext2: bad magic 0x1234 \(expected 0xef53\): not an ext2 filesystem'
                      werr='mount: .*EINVAL' ;;
blocks_past_end)      dfs "ssv blocks_count 999999"
                      want='ext2: block count 999999 exceeds size of device'
                      werr='mount: .*EINVAL' ;;
inode_count)          dfs "ssv inodes_count 4000"
                      want='ext2: inode count 4000 disagrees with [0-9]+ groups of [0-9]+ inodes'
                      werr='mount: .*EINVAL' ;;
dir_rec_len_0)        b=$(first_block /manydir); poke16 $((b * 1024 + 4)) 0
                      want='ext2 \(vda\): directory #[0-9]+: rec_len is 0 at offset 0'
                      use="ls /mnt/manydir"; werr='^ls: /mnt/manydir: EUCLEAN$' ;;
dir_rec_len_past_block) b=$(first_block /manydir); poke16 $((b * 1024 + 12 + 4)) 2000
                      want='ext2 \(vda\): directory #[0-9]+: rec_len 2000 runs past the block at offset 12'
                      use="ls /mnt/manydir"; werr='^ls: /mnt/manydir: EUCLEAN$' ;;
block_past_end)       dfs "sif /big.bin block[0] 9999999"
                      want='ext2 \(vda\): inode [0-9]+: block 9999999 out of range'
                      # The read fails as Linux's does: the folio is not uptodate, so EIO.
                      use="cat /mnt/big.bin"; werr='^cat: /mnt/big.bin: EIO$' ;;
symlink_loop)         want='^cat: /mnt/loop1: ELOOP$'
                      use="cat /mnt/loop1"; werr='^cat: /mnt/loop1: ELOOP$' ;;
dir_alias)            dfs "mkdir /d"; dfs "ln /d /d/self"; dfs "mkdir /a"; dfs "mkdir /b"; dfs "ln /b /a/x"
                      want='^(\[ *[0-9.]+\] )?VFS: directory inode [0-9]+ reached again through an entry in itself or its parent: corrupt filesystem$'
                      mode=rw more=(--expect '^rmdir: /mnt/d/self: ELOOP$' --expect '^mv: /mnt/a/x: ELOOP$')
                      use="mv /mnt/d/self /mnt/d/other\rrmdir /mnt/d/self\rmv /mnt/a/x /mnt/b/y"
                      werr='^mv: /mnt/d/self: ELOOP$' ;;
*) tm_usage "unknown case $case" ;;
esac
before=$(sha256sum <"$img")
"$TM_CHECK" --board "$board" --disk "$img" --timeout 60 \
  --input "mkdir /mnt\rmount vda /mnt ${mode/rw/}\r$use\rls /\rpoweroff\r" \
  --expect "$want" --expect "$werr" "${more[@]}" --expect '^tinymm> poweroff$' \
  --reject 'Unhandled|BUG|Kernel panic' || tm_fail "case $case"
[ "$mode" = rw ] || [ "$(sha256sum <"$img")" = "$before" ] || tm_fail "case $case: the image changed"
echo "ext2_corrupt: PASS ($case: refused in one line$([ "$mode" = rw ] || echo ", image unchanged"))"
