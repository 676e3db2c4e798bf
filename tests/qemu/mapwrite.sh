#!/usr/bin/env bash
# mapwrite.sh BOARD basic|pressure - shared file mappings end to end (docs/shared-mappings.md):
# /bin/mapwrite writes through MAP_SHARED (the complement, msync, the stream over it, msync
# unless -n, munmap), then the filesystem is unmounted and the bytes are checked.
#   basic     on a virt board: a fresh ext2 image as vdb on /mnt; three writes to /mnt/f:
#             100+20000 seed 7, then `-n` 30000+5000 seed 9 (no final msync: its pages stay
#             dirty and umount writes them), then 8192+4096 seed 0 over the first; `meminfo`'s Dirty
#             after the first must be below Dirty after the second (the first's last msync wrote
#             everything and left no pte dirty: folio_mkclean at writeback; -n leaves 2 pages);
#             `exec /bin/mapbus /mnt/bus` must be killed by SIGBUS (a read past EOF after
#             ftruncate shrank its shared mapping's file); `sha256sum /mnt/f`; umount.  The host: e2fsck -fn clean, /f exactly the three
#             streams over zeros (tests/qemu/writeback_expect.py) and its SHA-256 the kernel's.
#             On the RAM-disk boards (orangepi-pc, raspi2b, hifive-unleashed, root on ram1): the
#             same writes on ram0's sample filesystem, then umount, mount again (the page cache
#             is gone with the unmount: the bytes come from the disk) and `sha256sum` must be the
#             host's expected digest; buddycheck and slabcheck pass.
#   pressure  a virt board with 32 MiB, the flusher every 100 ms for data older than 100 ms:
#             mapwrite 16 MiB to /mnt/a (seed 1), then 14 MiB at offset 4097 of /mnt/b (seed 2)
#             while /mnt/a's cache is reclaimed and the dirty limits throttle the faults; vmstat
#             must show pages stolen by reclaim, and at least 2 * (4096 + 3585) page faults
#             (every page faults again after the first msync's writeback write-protected it);
#             both files exact on the host, e2fsck clean.
. "$(dirname "$0")/lib.sh"
tm_init mapwrite
[ $# = 2 ] || tm_usage "usage: mapwrite.sh BOARD basic|pressure"
board=$1 case=$2
[ -f "$TM_TOP/board/$board/qemu.conf" ] || tm_usage "unknown board '$board'"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
log=$tmp/console.log
expect=$TM_TOP/tests/qemu/writeback_expect.py
MKE2FS=${MKE2FS:-$(command -v mke2fs || echo /sbin/mke2fs)}
E2FSCK=${E2FSCK:-$(command -v e2fsck || echo /sbin/e2fsck)}
DEBUGFS=${DEBUGFS:-$(command -v debugfs || echo /sbin/debugfs)}
case $board in qemu-virt-*) virt=1 ;; *) virt=0 ;; esac

# want FILE SIZE OFF:LEN:SEED...: FILE's expected bytes, the streams over SIZE zero bytes.
want() {
  local out=$1 size=$2; shift 2
  head -c "$size" /dev/zero >"$tmp/zero"
  python3 - "$expect" "$tmp/zero" "$out" "$@" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("we", sys.argv[1]); we = importlib.util.module_from_spec(spec)
spec.loader.exec_module(we)
data = bytearray(open(sys.argv[2], "rb").read())
for w in sys.argv[4:]:
    off, length, seed = (int(x, 0) for x in w.split(":"))
    data[off:off + length] = we.stream(seed, length)
open(sys.argv[3], "wb").write(data)
PY
}

reject="BUG|WARNING|Kernel panic|Oops|slabcheck: FAILED|buddycheck: FAILED|FAIL"
[ "$case" = pressure ] && reject+="|unhandled signal|unhandled page fault"
# basic: mapbus is killed (SIGBUS), so its command fails and the session's status is 1.
status=1; [ "$case" = pressure ] && status=0
case $case in
  basic)
    writes="exec /bin/mapwrite /mnt/f 100 20000 7; meminfo; exec /bin/mapwrite -n /mnt/f 30000 5000 9; meminfo; exec /bin/mapwrite /mnt/f 8192 4096 0; exec /bin/mapbus /mnt/bus"
    want "$tmp/want_f" 35000 100:20000:7 30000:5000:9 8192:4096:0
    digest=$(sha256sum "$tmp/want_f" | cut -d' ' -f1)
    if [ $virt = 1 ]; then
      "$MKE2FS" -q -t ext2 -b 4096 "$tmp/mnt.img" 16M || tm_fail "mke2fs failed"
      run="mount vdb /mnt; $writes; sha256sum /mnt/f; umount /mnt; buddycheck; slabcheck"
      "$TM_CHECK" --board "$board" --rootfs --disk "$tmp/mnt.img" --append "tinymm.run=$run" \
        --status $status --timeout 200 --reject "$reject" >"$log" 2>&1
    else
      # shellcheck source=/dev/null
      mem=$(. "$TM_TOP/board/$board/qemu.conf" && echo "${QEMU_MEM_DEFAULT:-256M}")
      run="mount ram0 /mnt; $writes; umount /mnt; mount ram0 /mnt; sha256sum /mnt/f; umount /mnt; buddycheck; slabcheck"
      "$TM_CHECK" --board "$board" --mem "$mem" --append "tinymm.root=ram1 tinymm.run=$run" \
        --status $status --timeout 200 --reject "$reject" >"$log" 2>&1
    fi ;;
  pressure)
    [ $virt = 1 ] || tm_usage "pressure needs a virt board (a disk the host can read)"
    "$MKE2FS" -q -t ext2 -b 4096 "$tmp/mnt.img" 64M || tm_fail "mke2fs failed"
    run="mount vdb /mnt; exec /bin/mapwrite /mnt/a 0 16777216 1; exec /bin/mapwrite /mnt/b 4097 14680064 2; vmstat; umount /mnt; buddycheck; slabcheck"
    "$TM_CHECK" --board "$board" --rootfs --mem 32M --disk "$tmp/mnt.img" \
      --append "tinymm.dirty_writeback_ms=100 tinymm.dirty_expire_ms=100 tinymm.run=$run" \
      --timeout 400 --reject "$reject" >"$log" 2>&1 ;;
  *) tm_usage "unknown case '$case' (basic, pressure)" ;;
