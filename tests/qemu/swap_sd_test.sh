#!/usr/bin/env bash
# swap_sd_test.sh [--board orangepi-pc|raspi2b|hifive-unleashed] [--write-outside | --card-only FILE] -
# swap end to end on a board's SD card (issue 39, docs/swap.md): the swap area is partition 3
# of the card, mmcblk0p3, not a virtio disk.  Orange Pi PC (the default,
# docs/boards/orangepi-pc.md): the card the board boots from, written by the SD host's DMA
# (drivers/sunxi_mmc.c).  Raspberry Pi 2B (docs/boards/raspi2b.md): the card in its slot (it
# boots from the folder), moved by the DMA engine with a PIO tail (drivers/bcm2835_sdhost.c),
# with two passes per task (at `ram=` below: why).  HiFive Unleashed
# (docs/boards/hifive-unleashed.md): the card in the SPI slot, a data disk beside the kernel's
# RAM-disk root, written a byte at a time (drivers/mmc_spi.c), booted under single-threaded
# TCG (docs/mmc-spi.md says why).
# The card, 256 MiB (QEMU's SD model takes only a power of two), partition 3 of type 0x82 at
# 128 MiB from sector 131072 (64 MiB) added by the host's sfdisk (util-linux's fdisk package);
# the host's mkswap (util-linux 2.38 has no --offset) formats a 128 MiB file, dd writes it in
# at the partition's byte offset.  Orange Pi PC: a sparse copy of build/orangepi-pc/sdcard.img
# (U-Boot, partition 1 ext2 boot files, partition 2 the FAT uboot.env, 64 MiB) grown to 256 MiB;
# partition 2 keeps its number, so U-Boot's environment and tools/run's --rescript (partition
# 1) see the card they know.  Raspberry Pi 2B: a sparse copy of build/raspi2b/sdcard.img
# (partition 1 the FAT boot folder, partition 2 an empty ext2, 64 MiB) grown the same way.
# HiFive Unleashed: made from nothing in the same layout:
# partition 1 a 62 MiB ext2 (mke2fs) at 1 MiB, partition 2 a 1 MiB type 0x0c of zeros.
# One boot (tools/run --sdimg, --keep-sdimg; root = RAM disk ram1, the user programs), mem=32M:
#   `swapon mmcblk0p3`; `swaps` lists "/dev/mmcblk0p3 partition 131068 0 <prio>"; meminfo
#   SwapTotal/SwapFree 131068 kB.  Three /bin/anonhog $MIB (default the RAM: 96 MiB, 3x the 32 MiB
#   of RAM; MemTotal is ~30000 kB under mem=32M, each task at least that) at once, two
#   `exec -b`, one in the foreground, seeds 1-3, $PASSES passes each (Orange Pi PC 3: fill, in
#   order, backwards; HiFive Unleashed 2: fill, in order: the SPI card moves ~1 MiB/s): each
#   says "all ok" (every word back exact), the foreground one exits 0; vmstat pswpout and
#   pswpin at least 2048 (8 MiB each way); once they are gone SwapFree is SwapTotal again (no
#   slot leaked) and AnonPages 0 kB.  Then swapoff with pages out: `anonhog -w /go 8` fills
#   and sleeps, a foreground `anonhog 28` pushes it out (HiFive Unleashed: `-p 1`, the fill
#   only: it is there for the pressure), `swapoff mmcblk0p3` brings them back
#   (SwapTotal 0 kB, the area no longer in `swaps`); `mkdir /go` wakes the sleeper, which finds
#   all 8 MiB exact with no swap-in after the swapoff.  buddycheck, slabcheck, `blk stats`: 0
#   errors on mmcblk0.
# No BUG, WARNING, Oops, panic, Bad page, unhandled fault or anonhog "mismatch" on the console.
# On the host after power-off (the card tools/run used, kept): everything outside partition 3
# is exactly the card before the boot except partition 1 on the Orange Pi PC (tools/run
# rewrote its boot.scr; e2fsck -fn must still pass; on the HiFive Unleashed it is compared
# too), and partition 3's first page is still mkswap's header: swap I/O stayed inside its
# partition.
# --write-outside: the check's twin: no tasks; `blk write` puts 4 KiB at 8 MiB past partition
# 3's end; the host's check must fail ("sectors ... of the card changed"; CTest expects it).
# --card-only FILE: only make the card (for a boot by hand: tools/run --board B --sdimg FILE
# --rootfs --append mem=32M).
# RAM, MIB, PASSES (environment): mem=, each anonhog's size and passes; SWAP_SD_KEEP=DIR keeps
# the card and console there.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/swap_lib.sh"
tm_init swap_sd
MKSWAP=${MKSWAP:-$(command -v mkswap || echo /sbin/mkswap)}
SFDISK=${SFDISK:-$(command -v sfdisk || echo /sbin/sfdisk)}
[ -x "$MKSWAP" ] || tm_fail "no mkswap at $MKSWAP: install Debian's util-linux"
[ -x "$SFDISK" ] || tm_fail "no sfdisk at $SFDISK: install Debian's fdisk (tools/install-deps)"
board=orangepi-pc
[ "${1:-}" = --board ] && board=$2 && shift 2
PATH=$PATH:/sbin:/usr/sbin
# ram: mem=<ram>M.  rewritten: tools/run rewrites partition 1 (the Orange Pi PC's boot.scr);
# p1_ext2: partition 1 is an ext2 e2fsck checks after the boot (the Pi's is its FAT boot folder).
# The Pi and the HiFive run two passes (fill, then every word checked): every 4 KiB of the Pi's
# swap I/O costs ~2.5 ms of QEMU's time (its DMA engine moves the card's FIFO a word at a time
# through QEMU's MMIO dispatch, docs/mmc.md), ~7x the Orange Pi PC's, and the HiFive's SPI card
# moves 1-2 MiB/s; still 3x the RAM, every page out and back (the Pi: 485 s for the three tasks
# on a loaded host, 630 s in all).
case $board in
orangepi-pc)
  src=$TM_TOP/build/orangepi-pc/sdcard.img
  [ -f "$src" ] || tm_fail "no $src (make image BOARD=orangepi-pc)"
  ram=${RAM:-32} rewritten=1 p1_ext2=1 passes=${PASSES:-3} push_passes=3 qemu=() ;;
