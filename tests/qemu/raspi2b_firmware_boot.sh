#!/usr/bin/env bash
# raspi2b_firmware_boot.sh STUB KERNEL7.IMG DTB STATUS [--expect REGEX]... - boot the Pi's
# kernel7.img as the board's firmware enters it, not as QEMU's -kernel does: STUB
# (raspi2b_armstub.S, run from QEMU's reset state) parks CPUs 1-3 and enters the image at 0x8000
# in non-secure HYP with r2 = DTB, loaded at 0x01000000 as the firmware patched it.  Passes when
# QEMU's exit status is STATUS and every --expect matches a whole console line (\r stripped).
. "$(dirname "$0")/lib.sh"
tm_init raspi2b_firmware_boot
[ $# -ge 4 ] || tm_usage "raspi2b_firmware_boot.sh STUB KERNEL7.IMG DTB STATUS [--expect REGEX]..."
stub=$1 kernel=$2 dtb=$3 want=$4
shift 4
for f in "$stub" "$kernel" "$dtb"; do [ -f "$f" ] || tm_fail "no file $f"; done
log=$(mktemp); trap 'rm -f "$log"' EXIT
timeout 30 qemu-system-arm -M raspi2b -m 1G -nographic -nic none -semihosting \
  -device "loader,file=$stub,addr=0" -device "loader,file=$kernel,addr=0x8000" \
  -device "loader,file=$dtb,addr=0x01000000" </dev/null 2>&1 | tr -d '\r' >"$log"
rc=${PIPESTATUS[0]}
tail -n 6 "$log"
[ "$rc" = "$want" ] || { echo "raspi2b_firmware_boot: FAIL: exit status $rc, want $want"; exit 1; }
while [ $# -gt 0 ]; do
  [ "$1" = --expect ] || tm_usage "unknown option $1"
  grep -Eq -- "$2" "$log" || { echo "raspi2b_firmware_boot: FAIL: no line matches: $2"; exit 1; }
  shift 2
done
echo "raspi2b_firmware_boot: PASS (exit status $rc)"
