# Orange Pi PC (Allwinner H3, 4x Cortex-A7, 1 GiB at 0x40000000): booted by U-Boot (SPL +
# U-Boot from the SD card) with `bootm` of a uImage: HYP mode, MMU and caches off, r2 = the DTB
# U-Boot relocated high in RAM (arch/arm/entry.S vets and maps it).
set(TINYMM_ARCH arm)
set(TINYMM_TOOLCHAIN arm-none-eabi)
# Unaligned accesses fault on Strongly-ordered memory (MMU off), so the compiler must not make any.
set(TINYMM_CPU_FLAGS -marm -mcpu=cortex-a7 -mfloat-abi=soft -mno-unaligned-access)
# The uImage's load and entry address (Linux's zImage convention, 32 KiB into RAM).
set(TINYMM_LOAD_ADDR 0x40008000)
set(TINYMM_PHYS_OFFSET 0x40000000)
set(TINYMM_PAGE_OFFSET 0x80000000)
set(BOARD_DTB_ADDR 0)			# passed in r2 by bootm; none is a one-line boot failure
# UART0, the 3-pin debug header: a DesignWare 16550 with 32-bit registers (reg-shift 2).
set(BOARD_EARLY_UART_COMPAT "snps,dw-apb-uart")
set(BOARD_EARLY_UART_BASE 0x01c28000)
set(BOARD_EARLY_UART_SHIFT 2)
# Power-off: semihosting in QEMU (status propagates); on the board U-Boot's PSCI 0.1 has no
# SYSTEM_OFF, so the kernel says so and halts (arch/arm).
set(BOARD_EXIT_COMPAT "")
set(BOARD_EXIT_BASE 0)
set(BOARD_SEMIHOSTING 1)
# Every loaded byte from the load address (tools/check-image), wrapped in a uImage and put on
# an SD-card image by board/orangepi-pc/mkimage.sh (make image).
set(BOARD_IMAGE tinymm.bin)
