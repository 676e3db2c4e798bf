#!/usr/bin/env bash
# hwpoison_user_test.sh BOARD - HWPoison in mapped pages end to end (docs/hwpoison.md "Mapped
# frames"): /bin/hwpoison (user/hwpoison.c) on a writable ext2 filesystem on /mnt (a fresh image
# as vdb on the virt boards, ram0's sample filesystem on the RAM-disk boards):
#   anon        a child poisons an anonymous page it shares (fork) with its parent through
#               madvise(MADV_HWPOISON): v6.10's "Injecting memory failure ...", "Sending SIGBUS to
#               hwpoison:<its pid>", "recovery action for dirty LRU page: Recovered", and it dies
#               of SIGBUS at once with code 4 (BUS_MCEERR_AR) at the page's address (the
#               action-required caller); the parent's other pages are intact, a second madvise
#               is -EFAULT (v6.10's GUP at a hwpoison entry), MADV_SOFT_OFFLINE of an anonymous page 0 (migrated,
#               bytes kept), a forked child
#               touching the page dies of SIGBUS (fork copied the hwpoison entry), one that
#               munmaps it exits 0, write(2) from it is EFAULT (no kill: the 'MCE: Killing'
#               lines count only user touches), and the parent touching page+5 dies of SIGBUS at
#               exactly that address ("MCE: Killing hwpoison:<pid> ... fault at <addr>", and the
#               architecture's own report naming it): late kill;
#   file-clean  a clean page of a MAP_PRIVATE file mapping poisoned: "corrupted page was clean:
#               dropped without side effects", "clean LRU page: Recovered", nobody killed, and
#               the bytes read again are the file's (refault from the disk), from another frame
#               (a soft offline of the page names the frame: not the poisoned one);
#   file-dirty  a dirty MAP_SHARED page poisoned by a child (killed by SIGBUS): "dirty data lost:
#               <dev> inode <n> offset 4096 length 4096", "dirty LRU page: Recovered", fsync
#               says EIO once, and the owner touching the page dies of SIGBUS;
#   soft        MADV_SOFT_OFFLINE of two mapped file pages: 0, bytes unchanged, a write through
#               the mapping afterwards reaches the file.
#   unevictable a ramfs page (AS_UNEVICTABLE, no writeback: no other copy) mapped MAP_SHARED and
#               poisoned: "clean unevictable LRU page: Recovered", the caller not killed (clean),
#               the pte a hwpoison entry: the owner dies of SIGBUS touching it;
# Then `hwpoison list` (the anonymous frame named so, four soft-offlined frames), HardwareCorrupted
# 32 kB (8 frames), buddycheck and slabcheck clean, no BUG/WARNING/Oops.  On the virt boards the
# host then checks the image: e2fsck clean, /c the pattern, /d the pattern fsync'd before the
# loss (the lost rewrite never reached the disk), /s page 2 the write after soft offline.
. "$(dirname "$0")/lib.sh"
tm_init hwpoison_user
[ $# = 1 ] || tm_usage "usage: hwpoison_user_test.sh BOARD"
board=$1
[ -f "$TM_TOP/board/$board/qemu.conf" ] || tm_usage "unknown board '$board'"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
log=$tmp/console.log
MKE2FS=${MKE2FS:-$(command -v mke2fs || echo /sbin/mke2fs)}
E2FSCK=${E2FSCK:-$(command -v e2fsck || echo /sbin/e2fsck)}
DEBUGFS=${DEBUGFS:-$(command -v debugfs || echo /sbin/debugfs)}
case $board in qemu-virt-*) virt=1 ;; *) virt=0 ;; esac

progs="exec /bin/hwpoison anon; exec /bin/hwpoison file-clean /mnt/c; exec /bin/hwpoison file-dirty /mnt/d; mkdir /mnt/r; mount -t ramfs none /mnt/r; exec /bin/hwpoison unevictable /mnt/r/u; umount /mnt/r; exec /bin/hwpoison soft /mnt/s; hwpoison list; meminfo"
reject="BUG|WARNING|Kernel panic|Oops|slabcheck: FAILED|buddycheck: FAILED|hwpoison: FAIL"
if [ $virt = 1 ]; then
  "$MKE2FS" -q -t ext2 -b 4096 "$tmp/mnt.img" 16M || tm_fail "mke2fs failed"
  "$TM_CHECK" --board "$board" --rootfs --disk "$tmp/mnt.img" \
    --append "tinymm.run=mount vdb /mnt; $progs; umount /mnt; buddycheck; slabcheck" \
    --timeout 200 --reject "$reject" >"$log" 2>&1
