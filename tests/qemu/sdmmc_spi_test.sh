#!/usr/bin/env bash
# sdmmc_spi_test.sh - a board's SD card as mmcblk0, checked on the host afterwards: the Orange Pi
# PC's through drivers/sunxi_mmc.c (tests/qemu/sdmmc.cmake, docs/sunxi-mmc.md), the HiFive
# Unleashed's on SPI through drivers/mmc_spi.c (tests/qemu/sdmmc_spi.cmake, docs/mmc-spi.md).
#   sdmmc_test.sh --dir DIR [--board orangepi-pc|hifive-unleashed] MODE
# The Orange Pi PC (the default) boots tools/run's private copy of its sdcard.img, kept in DIR
# (--keep-sdimg).  The HiFive Unleashed boots from tinymm.bin and holds the card as a data
# disk: the test makes it in DIR (made.img: 64 MiB, an MBR with partition 1 at 1 MiB, a 62 MiB
# ext2 by the host's mke2fs, as the Orange Pi PC's layout) and tools/run attaches a copy
# (--sdimg made.img --keep-sdimg card.img), under single-threaded TCG (docs/mmc-spi.md: PIO
# costs two register accesses a byte, each several times slower under multi-threaded TCG).
#   raw     `blk write` 300000 bytes (seed 37) into the card's free gap before partition 1
#       (byte 0x90000), `sync`, read them back through a dropped page cache; on the host the
#       kept card holds exactly the xorshift64* stream there, the first 0x90000 bytes (MBR,
#       U-Boot) and partition 1 are unchanged (e2fsck -fn clean).
#   fs      mount mmcblk0p1, fwrite two files (stream seeds 5 and 6), sha256sum them, umount;
#       on the host e2fsck -fn on partition 1 is clean and debugfs's dump of each file is
#       exactly the stream.
#   no-answer   the next request's command gets no response: the request fails with EIO in one
#       driver line, within the bound, `blk stats` counts one error, and the next read after
#       the recovery returns the MBR's bytes exactly (the host's hexdump of the card).
#       Orange Pi PC: the card deselected (QEMU's card ignores a data command outside the
#       transfer state): "no response from the card", at once.  HiFive Unleashed: the command
#       frame lost on the wire (the card hears only clocks): "no response to CMD18 within 64
#       bytes", at once.
#   reset-card   the card sent back to idle (CMD0) behind the driver's back, as a card swapped:
#       the request fails with EIO, the recovery finds a card that is not ours any more and
#       fails the disk in one line; the next read is ENXIO at once, `blk list` says failed
#       (the partitions too).
#   Orange Pi PC only (interrupt completion; the SPI card is polled):
#     lose-irq  that request's interrupt masked (only the driver's timer can end it):
#       tinymm.sunxi_mmc_timeout_ms = 1000 ms, EIO at 1000-1500 ms, otherwise as no-answer.
#     late-irq  interrupts kept masked past the request's deadline after the controller
#       finished (QEMU does the transfer inside the command write), as when a loaded host
#       stalls QEMU: the timer's interrupt is taken before the controller's, and must end the
#       request as done, not EIO: one "done, its interrupt not taken yet" line, the bytes read
#       are the MBR's, 0 errors, 0 recoveries.
#   HiFive Unleashed only:
#     probe     the boot line (capacity, SDSC, SPI clock, CRC on, polled, the controller),
#       the partition found, `blk list`'s lines for mmcblk0 and mmcblk0p1.
#     bad-crc   the next block read taken as arriving with a wrong CRC-16: EIO naming both
#       CRCs, recovery, the next read exact, as no-answer.
#     ktest     the KTAP suite that needs a scratch disk (virtio_blk) on the card's copy.
#     sdhc      a 4 GiB card (QEMU makes it SDHC: sector addresses, CSD version 2): the boot
#       line says SDHC and 8388608 sectors; 100000 bytes written at byte 4000000000 (past
#       the 32-bit byte addresses an SDSC card has) read back through a dropped page cache,
#       exact on the host.
. "$(dirname "$0")/lib.sh"
tm_init sdmmc_test
top=$TM_TOP dir="" board=orangepi-pc
usage="sdmmc_spi_test.sh --dir DIR [--board orangepi-pc|hifive-unleashed] MODE"
[ "${1:-}" = --dir ] || tm_usage "$usage"
dir=$2
shift 2
[ "${1:-}" = --board ] && board=$2 && shift 2
mode=${1:-}
tm_fresh_dir "$dir"
card=$dir/card.img
gen=$top/tests/qemu/writeback_expect.py
PATH=$PATH:/sbin:/usr/sbin
case $board:$mode in
orangepi-pc:probe | orangepi-pc:bad-crc | orangepi-pc:ktest | orangepi-pc:sdhc | hifive-unleashed:lose-irq | hifive-unleashed:late-irq)
  tm_usage "$mode: not a test for $board" ;;
