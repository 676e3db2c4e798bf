#!/usr/bin/env bash
# sdmmc_test.sh - the Orange Pi PC's SD card through drivers/sunxi_mmc.c, checked on the host
# afterwards (tests/qemu/sdmmc.cmake, docs/sunxi-mmc.md).
#   sdmmc_test.sh --dir DIR raw     `blk write` 300000 bytes (seed 37) into the card's free gap
#       between U-Boot's end and partition 1 (byte 0x90000), `sync`, read them back through a
#       dropped page cache; on the host the kept card holds exactly the xorshift64* stream
#       there, U-Boot and partition 1 are unchanged (e2fsck -fn clean).
#   sdmmc_test.sh --dir DIR fs      mount mmcblk0p1, fwrite two files (stream seeds 5 and 6),
#       sha256sum them, umount; on the host e2fsck -fn on partition 1 is clean and debugfs's
#       dump of each file is exactly the stream.
#   sdmmc_test.sh --dir DIR no-answer|lose-irq   the card deselected before the next request
#       (it gets no response: QEMU's card model ignores a data command outside the transfer
#       state) or that request's interrupt masked (only the driver's timer can end it): the
#       request fails with EIO in one driver line, within the bound (no-answer: at once;
#       lose-irq: tinymm.sunxi_mmc_timeout_ms = 1000 ms, at most 1500), `blk stats` counts one error,
#       and the next read after the recovery returns the MBR's bytes exactly (the host's
#       hexdump of the card).
#   sdmmc_test.sh --dir DIR late-irq   interrupts kept masked past the request's deadline after
#       the controller finished (QEMU does the transfer inside the command write), as when a
#       loaded host stalls QEMU: the timer's interrupt is taken before the controller's, and
#       must end the request as done, not EIO: one "done, its interrupt not taken yet" line,
#       the bytes read are the MBR's, 0 errors, 0 recoveries.
#   sdmmc_test.sh --dir DIR reset-card   the card sent back to idle (CMD0) behind the driver's
#       back, as a card swapped: the request fails with EIO, the recovery finds no card in the
#       transfer or standby state and fails the disk in one line; the next read is ENXIO at
#       once, `blk list` says failed (the partitions too).
# The card is tools/run's private copy, kept in DIR (--keep-sdimg).
. "$(dirname "$0")/lib.sh"
tm_init sdmmc_test
top=$TM_TOP dir=""
[ "${1:-}" = --dir ] || tm_usage "sdmmc_test.sh --dir DIR raw|fs|no-answer|lose-irq|late-irq|reset-card"
dir=$2 mode=${3:-}
tm_fresh_dir "$dir"
card=$dir/card.img
gen=$top/tests/qemu/writeback_expect.py
img=$top/build/orangepi-pc/sdcard.img
[ -f "$img" ] || tm_fail "no $img (make image BOARD=orangepi-pc)"
case $mode in
raw)
  off=$((0x90000)) len=300000
  "$TM_CHECK" --board orangepi-pc --timeout 60 --keep-sdimg "$card" \
    --input "blk write mmcblk0 $off $len 37\rsync\rdrop_caches\rblk sha256 mmcblk0 $off $len\rblk stats\rpoweroff\r" \
    --expect "^mmcblk0 .*" --reject "I/O error|WARNING" >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  grep -E "sunxi-mmc|^mmcblk0|^[0-9a-f]{64}$" "$dir/log" | tr -d '\r'
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
  "$TM_CHECK" --board orangepi-pc --timeout 90 --keep-sdimg "$card" \
    --input "mkdir /mnt\rmount mmcblk0p1 /mnt\rfwrite /mnt/a.bin 0 200000 5\rfwrite /mnt/b.bin 0 1234567 6\rsha256sum /mnt/a.bin /mnt/b.bin\rumount /mnt\rblk stats\rpoweroff\r" \
    --reject "I/O error|WARNING|: E[A-Z]+$" >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  grep -E "sunxi-mmc|^mmcblk0|/mnt/" "$dir/log" | tr -d '\r'
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
no-answer|lose-irq)
  "$TM_CHECK" --board orangepi-pc --timeout 60 --keep-sdimg "$card" \
    --input "blk inject mmcblk0 $mode\rblk read mmcblk0 900000 4096\rblk read mmcblk0 432 80\rblk list\rblk stats\rpoweroff\r" \
    >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  tr -d '\r' <"$dir/log" >"$dir/console"
  grep -E "sunxi-mmc|^mmcblk0|I/O error" "$dir/console"
  n=$(grep -c "sunxi-mmc mmcblk0: .*I/O error" "$dir/console")
  [ "$n" = 1 ] || tm_fail "$n driver error lines, not one"
  [ "$mode" = no-answer ] && why="no response from the card" || why="no completion"
  line=$(grep "sunxi-mmc mmcblk0: .*I/O error" "$dir/console")
  ms=$(sed -nE "s/.*: read of [0-9]+ bytes at sector [0-9]+: $why \(status 0x[0-9a-f]+\) after ([0-9]+) ms: I\/O error$/\1/p" <<<"$line")
  [ -n "$ms" ] || tm_fail "the error line does not say '$why ... after N ms'"
  if [ "$mode" = no-answer ]; then
    [ "$ms" -le 100 ] || tm_fail "EIO after $ms ms, not at once"
  else
    [ "$ms" -ge 1000 ] && [ "$ms" -le 1500 ] || tm_fail "EIO after $ms ms, not within 1000-1500 (the timer)"
  fi
  grep -q "^blk read: mmcblk0: reading .* failed: I/O error (-EIO)$" "$dir/console" || tm_fail "blk read did not report EIO"
  hexdump -C -s 432 -n 80 "$img" >"$dir/mbr"
  grep -qF "$(sed -n 3p "$dir/mbr")" "$dir/console" || tm_fail "the read after the recovery is not the MBR"
  grep -Eq "^mmcblk0: .* 1 errors, 1 recoveries, ok$" "$dir/console" || tm_fail "blk list: not 1 error, 1 recovery, ok"
  grep -Eq "^mmcblk0( +[0-9]+){9} +1$" "$dir/console" || tm_fail "blk stats: not one error counted"
  echo "$mode: EIO after $ms ms, one line; recovered; the next read exact"
  ;;
