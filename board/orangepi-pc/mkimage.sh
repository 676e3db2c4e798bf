#!/usr/bin/env bash
# board/orangepi-pc/mkimage.sh - the Orange Pi PC's SD-card image, what a person writes to a card
# (docs/boards/orangepi-pc.md):
#   mkimage.sh [--no-env] [--args 'bootargs'] [--dtb file] OUT.img tinymm.bin
#   mkimage.sh --rescript [--args 'bootargs'] [--dtb file] CARD.img
#       (tools/run, on its private copy of a card: boot.scr rewritten, the DTB replaced)
# Layout (64 MiB, a power of two as QEMU's SD model wants): U-Boot SPL + U-Boot at 8 KiB (the
# H3 boot ROM reads sector 16), then two MBR partitions:
#   1: 1 MiB to 63 MiB, type 0x83, ext2, not bootable: boot.scr (bootargs from --args), uImage
#      (tinymm.bin at 0x40008000) and the board's DTB;
#   2: the last 1 MiB, type 0x01, FAT12, bootable: uboot.env alone.
# Debian's U-Boot reads its saved environment only from FAT, at "0:auto": the first partition
# flagged bootable (else the first partition), so the environment has a FAT partition of its
# own and the flag; that environment (no bootdelay, serial only, bootcmd = load mmc 0:1
# boot.scr) boots in ~1.5 s instead of ~7.5 s (HDMI, USB, the distro-boot scan).
# --no-env: partition 1 alone (to the card's end), nothing bootable: U-Boot keeps its built-in
# environment and its distro boot scans partition 1 (it scans the bootable partitions, or 1 when
# none is) and finds /boot.scr; the card for "U-Boot's defaults".
# Built without root or loop devices: mkfs.ext2 -d -E offset= and mkfs.vfat --offset write into
# the image file, mcopy fills the FAT, debugfs (IMG?offset=N) rewrites files in the ext2.  Every
# missing input is one line naming the Debian package.
set -euo pipefail
# Where the inputs are (ORANGEPI_UBOOT / ORANGEPI_DTB override them: the vendor's orangepi_pc
# U-Boot, a DTB of one's own; the tests point them at missing files).
UBOOT=${ORANGEPI_UBOOT:-/usr/lib/u-boot/orangepi_plus/u-boot-sunxi-with-spl.bin}	# Debian has no orangepi_pc build
DTB=${ORANGEPI_DTB:-/usr/local/share/tinymm/dtbs/sun8i-h3-orangepi-pc.dtb}	# tools/install-deps puts it there
DTB_NAME=sun8i-h3-orangepi-pc.dtb	# its name on the card, whichever file --dtb gives
LOAD=0x40008000
# The card in 512-byte sectors: 64 MiB, partition 1 from 1 MiB, the environment's last 1 MiB.
CARD_SECTORS=131072 P1_START=2048 ENV_SECTORS=2048
die() { echo "mkimage-orangepi: $*" >&2; exit 1; }
args="" rescript=0 dtb_given=0 env=1
while [ $# -gt 0 ]; do
  case "$1" in
    --args) args=$2; shift 2 ;;
    --dtb) DTB=$2; dtb_given=1; shift 2 ;;
    --rescript) rescript=1; shift ;;
    --no-env) env=0; shift ;;
    -*) die "unknown option '$1'" ;;
    *) break ;;
  esac
