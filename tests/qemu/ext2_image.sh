#!/usr/bin/env bash
# ext2_image.sh OUT.img BLOCKSIZE SIZE - an ext2 image made by Debian's mke2fs -d from a tree
# whose contents are known, for the ext2 tests; OUT.img.sha256 gets `sha256sum`'s lines for
# every regular file (paths from the image's root), which tinymm's `sha256sum` must reproduce.
# The tree: a small text file, files that need the indirect block (big.bin) and, on 1 KiB
# blocks, the triple-indirect one (sparse.bin: 8 KiB of data 68 MiB in, holes before it), a
# directory of 200 entries (more than one block), a path 4 directories deep, a fast symlink
# (target in the inode), a slow one (target over 60 bytes, in a block), an absolute one, a
# two-link loop, and a hard link.  File bytes are the `blk write` stream (xorshift64*,
# tests/qemu/writeback_expect.py) with the seed the file's name gives.
set -euo pipefail
PATH=$PATH:/sbin:/usr/sbin	# e2fsprogs
[ $# = 3 ] || { echo "usage: ext2_image.sh OUT.img BLOCKSIZE SIZE" >&2; exit 2; }
out=$1 bs=$2 size=$3
here=$(cd "$(dirname "$0")" && pwd)
command -v mke2fs >/dev/null || { echo "ext2_image.sh: mke2fs is missing: install Debian's e2fsprogs (tools/install-deps)" >&2; exit 1; }
tree=$(mktemp -d); trap 'rm -rf "$tree"' EXIT
stream() { python3 "$here/writeback_expect.py" stream "$1" "$2"; }

printf 'hello, ext2\n' >"$tree/hello.txt"
stream 1 5000 >"$tree/small.bin"
stream 2 307200 >"$tree/big.bin"
truncate -s $((68 << 20)) "$tree/sparse.bin"
stream 3 8192 >>"$tree/sparse.bin"
mkdir -p "$tree/dir1/dir2/dir3/dir4"
printf 'four levels down\n' >"$tree/dir1/dir2/dir3/dir4/deep.txt"
mkdir "$tree/manydir"
for i in $(seq -w 0 199); do printf '%s\n' "$i" >"$tree/manydir/file-with-a-longer-name-$i"; done
ln -s hello.txt "$tree/link"
ln -s /dir1/dir2/dir3/dir4/deep.txt "$tree/abslink"
ln -s ./dir1/../dir1/./dir2/../dir2/dir3/../../dir2/dir3/dir4/../dir4/deep.txt "$tree/slowlink"
ln -s loop2 "$tree/loop1"
ln -s loop1 "$tree/loop2"
ln "$tree/small.bin" "$tree/hardlink"

rm -f "$out"
mke2fs -q -F -t ext2 -b "$bs" -d "$tree" "$out" "$size" >/dev/null
(cd "$tree" && find . -type f | sort | sed 's|^\./|/|' | while read -r f; do
  printf '%s  %s\n' "$(sha256sum <"$tree$f" | cut -d' ' -f1)" "$f"
done) >"$out.sha256"