raspi2b)
  src=$TM_TOP/build/raspi2b/sdcard.img
  [ -f "$src" ] || tm_fail "no $src (make BOARD=raspi2b)"
  ram=${RAM:-32} rewritten="" p1_ext2="" passes=${PASSES:-2} push_passes=2 qemu=() ;;
hifive-unleashed)
  # shellcheck disable=SC2054  # one QEMU option, its comma part of the value
  src="" ram=${RAM:-32} rewritten="" p1_ext2=1 passes=${PASSES:-2} push_passes=1 qemu=(-- -accel tcg,thread=single) ;;
*) tm_usage "usage: swap_sd_test.sh [--board orangepi-pc|raspi2b|hifive-unleashed] [--write-outside | --card-only FILE]" ;;
esac
sleeper=$((ram / 4)) pusher=$((ram - ram / 8))	# 8 and 28 on 32 MiB
# limit: seconds a task may take (the swapoff half of it).  The Pi's and the HiFive's cards take
# 2-8 minutes for the three tasks, the most beside other QEMU tests on two cores.
case $board in orangepi-pc) limit=240 ;; *) limit=1200 ;; esac
mib=${MIB:-$ram}
card_mib=256 p3_start=131072 p3_sectors=262144	# 64 MiB to 192 MiB of a 256 MiB card
area_kb=$((p3_sectors / 2 - 4))			# mkswap's size: the header page left out
died='swap-in of .* failed|[Uu]nhandled (signal|page fault)|anonhog: mismatch|killed by signal|I/O error'
reject='BUG|WARNING|Oops|Kernel panic|Bad page|[Uu]nhandled (signal|page fault)|Out of memory|anonhog: mismatch|I/O error'

