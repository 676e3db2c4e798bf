#!/usr/bin/env bash
# ext2_test.sh BOARD BLOCKSIZE read|write - boot BOARD with an ext2 image made by Debian's
# mke2fs (ext2_image.sh) as its root (tinymm.root=vda) and run a scripted shell session on it:
#   read:  `sha256sum` of every file (206 of them: indirect, triple-indirect, a 200-entry
#          directory, hard link), symlinks (fast, slow, absolute, a loop), `ls`, `stat`;
#          every hash must equal the host's.
#   write: ext2_check.py's session (create, write, append, truncate down and up, rename,
#          unlink, mkdir, rmdir, deep paths, a file past the double-indirect limit on 1 KiB
#          blocks, a directory grown past one block, hard links, symlinks), then umount and
#          power-off; then on the host `e2fsck -fn` must report a clean filesystem and
#          `debugfs -R dump` must return exactly the bytes written.
. "$(dirname "$0")/lib.sh"
tm_init ext2_test
[ $# = 3 ] || tm_usage "ext2_test.sh BOARD BLOCKSIZE read|write"
board=$1 bs=$2 mode=$3
here=$TM_QEMU
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
img=$tmp/ext2-$bs.img
"$here/ext2_image.sh" "$img" "$bs" 32M >/dev/null || tm_fail "ext2_image.sh failed"
log=$tmp/console.log
case "$mode" in
read)
  cmds=$(python3 "$here/ext2_check.py" read-cmds "$img.sha256")
  cmds+=$'\ncat /link\ncat /slowlink\ncat /abslink\ncat /loop1\nls /manydir\nstat /sparse.bin\numount /\npoweroff'
  ;;
write)
  cmds=$(python3 "$here/ext2_check.py" write-cmds "$bs" "$tmp/manifest.json")
  cmds+=$'\numount /\npoweroff'
  ;;
*) tm_usage "mode is read or write" ;;
esac
input=$(printf '%s\n' "$cmds" | sed 's/\\/\\\\/g; s/%/%%/g' | tr '\n' '\r')
"$TM_CHECK" --board "$board" --disk "$img" --append "tinymm.root=vda" --timeout 240 \
  --input "$input" --reject "EUCLEAN|EIO|Unhandled|BUG|WARNING" >"$log" 2>&1
rc=$?
tail -n 5 "$log"
[ "$rc" = 0 ] || { tail -n 40 "$log"; tm_fail "the session failed (boot_check status $rc)"; }
if [ "$mode" = read ]; then
  python3 "$here/ext2_check.py" read-verify "$img.sha256" "$log" || tm_fail "hashes differ"
  grep -qx 'hello, ext2' "$log" || tm_fail "cat /link did not print the file"
  [ "$(grep -cx 'four levels down' "$log")" = 2 ] || tm_fail "slow or absolute symlink not followed"
  grep -q '^cat: /loop1: ELOOP$' "$log" || tm_fail "a symlink loop is not ELOOP"
  [ "$(grep -c '^file-with-a-longer-name-' "$log")" = 200 ] || tm_fail "ls /manydir does not list 200 names"
else
  python3 "$here/ext2_check.py" write-verify "$img" "$tmp/manifest.json" || tm_fail "the image is not what was written"
fi
echo "ext2_test: PASS ($board, $bs-byte blocks, $mode)"
