#!/usr/bin/env bash
# mlock_test.sh BOARD track|resident|poison - mlock from user space under QEMU (docs/mlock.md), driven
# step by step: /bin/mlocktest (user/mlocktest.c) prints "mlocktest: step N: ..." and waits for
# /mnt/mlock.N, which the script makes with `fwrite` once it has checked the step.
#   track     /bin/mlocktest track 64 (and its own errno checks: ENOMEM for an unmapped or
#             PROT_NONE range, EINVAL for bad flags): after mlock Mlocked and Unevictable are
#             exactly 256 kB above the boot values, unevictable_pgs_mlocked 64 more, `maps -v`
#             shows exactly one area with `lo`, of 64 pages, `lru` lists mlocked folios on the
#             unevictable list; after munlock Mlocked and Unevictable are back, _munlocked 64
#             more, no `lo`; after mlock2(MLOCK_ONFAULT) and 32 pages touched, Mlocked 128 kB
#             above; after mlockall + munlockall back; with 64 pages locked again and a forked
#             child that wrote a copy of each, Mlocked is 256 kB above (the child's copies are not
#             locked) and `maps -v` shows `lo` in the parent only; after the exit back.
#   resident  a file 4x the page cache's room: on the virt boards 32 MiB of RAM and an ext2 disk
#             as vdb on /mnt holding /mnt/big, 128 MiB of random bytes; on the RAM-disk boards
#             (hifive-unleashed, orangepi-pc, raspi2b) 64 MiB of RAM (QEMU's -m on the HiFive,
#             mem=64M on the ARM boards, whose RAM is fixed), /big a 13 MiB mapread pattern
#             (`mapread -w`) on ram1, and, once the files below are held, `vmalloc` pinning all
#             but 3.25 MiB (/big / 4) of what is free or cached.  /bin/mlocktest resident 64 maps
#             two 64-page files, mlocks one; another task (/bin/mlocktest read <big>) reads the
#             big file whole, twice, each time with the host's CRC-32; then every page of the
#             locked file is still present at the same frame (`pagemap`), while reclaim has
#             taken pages of the unlocked one (so the pressure reached mapped file pages), and
#             the task reads both files' bytes right afterwards.
#   poison    HWPoison in an mlocked page (docs/hwpoison.md, issue 35): /bin/mlocktest poison 4
#             writes and mlocks 4 anonymous pages (Mlocked and Unevictable 16 kB above the boot
#             values); the shell poisons page 1's frame (`hwpoison inject <pfn>`, pfn from
#             `pagemap`): the unmap from the VM_LOCKED area munlocks the folio at once (v6.10's
#             try_to_unmap_one drains the mlock batch), so, as in v6.10, the state is named by
#             the flags after it: "recovery action for dirty LRU page: Recovered" for that pfn,
#             no "mlocked" state, and no "Sending SIGBUS" (the shell is not the owner: late
#             kill); right after, Mlocked and Unevictable are 12 kB above (the frame left
#             NR_MLOCK and the unevictable list), unevictable_pgs_munlocked one more, pagemap
#             says swapped (the hwpoison entry); the task finds its other pages intact, touches
#             page 1 + 5 and dies of SIGBUS BUS_MCEERR_AR at that address ("MCE: Killing
#             mlocktest:<pid> ... fault at <addr>" and the architecture's report); then Mlocked
#             and Unevictable are back at the boot values, `hwpoison list` names the frame
#             "dirty LRU page: Recovered (anonymous page, software)", and it unpoisons.
# All: no complaint line, buddycheck passes.
. "$(dirname "$0")/lib.sh"
tm_init mlock_test
[ $# = 2 ] || tm_usage "usage: mlock_test.sh BOARD track|resident|poison"
board=$1 mode=$2
dir=$(mktemp -d) TM_RMDIR=${TM_RMDIR:-1}

kb() {	# kb NAME: meminfo's NAME: value (kB) from $out
  sed -n "s/^$1: *\\([0-9][0-9]*\\) kB\$/\\1/p" <<<"$out"
}
vmstat_of() {	# vmstat_of NAME: from $out
  sed -n "s/^$1 \\([0-9][0-9]*\\)\$/\\1/p" <<<"$out"
}
go() {	# go N: let the program past step N, then wait for step N+1's line (or its exit)
  tm_cmd "fwrite /mnt/mlock.$1 0 1 1"
}
step() {	# step N TEXT: wait for the program's step line
  tm_wait "(^|tinymm> )mlocktest: step $1: $2\$" 1 60 || tm_fail "no 'mlocktest: step $1: $2' line"
}

case $mode in
  track)
    tm_boot "$dir" --board "$board" --rootfs
    tm_cmd "meminfo"
    m0=$(kb Mlocked) u0=$(kb Unevictable)
    [ -n "$m0" ] && [ -n "$u0" ] || tm_fail "meminfo has no Mlocked: or Unevictable: line"
    tm_cmd "vmstat"
    ml0=$(vmstat_of unevictable_pgs_mlocked) mu0=$(vmstat_of unevictable_pgs_munlocked)
    [ -n "$ml0" ] && [ -n "$mu0" ] || tm_fail "vmstat has no unevictable_pgs_mlocked/_munlocked"
    for n in nr_mlock unevictable_pgs_cleared unevictable_pgs_stranded; do
      [ -n "$(vmstat_of $n)" ] || tm_fail "vmstat has no $n"
    done
    tm_cmd "exec -b /bin/mlocktest track 64"
    pid=$(sed -n 's|^/bin/mlocktest: pid \([1-9][0-9]*\)$|\1|p' <<<"$out")
    [ -n "$pid" ] || tm_fail "exec -b printed no pid"
    step 1 "mlocked 64"
    tm_cmd "meminfo"
    [ "$(kb Mlocked)" = $((m0 + 256)) ] || tm_fail "Mlocked: $(kb Mlocked) kB after mlock of 64 pages, wanted $((m0 + 256))"
    [ "$(kb Unevictable)" = $((u0 + 256)) ] || tm_fail "Unevictable: $(kb Unevictable) kB after mlock, wanted $((u0 + 256))"
    tm_cmd "vmstat"
    [ "$(vmstat_of unevictable_pgs_mlocked)" = $((ml0 + 64)) ] || tm_fail "unevictable_pgs_mlocked $(vmstat_of unevictable_pgs_mlocked), wanted $((ml0 + 64))"
    [ "$(vmstat_of nr_mlock)" = $((m0 / 4 + 64)) ] || tm_fail "nr_mlock $(vmstat_of nr_mlock), wanted $((m0 / 4 + 64))"
    tm_cmd "maps -v $pid"
    maps=$out
    [ "$(grep -c '^VmFlags:' <<<"$maps")" -ge 3 ] || tm_fail "maps -v printed no VmFlags lines"
    [ "$(grep -c '^VmFlags:.* lo\b' <<<"$maps")" = 1 ] || tm_fail "maps -v: not exactly one area with lo"
    locked=$(grep -B1 '^VmFlags:.* lo\b' <<<"$maps" | head -n1)
    [[ $locked =~ ^([0-9a-f]+)-([0-9a-f]+)\ rw-p ]] || tm_fail "the locked area is not rw-p: '$locked'"
    [ $((16#${BASH_REMATCH[2]} - 16#${BASH_REMATCH[1]})) = $((64 * 4096)) ] || tm_fail "the locked area is not 64 pages: '$locked'"
    grep -q '^VmFlags: rd wr mr mw me lo$' <<<"$maps" || tm_fail "the locked area's VmFlags are not 'rd wr mr mw me lo'"
    tm_cmd "lru"
    unev=$(sed -n 's/^unevictable \([0-9][0-9]*\)$/\1/p' <<<"$out")
    [ -n "$unev" ] && [ "$unev" -ge 64 ] || tm_fail "lru: unevictable '$unev', wanted >= 64"
    grep -q '^unevictable: pfn 0x[0-9a-f]* index [0-9]* flags: .*mlocked' <<<"$out" || tm_fail "lru shows no mlocked folio on the unevictable list"
    go 1
    step 2 "munlocked"
    tm_cmd "meminfo"
    [ "$(kb Mlocked)" = "$m0" ] || tm_fail "Mlocked: $(kb Mlocked) kB after munlock, wanted $m0"
    [ "$(kb Unevictable)" = "$u0" ] || tm_fail "Unevictable: $(kb Unevictable) kB after munlock, wanted $u0"
    tm_cmd "vmstat"
    [ "$(vmstat_of unevictable_pgs_munlocked)" = $((mu0 + 64)) ] || tm_fail "unevictable_pgs_munlocked $(vmstat_of unevictable_pgs_munlocked), wanted $((mu0 + 64))"
    tm_cmd "maps -v $pid"
    grep -q '^VmFlags:.* lo\b' <<<"$out" && tm_fail "maps -v still shows lo after munlock"
    go 2
    step 3 "onfault 32"
    tm_cmd "meminfo"
    [ "$(kb Mlocked)" = $((m0 + 128)) ] || tm_fail "Mlocked: $(kb Mlocked) kB with 32 pages touched under MLOCK_ONFAULT, wanted $((m0 + 128))"
    tm_cmd "maps -v $pid"
    grep -q '^VmFlags: rd wr mr mw me lo lf$' <<<"$out" || tm_fail "maps -v shows no 'lo lf' area for MLOCK_ONFAULT"
    go 3
    step 4 "mlockall"
    tm_cmd "meminfo"
    [ "$(kb Mlocked)" = "$m0" ] || tm_fail "Mlocked: $(kb Mlocked) kB after munlockall, wanted $m0"
    tm_cmd "maps -v $pid"
    grep -q '^VmFlags:.* lo\b' <<<"$out" && tm_fail "maps -v still shows lo after munlockall"
    go 4
    step 5 "forked [1-9][0-9]*"
    child=$(tm_console | grep -o "mlocktest: step 5: forked [0-9]*" | tail -n1 | sed 's/.* //')
    tm_cmd "meminfo"
    [ "$(kb Mlocked)" = $((m0 + 256)) ] || tm_fail "Mlocked: $(kb Mlocked) kB with the parent's 64 pages locked and the child's 64 copies, wanted $((m0 + 256)) (mlock inherited by fork?)"
    tm_cmd "maps -v $child"
    grep -q '^VmFlags:' <<<"$out" || tm_fail "maps -v of the child printed no VmFlags"
    grep -q '^VmFlags:.* lo\b' <<<"$out" && tm_fail "the child of fork has a locked area"
    tm_cmd "maps -v $pid"
    grep -q '^VmFlags:.* lo\b' <<<"$out" || tm_fail "the parent lost its locked area at fork"
    go 5
    tm_cmd "sleep 1000"		# the task's last steps: munmap and exit
    tm_cmd "ps"
    grep -q "^ *$pid " <<<"$out" && tm_fail "mlocktest (pid $pid) is still running after its last step"
    grep -q "mlocktest: FAIL" <<<"$(tm_console)" && tm_fail "mlocktest reported a failure"
    tm_cmd "meminfo"
    [ "$(kb Mlocked)" = "$m0" ] || tm_fail "Mlocked: $(kb Mlocked) kB after the exit, wanted $m0"
    [ "$(kb Unevictable)" = "$u0" ] || tm_fail "Unevictable: $(kb Unevictable) kB after the exit, wanted $u0"
    tm_cmd "rm /mnt/mlock.1 /mnt/mlock.2 /mnt/mlock.3 /mnt/mlock.4 /mnt/mlock.5"
    ;;
  resident)
    case $board in
    qemu-virt-*)
      # A 160 MiB ext2 disk with /mnt/big, 128 MiB of seeded random bytes (4x RAM), mounted on
      # /mnt: the program's files and step files live there too.
      bytes=$((128 << 20)) big=/mnt/big
      mkdir -p "$dir/fs"
      tm_mkimg "$dir/fs/big" $bytes 35
      want=$(python3 -c 'import sys, zlib; print("%08x" % zlib.crc32(open(sys.argv[1], "rb").read()))' "$dir/fs/big")
      mke2fs -q -t ext2 -b 4096 -d "$dir/fs" "$dir/mnt.img" 160M >/dev/null || tm_fail "mke2fs failed"
      rm -f "$dir/fs/big"
      tm_boot "$dir" --board "$board" --rootfs --mem 32M --disk "$dir/mnt.img"
      tm_cmd "mount vdb /mnt"
      ;;
    hifive-unleashed|orangepi-pc|raspi2b)
      # RAM disks only, as mapread.sh: 64 MiB (QEMU's -m on the HiFive, mem=64M on the ARM
      # boards), /big a 13 MiB mapread-pattern file on the root RAM disk ram1 (the program's
      # files and step files in /mnt, on ram1 too); once the locked file is held, `vmalloc`
      # pins all but 3.25 MiB (/big / 4) of what is free or cached.  13 MiB, not 14: the
      # 16 MiB root image has 14.5 MiB free, and the program's files and /big must fit.
      bytes=$((13 << 20)) big=/big left_kb=$((13 << 10 >> 2))
      want=$(python3 - $bytes <<'PY'
import sys, zlib
from array import array
BASE, words, crc = 0x6d61707200000000, int(sys.argv[1]) // 8, 0
for a in range(0, words, 1 << 20):
    chunk = array("Q", range(BASE + a, BASE + min(a + (1 << 20), words)))
    if sys.byteorder == "big":
        chunk.byteswap()
    crc = zlib.crc32(chunk.tobytes(), crc)
print("%08x" % crc)
PY
)
      if [ "$board" = hifive-unleashed ]; then
        tm_boot "$dir" --board "$board" --rootfs --mem 64M
      else
        tm_boot "$dir" --board "$board" --rootfs --append "mem=64M"
      fi
      tm_cmd "exec /bin/mapread -w $big $bytes"
      tm_out_has '^/bin/mapread: exited with status 0$' || tm_fail "mapread -w $big failed"
      ;;
    *) tm_usage "no resident variant for $board" ;;
    esac
    tm_cmd "exec -b /bin/mlocktest resident 64"
    step 1 "locked 0x[0-9a-f]* free 0x[0-9a-f]* pages 64"
    line=$(tm_console | grep -o "mlocktest: step 1: locked .*" | tail -n1)
    [[ $line =~ locked\ (0x[0-9a-f]+)\ free\ (0x[0-9a-f]+) ]] || tm_fail "no addresses in '$line'"
    la=$((BASH_REMATCH[1])) fa=$((BASH_REMATCH[2]))
    pid=$(tm_console | sed -n 's|^/bin/mlocktest: pid \([1-9][0-9]*\)$|\1|p' | tail -n1)
    [ -n "$pid" ] || tm_fail "exec -b printed no pid"
    pfns() {	# pfns ADDR: the 64 pages' "present pfn" pairs, one per line
      local i
      for ((i = 0; i < 64; i++)); do
        tm_cmd "pagemap $pid $(printf '%#x' $((${1} + i * 4096)))"
        sed -n 's/.* present \([01]\) .* pfn \(0x[0-9a-f]*\) .*/\1 \2/p' <<<"$out"
      done
    }
    before=$(pfns $la)
    [ "$(grep -c '^1 ' <<<"$before")" = 64 ] || tm_fail "not every locked page present after mlock"
    tm_cmd "meminfo"
    [ "$(kb Mlocked)" -ge 256 ] || tm_fail "Mlocked: $(kb Mlocked) kB with 64 file pages locked"
    area=""
    if [ -n "${left_kb:-}" ]; then
      free=$(kb MemFree) cached=$(kb Cached)
      [ -n "$free" ] && [ -n "$cached" ] || tm_fail "meminfo: no MemFree/Cached"
      tm_cmd "vmalloc $((free + cached - left_kb))"
      area=$(sed -n 's/^vmalloc: \(0x[0-9a-f]*\)-0x[0-9a-f]* pages=[0-9]*$/\1/p' <<<"$out")
      [ -n "$area" ] || tm_fail "vmalloc of all but $left_kb kB failed"
    fi
    # The pressure: another task reads the 4x-RAM file whole, twice.
    TM_TIMEOUT=240
    for pass in 1 2; do
      tm_cmd "exec /bin/mlocktest read $big"
      tm_out_has "^mlocktest: read $bytes bytes crc32 $want\$" ||
        tm_fail "pass $pass: the reader did not get the file's bytes (host crc32 $want)"
    done
    tm_cmd "vmstat"
    steal=$(( $(vmstat_of pgsteal_kswapd) + $(vmstat_of pgsteal_direct) ))
    [ "$steal" -gt 0 ] || tm_fail "no reclaim happened (pgsteal 0): no pressure"
    after=$(pfns $la)
    [ "$after" = "$before" ] || tm_fail "a locked page moved or went under pressure: $(diff <(echo "$before") <(echo "$after") | head -4 | tr '\n' ' ')"
    gone=$(pfns $fa | grep -c '^0 ')
    [ "$gone" -gt 0 ] || tm_fail "no page of the unlocked file was reclaimed: the pressure did not reach mapped pages"
    echo "mlock_test: $board: 64 locked pages resident, $gone of 64 unlocked ones reclaimed, the $((bytes >> 20)) MiB file read right twice"
    go 1
    step 2 "bytes ok"
    go 2
    tm_cmd "sleep 300"
    grep -q "mlocktest: FAIL" <<<"$(tm_console)" && tm_fail "mlocktest reported a failure"
    tm_cmd "rm /mnt/mlock.1 /mnt/mlock.2 /mnt/mlock.locked /mnt/mlock.free"
    if [ -n "$area" ]; then
      tm_cmd "vfree $area"
      tm_cmd "rm $big"
    else
      tm_cmd "umount /mnt"
    fi
    ;;
  poison)
    tm_boot "$dir" --board "$board" --rootfs
    tm_cmd "meminfo"
    m0=$(kb Mlocked) u0=$(kb Unevictable)
    [ -n "$m0" ] && [ -n "$u0" ] || tm_fail "meminfo has no Mlocked: or Unevictable: line"
    tm_cmd "vmstat"
    mu0=$(vmstat_of unevictable_pgs_munlocked)
    tm_cmd "exec -b /bin/mlocktest poison 4"
    pid=$(sed -n 's|^/bin/mlocktest: pid \([1-9][0-9]*\)$|\1|p' <<<"$out")
    [ -n "$pid" ] || tm_fail "exec -b printed no pid"
    step 11 "poison 0x[0-9a-f]+"
    addr=$(tm_console | sed -n 's/.*mlocktest: step 11: poison \(0x[0-9a-f]*\)$/\1/p' | tail -n1)
    tm_cmd "meminfo"
    [ "$(kb Mlocked)" = $((m0 + 16)) ] || tm_fail "Mlocked: $(kb Mlocked) kB with 4 pages locked, wanted $((m0 + 16))"
    [ "$(kb Unevictable)" = $((u0 + 16)) ] || tm_fail "Unevictable: $(kb Unevictable) kB with 4 pages locked, wanted $((u0 + 16))"
    tm_cmd "pagemap $pid $addr"
    pfn=$(sed -n 's/.* present 1 .* pfn \(0x[0-9a-f]*\) .*/\1/p' <<<"$out")
    [ -n "$pfn" ] || tm_fail "page 1 ($addr) is not present: $out"
    tm_cmd "hwpoison inject $pfn"
    tm_out_has "Memory failure: $pfn: recovery action for dirty LRU page: Recovered\$" ||
      tm_fail "no 'Memory failure: $pfn: recovery action for dirty LRU page: Recovered' (v6.10's line for an mlocked page: munlocked by the unmap)"
    tm_out_has "Sending SIGBUS" && tm_fail "the shell's injection sent a SIGBUS (late kill wanted)"
    tm_cmd "meminfo"
    [ "$(kb Mlocked)" = $((m0 + 12)) ] || tm_fail "Mlocked: $(kb Mlocked) kB after the poison, wanted $((m0 + 12))"
    [ "$(kb Unevictable)" = $((u0 + 12)) ] || tm_fail "Unevictable: $(kb Unevictable) kB after the poison, wanted $((u0 + 12))"
    tm_cmd "vmstat"
    [ "$(vmstat_of unevictable_pgs_munlocked)" = $((mu0 + 1)) ] || tm_fail "unevictable_pgs_munlocked $(vmstat_of unevictable_pgs_munlocked), wanted $((mu0 + 1))"
    tm_cmd "pagemap $pid $addr"
    tm_out_has " present 0 swapped 1 " || tm_fail "page 1 is not a hwpoison entry after the poison: $out"
    go 11
    touch=$(printf '%x' $((addr + 5)))
    tm_wait "MCE: Killing mlocktest:$pid due to hardware memory corruption fault at $touch\$" 1 60
    # Here-strings, not pipes: with pipefail, grep -q leaving early on a console larger than a
    # pipe's buffer fails tm_console's tr (SIGPIPE), and with it the pipeline.
    grep -q "mlocktest: touching 0x$touch\$" <<<"$(tm_console)" || tm_fail "the task did not say it touches 0x$touch"
    case $board in
      *arm*|orangepi-pc|raspi2b) re="mlocktest: unhandled page fault \\(7\\) at 0x0*$touch," ;;
      *) re="mlocktest\\[$pid\\]: unhandled signal 7 code 0x4 at 0x0*$touch( |\$)" ;;
    esac
    tm_wait "$re" 1 30
    grep -q "mlocktest: FAIL" <<<"$(tm_console)" && tm_fail "mlocktest reported a failure"
    tm_cmd "sleep 300"		# the exit's unmap
    tm_cmd "ps"
    grep -q "^ *$pid " <<<"$out" && tm_fail "mlocktest (pid $pid) is still running after its SIGBUS"
    tm_cmd "meminfo"
    [ "$(kb Mlocked)" = "$m0" ] || tm_fail "Mlocked: $(kb Mlocked) kB after the exit, wanted $m0"
    [ "$(kb Unevictable)" = "$u0" ] || tm_fail "Unevictable: $(kb Unevictable) kB after the exit, wanted $u0"
    tm_cmd "hwpoison list"
    tm_out_has "^$pfn: dirty LRU page: Recovered \\(anonymous page, software\\)\$" ||
      tm_fail "hwpoison list does not name $pfn a dirty LRU page"
    tm_cmd "hwpoison unpoison $pfn"
    tm_cmd "rm /mnt/mlock.11"
    echo "mlock_test: $board poison: pfn $pfn at $addr, Mlocked $((m0 + 16)) -> $((m0 + 12)) -> $m0 kB, SIGBUS at 0x$touch"
    ;;
  *) tm_usage "unknown mode '$mode' (track, resident, poison)" ;;
esac
tm_cmd "buddycheck"
tm_out_has '^buddycheck: ok \(0 problems\)' || tm_fail "buddycheck did not pass"
tm_no_complaints "$(tm_console)"
tm_poweroff 0
echo "mlock_test: $board $mode: as expected"
