#!/usr/bin/env bash
# swap_test.sh BOARD [CASE] - swap end to end on a virt board (issue 39, docs/swap.md): the root
# filesystem is vda (tools/run --rootfs), the swap disk vdb, made here by the host's mkswap
# (util-linux, /sbin/mkswap) on a sparse file.  Interactive (tm_boot/tm_cmd): each command's
# output is checked on its own.  The cases, each one boot:
#   pressure (the default)  32 MiB of RAM and a 256 MiB swap area.  meminfo has SwapTotal:,
#       SwapFree:, SwapCached: (0 kB before swapon); `swapon vdb`; `swaps` lists
#       "/dev/vdb partition 262140 0 <prio>"; meminfo SwapTotal and SwapFree 262140 kB.  Three
#       /bin/anonhog 32 (two `exec -b`, one in the foreground; seeds 1-3; seed 2 with -f: its
#       second pass has the kernel read and write its pages, write(2) and read(2) of a file,
#       faulting them in from swap itself): 3x the RAM at once,
#       each says "all ok" (every word back exact, forwards, backwards) and the foreground one
#       exits 0; vmstat pswpout and pswpin at least 2048 (8 MiB each way); once they are gone
#       SwapFree is SwapTotal again (no slot leaked) and AnonPages 0 kB.  Then swapoff with
#       pages out: `anonhog -w /mnt/go 12` fills and sleeps, a foreground `anonhog 40` pushes
#       it out (SwapFree below SwapTotal after the pusher is gone: only the sleeper's pages),
#       `swapoff vdb` works, `swaps` no longer lists vdb, SwapTotal/SwapFree 0 kB;
#       `mkdir /mnt/go` wakes the sleeper, which finds all 12 MiB exact without a single swap-in
#       (pswpin does not move after the swapoff).  buddycheck, slabcheck.
#   partition  32 MiB of RAM; vdb an MBR disk: partition 1 (type 82) a 64 MiB area, partition 2
#       32 MiB of seeded bytes.  `swapon vdb1`, swaps lists "/dev/vdb1 partition 65532 0 <prio>";
#       anonhog 48 exact, pswpout and pswpin > 0; SwapFree back; `swapoff vdb1`.  After
#       power-off the MBR's first MiB and partition 2 are byte-for-byte as made (every swap I/O
#       stayed inside partition 1).
#   bad        256 MiB of RAM; disks: vdb all zeros, vdc mkswap'd at 64 MiB then truncated to
#       16 MiB (its last_page beyond the device), vdd a good 16 MiB area, vde a good header
#       with version 2.  `swapon vdb`, `swapon vdc`, `swapon vde`: each refused with exactly one
#       line "swapon: <dev>: <reason>" and `swaps` lists nothing; `swapon vdd` works; a second
#       `swapon vdd` and `swapon /dev/vdd` refused (one line each); `swapoff vdb` (not on)
#       refused; `swapon nosuch` refused; `swapoff vdd` works; a second `swapoff vdd` refused;
#       SwapTotal 0 kB; buddycheck, slabcheck.  After power-off the refused images are
#       byte-for-byte what they were (nothing written to a disk swapon refused).
#   noroom     32 MiB of RAM: `anonhog -w /mnt/go 64` (twice the RAM) fills, checks and sleeps;
#       `swapoff vdb` must be refused in one line "swapoff: vdb: <reason>" (64 MiB cannot come
#       back into 32), vdb still in `swaps`, SwapTotal unchanged; the sleeper woken finds its
#       64 MiB exact; then SwapFree is SwapTotal again and `swapoff vdb` works.
#   ioerr      32 MiB of RAM; vdb through QEMU's blkdebug: reads work until the first write to
#       the disk (swapon reads its header), every read after it fails with EIO.  A bystander
#       `anonhog -l -w /mnt/go 4` (mlocked: never swapped) holds; `anonhog 48` fills (its pages
#       written out) and reads them back: it must be killed (the shell's "/bin/anonhog: killed
#       by signal N (NAME)") with a kernel line (timestamped) naming it: "anonhog" and its pid;
#       the bystander, woken, finds its 4 MiB exact; `anonhog 8` (fits in RAM) exits 0 after;
#       `swapoff vdb` works (nothing is left in swap); buddycheck, slabcheck.
#   oom        32 MiB of RAM, a 64 MiB area: /bin/oom (anonymous memory without end) is killed
#       only once the swap is full - the OOM report's "Free swap  = 0kB" and "Total swap =
#       65532kB", at least 64 MiB touched, one kill line, oom_kill 1, pswpout >= 48 MiB - and
#       its slots all come back (SwapFree = SwapTotal), swapoff works.
#   sysfuzz    32 MiB of RAM, swap on: `anonhog -p 8 40` in the background keeps memory short
#       (pages swapped out and in all along) while `sysfuzz 1 20000` runs; both end well (the
#       fuzzer's summary and status 0, anonhog's "all ok"), pswpout and pswpin > 0, SwapFree
#       back to SwapTotal, `swapoff vdb` works, buddycheck, slabcheck, `version` answers.
# Every case: no BUG, WARNING, Oops, panic, Bad page, unhandled-signal or -fault report, OOM kill,
# "swap-in of ... failed" or "Read-error on swap-device" line (ioerr: only the victim's and the
# read errors), and no anonhog "mismatch" line (one would mean a page came back wrong).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/swap_lib.sh"
tm_init swap
[ $# = 1 ] || [ $# = 2 ] || tm_usage "usage: swap_test.sh BOARD [pressure|partition|bad|noroom|oom|ioerr|sysfuzz]"
board=$1 case=${2:-pressure}
case $board in
  qemu-virt-*) sw=vdb ;;
  *) tm_usage "swap needs a second disk: $board has none here (a virt board; the Orange Pi PC's is swap_sd_test.sh)" ;;
