# SiFive HiFive Unleashed (FU540-C000: an E51 monitor hart 0 + 4x U54, RV64GC without Sstc):
# S-mode under OpenSBI as its payload (QEMU `-M sifive_u -bios default`; the vendor's
# OpenSBI + U-Boot on the board): a0 = boot hart id (1-4, never 0), a1 = DTB.
set(TINYMM_ARCH riscv)
set(TINYMM_TOOLCHAIN riscv-unknown-elf)
# The U54 is rv64imafdc (GC); the kernel uses no floating point, so the same flags as virt's
# (gcc 12 picks the wrong multilib for "_zicsr" spellings; the 2.2 ISA spec implies Zicsr).
set(TINYMM_CPU_FLAGS -march=rv64imac -misa-spec=2.2 -mabi=lp64 -mcmodel=medany)
set(TINYMM_LOAD_ADDR 0x80200000)	# OpenSBI's FW_JUMP/next-stage address on the FU540
set(TINYMM_PHYS_OFFSET 0x80000000)	# RAM's base (8 GiB on the board)
set(TINYMM_PAGE_OFFSET 0xffffffd000000000)	# Sv39: the direct map (docs/mmu.md)
set(BOARD_DTB_ADDR 0)			# passed in a1
set(BOARD_EARLY_UART_COMPAT "sifive,uart0")
set(BOARD_EARLY_UART_BASE 0x10010000)	# UART0, the board's USB serial console
# No sifive,test0 on this SoC: a store to it would fault.  Power-off is semihosting when QEMU
# runs with -semihosting (qemu.conf), else SBI SRST, else "reboot: System halted" (arch/riscv).
set(BOARD_EXIT_COMPAT "")
set(BOARD_EXIT_BASE 0)
set(BOARD_SEMIHOSTING 1)
# The artifact a person writes: the raw OpenSBI payload, loaded at TINYMM_LOAD_ADDR.
set(BOARD_IMAGE tinymm.bin)