late-irq)
  "$TM_CHECK" --board orangepi-pc --timeout 60 --keep-sdimg "$card" \
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
  "$TM_CHECK" --board orangepi-pc --timeout 60 --keep-sdimg "$card" \
    --input "blk inject mmcblk0 reset-card\rblk read mmcblk0 900000 4096\rblk read mmcblk0 0 16\rblk list\rpoweroff\r" \
    >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  tr -d '\r' <"$dir/log" >"$dir/console"
  grep -E "sunxi-mmc|^ *mmcblk0|failed" "$dir/console"
  [ "$(grep -c "sunxi-mmc mmcblk0: .*I/O error$" "$dir/console")" = 1 ] || tm_fail "not one EIO line"
  [ "$(grep -c "sunxi-mmc mmcblk0: the card does not come back after an error; disk failed$" "$dir/console")" = 1 ] ||
    tm_fail "not one 'disk failed' line"
  grep -q "^blk read: mmcblk0: reading 4096 bytes at offset 0 (sector 0) failed: device failed (-ENXIO)$" "$dir/console" ||
    tm_fail "the read after the failure is not ENXIO"
  grep -Eq "^mmcblk0: .* 1 errors, 0 recoveries, failed$" "$dir/console" || tm_fail "blk list does not say failed"
  grep -Eq "^  mmcblk0p1: .*, failed$" "$dir/console" || tm_fail "blk list: mmcblk0p1 not failed"
  echo "reset-card: EIO, then the disk failed in one line; the next read ENXIO"
  ;;
*) tm_usage "sdmmc_test.sh --dir DIR raw|fs|no-answer|lose-irq|late-irq|reset-card" ;;
esac
echo "sdmmc_test: PASS"