esac
MKSWAP=${MKSWAP:-$(command -v mkswap || echo /sbin/mkswap)}
SFDISK=${SFDISK:-$(command -v sfdisk || echo /sbin/sfdisk)}
[ -x "$MKSWAP" ] || tm_fail "no mkswap (util-linux) at $MKSWAP"
dir=$(mktemp -d)
TM_RMDIR=1
reject='BUG|WARNING|Oops|Kernel panic|Bad page|[Uu]nhandled (signal|page fault)|Out of memory|anonhog: mismatch|swap-in of .* failed|Read-error on swap-device'
area_kb=262140		# a 256 MiB area: 65535 slots after the header page

# mkswap_img FILE SIZE: a sparse file of SIZE with Linux's swap header.
mkswap_img() {
  rm -f "$1" && truncate -s "$2" "$1" && "$MKSWAP" -q "$1" >/dev/null || tm_fail "mkswap $1 failed"
}
# refused CMD DEV: CMD printed exactly one line, "swapon: DEV: <reason>" (or swapoff's; DEV
# with or without /dev/; a kernel log line's timestamp allowed before it).
refused() {
  local lines
  tm_cmd "$1"
  lines=$(grep -c . <<<"$out")
  [ "$lines" = 1 ] || tm_fail "'$1': wanted one line of refusal, got $lines: $out"
  tm_out_has "^(\\[ *[0-9.]+\\] )?${1%% *}: (/dev/)?${2#/dev/}: .+" ||
    tm_fail "'$1': not a '${1%% *}: $2: <reason>' line: $out"
}
# kernel_lines: the console's timestamped (kernel log) lines, the timestamp taken off.
kernel_lines() { tm_console | sed -nE 's/^\[ *[0-9]+\.[0-9]+\] //p'; }
# boot_with_swap: booted with 32 MiB of RAM, the root on vda and a 256 MiB swap disk vdb.
boot_with_swap() {
  mkswap_img "$dir/swap.img" 256M
  tm_boot "$dir" --board "$board" --rootfs --mem 32M --disk "$dir/swap.img"
}
# bg CMD: `exec -b CMD`; $bg_pid is the pid it printed.
bg() {
  tm_cmd "exec -b $1"
  bg_pid=$(sed -nE 's|^/bin/[a-z]+: pid ([0-9]+)$|\1|p' <<<"$out")
  [ -n "$bg_pid" ] || tm_fail "exec -b $1 printed no pid: $out"
}
# fg_ok CMD MIB SEED PASSES: `exec CMD` (an anonhog) said all ok and exited 0.
fg_ok() {
  TM_TIMEOUT=${5:-240} tm_cmd "exec $1"
  tm_out_has "anonhog: all ok \\($2 MiB, seed $3, $4 passes\\)" || tm_fail "exec $1 did not say all ok"
  tm_out_has '^/bin/anonhog: exited with status 0$' || tm_fail "exec $1 did not exit 0"
}
# wait_ok MIB SEED PASSES SECONDS [PID]: a background anonhog said all ok; with PID, failing
# at once if the kernel reports that task killed (its "anonhog[PID]: " lines) or a mismatch.
wait_ok() {
  local ok="anonhog: all ok \\($1 MiB, seed $2, $3 passes\\)" end=$((SECONDS + $4)) dead
  while [ "$(tm_count "$ok")" -lt 1 ]; do
    kill -0 "$TM_PID" 2>/dev/null || tm_fail "QEMU exited while waiting for anonhog $1 (seed $2)"
    dead=$(tm_console | grep -E -m1 -- "anonhog: mismatch|${5:-^$}")
    [ -z "$dead" ] || tm_fail "anonhog $1 (seed $2) will not finish: $dead"
    [ $SECONDS -lt $end ] || tm_fail "no '$ok' within $4 s"
    sleep 0.1
  done
}
# pid_re PID: the kernel's lines about task PID of /bin/anonhog (its fault and kill reports).
pid_re() { echo "^\\[ *[0-9.]+\\] anonhog\\[$1\\]: "; }
finish() {
  tm_cmd buddycheck
  tm_out_has '^buddycheck: ok \(0 problems\)' || tm_fail "buddycheck did not pass"
  tm_cmd slabcheck
  tm_out_has '^slabcheck: ok \(0 problems\)' || tm_fail "slabcheck did not pass"
  tm_poweroff 0
  local bad
  bad=$(tm_console | grep -Ev -- "${allow:-^$}" | grep -E -- "$reject" | head -n 3)
  [ -z "$bad" ] || tm_fail "the console has: $bad"
}

