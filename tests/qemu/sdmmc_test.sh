#!/usr/bin/env bash
# sdmmc_test.sh - a board's SD card through its SD host driver, checked on the host afterwards
# (tests/qemu/sdmmc.cmake, docs/mmc.md).
#   sdmmc_test.sh [--board B] --dir DIR MODE
# B: orangepi-pc (default: drivers/sunxi_mmc.c, the card it boots from, build/orangepi-pc/
# sdcard.img: U-Boot, ext2 partition 1 at 1 MiB) or raspi2b (drivers/bcm2835_sdhost.c, the
# card in the slot, build/raspi2b/sdcard.img: FAT partition 1 at 1 MiB with the boot folder,
# empty ext2 partition 2).  The ext2 partition is "the fs partition" below.
#   raw     `blk write` 300000 bytes (seed 37) into the card's free gap before partition 1
#       (byte 0x90000), `sync`, read them back through a dropped page cache; on the host the
#       kept card holds exactly the xorshift64* stream there, the bytes before it (the MBR,
#       U-Boot) are unchanged and the fs partition is still clean (e2fsck -fn).
#   fs      mount the fs partition, fwrite two files (stream seeds 5 and 6), sha256sum them,
#       umount; on the host e2fsck -fn on it is clean and debugfs's dump of each file is exactly
#       the stream.
#   no-answer|lose-irq|stall   the card deselected before the next request (it gets no
#       response: QEMU's card model ignores a data command outside the transfer state), that
#       request's interrupt masked (sunxi: only the driver's timer can end it) or its data never
#       moved (bcm2835-sdhost: the host does not pull it; only the driver's bound ends it): the
#       request fails with EIO in one driver line, within the bound (no-answer: at once;
#       lose-irq, stall: the 1000 ms default, at most 1500), `blk stats` counts one error,
#       and the next read after the recovery returns the MBR's bytes exactly (the host's
#       hexdump of the card).
#   late-irq (sunxi)   interrupts kept masked past the request's deadline after
#       the controller finished (QEMU does the transfer inside the command write), as when a
#       loaded host stalls QEMU: the timer's interrupt is taken before the controller's, and
#       must end the request as done, not EIO: one "done, its interrupt not taken yet" line,
#       the bytes read are the MBR's, 0 errors, 0 recoveries.
#   reset-card   the card sent back to idle (CMD0) behind the driver's back, as a card swapped:
#       the request fails with EIO, the recovery finds no card in the transfer or standby state
#       and fails the disk in one line; the next read is ENXIO at once, `blk list` says failed
#       (the partitions too).
# The card is tools/run's private copy, kept in DIR (--keep-sdimg).
. "$(dirname "$0")/lib.sh"
tm_init sdmmc_test
top=$TM_TOP dir="" board=orangepi-pc
usage="sdmmc_test.sh [--board orangepi-pc|raspi2b] --dir DIR raw|fs|no-answer|lose-irq|late-irq|stall|reset-card"
[ "${1:-}" = --board ] && board=${2:-} && shift 2
[ "${1:-}" = --dir ] || tm_usage "$usage"
dir=$2 mode=${3:-}
tm_fresh_dir "$dir"
card=$dir/card.img
gen=$top/tests/qemu/writeback_expect.py
img=$top/build/$board/sdcard.img
[ -f "$img" ] || tm_fail "no $img (make BOARD=$board)"
case $board in
orangepi-pc) drv=sunxi-mmc fsp=1 fs_start=2048 fs_sectors=126976 run=() ;;	# boots from its card
raspi2b) drv=bcm2835-sdhost fsp=2 fs_start=67584 fs_sectors=63488 run=(--sdimg "$img") ;;	# the slot
*) tm_usage "$usage" ;;
esac
# fs_check: the kept card's fs partition is a clean ext2 (its copy left at $dir/fs.img).
fs_check() {
  dd if="$card" of="$dir/fs.img" bs=512 skip=$fs_start count=$fs_sectors status=none
  e2fsck -fn "$dir/fs.img" >"$dir/fsck" 2>&1 || { cat "$dir/fsck"; tm_fail "$1"; }
}
case $mode in
raw)
  off=$((0x90000)) len=300000
  "$TM_CHECK" --board "$board" "${run[@]}" --timeout 60 --keep-sdimg "$card" \
    --input "blk write mmcblk0 $off $len 37\rsync\rdrop_caches\rblk sha256 mmcblk0 $off $len\rblk stats\rpoweroff\r" \
    --expect "^mmcblk0 .*" --reject "I/O error|WARNING" >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  grep -E "$drv|^mmcblk0|^[0-9a-f]{64}$" "$dir/log" | tr -d '\r'
  python3 "$gen" stream 37 $len >"$dir/want"
  want=$(sha256sum <"$dir/want" | cut -d' ' -f1)
  grep -q "^$want" "$dir/log" || tm_fail "the kernel's read-back sha256 is not the stream's ($want)"
  cmp -s -i "$off:0" -n $len "$card" "$dir/want" || tm_fail "the card does not hold the stream at byte $off"
  # What was there before the boot: the MBR (and U-Boot) as built; the fs partition clean.
  cmp -s -n $off "$card" "$img" || tm_fail "the card's first $off bytes (MBR, U-Boot) changed"
  fs_check "partition $fsp is not a clean ext2"
  echo "card: $len bytes of stream 37 at $off exact; the bytes before unchanged; partition $fsp clean"
  ;;
