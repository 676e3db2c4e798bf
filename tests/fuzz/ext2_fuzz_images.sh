#!/usr/bin/env bash
# ext2_fuzz_images.sh OUTDIR - the base images of tests/fuzz/ext2_fuzz.c, made by Debian's
# mke2fs -d from two trees the fuzzer also reads (its model of a clean image starts from them):
#   OUTDIR/tree      hello.txt (12 bytes), small.bin (5000), big.bin (61440: the indirect block
#                    on 1 and 4 KiB blocks), a/b/c/deep.txt, manydir/ (80 empty files with
#                    50-byte names: 5 blocks of 1 KiB, 2 of 4 KiB), empty/, link -> hello.txt
#                    (fast), slowlink -> a 70-byte relative path to deep.txt (slow: in a block),
#                    loop1 <-> loop2, hardlink = small.bin (one inode, two links)
#   OUTDIR/tree-big  the same and huge.bin (307200: the double-indirect block on 1 KiB)
#   OUTDIR/0.img     tree, 1 KiB blocks, 1 MiB, 4 groups of 256 blocks, 256 inodes
#   OUTDIR/1.img     tree, 4 KiB blocks, 2 MiB, 2 groups of 256 blocks, 128 inodes
#   OUTDIR/2.img     tree-big, 1 KiB blocks, 2 MiB, 2 groups, no sparse_super (a superblock copy
#                    in every group), 128-byte inodes
# Byte for byte the same each time (fixed UUID, hash seed, times): a crash input found
# once replays later.
set -euo pipefail
PATH=$PATH:/sbin:/usr/sbin	# e2fsprogs
[ $# = 1 ] || { echo "usage: ext2_fuzz_images.sh OUTDIR" >&2; exit 2; }
out=$1
command -v mke2fs >/dev/null || { echo "ext2_fuzz_images.sh: mke2fs is missing: install Debian's e2fsprogs (tools/install-deps)" >&2; exit 1; }
export E2FSPROGS_FAKE_TIME=1700000000
rm -rf "$out/tree" "$out/tree-big"
mkdir -p "$out/tree"
t=$out/tree
# Bytes i*7+len%251 mod 256, deterministic and never a run of one value.
bytes() { python3 -c "import sys; n=int(sys.argv[1]); sys.stdout.buffer.write(bytes((i*7+n%251)&255 for i in range(n)))" "$1"; }
printf 'hello, ext2\n' >"$t/hello.txt"
bytes 5000 >"$t/small.bin"
bytes 61440 >"$t/big.bin"
mkdir -p "$t/a/b/c" "$t/manydir" "$t/empty"
printf 'three levels down\n' >"$t/a/b/c/deep.txt"
for i in $(seq -w 0 79); do : >"$t/manydir/an-entry-with-a-name-long-enough-to-fill-blocks-$i"; done
ln -s hello.txt "$t/link"
ln -s ./a/../a/./b/../b/c/../../b/c/../c/../../a/b/c/../c/./deep.txt "$t/slowlink"
ln -s loop2 "$t/loop1"
ln -s loop1 "$t/loop2"
ln "$t/small.bin" "$t/hardlink"
cp -a "$t" "$out/tree-big"
bytes 307200 >"$out/tree-big/huge.bin"
find "$t" "$out/tree-big" -exec touch -h -d @1700000000 {} +

mk() {	# mk N TREE SIZE mke2fs-options...
  local n=$1 tree=$2 size=$3
  shift 3
  rm -f "$out/$n.img"
  mke2fs -q -F -t ext2 -U 6c1f3a2e-0d4b-4b8e-9a51-3f0e2d7c9b10 -E hash_seed=1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9,root_owner=0:0 \
    "$@" -d "$tree" "$out/$n.img" "$size" >/dev/null
}
mk 0 "$t" 1M -b 1024 -g 256 -N 256
mk 1 "$t" 2M -b 4096 -g 256 -N 128
mk 2 "$out/tree-big" 2M -b 1024 -g 1024 -N 128 -I 128 -O ^sparse_super,^resize_inode
for i in 0 1 2; do e2fsck -fn "$out/$i.img" >/dev/null; done