case $case in
pressure)
  boot_with_swap
  meminfo_swap
  [ "$swap_total" = 0 ] && [ "$swap_free" = 0 ] || tm_fail "swap before swapon: SwapTotal $swap_total kB, SwapFree $swap_free kB"
  ok_cmd "swapon $sw"
  in_swaps $sw || tm_fail "swaps does not list /dev/$sw after swapon"
  grep -Eq "^/dev/${sw}[[:space:]]+partition[[:space:]]+${area_kb}[[:space:]]+0[[:space:]]+-?[0-9]+$" <<<"$swaps_line" ||
    tm_fail "swaps: wanted '/dev/$sw partition $area_kb 0 <prio>', got '$swaps_line'"
  meminfo_swap
  [ "$swap_total" = $area_kb ] && [ "$swap_free" = $area_kb ] ||
    tm_fail "after swapon: SwapTotal $swap_total kB, SwapFree $swap_free kB, want $area_kb"
  # 96 MiB of anonymous memory at once on 32 MiB: three tasks, the last in the foreground.
  bg "/bin/anonhog -s 1 32"
  p1=$bg_pid
  bg "/bin/anonhog -s 2 -f /mnt/k2 32"		# its pass 2 through write(2)/read(2)
  p2=$bg_pid
  fg_ok "/bin/anonhog -s 3 32" 32 3 3
  wait_ok 32 1 3 240 "$(pid_re "$p1")"
  wait_ok 32 2 3 240 "$(pid_re "$p2")"
  wait_gone "$p1" "$p2"
  tm_cmd vmstat
  pswpout=$(field pswpout) pswpin=$(field pswpin)
  [ -n "$pswpout" ] && [ "$pswpout" -ge 2048 ] || tm_fail "vmstat pswpout '$pswpout' < 2048 (8 MiB out)"
  [ -n "$pswpin" ] && [ "$pswpin" -ge 2048 ] || tm_fail "vmstat pswpin '$pswpin' < 2048 (8 MiB in)"
  swap_drained "after three anonhog 32"
  [ "$(field AnonPages:)" = 0 ] || tm_fail "AnonPages $(field AnonPages:) kB after the tasks, not 0"
  # swapoff with pages out: a sleeper pushed out by a bigger task, then brought back.
  bg "/bin/anonhog -s 4 -w /mnt/go 12"
  holder=$bg_pid
  tm_wait 'anonhog: holding 12 MiB until /mnt/go exists' 1 120
  fg_ok "/bin/anonhog -s 5 40" 40 5 3
  meminfo_swap
  used=$((swap_total - swap_free))
  [ "$used" -gt 0 ] || tm_fail "nothing of the sleeping anonhog 12 is in swap (SwapFree = SwapTotal)"
  tm_cmd vmstat
  in_before=$(field pswpin)
  TM_TIMEOUT=120 ok_cmd "swapoff $sw"
  ! in_swaps $sw || tm_fail "swaps still lists $sw after swapoff: $swaps_line"
  meminfo_swap
  [ "$swap_total" = 0 ] && [ "$swap_free" = 0 ] || tm_fail "after swapoff: SwapTotal $swap_total kB, SwapFree $swap_free kB"
  tm_cmd vmstat
  in_swapoff=$(field pswpin)
  tm_cmd "mkdir /mnt/go"
  wait_ok 12 4 3 120 "$(pid_re "$holder")"
  tm_cmd vmstat
  [ "$(field pswpin)" = "$in_swapoff" ] ||
    tm_fail "pswpin went from $in_swapoff to $(field pswpin) after swapoff: not everything had come back"
  finish
  echo "swap: PASS ($board pressure: pswpout $pswpout pswpin $pswpin for 3x32 MiB on 32 MiB; swapoff brought back ${used} kB, pswpin $in_before -> $in_swapoff)"
  ;;
