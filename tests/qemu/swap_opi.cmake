# Swap on the Orange Pi PC (issue 39, docs/swap.md, docs/boards/orangepi-pc.md): the swap area
# is partition 3 of the SD card the board boots from (mmcblk0p3, drivers/sunxi_mmc.c), not a
# virtio disk.  tests/qemu/swap_sd_test.sh makes the card at test time: the board's
# sdcard.img grown to 256 MiB (QEMU's SD model wants a power of two), a 128 MiB partition 3
# appended by the host's sfdisk and formatted by the host's mkswap (util-linux).  One boot,
# mem=32M (QEMU's board has 1 GiB, fixed):
#   swap.orangepi-pc   swapon mmcblk0p3; three /bin/anonhog 32 at once (3x the RAM) all come
#                      back exact; swaps, meminfo, vmstat pswpout and pswpin >= 2048; SwapFree
#                      back to SwapTotal; a sleeping anonhog 8 pushed out, `swapoff mmcblk0p3`
#                      brings it back exact (no swap-in after); buddycheck, slabcheck, no card
#                      errors; on the host the card outside partition 3 unchanged (partition 1
#                      e2fsck-clean), partition 3's header still mkswap's.
#   swap.orangepi-pc.catches_write_outside   that check fails on 4 KiB written past partition 3
# 64-127 s of wall time on TCG with the 2-core machine loaded (docs/boards/orangepi-pc.md,
# "Swap"): label long (`make test-long`), as swap.raspi2b and swap.hifive-unleashed are.  By
# default the same checks run on every virt board (swap.<board>), the card driver's own tests
# (orangepi-pc.sdmmc.*) run, and so does the twin below, which boots this card, swaps on and
# off mmcblk0p3 and makes the host's check of the card.
# Included from the end of tests/qemu/tests.cmake.
find_program(MKSWAP_OPI mkswap PATHS /sbin /usr/sbin REQUIRED)
find_program(SFDISK_OPI sfdisk PATHS /sbin /usr/sbin REQUIRED)
add_test(NAME swap.orangepi-pc COMMAND ${CMAKE_CURRENT_LIST_DIR}/swap_sd_test.sh)
set_tests_properties(swap.orangepi-pc PROPERTIES TIMEOUT 300 LABELS "qemu;long"
  ENVIRONMENT "MKSWAP=${MKSWAP_OPI};SFDISK=${SFDISK_OPI}")
# The host's check can fail: 4 KiB written 8 MiB past partition 3 (`blk write`, no tasks) must
# be caught as a changed region of the card.
add_test(NAME swap.orangepi-pc.catches_write_outside COMMAND ${CMAKE_CURRENT_LIST_DIR}/swap_sd_test.sh --write-outside)
set_tests_properties(swap.orangepi-pc.catches_write_outside PROPERTIES TIMEOUT 120 LABELS qemu
  ENVIRONMENT "MKSWAP=${MKSWAP_OPI};SFDISK=${SFDISK_OPI}"
  PASS_REGULAR_EXPRESSION "swap_sd: FAIL: sectors [0-9]+ [0-9]+ \\(start, count\\) of the card changed")
# The same on the Raspberry Pi 2B (docs/boards/raspi2b.md, "Swap"): its card in the slot
# (build/raspi2b/sdcard.img grown the same way, partition 3 appended), written by the SD host's
# DMA engine and a PIO tail (drivers/bcm2835_sdhost.c); the board boots from its folder, so
# nothing outside partition 3 may change at all.  mem=32M and three anonhog -p 2 32 (3x the RAM,
# fill and check): this board's 4 KiB swap I/O costs QEMU ~7x the Orange Pi PC's.
add_test(NAME swap.raspi2b COMMAND ${CMAKE_CURRENT_LIST_DIR}/swap_sd_test.sh --board raspi2b)
# Label long (`make test-long`): 5-10 minutes of QEMU's slow card model, the same checks as
# swap.orangepi-pc (long too) and the virt boards' swap.<board> (default); the driver's own
# tests (sdmmc.*) run by default.
set_tests_properties(swap.raspi2b PROPERTIES TIMEOUT 2400 LABELS "qemu;long"
  ENVIRONMENT "MKSWAP=${MKSWAP_OPI};SFDISK=${SFDISK_OPI}")
add_test(NAME swap.raspi2b.catches_write_outside COMMAND ${CMAKE_CURRENT_LIST_DIR}/swap_sd_test.sh --board raspi2b --write-outside)
set_tests_properties(swap.raspi2b.catches_write_outside PROPERTIES TIMEOUT 120 LABELS qemu
  ENVIRONMENT "MKSWAP=${MKSWAP_OPI};SFDISK=${SFDISK_OPI}"
  PASS_REGULAR_EXPRESSION "swap_sd: FAIL: sectors [0-9]+ [0-9]+ \\(start, count\\) of the card changed")