fs)
  "$TM_CHECK" --board "$board" "${run[@]}" --timeout 90 --keep-sdimg "$card" \
    --input "mkdir /mnt\rmount mmcblk0p$fsp /mnt\rfwrite /mnt/a.bin 0 200000 5\rfwrite /mnt/b.bin 0 1234567 6\rsha256sum /mnt/a.bin /mnt/b.bin\rumount /mnt\rblk stats\rpoweroff\r" \
    --reject "I/O error|WARNING|: E[A-Z]+$" >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  grep -E "$drv|^mmcblk0|/mnt/" "$dir/log" | tr -d '\r'
  fs_check "e2fsck -fn: partition $fsp is not clean after the kernel's writes"
  for f in a.bin:200000:5 b.bin:1234567:6; do
    IFS=: read -r name len seed <<<"$f"
    python3 "$gen" stream "$seed" "$len" >"$dir/want"
    debugfs -R "dump /$name $dir/got" "$dir/fs.img" >/dev/null 2>&1
    cmp -s "$dir/want" "$dir/got" || tm_fail "/$name on the card is not stream $seed ($len bytes)"
    want=$(sha256sum <"$dir/want" | cut -d' ' -f1)
    grep -q "^$want  /mnt/$name" "$dir/log" || tm_fail "the kernel's sha256sum of /mnt/$name is not the stream's"
  done
  echo "partition $fsp: e2fsck -fn clean; a.bin, b.bin exactly the streams"
  ;;