partition)
  # 128 MiB: partition 1 (type 82) 64 MiB of swap from 1 MiB, partition 2 (83) 32 MiB after it
  # holding seeded bytes that must stay as they are.
  truncate -s 128M "$dir/disk.img"
  printf 'start=2048, size=131072, type=82\nstart=133120, size=65536, type=83\n' |
    "$SFDISK" -q "$dir/disk.img" >/dev/null || tm_fail "sfdisk failed"
  mkswap_img "$dir/p1.img" 64M
  tm_mkimg "$dir/p2.img" $((32 << 20)) 39
  dd if="$dir/p1.img" of="$dir/disk.img" bs=1M seek=1 conv=notrunc,sparse status=none &&
    dd if="$dir/p2.img" of="$dir/disk.img" bs=1M seek=65 conv=notrunc status=none || tm_fail "dd failed"
  outside() { { head -c $((1 << 20)) "$dir/disk.img"; tail -c +$(((65 << 20) + 1)) "$dir/disk.img"; } | sha256sum; }
  before=$(outside)
  tm_boot "$dir" --board "$board" --rootfs --mem 32M --disk "$dir/disk.img"
  ok_cmd "swapon vdb1"
  in_swaps vdb1 || tm_fail "swaps does not list /dev/vdb1 after swapon"
  grep -Eq "^/dev/vdb1[[:space:]]+partition[[:space:]]+65532[[:space:]]+0[[:space:]]+-?[0-9]+$" <<<"$swaps_line" ||
    tm_fail "swaps: wanted '/dev/vdb1 partition 65532 0 <prio>', got '$swaps_line'"
  fg_ok "/bin/anonhog -s 9 48" 48 9 3
  tm_cmd vmstat
  [ "$(field pswpout)" -gt 0 ] 2>/dev/null && [ "$(field pswpin)" -gt 0 ] 2>/dev/null ||
    tm_fail "pswpout '$(field pswpout)' pswpin '$(field pswpin)': anonhog 48 on 32 MiB did not swap"
  swap_drained "after anonhog 48"
  ok_cmd "swapoff vdb1"
  finish
  [ "$(outside)" = "$before" ] || tm_fail "the MBR or partition 2 changed: swap I/O left partition 1"
  echo "swap: PASS ($board partition: anonhog 48 through vdb1, the MBR and vdb2 untouched)"
  ;;