# make_card OUT: the test's card from the board's (see the top).
make_card() {
  local out=$1 tmp
  rm -f "$out"
  if [ -n "$src" ]; then
    cp --sparse=always "$src" "$out" && truncate -s ${card_mib}M "$out" || tm_fail "cannot copy $src to $out"
  else
    # The Orange Pi PC's layout without U-Boot: an ext2 partition 1, a small partition 2.
    truncate -s ${card_mib}M "$out" &&
      printf 'label: dos\nstart=2048, size=126976, type=83\nstart=129024, size=2048, type=c\n' |
      "$SFDISK" -q "$out" || tm_fail "sfdisk could not write $out's MBR"
    rm -f "$out.p1" && truncate -s 62M "$out.p1" && mke2fs -q -t ext2 -F "$out.p1" >/dev/null 2>&1 ||
      tm_fail "mke2fs $out.p1 failed"
    dd if="$out.p1" of="$out" bs=1M seek=1 conv=notrunc,sparse status=none && rm -f "$out.p1"
  fi
  [ "$(sfdisk_field "$out" 3 start)" = "" ] || tm_fail "$src already has a partition 3"
  echo "start=$p3_start, size=$p3_sectors, type=82" | "$SFDISK" -q --append "$out" >/dev/null ||
    tm_fail "sfdisk could not append partition 3 to $out"
  [ "$(sfdisk_field "$out" 3 start)" = $p3_start ] || tm_fail "partition 3 is not at sector $p3_start"
  tmp=$out.swap
  rm -f "$tmp" && truncate -s $((p3_sectors * 512)) "$tmp" && "$MKSWAP" -q "$tmp" >/dev/null 2>&1 ||
    tm_fail "mkswap $tmp failed"
  dd if="$tmp" of="$out" bs=512 seek=$p3_start conv=notrunc,sparse status=none || tm_fail "cannot write the swap area into $out"
  rm -f "$tmp"
}
# sfdisk_field CARD N KEY: partition N's KEY (start, size, type) from sfdisk -J, or "".
sfdisk_field() {
  "$SFDISK" -J "$1" 2>/dev/null | python3 -c 'import json, sys
parts = json.load(sys.stdin)["partitiontable"].get("partitions", [])
n = int(sys.argv[1])
if len(parts) >= n: print(parts[n - 1][sys.argv[2]])' "$2" "$3" 2>/dev/null
}
# region_sha CARD FROM_SECTOR SECTORS: the SHA-256 of those sectors.
region_sha() { tm_sha "$1" $(($2 * 512)) $(($3 * 512)); }

