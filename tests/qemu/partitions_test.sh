#!/usr/bin/env bash
# partitions_test.sh BOARD CASE DIR - MBR partitions on a virtio disk made by Debian's sfdisk
# (tests/qemu/partitions.cmake, docs/block-partitions.md).  Each case boots once or twice:
#   rw       a 16 MiB disk of seeded random bytes, then its table: 3 primaries, an extended (4)
#            with 2 logicals (5, 6).  The kernel lists vda1..vda6 with their sizes (`blk list`,
#            `partitions`), writes each data partition whole with the `blk write` stream (seed
#            10 + N for vdaN), syncs, drops its caches and reads each back (`blk sha256`, the
#            host's digest of the stream); the host then checks the whole image byte for byte:
#            each partition holds exactly its stream, everything else (the tables too) is the
#            bytes it had.  The KTAP suite `partitions` (bios past a partition's end, the
#            remap, the counters) runs on the same disk in a second boot.
#   rw_wrong_seed  rw, but the host expects vda3 to hold another seed's stream: must fail.
#   beyond   the table made on 16 MiB, the disk cut to 8 MiB: one line refuses it, vda alone.
#   overlap  partition 2's start moved into partition 1: one line refuses it, vda alone.
#   ext2     mke2fs's filesystem copied into vda2: `mount vda2 /mnt`, a file written, umount;
#            the host's e2fsck -fn on the partition is clean, the file's bytes exact, and
#            everything outside vda2 untouched; then tinymm.root=vda2 boots with it as root.
. "$(dirname "$0")/lib.sh"
tm_init partitions_test
[ $# = 3 ] || tm_usage "usage: partitions_test.sh BOARD rw|rw_wrong_seed|beyond|overlap|ext2 DIR"
board=$1 case=$2 dir=$3
# rw_wrong_seed: rw, with the host expecting vda3 to hold seed 14's stream: must fail (the
# checks can tell one partition's bytes from another's).
wrong=0
[ "$case" = rw_wrong_seed ] && case=rw wrong=14
tm_fresh_dir "$dir"
img=$dir/disk.img base=$dir/base.img
wb="python3 $TM_QEMU/writeback_expect.py"
S='; '
LOG_RE='^\[ *[0-9]+\.[0-9]{6}\] '

# sfdisk IMAGE < table: a fixed label-id, so the image is the same on every run.
table() { { echo "label: dos"; echo "label-id: 0x7e57ab1e"; cat; } |
  sfdisk -q --no-reread --no-tell-kernel "$1" >/dev/null || tm_fail "sfdisk refused the table"; }
# boot APPEND [boot_check options]: the console in $out (and printed), or a failure.
boot() {
  local append=$1; shift
  out=$("$TM_CHECK" --board "$board" --disk "$img" --append "$append" "$@")
  local rc=$?
  printf '%s\n' "$out"
  [ $rc = 0 ] || tm_fail "boot_check failed"
  tm_no_complaints "$out"
}
# The kernel's `blk sha256` output for the N-th such command must be the host's digest.
sha_of() { printf '%s\n' "$out" | awk -v n="$1" '/^tinymm> blk sha256 / { k++; next } k == n && /^[0-9a-f]+$/ && length($0) == 64 { print; exit }'; }
# A refused table: exactly one line naming vda and the reason; vda alone, no vdaN anywhere.
refused() {
  boot "tinymm.run=blk list${S}partitions" --expect "${LOG_RE}vda: partition table refused: $1$" \
    --expect "^ 254        0      16384 vda$" --reject "vda[0-9]"
  [ "$(grep -c 'partition table refused' <<<"$out")" = 1 ] || tm_fail "not exactly one refusal line"
}

tm_mkimg "$img" $((16 << 20)) 37
case $case in
rw)
  table "$img" <<T