bad)
  truncate -s 16M "$dir/zero.img"
  mkswap_img "$dir/short.img" 64M
  truncate -s 16M "$dir/short.img"
  mkswap_img "$dir/good.img" 16M
  mkswap_img "$dir/v2.img" 16M
  # version (the 32-bit word at byte 1024, little-endian) 1 -> 2
  printf '\002' | dd of="$dir/v2.img" bs=1 seek=1024 conv=notrunc status=none
  for f in zero short v2; do sha256sum <"$dir/$f.img" >"$dir/$f.sha"; done
  tm_boot "$dir" --board "$board" --rootfs --mem 256M --disk "$dir/zero.img" --disk "$dir/short.img" \
    --disk "$dir/good.img" --disk "$dir/v2.img"
  refused "swapon vdb" vdb		# no SWAPSPACE2
  refused "swapon vdc" vdc		# last_page beyond the device
  refused "swapon vde" vde		# version 2
  tm_cmd swaps
  ! tm_out_has '^/dev/' || tm_fail "swaps lists an area after three refusals: $out"
  ok_cmd "swapon vdd"
  in_swaps vdd || tm_fail "swaps does not list /dev/vdd after swapon"
  refused "swapon vdd" vdd		# already on
  refused "swapon /dev/vdd" /dev/vdd	# the same device by its other name
  refused "swapoff vdb" vdb		# not on
  refused "swapon nosuch" nosuch
  in_swaps vdd || tm_fail "the refusals took /dev/vdd off"
  ok_cmd "swapoff vdd"
  ! in_swaps vdd || tm_fail "swaps still lists vdd after swapoff"
  refused "swapoff vdd" vdd		# no longer on
  meminfo_swap
  [ "$swap_total" = 0 ] || tm_fail "SwapTotal $swap_total kB with no area on"
  finish
  for f in zero short v2; do
    sha256sum -c --status <(sed "s|-\$|$dir/$f.img|" "$dir/$f.sha") || tm_fail "$f.img changed: swapon wrote to a disk it refused"
  done
  echo "swap: PASS ($board bad: zero, short, version-2 headers, second swapon, swapoff of an area not on, a missing device: one line each)"
  ;;
