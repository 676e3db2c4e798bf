# Raspberry Pi 2 Model B (BCM2836, 4x Cortex-A7, 1 GiB of which the ARM gets 960 MiB at 0): the
# firmware (start.elf) loads kernel7.img from the boot partition at 0x8000 and enters it with
# r2 = the DTB it patched (memory, bootargs from cmdline.txt); QEMU's -M raspi2b loads the same
# raw image at 0x10000, SVC mode.  The image is linked for 0x8000 and moves itself there when
# entered elsewhere (arch/arm/entry.S), so one kernel7.img boots both.
set(TINYMM_ARCH arm)
set(TINYMM_TOOLCHAIN arm-none-eabi)
# Unaligned accesses fault on Strongly-ordered memory (MMU off), so the compiler must not make any.
set(TINYMM_CPU_FLAGS -marm -mcpu=cortex-a7 -mfloat-abi=soft -mno-unaligned-access)
set(TINYMM_LOAD_ADDR 0x8000)		# where the firmware puts kernel7.img
set(TINYMM_PHYS_OFFSET 0x0)		# RAM starts at 0
set(TINYMM_PAGE_OFFSET 0x80000000)
set(BOARD_DTB_ADDR 0)			# passed in r2; none is a one-line boot failure
# UART0 (GPIO 14/15 on the 40-pin header with enable_uart=1): a PL011 at the ARM's 0x3f201000
# (bus address 0x7e201000, through the soc node's ranges).
set(BOARD_EARLY_UART_COMPAT "arm,pl011")
set(BOARD_EARLY_UART_BASE 0x3f201000)
# Power-off: semihosting in QEMU (status propagates); on the board, the PM block's watchdog
# with the firmware's "halt" partition (drivers/bcm2835_wdt.c), as Linux powers the Pi off.
set(BOARD_EXIT_COMPAT "")
set(BOARD_EXIT_BASE 0)
set(BOARD_SEMIHOSTING 1)
# The artifact: the boot partition's files in build/raspi2b/boot/ (board/raspi2b/mkimage.sh):
# kernel7.img (tinymm.bin), config.txt, cmdline.txt and the DTB.
set(BOARD_IMAGE tinymm.bin)
set(BOARD_ARTIFACT boot)
# The whole card (mkimage.sh --card): the boot folder in its FAT partition 1, an empty ext2
# partition 2; the tests put it in QEMU's slot (tools/run --sdimg) as mmcblk0.
set(BOARD_CARD sdcard.img)
