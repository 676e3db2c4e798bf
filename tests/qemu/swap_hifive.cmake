# Swap on the HiFive Unleashed (issue 39, docs/swap.md, docs/boards/hifive-unleashed.md): the
# swap area is partition 3 (mmcblk0p3) of the SD card in the SPI slot (drivers/mmc_spi.c), a
# data disk beside the RAM-disk root.  tests/qemu/swap_sd_test.sh --board hifive-unleashed
# makes the 256 MiB card at test time (the Orange Pi PC's layout: an ext2 partition 1, a small
# partition 2, a 128 MiB partition 3 by sfdisk, formatted by the host's mkswap) and boots with
# mem=32M under single-threaded TCG:
#   swap.hifive-unleashed   swapon mmcblk0p3; three /bin/anonhog -p 2 32 at once (3x the RAM)
#                           all exact; swaps, meminfo, pswpout and pswpin >= 2048; SwapFree
#                           back; a sleeping anonhog 8 pushed out and brought back by swapoff;
#                           buddycheck, slabcheck, no card errors; on the host the card outside
#                           partition 3 unchanged, partition 3's header still mkswap's.
#   swap.hifive-unleashed.catches_write_outside   that check fails on 4 KiB written past p3
# The card moves 1-2 MiB/s (programmed I/O through QEMU's SPI model): ~190 MiB of swap traffic,
# 130 s of wall time at a host load average of 7-10, 300 s beside a full build
# (docs/boards/hifive-unleashed.md, "The SD card").
# Included from the end of tests/qemu/tests.cmake, after swap_opi.cmake (MKSWAP_OPI, SFDISK_OPI).
add_test(NAME swap.hifive-unleashed COMMAND ${CMAKE_CURRENT_LIST_DIR}/swap_sd_test.sh --board hifive-unleashed)
# Label long (`make test-long`): ~130 s of QEMU's slow card model, the same checks as
# swap.orangepi-pc in the default run; the driver's own tests (sdmmc.*) run by default.
set_tests_properties(swap.hifive-unleashed PROPERTIES TIMEOUT 2400 LABELS "qemu;long"
  ENVIRONMENT "MKSWAP=${MKSWAP_OPI};SFDISK=${SFDISK_OPI}")
add_test(NAME swap.hifive-unleashed.catches_write_outside
  COMMAND ${CMAKE_CURRENT_LIST_DIR}/swap_sd_test.sh --board hifive-unleashed --write-outside)
set_tests_properties(swap.hifive-unleashed.catches_write_outside PROPERTIES TIMEOUT 120 LABELS qemu
  ENVIRONMENT "MKSWAP=${MKSWAP_OPI};SFDISK=${SFDISK_OPI}"
  PASS_REGULAR_EXPRESSION "swap_sd: FAIL: sectors [0-9]+ [0-9]+ \\(start, count\\) of the card changed")