else
  # shellcheck source=/dev/null
  mem=$(. "$TM_TOP/board/$board/qemu.conf" && echo "${QEMU_MEM_DEFAULT:-256M}")
  "$TM_CHECK" --board "$board" --mem "$mem" \
    --append "tinymm.root=ram1 tinymm.run=mount ram0 /mnt; $progs; umount /mnt; buddycheck; slabcheck" \
    --timeout 200 --reject "$reject" >"$log" 2>&1
fi
rc=$?
TM_LOG=$log
[ "$rc" = 0 ] || tm_fail "the session failed (boot_check status $rc)"
clean=$(tr -d '\r' <"$log")
has() { grep -Eq -- "$1" <<<"$clean" || tm_fail "$2"; }
count() { grep -Ec -- "$1" <<<"$clean"; }
ts='^\[ *[0-9]+\.[0-9]{6}\] '

[ "$(count '^/bin/hwpoison: exited with status 0$')" = 5 ] || tm_fail "not every /bin/hwpoison run exited 0"
for ok in anon file-clean file-dirty unevictable soft; do
  has "^hwpoison: $ok: ok$" "hwpoison $ok did not finish"
done

# anon: the action-required caller, then late kill at the exact address.
addr=$(sed -n 's/^hwpoison: anon page at 0x\([0-9a-f]*\)$/\1/p' <<<"$clean")
[ -n "$addr" ] || tm_fail "no anonymous page address"
pfn=$(sed -n "s/.*Injecting memory failure for pfn 0x\([0-9a-f]*\) at process virtual address 0x$addr\$/\1/p" <<<"$clean" | head -n 1)
[ -n "$pfn" ] || tm_fail "no 'Injecting memory failure ... 0x$addr' line"
inj=$(sed -n "s/.*Memory failure: 0x$pfn: Sending SIGBUS to hwpoison:\([0-9]*\) due to hardware memory corruption\$/\1/p" <<<"$clean")
[ -n "$inj" ] || tm_fail "no 'Sending SIGBUS' line for 0x$pfn"
has "${ts}Memory failure: 0x$pfn: recovery action for dirty LRU page: Recovered$" "the anonymous page was not 'dirty LRU page: Recovered'"
has "${ts}hwpoison\\[$inj\\]: unhandled signal 7 code 0x4 at 0x0*$addr$" "the injecting child $inj did not get SIGBUS BUS_MCEERR_AR at 0x$addr"
has "^hwpoison: injector killed by SIGBUS$" "the injector was not killed"
touch=$(printf '%x' $((0x$addr + 5)))
[ "$(count "${ts}MCE: Killing hwpoison:[0-9]+ due to hardware memory corruption fault at $touch$")" = 2 ] ||
  tm_fail "not two late kills at $touch (the forked child and the owner)"
# Every touch of a poisoned page (anon twice, file-dirty and unevictable once each) is one late
# kill at its address.
[ "$(count '^hwpoison: touching 0x')" = 4 ] || tm_fail "not four touches of poisoned pages"
[ "$(count "${ts}MCE: Killing hwpoison:")" = 4 ] || tm_fail "not four 'MCE: Killing' lines"
while read -r t; do
  has "${ts}MCE: Killing hwpoison:[0-9]+ due to hardware memory corruption fault at $t$" "no late kill at the touched $t"
done < <(sed -n 's/^hwpoison: touching 0x\([0-9a-f]*\)$/\1/p' <<<"$clean")
has "^hwpoison: forked child killed by SIGBUS$" "the forked child did not die touching the copied entry"
has "^hwpoison: forked child unmapped the entry$" "munmap of a hwpoison entry failed"
has "^hwpoison: write\\(2\\) from the poisoned page: EFAULT$" "write(2) from a poisoned page was not EFAULT"
case $board in
  *arm*|orangepi-pc|raspi2b) has "unhandled page fault \\(7\\) at 0x0*$touch," "ARM's report of the late SIGBUS at 0x$touch" ;;
  *) has "unhandled signal 7 code 0x4 at 0x0*$touch( |$)" "RISC-V's report of the late SIGBUS (code 4) at 0x$touch" ;;
esac
has "^0x$pfn: dirty LRU page: Recovered \\(anonymous page, software\\)$" "hwpoison list does not name the anonymous frame"

# file-clean: dropped, nobody killed, refault from the disk.
[ "$(count "${ts}Memory failure: 0x[0-9a-f]+: corrupted page was clean: dropped without side effects$")" = 1 ] ||
  tm_fail "not one 'corrupted page was clean' line (file-clean's; ramfs has no other copy)"
