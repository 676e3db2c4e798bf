#!/usr/bin/env bash
# board/orangepi-pc/mkimage.sh - the Orange Pi PC's SD-card image, what a person writes to a card
# (docs/boards/orangepi-pc.md):
#   mkimage.sh [--args 'bootargs'] [--dtb file] OUT.img tinymm.bin
#   mkimage.sh --rescript [--args 'bootargs'] [--dtb file] CARD.img
#       (tools/run, on its private copy of a card: boot.scr rewritten, the DTB replaced)
# Layout (64 MiB, a power of two as QEMU's SD model wants): U-Boot SPL + U-Boot at 8 KiB (the
# H3 boot ROM reads sector 16), an MBR partition from 1 MiB to the end, FAT16 (mkfs.vfat
# --offset and mtools: no root, no loop device) holding boot.scr (bootargs from --args), uImage
# (tinymm.bin at 0x40008000), the board's DTB and uboot.env.  FAT, not ext2: Debian's U-Boot
# reads its environment only from uboot.env on FAT in mmc 0:1, and that environment (no
# bootdelay, serial only, bootcmd = boot.scr) boots in ~1.3 s instead of ~7 s (HDMI, USB, the
# distro-boot scan).  Every missing input is one line naming the Debian package.
set -euo pipefail
# Where the inputs are (ORANGEPI_UBOOT / ORANGEPI_DTB override them: the vendor's orangepi_pc
# U-Boot, a DTB of one's own; the tests point them at missing files).
UBOOT=${ORANGEPI_UBOOT:-/usr/lib/u-boot/orangepi_plus/u-boot-sunxi-with-spl.bin}	# Debian has no orangepi_pc build
DTB=${ORANGEPI_DTB:-/usr/local/share/tinymm/dtbs/sun8i-h3-orangepi-pc.dtb}	# tools/install-deps puts it there
DTB_NAME=sun8i-h3-orangepi-pc.dtb	# its name on the card, whichever file --dtb gives
LOAD=0x40008000
die() { echo "mkimage-orangepi: $*" >&2; exit 1; }
args="" rescript=0 dtb_given=0
while [ $# -gt 0 ]; do
  case "$1" in
    --args) args=$2; shift 2 ;;
    --dtb) DTB=$2; dtb_given=1; shift 2 ;;
    --rescript) rescript=1; shift ;;
    -*) die "unknown option '$1'" ;;
    *) break ;;
  esac
done
need() { command -v "$1" >/dev/null || die "$1 is missing: install Debian's $2 (tools/install-deps)"; }
need mkimage u-boot-tools
need mkenvimage u-boot-tools
need mkfs.vfat dosfstools
need mcopy mtools
need sfdisk fdisk

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# The boot script: U-Boot's hush, double-quoted, so ", $ and \ in the arguments are escaped.
script() {
  local q=${args//\\/\\\\}
  q=${q//\"/\\\"}; q=${q//\$/\\\$}
  cat >"$tmp/boot.cmd" <<EOS
setenv bootargs "$q"
load mmc 0:1 \${kernel_addr_r} uImage
load mmc 0:1 \${fdt_addr_r} $DTB_NAME
bootm \${kernel_addr_r} - \${fdt_addr_r}
EOS
  mkimage -A arm -O linux -T script -C none -n "tinymm boot script" -d "$tmp/boot.cmd" "$tmp/boot.scr" >/dev/null
}
# The partition's byte offset in a card image (the first MBR partition).
part_offset() {
  local start
  start=$(sfdisk -J "$1" 2>/dev/null | awk -F'[:,]' '/"start"/ { gsub(/ /, "", $2); print $2; exit }')
  [ -n "$start" ] || die "$1: no MBR partition table"
  echo $((start * 512))
}

if [ $rescript = 1 ]; then
  [ $# = 1 ] || die "usage: mkimage.sh --rescript [--args 'bootargs'] [--dtb file] CARD.img"
  img=$1
  [ -f "$img" ] || die "card image '$img' not found"
  script
  off=$(part_offset "$img")
  # mtools reaches a file system inside an image at a byte offset: img@@offset.
  MTOOLS_SKIP_CHECK=1 mcopy -o -i "$img@@$off" "$tmp/boot.scr" ::boot.scr 2>/dev/null ||
    die "$img: could not write boot.scr into its first partition (FAT expected)"
  if [ $dtb_given = 1 ]; then
    [ -f "$DTB" ] || die "no DTB file '$DTB'"
    MTOOLS_SKIP_CHECK=1 mcopy -o -i "$img@@$off" "$DTB" "::$DTB_NAME" 2>/dev/null ||
      die "$img: could not write the DTB into its first partition"
  fi
  exit 0
fi

[ $# = 2 ] || die "usage: mkimage.sh [--args 'bootargs'] [--dtb file] OUT.img tinymm.bin"
out=$1 bin=$2
[ -f "$UBOOT" ] || die "no $UBOOT: install Debian's u-boot-sunxi:armhf (tools/install-deps)"
[ -f "$DTB" ] || die "no $DTB: tools/install-deps takes it from Debian's linux-image-armmp:armhf"
[ -f "$bin" ] || die "no kernel payload $bin (build the board first: make BOARD=orangepi-pc)"

mkdir "$tmp/boot"
script
cp "$tmp/boot.scr" "$tmp/boot/"
cp "$DTB" "$tmp/boot/$DTB_NAME"
mkimage -A arm -O linux -T kernel -C none -a $LOAD -e $LOAD -n tinymm -d "$bin" "$tmp/boot/uImage" >/dev/null
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
mkenvimage -s 0x10000 -o "$tmp/boot/uboot.env" "$tmp/env.txt"
# 63 MiB of FAT16 from 1 MiB on (mkfs.vfat --offset writes into the card image, which must
# already have its size), then the files.
truncate -s 64M "$tmp/card.img"
echo 'start=2048, type=6' | sfdisk -q "$tmp/card.img" >/dev/null
mkfs.vfat -F 16 -n TINYMM --offset 2048 "$tmp/card.img" $((63 * 1024)) >/dev/null ||
  die "mkfs.vfat could not build the boot partition"
MTOOLS_SKIP_CHECK=1 mcopy -i "$tmp/card.img@@1048576" "$tmp"/boot/* :: ||
  die "mcopy could not fill the boot partition"
dd if="$UBOOT" of="$tmp/card.img" bs=1024 seek=8 conv=notrunc status=none
mv "$tmp/card.img" "$out"