esac
case $board in
orangepi-pc)
  img=$top/build/orangepi-pc/sdcard.img
  [ -f "$img" ] || tm_fail "no $img (make image BOARD=orangepi-pc)"
  drv=sunxi-mmc
  boot=(--board orangepi-pc --keep-sdimg "$card")
  ;;
hifive-unleashed)
  img=$dir/made.img
  truncate -s 64M "$img" && printf 'label: dos\nstart=2048, size=126976, type=83\n' | sfdisk -q "$img" ||
    tm_fail "sfdisk could not write the card's MBR"
  truncate -s 62M "$dir/p1.made" && mke2fs -q -t ext2 -F "$dir/p1.made" >/dev/null 2>&1 || tm_fail "mke2fs failed"
  dd if="$dir/p1.made" of="$img" bs=1M seek=1 conv=notrunc,sparse status=none && rm -f "$dir/p1.made"
  drv=mmc_spi
  boot=(--board hifive-unleashed --sdimg "$img" --keep-sdimg "$card" --qemu "-accel tcg,thread=single")
  ;;
*) tm_usage "$usage" ;;
esac
case $mode in
raw)
  off=$((0x90000)) len=300000
  "$TM_CHECK" "${boot[@]}" --timeout 60 \
    --input "blk write mmcblk0 $off $len 37\rsync\rdrop_caches\rblk sha256 mmcblk0 $off $len\rblk stats\rpoweroff\r" \
    --expect "^mmcblk0 .*" --reject "I/O error|WARNING" >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  grep -E "$drv|^mmcblk0|^[0-9a-f]{64}$" "$dir/log" | tr -d '\r'
  python3 "$gen" stream 37 $len >"$dir/want"
  want=$(sha256sum <"$dir/want" | cut -d' ' -f1)
  grep -q "^$want" "$dir/log" || tm_fail "the kernel's read-back sha256 is not the stream's ($want)"
  cmp -s -i "$off:0" -n $len "$card" "$dir/want" || tm_fail "the card does not hold the stream at byte $off"
  # What was there before the boot: U-Boot and the MBR as built; partition 1 a clean ext2.
  cmp -s -n $off "$card" "$img" || tm_fail "the card's first $off bytes (MBR, U-Boot) changed"
  dd if="$card" of="$dir/p1" bs=1M skip=1 count=62 status=none
  e2fsck -fn "$dir/p1" >"$dir/fsck" 2>&1 || { cat "$dir/fsck"; tm_fail "partition 1 is not a clean ext2"; }
  echo "card: $len bytes of stream 37 at $off exact; MBR, U-Boot unchanged; partition 1 clean"
  ;;
fs)
  "$TM_CHECK" "${boot[@]}" --timeout 90 \
    --input "mkdir /mnt\rmount mmcblk0p1 /mnt\rfwrite /mnt/a.bin 0 200000 5\rfwrite /mnt/b.bin 0 1234567 6\rsha256sum /mnt/a.bin /mnt/b.bin\rumount /mnt\rblk stats\rpoweroff\r" \
    --reject "I/O error|WARNING|: E[A-Z]+$" >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  grep -E "$drv|^mmcblk0|/mnt/" "$dir/log" | tr -d '\r'
  dd if="$card" of="$dir/p1" bs=1M skip=1 count=62 status=none
  e2fsck -fn "$dir/p1" >"$dir/fsck" 2>&1 || { cat "$dir/fsck"; tm_fail "e2fsck -fn: partition 1 is not clean after the kernel's writes"; }
  for f in a.bin:200000:5 b.bin:1234567:6; do
    IFS=: read -r name len seed <<<"$f"
    python3 "$gen" stream "$seed" "$len" >"$dir/want"
    debugfs -R "dump /$name $dir/got" "$dir/p1" >/dev/null 2>&1
    cmp -s "$dir/want" "$dir/got" || tm_fail "/$name on the card is not stream $seed ($len bytes)"
    want=$(sha256sum <"$dir/want" | cut -d' ' -f1)
    grep -q "^$want  /mnt/$name" "$dir/log" || tm_fail "the kernel's sha256sum of /mnt/$name is not the stream's"
  done
  echo "partition 1: e2fsck -fn clean; a.bin, b.bin exactly the streams"
  ;;
