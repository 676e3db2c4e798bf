# QEMU `virt`, Cortex-A15 (ARMv7-A): what the device tree does not say.
set(TINYMM_ARCH arm)
set(TINYMM_TOOLCHAIN arm-none-eabi)
# Unaligned accesses fault on Strongly-ordered memory (MMU off), so the compiler must not make any.
set(TINYMM_CPU_FLAGS -marm -mcpu=cortex-a15 -mfloat-abi=soft -mno-unaligned-access)
# QEMU loads no DTB at all if the image sits in the first MiB of RAM.
set(TINYMM_LOAD_ADDR 0x40100000)
# RAM starts at 1 GiB; the 2G/2G split puts it at virtual 0x80000000 (docs/mmu.md).
set(TINYMM_PHYS_OFFSET 0x40000000)
set(TINYMM_PAGE_OFFSET 0x80000000)
# No register carries the DTB: QEMU puts it at the start of RAM (at most 1 MiB).
set(BOARD_DTB_ADDR 0x40000000)
# Console before the device tree is read (and for reporting a bad one).
set(BOARD_EARLY_UART_COMPAT "arm,pl011")
set(BOARD_EARLY_UART_BASE 0x09000000)
# Power-off goes through semihosting (arch/arm), no device needed.
set(BOARD_EXIT_COMPAT "")
set(BOARD_EXIT_BASE 0)
# CPUs: as many as QEMU's virt gives a GICv2 (-smp 1 to 8), started through PSCI (docs/smp.md).
set(TINYMM_NR_CPUS 8)
