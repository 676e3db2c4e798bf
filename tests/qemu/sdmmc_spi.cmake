# The HiFive Unleashed's SD card on SPI2 through drivers/spi-sifive.c and drivers/mmc_spi.c
# (docs/mmc-spi.md); included from the end of tests/qemu/tests.cmake, after sdmmc.cmake.
# tests/qemu/sdmmc_spi_test.sh --board hifive-unleashed makes a 64 MiB card (an MBR, partition 1 a
# 62 MiB ext2) and checks the copy the kernel wrote on the host:
#   probe       the boot line and `blk list`'s lines (mmcblk0, mmcblk0p1)
#   raw         300000 bytes written, read back through a dropped page cache, exact on the
#               host; the MBR and partition 1 unchanged
#   fs          two files written on mmcblk0p1's ext2: e2fsck -fn clean, debugfs dumps exact
#   no-answer   a command frame lost: EIO at once in one line, recovered, the next read exact
#   bad-crc     a block's CRC-16 wrong: EIO naming both CRCs, recovered, the next read exact
#   reset-card  the card reset behind the driver's back: EIO, the disk failed, then ENXIO
#   ktest       the KTAP suite virtio_blk (tinymm.ktest_disk=mmcblk0) on the card
#   sdhc        a 4 GiB (sparse) card is SDHC: bytes written past 4 GB exact on the host
foreach(mode probe raw fs no-answer bad-crc reset-card ktest sdhc)
  add_test(NAME hifive-unleashed.sdmmc.${mode} COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/sdmmc_spi_test.sh
    --dir ${CMAKE_BINARY_DIR}/sdmmc-spi/${mode} --board hifive-unleashed ${mode})
  set_tests_properties(hifive-unleashed.sdmmc.${mode} PROPERTIES TIMEOUT 120 LABELS qemu)
endforeach()
set_tests_properties(hifive-unleashed.sdmmc.ktest PROPERTIES TIMEOUT 180)
# No card in the slot (QEMU's sifive_u without -drive if=sd): one line at boot, no disk, no wait.
boot_test(hifive-unleashed.sdmmc.no_card hifive-unleashed --append "tinymm.run=blk list" --timeout 30
  --expect "^\\[ *[0-9.]+\\] mmc_spi sifive,spi0@0x10050000 cs 0: no usable card: no response to CMD0 \\(no card in the slot\\?\\)$"
  --expect "^blk: no disks \\(attach one: make run DISK=img\\)$")
