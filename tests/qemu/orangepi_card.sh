#!/usr/bin/env bash
# orangepi_card.sh [--no-env] CARD.img - the Orange Pi PC's SD-card image as a person writes it
# (board/orangepi-pc/mkimage.sh), judged with tools no one here wrote: sfdisk reads the MBR,
# e2fsck -fn and debugfs the ext2 partition, fsck.vfat -n and mtools the FAT one, mkimage -l the
# uImage's header.  64 MiB; U-Boot SPL + U-Boot at 8 KiB ($ORANGEPI_UBOOT, else Debian's);
# partition 1 at sector 2048, type 83, not bootable, a clean ext2 holding boot.scr, uImage (load
# = entry = 0x40008000) and sun8i-h3-orangepi-pc.dtb; partition 2, the card's last 1 MiB, FAT,
# the only bootable one (U-Boot's "0:auto"), holding uboot.env alone (64 KiB, mkenvimage -s
# 0x10000).  --no-env: partition 1 alone, to the card's end, nothing bootable.
. "$(dirname "$0")/lib.sh"
tm_init orangepi_card
env=1
[ "${1:-}" = --no-env ] && { env=0; shift; }
[ $# = 1 ] || tm_usage "orangepi_card.sh [--no-env] CARD.img"
img=$1
uboot=${ORANGEPI_UBOOT:-/usr/lib/u-boot/orangepi_plus/u-boot-sunxi-with-spl.bin}
[ -f "$img" ] || tm_fail "no card image $img"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ "$(stat -c %s "$img")" = 67108864 ] || tm_fail "$img is $(stat -c %s "$img") bytes, not 64 MiB"
cmp -s -n "$(stat -c %s "$uboot")" "$uboot" "$img" -i 0:8192 || tm_fail "no U-Boot ($uboot) at 8 KiB"

# The MBR, one line per partition: start size type bootable.
parts=$(sfdisk -J "$img" | python3 -c '
import json, sys
for p in json.load(sys.stdin)["partitiontable"]["partitions"]:
    print(p["start"], p["size"], p["type"], "bootable" if p.get("bootable") else "-")') ||
  tm_fail "sfdisk finds no partition table"
echo "partitions (start size type bootable):"
while read -r line; do echo "  $line"; done <<<"$parts"
read -r p1_start p1_size p1_type p1_boot <<<"$(sed -n 1p <<<"$parts")"
[ "$p1_start" = 2048 ] || tm_fail "partition 1 starts at sector $p1_start, not 2048 (1 MiB)"
[ "$p1_type" = 83 ] || tm_fail "partition 1 has type $p1_type, not 83 (Linux)"
[ "$p1_boot" = - ] || tm_fail "partition 1 is bootable: U-Boot would look for uboot.env on it"
if [ $env = 1 ]; then
  [ "$(wc -l <<<"$parts")" = 2 ] || tm_fail "not two partitions"
  read -r p2_start p2_size p2_type p2_boot <<<"$(sed -n 2p <<<"$parts")"
  [ $((p1_start + p1_size)) = "$p2_start" ] && [ $((p2_start + p2_size)) = 131072 ] ||
    tm_fail "partition 1 does not reach partition 2, or partition 2 does not end the card"
  [ "$p2_size" = 2048 ] || tm_fail "partition 2 is $p2_size sectors, not 1 MiB"
  case "$p2_type" in 1|4|6|e) ;; *) tm_fail "partition 2 has type $p2_type, not a FAT one" ;; esac
  [ "$p2_boot" = bootable ] || tm_fail "partition 2 is not bootable: U-Boot's 0:auto would not pick it"
else
  [ "$(wc -l <<<"$parts")" = 1 ] || tm_fail "--no-env: more than one partition"
  [ $((p1_start + p1_size)) = 131072 ] || tm_fail "--no-env: partition 1 does not end the card"
fi

# Partition 1: a clean ext2 (e2fsck -f: every pass even on a clean file system; -n: read only).
dd if="$img" of="$tmp/p1" bs=512 skip="$p1_start" count="$p1_size" status=none
e2fsck -fn "$tmp/p1" >"$tmp/fsck" 2>&1 || { cat "$tmp/fsck"; tm_fail "e2fsck -fn: partition 1 is not a clean ext2"; }
# ext2, not ext3/ext4: no journal, no extents.
features=$(dumpe2fs -h "$tmp/p1" 2>/dev/null | sed -n 's/^Filesystem features: *//p')
echo "partition 1 features: $features"
[ -n "$features" ] && ! grep -Eqw 'has_journal|extent' <<<"$features" || tm_fail "partition 1 is not ext2"
ls=$(debugfs -R 'ls -l /' "$tmp/p1" 2>/dev/null)
printf '%s\n' "$ls"
for f in boot.scr uImage sun8i-h3-orangepi-pc.dtb; do
  # debugfs ls -l: inode, mode, (links), uid, gid, size, date, time, name
  awk -v f="$f" '$NF == f && $2 ~ /^100/ && $6 > 0 { ok = 1 } END { exit !ok }' <<<"$ls" ||
    tm_fail "partition 1 has no regular, non-empty /$f"
done
debugfs -R "dump /uImage $tmp/uImage" "$tmp/p1" 2>/dev/null
mkimage -l "$tmp/uImage" >"$tmp/hdr" 2>&1 || { cat "$tmp/hdr"; tm_fail "/uImage has no valid uImage header"; }
grep -q 'Load Address: 40008000' "$tmp/hdr" && grep -q 'Entry Point:  40008000' "$tmp/hdr" ||
  { cat "$tmp/hdr"; tm_fail "/uImage does not load and enter at 0x40008000"; }
debugfs -R "dump /boot.scr $tmp/boot.scr" "$tmp/p1" 2>/dev/null
mkimage -l "$tmp/boot.scr" | grep -Eq '^Image Type: +ARM Linux Script' || tm_fail "/boot.scr is not a U-Boot script image"

# Partition 2: a clean FAT holding uboot.env alone.
if [ $env = 1 ]; then
  dd if="$img" of="$tmp/p2" bs=512 skip="$p2_start" count="$p2_size" status=none
  fsck.vfat -n "$tmp/p2" >"$tmp/fsck" 2>&1 || { cat "$tmp/fsck"; tm_fail "fsck.vfat -n: partition 2 is not a clean FAT"; }
  dir=$(MTOOLS_SKIP_CHECK=1 mdir -b -i "$tmp/p2" ::) || tm_fail "mdir cannot read partition 2"
  echo "partition 2: $dir"
  [ "$dir" = "::/uboot.env" ] || tm_fail "partition 2 holds '$dir', not uboot.env alone"
  MTOOLS_SKIP_CHECK=1 mcopy -i "$tmp/p2" ::uboot.env "$tmp/uboot.env"
  [ "$(stat -c %s "$tmp/uboot.env")" = 65536 ] || tm_fail "uboot.env is not 64 KiB (U-Boot's ENV_SIZE)"
fi
echo "orangepi_card: PASS: $img"