if [ "${1:-}" = --card-only ]; then
  [ $# = 2 ] || tm_usage "usage: swap_sd_test.sh [--board orangepi-pc|raspi2b|hifive-unleashed] [--write-outside | --card-only FILE]"
  make_card "$2"
  echo "swap_sd: $2: partition 3 (mmcblk0p3) is a ${area_kb} kB swap area"
  exit 0
fi
case=pressure
[ "${1:-}" = --write-outside ] && case=spoil && shift
[ $# = 0 ] || tm_usage "usage: swap_sd_test.sh [--board orangepi-pc|raspi2b|hifive-unleashed] [--write-outside | --card-only FILE]"
case $mib in '' | *[!0-9]*) tm_usage "MIB='$mib' is not a number of MiB" ;; esac

if [ -n "${SWAP_SD_KEEP:-}" ]; then
  dir=$SWAP_SD_KEEP
  tm_fresh_dir "$dir"
else
  dir=$(mktemp -d)
  TM_RMDIR=1
fi
t0=$SECONDS
make_card "$dir/card.img"
cp --sparse=always "$dir/card.img" "$dir/before.img"

bg() {
  tm_cmd "exec -b $1"
  bg_pid=$(sed -nE 's|^/bin/[a-z]+: pid ([0-9]+)$|\1|p' <<<"$out")
  [ -n "$bg_pid" ] || tm_fail "exec -b $1 printed no pid: $out"
}
fg_ok() {
  TM_TIMEOUT=$limit tm_cmd "exec $1"
  tm_out_has "anonhog: all ok \\($2 MiB, seed $3, $4 passes\\)" || tm_fail "exec $1 did not say all ok"
  tm_out_has '^/bin/anonhog: exited with status 0$' || tm_fail "exec $1 did not exit 0"
}
# wait_ok MIB SEED SECONDS PASSES: a background anonhog said all ok; a task killed (a failed
# swap-in) or a wrong word fails at once rather than after SECONDS.
wait_ok() {
  local end=$((SECONDS + $3))
  until tm_console | grep -Eq "anonhog: all ok \\($1 MiB, seed $2, $4 passes\\)"; do
    kill -0 "$TM_PID" 2>/dev/null || tm_fail "QEMU exited while anonhog -s $2 $1 ran"
    ! tm_console | grep -Eq "$died" || tm_fail "a task died: $(tm_console | grep -E "$died" | head -n 2)"
    [ $SECONDS -lt $end ] || tm_fail "anonhog -s $2 $1 did not say all ok within $3 s"
    sleep 0.2
  done
}

# --mem is not passed: the ARM boards' 1 GiB is fixed in QEMU; mem= cuts the board's RAM
# in the kernel on both boards.
tm_boot "$dir" --board "$board" --sdimg "$dir/card.img" --keep-sdimg "$dir/kept.img" --rootfs --append "mem=${ram}M" "${qemu[@]}"
t_boot=$SECONDS
tm_console | grep -Eq "mem=$((ram * 1024))K: .* removed, $((ram * 1024))K of RAM left" || tm_fail "mem=${ram}M did not cut the RAM to $ram MiB"
tm_console | grep -Eq 'mmcblk0: mmcblk0p1 mmcblk0p2 mmcblk0p3' || tm_fail "the card's partition 3 was not found"
meminfo_swap
mem_total=$(field MemTotal:)
[ "$swap_total" = 0 ] || tm_fail "SwapTotal $swap_total kB before swapon"
[ $((mib * 1024)) -ge "$mem_total" ] || tm_fail "anonhog $mib is less than MemTotal ($mem_total kB): three are not 3x the RAM"
ok_cmd "swapon mmcblk0p3"
in_swaps mmcblk0p3 || tm_fail "swaps does not list /dev/mmcblk0p3 after swapon"
grep -Eq "^/dev/mmcblk0p3[[:space:]]+partition[[:space:]]+${area_kb}[[:space:]]+0[[:space:]]+-?[0-9]+$" <<<"$swaps_line" ||
  tm_fail "swaps: wanted '/dev/mmcblk0p3 partition $area_kb 0 <prio>', got '$swaps_line'"
meminfo_swap
[ "$swap_total" = $area_kb ] && [ "$swap_free" = $area_kb ] ||
  tm_fail "after swapon: SwapTotal $swap_total kB, SwapFree $swap_free kB, want $area_kb"

if [ "$case" = pressure ]; then
  # 3x the RAM of anonymous memory at once: three tasks, the last in the foreground.
  t1=$SECONDS
  bg "/bin/anonhog -s 1 -p $passes $mib"
  p1=$bg_pid
  bg "/bin/anonhog -s 2 -p $passes $mib"
  p2=$bg_pid
  fg_ok "/bin/anonhog -s 3 -p $passes $mib" "$mib" 3 "$passes"
  wait_ok "$mib" 1 $limit "$passes"
  wait_ok "$mib" 2 $limit "$passes"
  wait_gone "$p1" "$p2"
  t_hogs=$((SECONDS - t1))
  tm_cmd swaps
  tm_cmd meminfo
  tm_cmd vmstat
  pswpout=$(field pswpout) pswpin=$(field pswpin)
  [ -n "$pswpout" ] && [ "$pswpout" -ge 2048 ] || tm_fail "vmstat pswpout '$pswpout' < 2048 (8 MiB out)"
  [ -n "$pswpin" ] && [ "$pswpin" -ge 2048 ] || tm_fail "vmstat pswpin '$pswpin' < 2048 (8 MiB in)"
  swap_drained "after three anonhog $mib"
  [ "$(field AnonPages:)" = 0 ] || tm_fail "AnonPages $(field AnonPages:) kB after the tasks, not 0"

  # swapoff with pages out: a sleeper pushed out by a bigger task, brought back by swapoff.
  bg "/bin/anonhog -s 4 -w /go $sleeper"
  tm_wait "anonhog: holding $sleeper MiB until /go exists" 1 120
  fg_ok "/bin/anonhog -s 5 -p $push_passes $pusher" $pusher 5 "$push_passes"
  meminfo_swap
  used=$((swap_total - swap_free))
  [ "$used" -gt 0 ] || tm_fail "nothing of the sleeping anonhog $sleeper is in swap (SwapFree = SwapTotal)"
  tm_cmd vmstat
  in_before=$(field pswpin)
  TM_TIMEOUT=$((limit / 2)) ok_cmd "swapoff mmcblk0p3"
  ! in_swaps mmcblk0p3 || tm_fail "swaps still lists mmcblk0p3 after swapoff: $swaps_line"
  meminfo_swap
  [ "$swap_total" = 0 ] && [ "$swap_free" = 0 ] || tm_fail "after swapoff: SwapTotal $swap_total kB, SwapFree $swap_free kB"
  tm_cmd vmstat
  in_swapoff=$(field pswpin)
  tm_cmd "mkdir /go"
  wait_ok $sleeper 4 120 3
  tm_cmd vmstat
  [ "$(field pswpin)" = "$in_swapoff" ] ||
    tm_fail "pswpin went from $in_swapoff to $(field pswpin) after swapoff: not everything had come back"

else
  # --write-outside: the host's check below must catch 4 KiB written past partition 3.
  ok_cmd "blk write mmcblk0 $(((p3_start + p3_sectors) * 512 + 8 * 1048576)) 4096 7"
  ok_cmd sync
  ok_cmd "swapoff mmcblk0p3"
  t_hogs=0 pswpout=0 pswpin=0 used=0 in_before=0 in_swapoff=0
fi
tm_cmd "blk stats"
card_row=$(awk '$1 == "mmcblk0"' <<<"$out") p3_row=$(awk '$1 == "mmcblk0p3"' <<<"$out")
[ -n "$card_row" ] && [ "$(awk '{ print $11 }' <<<"$card_row")" = 0 ] || tm_fail "mmcblk0 had errors (blk stats): $card_row"
p3_writes=$(awk '{ print $7 }' <<<"$p3_row") p3_reads=$(awk '{ print $2 }' <<<"$p3_row")
tm_cmd buddycheck
tm_out_has '^buddycheck: ok \(0 problems\)' || tm_fail "buddycheck did not pass"
tm_cmd slabcheck
tm_out_has '^slabcheck: ok \(0 problems\)' || tm_fail "slabcheck did not pass"
tm_poweroff 0
! tm_console | grep -Eq -- "$reject" || tm_fail "the console has: $(tm_console | grep -E -- "$reject" | head -n 3)"
t_all=$((SECONDS - t0))

# The card on the host: swap I/O never left partition 3.
kept=$dir/kept.img
[ -f "$kept" ] || tm_fail "tools/run kept no card at $kept"
p1_start=$(sfdisk_field "$kept" 1 start) p1_sectors=$(sfdisk_field "$kept" 1 size)
[ -n "$p1_start" ] && [ -n "$p1_sectors" ] || tm_fail "the kept card has no partition 1"
p1_end=$((p1_start + p1_sectors))
regions=("0 $p1_start" "$p1_end $((p3_start - p1_end))" "$((p3_start + p3_sectors)) $((card_mib * 2048 - p3_start - p3_sectors))")
# Only the Orange Pi PC's partition 1 is written by tools/run (its boot.scr).
[ -n "$rewritten" ] || regions+=("$p1_start $p1_sectors")
for r in "${regions[@]}"; do
  # shellcheck disable=SC2086  # two numbers
  [ "$(region_sha "$kept" $r)" = "$(region_sha "$dir/before.img" $r)" ] ||
    tm_fail "sectors $r (start, count) of the card changed: swap I/O outside partition 3?"
done
[ "$(region_sha "$kept" $p3_start 8)" = "$(region_sha "$dir/before.img" $p3_start 8)" ] ||
  tm_fail "partition 3's header page is not mkswap's any more"
if [ -n "$p1_ext2" ]; then
  dd if="$kept" of="$dir/p1.img" bs=512 skip="$p1_start" count="$p1_sectors" status=none
  e2fsck -fn "$dir/p1.img" >"$dir/e2fsck.txt" 2>&1 || { cat "$dir/e2fsck.txt"; tm_fail "partition 1 is not clean after the boot"; }
fi
echo "swap_sd: PASS ($board, mem=${ram}M, MemTotal $mem_total kB, 3x anonhog -p $passes $mib on mmcblk0p3: pswpout $pswpout pswpin $pswpin in ${t_hogs} s; mmcblk0p3 ${p3_reads:-?} reads, ${p3_writes:-?} writes; swapoff brought back ${used} kB, pswpin $in_before -> $in_swapoff; ${t_all} s in all, boot $((t_boot - t0)) s)"
