# QEMU `virt`, RV64GC in S-mode under OpenSBI (fw_dynamic): a0 = hart id, a1 = DTB.
set(TINYMM_ARCH riscv)
set(TINYMM_TOOLCHAIN riscv-unknown-elf)
# gcc 12 picks the wrong multilib for "_zicsr" spellings; the 2.2 ISA spec implies Zicsr.
set(TINYMM_CPU_FLAGS -march=rv64imac -misa-spec=2.2 -mabi=lp64 -mcmodel=medany)
set(TINYMM_LOAD_ADDR 0x80200000)	# OpenSBI's next-stage address on QEMU virt
set(TINYMM_PHYS_OFFSET 0x80000000)	# RAM's base
set(TINYMM_PAGE_OFFSET 0xffffffd000000000)	# Sv39: the direct map (docs/mmu.md)
set(BOARD_DTB_ADDR 0)			# passed in a1
set(BOARD_EARLY_UART_COMPAT "ns16550a")
set(BOARD_EARLY_UART_BASE 0x10000000)
# Used only when the device tree cannot be read (so a bad DTB still exits with a status).
set(BOARD_EXIT_COMPAT "sifive,test0")
set(BOARD_EXIT_BASE 0x100000)
set(TINYMM_NR_CPUS 8)	# harts started by arch/riscv/smp.c (docs/smp.md)