has "${ts}Memory failure: 0x[0-9a-f]+: recovery action for clean LRU page: Recovered$" "the clean file page was not 'clean LRU page: Recovered'"
[ "$(count 'Sending SIGBUS')" = 2 ] || tm_fail "not exactly two 'Sending SIGBUS' lines (anon and file-dirty injectors)"
# The refaulted page is another frame: file-clean's soft offline of it names the frame at the
# same address, which must differ from the poisoned one.
mapfile -t cl < <(sed -n '/^tinymm> exec \/bin\/hwpoison file-clean/,/^hwpoison: file-clean: ok$/p' <<<"$clean" |
  sed -n 's/.*\(Injecting memory failure\|Soft offlining\) for pfn \(0x[0-9a-f]*\) at process virtual address \(0x[0-9a-f]*\)$/\2 \3/p;
          s/.*Soft offlining pfn \(0x[0-9a-f]*\) at process virtual address \(0x[0-9a-f]*\)$/\1 \2/p')
[ "${#cl[@]}" = 2 ] || tm_fail "file-clean: not one injection and one soft offline line (${#cl[@]})"
read -r bad_pfn bad_addr <<<"${cl[0]}"; read -r new_pfn new_addr <<<"${cl[1]}"
[ "$bad_addr" = "$new_addr" ] || tm_fail "file-clean: the soft offline was at $new_addr, not $bad_addr"
[ "$bad_pfn" != "$new_pfn" ] || tm_fail "file-clean: the page at $bad_addr is still the poisoned frame $bad_pfn"

# file-dirty: the loss named, fsync's EIO.
has "${ts}Memory failure: 0x[0-9a-f]+: dirty data lost: [a-z0-9]+ inode [0-9]+ offset 4096 length 4096$" "no 'dirty data lost' line for page 1"
[ "$(count 'recovery action for dirty LRU page: Recovered$')" = 2 ] || tm_fail "not two 'dirty LRU page: Recovered' (anon, file-dirty)"
has "^hwpoison: fsync: EIO$" "fsync did not report the lost dirty page"

# unevictable (ramfs): the state for real, the caller alive, the owner killed at its touch.
has "${ts}Memory failure: 0x[0-9a-f]+: recovery action for clean unevictable LRU page: Recovered$" "the ramfs page was not 'clean unevictable LRU page: Recovered'"
has "^hwpoison: ramfs page poisoned, the caller lives$" "the ramfs page's poisoner did not survive"

# soft offline: four frames retired (file-clean's, soft's two, anon's migrated one).
has "^hwpoison: anonymous page soft-offlined$" "the anonymous page was not soft-offlined"
[ "$(count '^0x[0-9a-f]+: soft offline \(soft-offlined page, software\)$')" = 4 ] || tm_fail "not four soft-offlined frames in hwpoison list"
has '^HardwareCorrupted: +32 kB$' "HardwareCorrupted is not 32 kB (8 frames)"
has '^buddycheck: ok \(0 problems\)' "buddycheck did not pass"
has '^slabcheck: ok \(0 problems\)' "slabcheck did not pass"

if [ $virt = 1 ]; then
  "$E2FSCK" -fn "$tmp/mnt.img" >"$tmp/fsck" 2>&1 || tm_fail "e2fsck -fn: $(cat "$tmp/fsck")"
  for f in c d s; do
    "$DEBUGFS" -R "dump /$f $tmp/$f" "$tmp/mnt.img" >/dev/null 2>&1 || tm_fail "debugfs dump /$f"
  done
  # pat(i, seed) = i * 7 + (i >> 12) * 13 + seed (user/hwpoison.c); /s page 2 rewritten with 17.
  python3 - "$tmp" <<'PY' || tm_fail "a file on the image is not what the program wrote"
import sys
d = sys.argv[1]
def pat(i, seed): return (i * 7 + (i >> 12) * 13 + seed) & 0xff
def want(seeds): return bytes(pat(i, seeds[i >> 12]) for i in range(3 * 4096))
for name, seeds in (("c", (3, 3, 3)), ("d", (5, 5, 5)), ("s", (11, 11, 17))):
    got = open(f"{d}/{name}", "rb").read()
    if got != want(seeds):
        bad = next((i for i in range(min(len(got), 3 * 4096)) if got[i] != want(seeds)[i]), len(got))
        sys.exit(f"/{name}: {len(got)} bytes, first difference at {bad}")
PY
fi
echo "hwpoison_user: PASS ($board)"
