#!/usr/bin/env bash
# rootfs_check.sh BOARD [--damage data|fsck] - judge build/BOARD/rootfs.img (tools/mkrootfs,
# docs/user.md) with e2fsprogs, tools no one here wrote:
#   - `e2fsck -fn` finds it clean;
#   - /bin holds exactly the programs of build/BOARD/user/bin, each mode 0755, owned by root,
#     and `debugfs -R dump` returns each one byte for byte;
#   - /mnt is an empty directory;
#   - tools/mkrootfs run again on the same programs makes the same bytes (reproducible).
# --damage: the check on a damaged copy, which must fail: `data` flips a byte of /bin/hello's
# first block (the dump differs), `fsck` makes group 0's free block count wrong (e2fsck).
. "$(dirname "$0")/../qemu/lib.sh"
tm_init rootfs_check
[ $# = 1 ] || [ $# = 3 ] || tm_usage "usage: rootfs_check.sh BOARD [--damage data|fsck]"
board=$1 damage=${3:-}
[ $# = 1 ] || [ "$2" = --damage ] || tm_usage "unknown option '$2'"
src=$TM_TOP/build/$board/rootfs.img
bins=$TM_TOP/build/$board/user/bin
[ -f "$src" ] || tm_fail "no $src (build it: make all)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
img=$tmp/rootfs.img
cp "$src" "$img"
case "$damage" in
"") ;;
data)
  blk=$(debugfs -R 'bmap /bin/hello 0' "$img" 2>/dev/null) || tm_fail "debugfs bmap failed"
  byte=$(od -An -tu1 -j $((blk * 4096 + 64)) -N1 "$img" | tr -d ' ')
  printf '%b' "\\$(printf '%03o' $(( byte ^ 0xff )))" |
    dd of="$img" bs=1 seek=$((blk * 4096 + 64)) conv=notrunc status=none ;;
fsck)
  debugfs -w -R 'set_bg 0 free_blocks_count 1' "$img" >/dev/null 2>&1 || tm_fail "debugfs set_bg failed" ;;
*) tm_usage "--damage data|fsck" ;;
esac

out=$(e2fsck -fn "$img" 2>&1) || { printf '%s\n' "$out"; tm_fail "e2fsck -fn: the filesystem is not clean"; }
# debugfs's `ls -p`: /inode/mode/uid/gid/name/size/ per entry.
listing=$(debugfs -R 'ls -p /bin' "$img" 2>/dev/null) || tm_fail "debugfs cannot list /bin"
names=$(awk -F/ '$6 != "." && $6 != ".." { print $6 }' <<<"$listing" | sort)
want=$(cd "$bins" && printf '%s\n' * | sort)
list=$(tr '\n' ' ' <<<"$want")
[ -n "$want" ] || tm_fail "no programs in $bins"
[ "$names" = "$want" ] || tm_fail "/bin holds '$(tr '\n' ' ' <<<"$names")', the build made '$list'"
for p in $want; do
  line=$(awk -F/ -v n="$p" '$6 == n' <<<"$listing")
  [ "$(cut -d/ -f3-5 <<<"$line")" = "100755/0/0" ] || tm_fail "/bin/$p: mode/uid/gid '$line', want 100755/0/0"
  debugfs -R "dump /bin/$p $tmp/$p" "$img" >/dev/null 2>&1 || tm_fail "debugfs cannot dump /bin/$p"
  cmp -s "$tmp/$p" "$bins/$p" || tm_fail "/bin/$p in the image differs from $bins/$p"
done
mnt=$(debugfs -R 'ls -p /mnt' "$img" 2>/dev/null | awk -F/ '$6 != "." && $6 != ".." && $6 != "" { print $6 }')
debugfs -R 'stat /mnt' "$img" 2>/dev/null | grep -q 'Type: directory' || tm_fail "/mnt is not a directory"
[ -z "$mnt" ] || tm_fail "/mnt is not empty: $mnt"
# shellcheck disable=SC2046  # one argument per program, none with spaces (CMake's names)
"$TM_TOP/tools/mkrootfs" "$tmp/again.img" $(for p in $want; do echo "$bins/$p"; done) ||
  tm_fail "tools/mkrootfs failed"
cmp -s "$tmp/again.img" "$src" || tm_fail "tools/mkrootfs made different bytes from the same programs"
echo "rootfs_check: PASS ($board: e2fsck clean, /bin = ${list% }, each dumped byte for byte, /mnt empty, reproducible)"