noroom)
  mkswap_img "$dir/swap.img" 256M
  tm_boot "$dir" --board "$board" --rootfs --mem 32M --disk "$dir/swap.img"
  ok_cmd "swapon vdb"
  bg "/bin/anonhog -s 6 -w /mnt/go 64"
  holder=$bg_pid
  tm_wait 'anonhog: holding 64 MiB until /mnt/go exists' 1 240
  meminfo_swap
  total_before=$swap_total used=$((swap_total - swap_free))
  [ "$used" -ge $((32 * 1024)) ] || tm_fail "only ${used} kB in swap with 64 MiB held on 32 MiB"
  TM_TIMEOUT=120 refused "swapoff vdb" vdb
  in_swaps vdb || tm_fail "the refused swapoff took vdb off"
  meminfo_swap
  [ "$swap_total" = "$total_before" ] || tm_fail "SwapTotal $swap_total kB after the refused swapoff, was $total_before"
  tm_cmd "mkdir /mnt/go"
  wait_ok 64 6 3 240 "$(pid_re "$holder")"
  wait_gone "$holder"
  swap_drained "after anonhog 64"
  ok_cmd "swapoff vdb"
  ! in_swaps vdb || tm_fail "swaps still lists vdb after swapoff"
  finish
  echo "swap: PASS ($board noroom: swapoff refused with ${used} kB out on 32 MiB, the 64 MiB came back exact)"
  ;;
oom)
  # /bin/oom grows without end on 32 MiB with a 64 MiB area: it must fill the swap first, and be
  # killed only then (the OOM report says "Free swap  = 0kB"), having grown past RAM + most of
  # the swap; its slots all come back.
  mkswap_img "$dir/swap.img" 64M
  tm_boot "$dir" --board "$board" --rootfs --mem 32M --disk "$dir/swap.img"
  ok_cmd "swapon vdb"
  TM_TIMEOUT=240 tm_cmd "exec /bin/oom"
  tm_out_has '^/bin/oom: killed by signal 9 \(SIGKILL\)$' || tm_fail "/bin/oom was not killed by SIGKILL"
  kill=$(kernel_lines | grep -E '^Out of memory: Killed process [0-9]+ \(oom\) ')
  [ "$(grep -c . <<<"$kill")" = 1 ] || tm_fail "wanted one OOM kill line, got: $kill"
  kernel_lines | grep -qxF 'Free swap  = 0kB' || tm_fail "the OOM report does not say the swap was full (Free swap  = 0kB)"
  kernel_lines | grep -qxF "Total swap = $((64 * 1024 - 4))kB" || tm_fail "the OOM report lacks 'Total swap = 65532kB'"
  touched=$(tm_console | sed -nE 's/^oom: ([0-9]+) MiB touched$/\1/p' | tail -n1)
  [ "${touched:-0}" -ge 64 ] || tm_fail "/bin/oom touched only ${touched:-0} MiB before the kill: RAM + swap is 96"
  tm_cmd vmstat
  [ "$(field oom_kill)" = 1 ] || tm_fail "vmstat oom_kill is '$(field oom_kill)', not 1"
  [ "$(field pswpout)" -ge $((48 * 256)) ] 2>/dev/null || tm_fail "pswpout '$(field pswpout)': the swap was not filled"
  swap_drained "after the OOM kill"
  ok_cmd "swapoff vdb"
  allow='Out of memory: Killed process [0-9]+ \(oom\)'
  finish
  echo "swap: PASS ($board oom: killed only with the swap full, after ${touched} MiB)"
  ;;
ioerr)
  mkswap_img "$dir/swap.img" 256M
  # State 1 until the disk's first write, then every read fails (EIO): swapon's header read
  # works, every swap-in after the first swap-out does not.
  cat >"$dir/blkdebug.cfg" <<'EOF'
[set-state]
state = "1"
event = "write_aio"
new_state = "2"

