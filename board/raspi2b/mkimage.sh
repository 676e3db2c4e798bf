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
set -euo pipefail
DTB=${RASPI_DTB:-/usr/local/share/tinymm/dtbs/bcm2836-rpi-2-b.dtb}	# tools/install-deps puts it there
DTB_NAME=bcm2836-rpi-2-b.dtb	# its name in the folder (config.txt's device_tree=)
die() { echo "mkimage-raspi2b: $*" >&2; exit 1; }
args=""
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