no-answer|lose-irq|bad-crc)
  "$TM_CHECK" "${boot[@]}" --timeout 60 \
    --input "blk inject mmcblk0 $mode\rblk read mmcblk0 900000 4096\rblk read mmcblk0 432 80\rblk list\rblk stats\rpoweroff\r" \
    >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  tr -d '\r' <"$dir/log" >"$dir/console"
  grep -E "$drv|^mmcblk0|I/O error" "$dir/console"
  n=$(grep -c "$drv mmcblk0: .*I/O error" "$dir/console")
  [ "$n" = 1 ] || tm_fail "$n driver error lines, not one"
  case $board:$mode in
  orangepi-pc:no-answer) why="no response from the card \(status 0x[0-9a-f]+\)" ;;
  orangepi-pc:lose-irq) why="no completion \(status 0x[0-9a-f]+\)" ;;
  *:no-answer) why="no response to CMD18 within 64 bytes" ;;
  *:bad-crc) why="data CRC 0x[0-9a-f]{4}, computed 0x[0-9a-f]{4}" ;;
  esac
  line=$(grep "$drv mmcblk0: .*I/O error" "$dir/console")
  ms=$(sed -nE "s/.*: read of [0-9]+ bytes at sector [0-9]+: $why after ([0-9]+) ms: I\/O error$/\1/p" <<<"$line")
  [ -n "$ms" ] || tm_fail "the error line does not say '$why ... after N ms'"
  if [ "$mode" = lose-irq ]; then
    [ "$ms" -ge 1000 ] && [ "$ms" -le 1500 ] || tm_fail "EIO after $ms ms, not within 1000-1500 (the timer)"
  else
    [ "$ms" -le 100 ] || tm_fail "EIO after $ms ms, not at once"
  fi
  grep -q "^blk read: mmcblk0: reading .* failed: I/O error (-EIO)$" "$dir/console" || tm_fail "blk read did not report EIO"
  hexdump -C -s 432 -n 80 "$img" >"$dir/mbr"
  grep -qF "$(sed -n 3p "$dir/mbr")" "$dir/console" || tm_fail "the read after the recovery is not the MBR"
  grep -Eq "^mmcblk0: .* 1 errors, 1 recoveries, ok$" "$dir/console" || tm_fail "blk list: not 1 error, 1 recovery, ok"
  grep -Eq "^mmcblk0( +[0-9]+){9} +1$" "$dir/console" || tm_fail "blk stats: not one error counted"
  echo "$mode: EIO after $ms ms, one line; recovered; the next read exact"
  ;;
late-irq)
  "$TM_CHECK" "${boot[@]}" --timeout 60 \
    --input "blk inject mmcblk0 late-irq\rblk read mmcblk0 432 80\rblk list\rpoweroff\r" \
    >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  tr -d '\r' <"$dir/log" >"$dir/console"
  grep -E "sunxi-mmc|^mmcblk0|I/O error" "$dir/console"
  ! grep -q "I/O error" "$dir/console" || tm_fail "the request the controller had finished was failed"
  [ "$(grep -c "sunxi-mmc mmcblk0: read of 4096 bytes at sector 0: done, its interrupt not taken yet when the timer fired after [0-9]* ms$" "$dir/console")" = 1 ] ||
    tm_fail "not one 'done, its interrupt not taken yet' line: the timer did not come first?"
  hexdump -C -s 432 -n 80 "$img" >"$dir/mbr"
  grep -qF "$(sed -n 3p "$dir/mbr")" "$dir/console" || tm_fail "the bytes read are not the MBR's"
  grep -Eq "^mmcblk0: .* 0 errors, 0 recoveries, ok$" "$dir/console" || tm_fail "blk list: not 0 errors, 0 recoveries"
  echo "late-irq: the timer came first and ended the request as done; the bytes exact"
  ;;