no-answer|lose-irq|stall)
  "$TM_CHECK" --board "$board" "${run[@]}" --timeout 60 --keep-sdimg "$card" \
    --input "blk inject mmcblk0 $mode\rblk read mmcblk0 900000 4096\rblk read mmcblk0 432 80\rblk list\rblk stats\rpoweroff\r" \
    >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  tr -d '\r' <"$dir/log" >"$dir/console"
  grep -E "$drv|^mmcblk0|I/O error" "$dir/console"
  n=$(grep -c "$drv mmcblk0: .*I/O error" "$dir/console")
  [ "$n" = 1 ] || tm_fail "$n driver error lines, not one"
  case $mode in no-answer) why="no response from the card" ;; lose-irq) why="no completion" ;; stall) why="no data moved" ;; esac
  line=$(grep "$drv mmcblk0: .*I/O error" "$dir/console")
  ms=$(sed -nE "s/.*: read of [0-9]+ bytes at sector [0-9]+: $why \(status 0x[0-9a-f]+[^)]*\) after ([0-9]+) ms: I\/O error$/\1/p" <<<"$line")
  [ -n "$ms" ] || tm_fail "the error line does not say '$why ... after N ms'"
  if [ "$mode" = no-answer ]; then
    [ "$ms" -le 100 ] || tm_fail "EIO after $ms ms, not at once"
  else
    [ "$ms" -ge 1000 ] && [ "$ms" -le 1500 ] || tm_fail "EIO after $ms ms, not within 1000-1500 (the bound)"
  fi
  grep -q "^blk read: mmcblk0: reading .* failed: I/O error (-EIO)$" "$dir/console" || tm_fail "blk read did not report EIO"
  hexdump -C -s 432 -n 80 "$img" >"$dir/mbr"
  grep -qF "$(sed -n 3p "$dir/mbr")" "$dir/console" || tm_fail "the read after the recovery is not the MBR"
  grep -Eq "^mmcblk0: .* 1 errors, 1 recoveries, ok$" "$dir/console" || tm_fail "blk list: not 1 error, 1 recovery, ok"
  grep -Eq "^mmcblk0( +[0-9]+){9} +1$" "$dir/console" || tm_fail "blk stats: not one error counted"
  echo "$mode: EIO after $ms ms, one line; recovered; the next read exact"
  ;;
late-irq)
  "$TM_CHECK" --board "$board" "${run[@]}" --timeout 60 --keep-sdimg "$card" \
    --input "blk inject mmcblk0 late-irq\rblk read mmcblk0 432 80\rblk list\rpoweroff\r" \
    >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  tr -d '\r' <"$dir/log" >"$dir/console"
  grep -E "$drv|^mmcblk0|I/O error" "$dir/console"
  ! grep -q "I/O error" "$dir/console" || tm_fail "the request the controller had finished was failed"
  [ "$(grep -c "sunxi-mmc mmcblk0: read of 4096 bytes at sector 0: done, its interrupt not taken yet when the timer fired after [0-9]* ms$" "$dir/console")" = 1 ] ||
    tm_fail "not one 'done, its interrupt not taken yet' line: the timer did not come first?"
  hexdump -C -s 432 -n 80 "$img" >"$dir/mbr"
  grep -qF "$(sed -n 3p "$dir/mbr")" "$dir/console" || tm_fail "the bytes read are not the MBR's"
  grep -Eq "^mmcblk0: .* 0 errors, 0 recoveries, ok$" "$dir/console" || tm_fail "blk list: not 0 errors, 0 recoveries"
  echo "late-irq: the timer came first and ended the request as done; the bytes exact"
  ;;
reset-card)
  "$TM_CHECK" --board "$board" "${run[@]}" --timeout 60 --keep-sdimg "$card" \
    --input "blk inject mmcblk0 reset-card\rblk read mmcblk0 900000 4096\rblk read mmcblk0 0 16\rblk list\rpoweroff\r" \
    >"$dir/log" 2>&1 || { cat "$dir/log"; tm_fail "the boot failed"; }
  tr -d '\r' <"$dir/log" >"$dir/console"
  grep -E "$drv|^ *mmcblk0|failed" "$dir/console"
  [ "$(grep -c "$drv mmcblk0: .*I/O error$" "$dir/console")" = 1 ] || tm_fail "not one EIO line"
  [ "$(grep -c "$drv mmcblk0: the card does not come back after an error; disk failed$" "$dir/console")" = 1 ] ||
    tm_fail "not one 'disk failed' line"
  grep -q "^blk read: mmcblk0: reading 4096 bytes at offset 0 (sector 0) failed: device failed (-ENXIO)$" "$dir/console" ||
    tm_fail "the read after the failure is not ENXIO"
  grep -Eq "^mmcblk0: .* 1 errors, 0 recoveries, failed$" "$dir/console" || tm_fail "blk list does not say failed"
  grep -Eq "^  mmcblk0p1: .*, failed$" "$dir/console" || tm_fail "blk list: mmcblk0p1 not failed"
  echo "reset-card: EIO, then the disk failed in one line; the next read ENXIO"
  ;;
*) tm_usage "$usage" ;;
esac
echo "sdmmc_test: PASS"