start=2048,size=4096,type=83
start=6144,size=4096,type=83
start=10240,size=4096,type=83
start=14336,size=18432,type=5
start=16384,size=2048,type=83
start=20480,size=8192,type=83
T
  cp "$img" "$base"
  # vdaN: start, sectors (vda4, the extended container, is never written: it holds the EBR).
  parts=(1:2048:4096 2:6144:4096 3:10240:4096 5:16384:2048 6:20480:8192)
  cmds="blk list${S}partitions"
  for p in "${parts[@]}"; do
    IFS=: read -r n start len <<<"$p"
    cmds+="${S}blk write vda$n 0 $((len * 512)) $((10 + n))"
  done
  cmds+="${S}sync${S}drop_caches"
  for p in "${parts[@]}"; do
    IFS=: read -r n start len <<<"$p"
    cmds+="${S}blk sha256 vda$n 0 $((len * 512))"
  done
  cmds+="${S}blk stats"
  expect=()
  for p in 1:2048:4096:83 2:6144:4096:83 3:10240:4096:83 4:14336:2:05 5:16384:2048:83 6:20480:8192:83; do
    IFS=: read -r n start len type <<<"$p"
    ext=""; [ "$n" = 4 ] && ext=" \\(extended\\)"
    expect+=(--expect "^  vda$n: $((len * 512)) bytes \\($len sectors\\), start sector $start of vda, partition $n, type 0x$type$ext, ok$")
    expect+=(--expect "^ 254  +$n +$((len / 2)) vda$n$")
  done
  boot "tinymm.run=$cmds" "${expect[@]}" --expect "${LOG_RE}vda: vda1 vda2 vda3 vda4 < vda5 vda6 >$" \
    --expect "^major minor  #blocks  name$" --expect "^ 254        0      16384 vda$"
  i=0 checks=()
  for p in "${parts[@]}"; do
    IFS=: read -r n start len <<<"$p"
    i=$((i + 1))
    seed=$((10 + n))
    [ "$n" = 3 ] && [ "$wrong" != 0 ] && seed=$wrong
    want=$($wb stream $seed $((len * 512)) | sha256sum | cut -d' ' -f1)
    [ "$(sha_of $i)" = "$want" ] || tm_fail "vda$n read back $(sha_of $i), the stream's digest is $want"
    checks+=("$((start * 512)):$((len * 512)):$seed")
  done
  echo "partitions_test: each partition read back its stream (blk sha256)"
  # Each partition's bytes exactly its stream; every other byte of the disk as it was.
  $wb check "$img" "$base" "${checks[@]}" || tm_fail "the image is not what the writes make"
  echo "partitions_test: the image is the base with exactly each partition's stream written"
  # The written disk is the base of the KTAP suite's boot (its table is the same).
  boot "tinymm.test=partitions" --ktap
  ;;
beyond)
  truncate -s 32M "$img"
  table "$img" <<T
start=2048,size=4096
start=8192,size=32768
T
  truncate -s 16M "$img"
  refused "partition 2 \\(blocks 8192-40959\\) ends beyond the disk's end \\(32768 blocks\\)${S}\
the whole disk is used, no partitions"
  ;;
overlap)
  table "$img" <<T
start=2048,size=4096
start=8192,size=4096
T
  # Entry 2 (0x1ce), its start (+8): into partition 1.
  python3 -c "import struct,sys; f=open(sys.argv[1],'r+b'); f.seek(0x1d6); f.write(struct.pack('<I', 4096))" "$img"
  refused "partitions 1 and 2 overlap \\(blocks 2048-6143 and 4096-8191\\)${S}\
the whole disk is used, no partitions"
  ;;
ext2)
  table "$img" <<T
start=2048,size=4096
start=6144,size=16384
T
  mke2fs -q -F -t ext2 -b 1024 "$dir/fs.img" 8M >/dev/null || tm_fail "mke2fs failed"
  dd if="$dir/fs.img" of="$img" bs=512 seek=6144 conv=notrunc status=none
  cp "$img" "$base"
  boot "tinymm.run=mkdir /mnt${S}mount vda2 /mnt${S}fwrite /mnt/f 0 100000 5${S}sha256sum /mnt/f${S}umount /mnt${S}mount" \
    --expect "^$($wb stream 5 100000 | sha256sum | cut -d' ' -f1)  /mnt/f$"
  dd if="$img" of="$dir/part2.img" bs=512 skip=6144 count=16384 status=none
  e2fsck -fn "$dir/part2.img" || tm_fail "e2fsck -fn: vda2's filesystem is not clean"
  debugfs -R "dump /f $dir/f.out" "$dir/part2.img" 2>/dev/null
  cmp "$dir/f.out" <($wb stream 5 100000) || tm_fail "/f in vda2 is not the stream"
  echo "partitions_test: e2fsck -fn clean, /f exact"
  # Outside vda2, nothing changed.
  cmp -n $((6144 * 512)) "$img" "$base" || tm_fail "bytes before vda2 changed"
  cmp -i $((22528 * 512)) "$img" "$base" || tm_fail "bytes after vda2 changed"
  echo "partitions_test: bytes outside vda2 untouched"
  # vda2 as the root filesystem.
  boot "tinymm.root=vda2 tinymm.run=sha256sum /f" \
    --expect "${LOG_RE}VFS: Mounted root \\(ext2 filesystem\\) on device vda2\\.$" \
    --expect "^$($wb stream 5 100000 | sha256sum | cut -d' ' -f1)  /f$"
  ;;
*) tm_usage "unknown case $case" ;;
esac
echo "partitions_test: PASS"