[inject-error]
state = "2"
event = "read_aio"
errno = "5"
once = "off"
EOF
  tm_boot "$dir" --board "$board" --rootfs --mem 32M -- \
    -drive "file=blkdebug:$dir/blkdebug.cfg:$dir/swap.img,if=none,id=swap,format=raw" \
    -device virtio-blk-device,drive=swap
  ok_cmd "swapon vdb"
  bg "/bin/anonhog -l -s 2 -w /mnt/go 4"
  bystander=$bg_pid
  tm_wait 'anonhog: holding 4 MiB until /mnt/go exists' 1 60
  TM_TIMEOUT=240 tm_cmd "exec /bin/anonhog -s 1 48"
  victim=$(sed -nE 's|^anonhog: pid ([0-9]+) seed 1: .*|\1|p' <<<"$out")
  [ -n "$victim" ] || tm_fail "anonhog 48 did not start"
  ! tm_out_has 'Out of memory' || tm_fail "anonhog 48 was killed by the OOM killer (swap-out did not keep up?), not by a swap-in error"
  ! tm_out_has 'anonhog: all ok \(48 MiB' || tm_fail "anonhog 48 read back every page although reads fail: nothing was swapped?"
  tm_out_has '^/bin/anonhog: killed by signal [0-9]+ \([A-Z]+\)$' || tm_fail "anonhog 48 was not killed by a signal: $out"
  grep -Eq "^anonhog\\[$victim\\]: swap-in of 0x[0-9a-f]+ failed: .+" <<<"$(kernel_lines)" ||
    tm_fail "no kernel line 'anonhog[$victim]: swap-in of 0x<addr> failed: <why>'"
  # The read errors, the victim's swap-in failure and its fatal-signal report (RISC-V's
  # "anonhog[pid]: unhandled signal 7 ...", ARM's "anonhog: unhandled page fault (7) ...") are
  # expected; anybody else's are not (a bystander's death also shows as its missing "all ok").
  allow="^\\[ *[0-9.]+\\] (Read-error on swap-device |anonhog\\[$victim\\]: (unhandled signal |swap-in of )|anonhog: unhandled page fault \\(7\\) )"
  tm_cmd "mkdir /mnt/go"
  wait_ok 4 2 3 60 "$(pid_re "$bystander")"
  fg_ok "/bin/anonhog -s 3 8" 8 3 3
  tm_cmd vmstat
  [ "$(field pswpout)" -gt 0 ] 2>/dev/null || tm_fail "pswpout '$(field pswpout)': nothing was swapped out"
  ok_cmd "swapoff vdb"
  ! in_swaps vdb || tm_fail "swaps still lists vdb after swapoff"
  finish
  killed=$(kernel_lines | grep -E "^anonhog\\[$victim\\]: swap-in" | head -n 1)
  echo "swap: PASS ($board ioerr: pid $victim killed: $killed; the mlocked bystander and a later task exact)"
  ;;
sysfuzz)
  mkswap_img "$dir/swap.img" 256M
  tm_boot "$dir" --board "$board" --rootfs --mem 32M --disk "$dir/swap.img"
  ok_cmd "swapon vdb"
  bg "/bin/anonhog -s 8 -p 8 40"
  hog=$bg_pid
  TM_TIMEOUT=240 tm_cmd "exec /bin/sysfuzz 1 20000"
  tm_out_has '^sysfuzz: 20000 calls, [0-9]+ errors, [0-9]+ errnos:' || tm_fail "sysfuzz printed no summary"
  tm_out_has '^/bin/sysfuzz: exited with status 0$' || tm_fail "sysfuzz did not exit 0"
  wait_ok 40 8 8 240 "$(pid_re "$hog")"
  wait_gone "$hog"
  tm_cmd vmstat
  [ "$(field pswpout)" -gt 0 ] 2>/dev/null && [ "$(field pswpin)" -gt 0 ] 2>/dev/null ||
    tm_fail "pswpout '$(field pswpout)' pswpin '$(field pswpin)': no swapping during the fuzz"
  swap_drained "after sysfuzz and anonhog 40"
  ok_cmd "swapoff vdb"
  tm_cmd version
  tm_out_has "^tinymm [^ ]+ \\($board, " || tm_fail "version did not answer"
  finish
  echo "swap: PASS ($board sysfuzz: 20000 calls with swap on and anonhog 40 on 32 MiB)"
  ;;
*) tm_usage "unknown case '$case' (pressure, partition, bad, noroom, oom, ioerr, sysfuzz)" ;;
esac
