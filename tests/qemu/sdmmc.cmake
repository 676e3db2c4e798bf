# The Orange Pi PC's SD card through drivers/sunxi_mmc.c (docs/mmc.md); included from the
# end of tests/qemu/tests.cmake, so boot_test() and CHECK are known.  tests/qemu/sdmmc_test.sh
# keeps tools/run's private copy of the card (--keep-sdimg) and checks it on the host.
set(SDMMC_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/sdmmc_test.sh)
# The card found: one boot line (capacity, SDSC/SDHC, bus width, clock, DMA) and `blk list`.
boot_test(orangepi-pc.sdmmc.probe orangepi-pc --append "tinymm.run=blk list"
  --expect "^\\[ *[0-9.]+\\] sunxi-mmc mmcblk0: 67108864 bytes \\(131072 sectors\\), SDSC, 4-bit bus, card clock = module clock \\(undivided\\), non-coherent DMA, 256 descriptors, at 0x01c0f000 irq [0-9]+$"
  --expect "^mmcblk0: 67108864 bytes \\(131072 sectors\\), logical block 512, max segments 256, sunxi-mmc@0x01c0f000 irq [0-9]+, SDSC, rca 0x[0-9a-f]{4}, 4-bit bus, 256 descriptors, non-coherent DMA, 0 errors, 0 recoveries, ok$")
# Writes and reads of the raw card (the free gap before partition 1), exact on the host.
# The card not answering and a lost interrupt: EIO within the bound, one line, recovery.
# The board's own ext2 boot partition mounted read-write (mmcblk0p1: block/partitions), two
# files written with the xorshift64* stream and unmounted; on the host e2fsck -fn is clean and
# debugfs dumps exactly the streams.
# A card reset behind the driver's back (as one swapped): EIO, then the disk failed, ENXIO.
# Interrupts masked past the deadline after the controller finished (a stalled host): the
# timer comes first and must end the request as done (seen as EIO in swap.orangepi-pc).
foreach(mode raw fs no-answer lose-irq late-irq reset-card)
  add_test(NAME orangepi-pc.sdmmc.${mode} COMMAND ${SDMMC_TEST} --dir ${CMAKE_BINARY_DIR}/sdmmc/${mode} ${mode})
  set_tests_properties(orangepi-pc.sdmmc.${mode} PROPERTIES TIMEOUT 90 LABELS qemu)
endforeach()
# The KTAP suite that needs a scratch disk (virtio_blk: round trips at several segmentations,
# bad bios, flush, more bios than the driver takes at once, the segment limit) on the card.
# It overwrites the copy's first 4 MiB (U-Boot, the MBR): the kernel is in RAM by then.
boot_test(orangepi-pc.sdmmc.ktest orangepi-pc --append "tinymm.test=virtio_blk tinymm.ktest_disk=mmcblk0"
  --timeout 120 --expect "^# totals: pass:7 fail:0 skip:0$" --reject "not ok")
set_tests_properties(orangepi-pc.sdmmc.ktest PROPERTIES TIMEOUT 150)

# The Raspberry Pi 2B's card through drivers/bcm2835_sdhost.c (docs/mmc.md): the board boots
# from its folder; the card (build/raspi2b/sdcard.img: FAT partition 1 with the boot folder,
# empty ext2 partition 2, board/raspi2b/mkimage.sh --card) is in the slot as a private copy.
set(RPI_CARD ${CMAKE_SOURCE_DIR}/build/raspi2b/sdcard.img)
# The card found on the SD host once GPIO 48-53 are ALT0 (the node's pinctrl-0): one boot line,
# its partitions, `blk list`.
boot_test(raspi2b.sdmmc.probe raspi2b --sdimg ${RPI_CARD} --append "tinymm.run=blk list"
  --expect "^\\[ *[0-9.]+\\] bcm2835-sdhost mmcblk0: 67108864 bytes \\(131072 sectors\\), SDSC, 4-bit bus, 25000 kHz, DMA \\+ PIO, at 0x3f202000, GPIO 48-53 function 4$"
  --expect "mmcblk0: mmcblk0p1 mmcblk0p2$"
  --expect "^mmcblk0: 67108864 bytes \\(131072 sectors\\), logical block 512, max segments 32, bcm2835-sdhost@0x3f202000, SDSC, rca 0x[0-9a-f]{4}, 4-bit bus, DMA channel 2, 0 errors, 0 recoveries, ok$"
  --reject "I/O error")
# No card in the slot: one line, at once, and the boot goes on without mmcblk0.
boot_test(raspi2b.sdmmc.no_card raspi2b --append "tinymm.run=blk list" --timeout 30
  --expect "^\\[ *[0-9.]+\\] bcm2835-sdhost 0x3f202000: no usable card: no answer to ACMD41 \\(timeout\\)$"
  --reject "^mmcblk0")
# Raw writes and reads checked on the host; ext2 on partition 2 (e2fsck, debugfs); the card not
# answering (EIO at once) or its data never moving (EIO at the 1000 ms bound), one line each
# and recovered; a card reset behind the driver's back: EIO, the disk failed, then ENXIO.
foreach(mode raw fs no-answer stall reset-card)
  add_test(NAME raspi2b.sdmmc.${mode} COMMAND ${SDMMC_TEST} --board raspi2b --dir ${CMAKE_BINARY_DIR}/sdmmc/raspi2b-${mode} ${mode})
  set_tests_properties(raspi2b.sdmmc.${mode} PROPERTIES TIMEOUT 90 LABELS qemu)
endforeach()
# The scratch-disk KTAP suite on the card (it overwrites the private copy's first 4 MiB).
boot_test(raspi2b.sdmmc.ktest raspi2b --sdimg ${RPI_CARD} --append "tinymm.test=virtio_blk tinymm.ktest_disk=mmcblk0"
  --timeout 120 --expect "^# totals: pass:7 fail:0 skip:0$" --reject "not ok")
set_tests_properties(raspi2b.sdmmc.ktest PROPERTIES TIMEOUT 150)