done
need() { command -v "$1" >/dev/null || die "$1 is missing: install Debian's $2 (tools/install-deps)"; }
need mkimage u-boot-tools
need sfdisk fdisk
need debugfs e2fsprogs

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# The boot script: U-Boot's hush, the arguments single-quoted: hush expands nothing there, so
# a $ (the shell's `$!`) and a " arrive as they are.  Hush has no way to pass a ' or a \ (inside
# single quotes it drops a backslash; inside double quotes it keeps one before a $ or a ", and
# expands $name): such arguments are refused with one line rather than changed.
# `load` reads whatever file system mmc 0:1 holds (ext2 here).
script() {
  case $args in *\'* | *\\*) die "the kernel arguments cannot hold ' or \\ (U-Boot's hush cannot pass them): $args" ;; esac
  local q="'$args'"
  cat >"$tmp/boot.cmd" <<EOS
setenv bootargs $q
load mmc 0:1 \${kernel_addr_r} uImage
load mmc 0:1 \${fdt_addr_r} $DTB_NAME
bootm \${kernel_addr_r} - \${fdt_addr_r}
EOS
  mkimage -A arm -O linux -T script -C none -n "tinymm boot script" -d "$tmp/boot.cmd" "$tmp/boot.scr" >/dev/null
}
# Partition 1's byte offset in a card image (sfdisk lists the MBR's partitions in order).
part1_offset() {
  local start
  start=$(sfdisk -J "$1" 2>/dev/null | awk -F'[:,]' '/"node"/ { n++ } n == 1 && /"start"/ { gsub(/ /, "", $2); print $2; exit }')
  [ -n "$start" ] || die "$1: no MBR partition table"
  echo $((start * 512))
}
# Replace (or add) /NAME in the ext2 file system at byte OFF of IMG with FILE, then read it back:
# debugfs exits 0 even when one of its commands failed.
ext2_put() {
  local img=$1 off=$2 file=$3 name=$4
  printf 'rm /%s\nwrite %s /%s\n' "$name" "$file" "$name" >"$tmp/cmds"
  debugfs -w -f "$tmp/cmds" "$img?offset=$off" >/dev/null 2>&1
  debugfs -R "dump /$name $tmp/readback" "$img?offset=$off" >/dev/null 2>&1
  cmp -s "$file" "$tmp/readback" || die "$img: could not write $name into its ext2 partition 1"
}

if [ $rescript = 1 ]; then
  [ $# = 1 ] && [ $env = 1 ] || die "usage: mkimage.sh --rescript [--args 'bootargs'] [--dtb file] CARD.img"
  img=$1
  [ -f "$img" ] || die "card image '$img' not found"
  off=$(part1_offset "$img")
  # ext2's magic, 0xef53 little-endian at byte 56 of the superblock (1 KiB into the partition).
  [ "$(od -An -tx1 -j $((off + 1080)) -N2 "$img" | tr -d ' ')" = 53ef ] ||
    die "$img: partition 1 is not ext2 (a card from an older mkimage.sh? rebuild it: make image BOARD=orangepi-pc)"
  [ $dtb_given = 0 ] || [ -f "$DTB" ] || die "no DTB file '$DTB'"
  script
  ext2_put "$img" "$off" "$tmp/boot.scr" boot.scr
  [ $dtb_given = 0 ] || ext2_put "$img" "$off" "$DTB" "$DTB_NAME"
  exit 0
fi

[ $# = 2 ] || die "usage: mkimage.sh [--no-env] [--args 'bootargs'] [--dtb file] OUT.img tinymm.bin"
out=$1 bin=$2
need mkfs.ext2 e2fsprogs
if [ $env = 1 ]; then
  need mkenvimage u-boot-tools
  need mkfs.vfat dosfstools
  need mcopy mtools
fi
[ -f "$UBOOT" ] || die "no $UBOOT: install Debian's u-boot-sunxi:armhf (tools/install-deps)"
[ -f "$DTB" ] || die "no $DTB: tools/install-deps takes it from Debian's linux-image-armmp:armhf"
[ -f "$bin" ] || die "no kernel payload $bin (build the board first: make BOARD=orangepi-pc)"

mkdir "$tmp/boot"
script
cp "$tmp/boot.scr" "$tmp/boot/"
cp "$DTB" "$tmp/boot/$DTB_NAME"
mkimage -A arm -O linux -T kernel -C none -a $LOAD -e $LOAD -n tinymm -d "$bin" "$tmp/boot/uImage" >/dev/null

# The partition table first (the file systems are written at their offsets into the sized,
# sparse card image); partition 2 is the only bootable one, so "0:auto" finds uboot.env there.
p1_sectors=$((CARD_SECTORS - P1_START))
[ $env = 0 ] || p1_sectors=$((p1_sectors - ENV_SECTORS))
truncate -s $((CARD_SECTORS * 512)) "$tmp/card.img"
{
  echo 'label: dos'
  echo "start=$P1_START, size=$p1_sectors, type=83"
  [ $env = 0 ] || echo "start=$((P1_START + p1_sectors)), size=$ENV_SECTORS, type=1, bootable"
} | sfdisk -q "$tmp/card.img" >/dev/null || die "sfdisk could not write the partition table"
# ext2 with 1 KiB blocks and 128-byte inodes whatever the host's mke2fs.conf says (U-Boot's ext4
# driver reads both); -d copies the folder in, -E offset writes at partition 1's start.
mkfs.ext2 -q -F -b 1024 -I 128 -L tinymm -d "$tmp/boot" -E offset=$((P1_START * 512)) \
  "$tmp/card.img" $((p1_sectors / 2)) >/dev/null 2>&1 || die "mkfs.ext2 could not build the boot partition"
if [ $env = 1 ]; then
  # U-Boot's environment replaces its built-in one whole, so the load addresses are repeated
  # (sunxi's defaults); stdout without vidconsole skips HDMI, no preboot skips USB.
  cat >"$tmp/env.txt" <<'EOS'
bootdelay=0
stdin=serial
stdout=serial
stderr=serial
kernel_addr_r=0x42000000
fdt_addr_r=0x43000000
scriptaddr=0x43100000
bootcmd=load mmc 0:1 ${scriptaddr} boot.scr && source ${scriptaddr}
EOS
  mkenvimage -s 0x10000 -o "$tmp/uboot.env" "$tmp/env.txt"
  env_start=$((P1_START + p1_sectors))
  mkfs.vfat -F 12 -n UBOOT-ENV --offset $env_start "$tmp/card.img" $((ENV_SECTORS / 2)) >/dev/null ||
    die "mkfs.vfat could not build the environment partition"
  MTOOLS_SKIP_CHECK=1 mcopy -i "$tmp/card.img@@$((env_start * 512))" "$tmp/uboot.env" :: ||
    die "mcopy could not write uboot.env into the environment partition"
fi
dd if="$UBOOT" of="$tmp/card.img" bs=1024 seek=8 conv=notrunc status=none
mv "$tmp/card.img" "$out"