reset-card)
  "$TM_CHECK" "${boot[@]}" --timeout 60 \
    --input "blk inject mmcblk0 reset-card\rblk read mmcblk0 900000 4096\rblk read mmcblk0 0 16\rblk list\rpoweroff\r" \
    >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  tr -d '\r' <"$dir/log" >"$dir/console"
  grep -E "$drv|^ *mmcblk0|failed" "$dir/console"
  [ "$(grep -c "$drv mmcblk0: .*I/O error$" "$dir/console")" = 1 ] || tm_fail "not one EIO line"
  [ "$(grep -c "$drv mmcblk0: the card does not come back after an error.*; disk failed$" "$dir/console")" = 1 ] ||
    tm_fail "not one 'disk failed' line"
  grep -q "^blk read: mmcblk0: reading 4096 bytes at offset 0 (sector 0) failed: device failed (-ENXIO)$" "$dir/console" ||
    tm_fail "the read after the failure is not ENXIO"
  grep -Eq "^mmcblk0: .* 1 errors, 0 recoveries, failed$" "$dir/console" || tm_fail "blk list does not say failed"
  grep -Eq "^  mmcblk0p1: .*, failed$" "$dir/console" || tm_fail "blk list: mmcblk0p1 not failed"
  echo "reset-card: EIO, then the disk failed in one line; the next read ENXIO"
  ;;
probe)
  "$TM_CHECK" "${boot[@]}" --timeout 60 --input "blk list\rpoweroff\r" \
    --expect "^\[ *[0-9.]+\] mmc_spi mmcblk0: 67108864 bytes \(131072 sectors\), SDSC, SPI clock [0-9]+ Hz, CRC on, polled, on sifive,spi0@0x10050000 cs 0$" \
    --expect "^\[ *[0-9.]+\] mmcblk0: mmcblk0p1$" \
    --expect "^mmcblk0: 67108864 bytes \(131072 sectors\), logical block 512, max segments 256, mmc_spi on sifive,spi0@0x10050000 cs 0, SDSC, SPI clock [0-9]+ Hz, CRC on, polled, 0 errors, 0 recoveries, ok$" \
    --expect "^  mmcblk0p1: 65011712 bytes \(126976 sectors\), start sector 2048 of mmcblk0, partition 1, type 0x83, ok$" \
    >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  grep -E "$drv|mmcblk0" "$dir/log" | tr -d '\r'
  echo "probe: mmcblk0 and mmcblk0p1 found; the boot line and blk list as they should be"
  ;;
sdhc)
  big=$dir/big.img off=4000000000 len=100000
  truncate -s 4G "$big" || tm_fail "cannot make a 4 GiB sparse file in $dir"
  "$TM_CHECK" --board hifive-unleashed --sdimg "$big" --keep-sdimg "$card" --qemu "-accel tcg,thread=single" --timeout 60 \
    --input "blk write mmcblk0 $off $len 9\rsync\rdrop_caches\rblk sha256 mmcblk0 $off $len\rpoweroff\r" \
    --expect "^\[ *[0-9.]+\] mmc_spi mmcblk0: 4294967296 bytes \(8388608 sectors\), SDHC, .*" \
    --reject "I/O error|WARNING" >"$dir/log" 2>&1 || { cat "$dir/log"; rm -f "$big" "$card"; tm_fail "the boot failed"; }
  grep -E "$drv|^[0-9a-f]{64}$" "$dir/log" | tr -d '\r'
  python3 "$gen" stream 9 $len >"$dir/want"
  want=$(sha256sum <"$dir/want" | cut -d' ' -f1)
  grep -q "^$want" "$dir/log" || { rm -f "$big" "$card"; tm_fail "the kernel's read-back sha256 is not the stream's"; }
  cmp -s -i "$off:0" -n $len "$card" "$dir/want" || { rm -f "$big" "$card"; tm_fail "the card does not hold the stream at byte $off"; }
  rm -f "$big" "$card"
  echo "sdhc: $len bytes at byte $off exact on a 4 GiB SDHC card"
  ;;
ktest)
  # It overwrites the copy's first 4 MiB (the MBR, partition 1's start): the copy only.
  "$TM_CHECK" "${boot[@]}" --timeout 150 --append "tinymm.test=virtio_blk tinymm.ktest_disk=mmcblk0" \
    --expect "^# totals: pass:7 fail:0 skip:0$" --reject "not ok" >"$dir/log" 2>&1 ||
    { cat "$dir/log"; tm_fail "the suite failed"; }
  grep -E "^ *(ok|not ok|# totals)" "$dir/log"
  ;;
*) tm_usage "$usage" ;;
esac
echo "sdmmc_test: PASS"
