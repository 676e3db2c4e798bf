# QEMU `virt`, RV32IMAC with no firmware: tinymm starts in M-mode (arch/riscv/mstart.S) and
# drops itself to S-mode.  a1 = DTB.
set(TINYMM_ARCH riscv)
set(TINYMM_TOOLCHAIN riscv-unknown-elf)
# gcc 12 picks the rv64 multilib for rv32imac_zicsr; the 2.2 ISA spec implies Zicsr instead.
set(TINYMM_CPU_FLAGS -march=rv32imac -misa-spec=2.2 -mabi=ilp32 -mcmodel=medany)
set(TINYMM_LOAD_ADDR 0x80000000)
# RAM starts at 2 GiB, which is also the 2G/2G split's PAGE_OFFSET: virtual == physical.
set(TINYMM_PHYS_OFFSET 0x80000000)
set(TINYMM_PAGE_OFFSET 0x80000000)
set(TINYMM_MSTART ON)
set(BOARD_DTB_ADDR 0)
set(BOARD_EARLY_UART_COMPAT "ns16550a")
set(BOARD_EARLY_UART_BASE 0x10000000)
set(BOARD_EXIT_COMPAT "sifive,test0")
set(BOARD_EXIT_BASE 0x100000)
set(TINYMM_NR_CPUS 8)	# harts started by arch/riscv/smp.c (docs/smp.md)
