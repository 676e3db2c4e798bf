#!/usr/bin/env bash
# board/raspi2b/mkimage.sh - the Raspberry Pi 2B's boot-partition folder, what a person copies
# onto the card's FAT boot partition next to the firmware (docs/boards/raspi2b.md):
#   mkimage.sh [--args 'bootargs'] [--dtb file] OUTDIR tinymm.bin
# OUTDIR gets kernel7.img (tinymm.bin: the firmware loads it at 0x8000; QEMU at 0x10000, and
# the image moves itself), config.txt (kernel=, device_tree=, enable_uart=1), cmdline.txt (the
# bootargs the firmware writes into the DTB's /chosen; empty unless --args) and the board's DTB
# from Debian's armmp kernel.  The firmware itself (bootcode.bin, start.elf, fixup.dat) is not
# in Debian's main archive: the docs say where it comes from.  Every missing input is one line
# naming the Debian package, and nothing is written then.
#   mkimage.sh --card CARD.img BOOTDIR
# A whole 64 MiB card in the Pi's shape (a power of two, as QEMU's SD model wants): an MBR,
# partition 1 FAT16 (type 0x0e, 1-33 MiB: too small for FAT32) holding BOOTDIR's files, partition 2 an empty ext2
# (type 0x83, 33-64 MiB).  QEMU boots the kernel from the folder, not the card; the tests put
# this card in the slot (tools/run --sdimg) as the disk mmcblk0 (docs/boards/raspi2b.md).
# Built without root or loop devices (mkfs.vfat --offset, mcopy -i IMG@@OFF, mkfs.ext2 -E offset=).
set -euo pipefail
DTB=${RASPI_DTB:-/usr/local/share/tinymm/dtbs/bcm2836-rpi-2-b.dtb}	# tools/install-deps puts it there
DTB_NAME=bcm2836-rpi-2-b.dtb	# its name in the folder (config.txt's device_tree=)
die() { echo "mkimage-raspi2b: $*" >&2; exit 1; }
args=""
need() { command -v "$1" >/dev/null || die "$1 is missing: install Debian's $2 (tools/install-deps)"; }
if [ "${1:-}" = --card ]; then
  [ $# = 3 ] || die "usage: mkimage.sh --card CARD.img BOOTDIR"
  card=$2 boot=$3
  [ -f "$boot/config.txt" ] || die "$boot: no config.txt (build it: make image BOARD=raspi2b)"
  need sfdisk fdisk
  need mkfs.vfat dosfstools
  need mcopy mtools
  need mkfs.ext2 e2fsprogs
  p1=2048 p1_sectors=65536 p2=67584 p2_sectors=63488	# 1-33 MiB, 33-64 MiB
  tmp=$(mktemp "$card.XXXXXX"); trap 'rm -f "$tmp"' EXIT
  chmod 644 "$tmp"
  truncate -s 64M "$tmp"
  printf 'label: dos\nstart=%s, size=%s, type=e\nstart=%s, size=%s, type=83\n' \
    $p1 $p1_sectors $p2 $p2_sectors | sfdisk -q "$tmp" >/dev/null || die "sfdisk failed on $tmp"
  mkfs.vfat -F 16 -n BOOT --offset $p1 "$tmp" $((p1_sectors / 2)) >/dev/null 2>&1 ||
    die "mkfs.vfat failed on $tmp"
  mcopy -i "$tmp@@$((p1 * 512))" "$boot"/* ::/ || die "mcopy could not fill partition 1"
  mkfs.ext2 -q -F -E offset=$((p2 * 512)) "$tmp" $((p2_sectors / 2)) >/dev/null 2>&1 ||
    die "mkfs.ext2 failed on $tmp"
  mv "$tmp" "$card"
  trap - EXIT
  exit 0
fi
while [ $# -gt 0 ]; do
  case "$1" in
    --args) args=$2; shift 2 ;;
    --dtb) DTB=$2; shift 2 ;;
    -*) die "unknown option '$1'" ;;
    *) break ;;
  esac
done
[ $# = 2 ] || die "usage: mkimage.sh [--args 'bootargs'] [--dtb file] OUTDIR tinymm.bin"
out=$1 bin=$2
[ -f "$DTB" ] || die "no $DTB: tools/install-deps takes it from Debian's linux-image-armmp:armhf"
[ -f "$bin" ] || die "no kernel payload $bin (build the board first: make BOARD=raspi2b)"
case "$args" in *$'\n'*) die "--args: cmdline.txt is one line" ;; esac

# Built aside and swapped in whole, so a failure leaves the old folder as it was.
tmp=$(mktemp -d "$(dirname "$out")/.boot.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
cp "$bin" "$tmp/kernel7.img"
cp "$DTB" "$tmp/$DTB_NAME"
cat >"$tmp/config.txt" <<EOS
# tinymm on the Raspberry Pi 2 Model B (docs/boards/raspi2b.md)
kernel=kernel7.img
device_tree=$DTB_NAME
enable_uart=1
EOS
printf '%s\n' "$args" >"$tmp/cmdline.txt"
rm -rf "$out"
mv "$tmp" "$out"
trap - EXIT
