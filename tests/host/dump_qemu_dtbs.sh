#!/usr/bin/env bash
# dump_qemu_dtbs.sh <dir> - the device trees QEMU 7.2 gives each board, for host tests.
set -euo pipefail
mkdir -p "$1"
cd "$1"
qemu-system-arm -M virt,dumpdtb=arm-96M.dtb -cpu cortex-a15 -m 96M -nographic -nic none >/dev/null 2>&1
qemu-system-arm -M virt,dumpdtb=arm-512M.dtb -cpu cortex-a15 -m 512M -nographic -nic none >/dev/null 2>&1
qemu-system-riscv64 -M virt,dumpdtb=riscv64-512M.dtb -bios default -m 512M -nographic -nic none >/dev/null 2>&1
qemu-system-riscv32 -M virt,dumpdtb=riscv32-96M.dtb -bios none -m 96M -nographic -nic none >/dev/null 2>&1
# The HiFive Unleashed's model: E51 hart 0 + four U54s, 8 GiB (OpenSBI adds its no-map at run time).
qemu-system-riscv64 -M sifive_u,dumpdtb=sifive_u-8G.dtb -smp 5 -m 8G -nographic -nic none >/dev/null 2>&1
for f in arm-96M arm-512M riscv64-512M riscv32-96M sifive_u-8G; do
  [ -s "$f.dtb" ] || { echo "dump_qemu_dtbs: QEMU made no $f.dtb" >&2; exit 1; }
done
echo "dump_qemu_dtbs: $(printf '%s ' *.dtb)"