esac
rc=$?
TM_LOG=$log
[ "$rc" = 0 ] || tm_fail "the session failed (boot_check status $rc)"
clean=$(tr -d '\r' <"$log")
n=$(grep -c '^mapwrite: .*: ok$' <<<"$clean")
want_n=3; [ "$case" = pressure ] && want_n=2
[ "$n" = $want_n ] || tm_fail "$n of $want_n mapwrite runs said ok"
[ "$(grep -c '^/bin/mapwrite: exited with status 0$' <<<"$clean")" = $want_n ] || tm_fail "a mapwrite run did not exit 0"
grep -q '^buddycheck: ok (0 problems)' <<<"$clean" || tm_fail "buddycheck did not pass"
grep -q '^slabcheck: ok (0 problems)' <<<"$clean" || tm_fail "slabcheck did not pass"
if [ "$case" = basic ]; then
  # The same metadata (the root filesystem's atime, ...) is dirty after both; only the -n run
  # leaves file data dirty (its 2 pages).  A first run whose last msync wrote nothing (its
  # ptes left writable by writeback) has its 5 pages dirtied by munmap instead: D1 >= D2.
  dirty=$(grep '^Dirty:' <<<"$clean" | awk '{print $2}')
  d1=$(sed -n 1p <<<"$dirty") d2=$(sed -n 2p <<<"$dirty")
  [ "$d1" -lt "$d2" ] || tm_fail "Dirty $d1 kB after an msync'd mapwrite, $d2 kB after mapwrite -n: the msync left data dirty (a pte not cleaned at writeback?)"
  # mapbus: the read past EOF after ftruncate kills it with SIGBUS, and nothing else dies.
  grep -q '^/bin/mapbus: killed by signal 7 (SIGBUS)$' <<<"$clean" || tm_fail "mapbus was not killed by SIGBUS"
  grep -q '^mapbus: reading past EOF$' <<<"$clean" || tm_fail "mapbus did not get to the read past EOF"
  [ "$(grep -cE 'unhandled (signal|page fault)' <<<"$clean")" = 1 ] || tm_fail "an unhandled fault other than mapbus's"
  got=$(grep -E '^[0-9a-f]{64}  /mnt/f$' <<<"$clean" | tail -n 1 | cut -d' ' -f1)
  [ "$got" = "$digest" ] || tm_fail "sha256sum /mnt/f in the kernel: '$got', expected $digest"
fi
if [ "$case" = pressure ]; then
  stolen=$(grep -E '^ *pgsteal_(kswapd|direct) ' <<<"$clean" | awk '{s += $2} END {print s + 0}')
  [ "$stolen" -gt 0 ] || tm_fail "no page was reclaimed (pgsteal 0): no pressure"
  # Each run faults every page twice: the first pass's write faults, and after its msync's
  # writeback write-protected them (folio_mkclean) the second pass's: 2 * (4096 + 3585).
  faults=$(grep -E '^ *pgfault ' <<<"$clean" | awk '{print $2}')
  [ "${faults:-0}" -ge 15362 ] || tm_fail "pgfault ${faults:-none} < 15362: the second pass did not fault on every page (ptes left writable after writeback?)"
fi
if [ $virt = 1 ]; then
  "$E2FSCK" -fn "$tmp/mnt.img" >"$tmp/fsck" 2>&1 || tm_fail "e2fsck -fn: $(cat "$tmp/fsck")"
  if [ "$case" = basic ]; then
    set -- f:35000:100:20000:7,30000:5000:9,8192:4096:0
  else
    set -- a:16777216:0:16777216:1 b:14684161:4097:14680064:2
  fi
  for spec in "$@"; do
    IFS=: read -r name size rest <<<"$spec"
    "$DEBUGFS" -R "dump /$name $tmp/got_$name" "$tmp/mnt.img" >/dev/null 2>&1 || tm_fail "debugfs dump /$name"
    IFS=, read -ra writes <<<"$rest"
    want "$tmp/want_$name" "$size" "${writes[@]}"
    cmp -s "$tmp/got_$name" "$tmp/want_$name" ||
      tm_fail "/$name on the disk differs from the streams: $(cmp "$tmp/got_$name" "$tmp/want_$name" 2>&1 | head -n 1)"
  done
fi
echo "mapwrite: PASS ($board $case)"
