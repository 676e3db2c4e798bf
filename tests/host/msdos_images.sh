#!/usr/bin/env bash
# msdos_images.sh DIR - the MBR tables tests/host/msdos_test.c parses, made by Debian's sfdisk
# (util-linux) at test time; where sfdisk refuses to write a bad table (overlap, a loop, a
# partition past the end), a good one is written and then broken by a few bytes, said below.
# Sparse files: only the tables are written.  Same bytes every run (label-id is fixed).
set -euo pipefail
PATH=$PATH:/sbin:/usr/sbin
dir=$1
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"

mk() {	# mk NAME SIZE: an empty image, then sfdisk reads the table from stdin
  truncate -s "$2" "$1"
  { echo "label: dos"; echo "label-id: 0x7e57ab1e"; cat; } | sfdisk -q --no-reread --no-tell-kernel "$1" >/dev/null
}
# put32 FILE OFFSET VALUE: a little-endian 32-bit value into the image
put32() { python3 -c "import struct,sys; f=open(sys.argv[1],'r+b'); f.seek(int(sys.argv[2],0)); f.write(struct.pack('<I', int(sys.argv[3],0)))" "$@"; }
# put8 FILE OFFSET VALUE
put8() { python3 -c "import sys; f=open(sys.argv[1],'r+b'); f.seek(int(sys.argv[2],0)); f.write(bytes([int(sys.argv[3],0)]))" "$@"; }

# Three primaries of three types, one active.
mk primaries.img 16M <<T
start=2048,size=4096,type=83,bootable
start=6144,size=2048,type=c
start=8192,size=8192,type=82
T
# Three primaries, an extended (type 5) with two logicals; and the same with type 0x0f and 0x85.
for t in 5 f 85; do
mk extended_$t.img 16M <<T
start=2048,size=4096,type=83
start=6144,size=4096,type=83
start=10240,size=4096,type=83
start=14336,size=18432,type=$t
start=16384,size=2048,type=83
start=20480,size=4096,type=83
T
done
# A table with no partitions; a disk with no signature at all.
mk empty.img 1M </dev/null
truncate -s 1M nosig.img
# A GPT: its protective MBR has one 0xee entry.
truncate -s 4M gpt.img
printf 'label: gpt\nstart=2048,size=2048\n' | sfdisk -q --no-reread --no-tell-kernel gpt.img >/dev/null
# Made on 16 MiB, then the disk cut to 8 MiB: partition 2 (8192+16384) runs past the end.
mk beyond.img 16M <<T
start=2048,size=4096
start=8192,size=16384
T
truncate -s 8M beyond.img
# A logical partition past the end: the extended partition covers it, the disk is cut short.
mk beyond_logical.img 16M <<T
start=2048,size=30720,type=5
start=4096,size=2048
start=8192,size=20480
T
truncate -s 8M beyond_logical.img
# Two primaries, then partition 2's start (entry 2 at 0x1ce, start at +8) moved into partition 1.
mk overlap.img 16M <<T
start=2048,size=4096
start=8192,size=4096
T
put32 overlap.img 0x1d6 4096
# Two logicals overlapping: the second logical's start, relative to its EBR, moved back
# (its EBR is 2048 blocks before the logical; EBR entry 0's start at +0x1c6).
mk overlap_logical.img 16M <<T
start=2048,size=30720,type=5
start=4096,size=4096
start=10240,size=4096
T
# The first EBR is at 2048 (the extended start); its entry 0's size (+0x1ca) grows from 4096 to
# 8192: logical 5 then runs over logical 6 (10240..14335).
put32 overlap_logical.img $(( 2048 * 512 + 0x1ca )) 8192
# A looping chain: the second EBR's link (entry 1, type 5) points back to the first EBR
# (relative start 0 = the extended partition's start).
cp extended_5.img loop.img
ebr1=$(( 14336 * 512 ))
link_off=$(( ebr1 + 0x1d6 ))	# first EBR, entry 1's start: where the second EBR is
ebr2=$(( ( 14336 + $(python3 -c "import struct,sys; f=open('loop.img','rb'); f.seek($link_off); print(struct.unpack('<I', f.read(4))[0])") ) * 512 ))
# The second EBR gets a link entry of its own: type 5, start 0 (back to the first), size 1.
put8 loop.img $(( ebr2 + 0x1d2 )) 5
put32 loop.img $(( ebr2 + 0x1d6 )) 0
put32 loop.img $(( ebr2 + 0x1da )) 1
# Chains of 32 (the most tinymm takes) and 33 logicals.
for n in 32 33; do
  { echo "start=2048,type=5"; for _ in $(seq "$n"); do echo "size=2048"; done; } | mk chain$n.img 200M
done
# A FAT-style boot sector: 0x55AA but a boot indicator that is neither 0 nor 0x80.
truncate -s 1M fatboot.img
put8 fatboot.img 510 0x55
put8 fatboot.img 511 0xaa
put8 fatboot.img 0x1be 0x3c
# Logical 6 grown (its EBR's entry 0 size, +0x1ca) past the extended partition's end (32767).
cp extended_5.img outside.img
ebr2=$(( ( 14336 + $(python3 -c "import struct,sys; f=open('outside.img','rb'); f.seek($link_off); print(struct.unpack('<I', f.read(4))[0])") ) * 512 ))
put32 outside.img $(( ebr2 + 0x1ca )) 16384
# The geometry of tests/qemu/partitions_test.sh's rw disk, for the `partitions` KTAP suite on
# the host (tests/host/partitions_test.c).
mk ktest.img 16M <<T
start=2048,size=4096,type=83
start=6144,size=4096,type=83
start=10240,size=4096,type=83
start=14336,size=18432,type=5
start=16384,size=2048,type=83
start=20480,size=8192,type=83
T
