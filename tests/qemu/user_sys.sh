#!/usr/bin/env bash
# user_sys.sh BOARD memtest|filetest|sysfuzz|oom - the system calls end to end on a virt board booted
# with the root filesystem (boot_check.sh --rootfs), docs/syscalls.md:
#   memtest   `exec /bin/memtest 96 4` on a 32 MiB machine (96 MiB through 4 MiB chunks) exits 0 with its five ok
#             lines; AnonPages back to 0 kB; buddycheck and slabcheck pass
#   filetest  a fresh ext2 image (mke2fs) as vdb mounted on /mnt; `exec /bin/filetest /mnt`
#             exits 0; after power-off the image is e2fsck -fn clean and debugfs dumps
#             filetest/data, log, renamed with exactly the bytes docs/syscalls.md lists
#   sysfuzz   `exec /bin/sysfuzz 1 20000` exits 0 with its summary line; the kernel is alive
#             (`version`), buddycheck and slabcheck pass, AnonPages back, and after drop_caches
#             MemFree is within 256 kB of its value before the run (slab pages may stay cached)
#   oom       `exec /bin/memtest 64 64` on a 32 MiB machine: `Out of memory: memtest[<pid>] killed`,
#             SIGKILL; then AnonPages back, buddycheck and slabcheck pass, /bin/hello still runs
#   forkcow   first `/bin/forkcow hold` and two `pagemap`s (tests/qemu/forkcow_hold.sh: shared
#             while the child lives, the parent's own again after), then `exec /bin/forkcow 8`
#             (fork and copy-on-write checked by the program, docs/fork.md) exits 0 with its ok lines; after its orphaned grandchild is gone (sleep 200),
#             AnonPages back to 0 kB, buddycheck and slabcheck pass, and after drop_caches
#             MemFree is within 256 kB of its value before the run (no frame kept)
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/qemu/forkcow_hold.sh
. "$(dirname "$0")/forkcow_hold.sh"
tm_init user_sys
[ $# = 2 ] || tm_usage "usage: user_sys.sh BOARD memtest|filetest|sysfuzz|oom|forkcow"
board=$1 case=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
log=$tmp/console.log
disk=() mem=()
case $case in
  memtest)
    # 96 MiB through a 32 MiB machine: three times what fits at once (two 4 MiB chunks alive)
    mem=(--mem 32M)
    run="exec /bin/memtest 96 4; meminfo; buddycheck; slabcheck"
    checks=(--expect '^memtest: all ok$' --expect '^/bin/memtest: exited with status 0$') ;;
  filetest)
    MKE2FS=${MKE2FS:-$(command -v mke2fs || echo /sbin/mke2fs)}
    "$MKE2FS" -q -t ext2 -b 4096 "$tmp/mnt.img" 8M || tm_fail "mke2fs failed"
    disk=(--disk "$tmp/mnt.img")
    run="mount vdb /mnt; exec /bin/filetest /mnt; umount /mnt"
    checks=(--expect '^filetest: all ok' --expect '^/bin/filetest: exited with status 0$') ;;
  sysfuzz)
    run="drop_caches; shrink; drain; meminfo; exec /bin/sysfuzz 1 20000; drop_caches; shrink; drain; meminfo; buddycheck; slabcheck; version"
    checks=(--expect '^sysfuzz: 20000 calls, [0-9]+ errors, [0-9]+ errnos:' --expect '^/bin/sysfuzz: exited with status 0$'
            --expect "^tinymm [^ ]+ \\($board, ") ;;
  oom)
    # 64 MiB in one mapping on a 32 MiB machine: the fault that finds no page kills the task
    # with a clear line, and the kernel, its checks and the next program are unharmed.
    mem=(--mem 32M)
    run="exec /bin/memtest 64 64; meminfo; buddycheck; slabcheck; exec /bin/hello after"
    checks=(--expect '^\[ *[0-9.]+\] Out of memory: memtest\[[0-9]+\] killed: no memory for a page at 0x'
            --expect '^/bin/memtest: killed by signal 9 \(SIGKILL\)$'
            --expect '^hello from /bin/hello after$' --expect '^/bin/hello: exited with status 0$') ;;
  forkcow)
    run="exec /bin/hello; drop_caches; shrink; drain; meminfo; $forkcow_hold; exec /bin/forkcow 8; sleep 200; drop_caches; shrink; drain; meminfo; buddycheck; slabcheck"
    checks=(--expect '^forkcow: one child ok$' --expect '^forkcow: 8 children ok$' --expect '^forkcow: statuses ok$'
            --expect '^forkcow: own pages again ok$' --expect '^forkcow: all ok$'
            --expect '^/bin/forkcow: exited with status 0$') ;;
  *) tm_usage "unknown case '$case' (memtest, filetest, sysfuzz, oom, forkcow)" ;;
esac
reject="BUG|WARNING|Kernel panic|Oops|slabcheck: FAILED|buddycheck: FAILED"
[ "$case" = oom ] || reject+="|unhandled signal"
# oom: status 1, the killed program fails its command and the session goes on.
status=0; [ "$case" = oom ] && status=1
"$TM_CHECK" --board "$board" --rootfs "${mem[@]}" "${disk[@]}" --append "tinymm.run=$run" --status $status --timeout 300 \
  "${checks[@]}" --reject "$reject" \
  >"$log" 2>&1
rc=$?
TM_LOG=$log
[ "$rc" = 0 ] || tm_fail "the session failed (boot_check status $rc)"
clean=$(tr -d '\r' <"$log")
if [ "$case" != filetest ]; then
  grep -q '^buddycheck: ok (0 problems)' <<<"$clean" || tm_fail "buddycheck did not pass"
  grep -q '^slabcheck: ok (0 problems)' <<<"$clean" || tm_fail "slabcheck did not pass"
  [ "$(grep '^AnonPages:' <<<"$clean" | tail -n 1 | awk '{print $2}')" = 0 ] || tm_fail "AnonPages not back to 0 kB"
fi
[ "$case" = forkcow ] && forkcow_hold_check "$clean"
if [ "$case" = sysfuzz ] || [ "$case" = forkcow ]; then
  free=$(grep '^MemFree:' <<<"$clean" | awk '{print $2}')
  before=$(head -n 1 <<<"$free") after=$(tail -n 1 <<<"$free")
  [ $((before - after)) -le 256 ] || tm_fail "MemFree $before kB before, $after kB after $case"
fi
if [ "$case" = filetest ]; then
  E2FSCK=${E2FSCK:-$(command -v e2fsck || echo /sbin/e2fsck)}
  DEBUGFS=${DEBUGFS:-$(command -v debugfs || echo /sbin/debugfs)}
  "$E2FSCK" -fn "$tmp/mnt.img" >"$tmp/fsck" 2>&1 || tm_fail "e2fsck -fn: $(cat "$tmp/fsck")"
  for f in data log renamed; do
    "$DEBUGFS" -R "dump /filetest/$f $tmp/$f" "$tmp/mnt.img" >/dev/null 2>&1 || tm_fail "debugfs dump $f"
  done
  python3 - "$tmp" <<'PY' || tm_fail "the files filetest left differ from docs/syscalls.md's list"
import os, sys
d = sys.argv[1]
want = {
    "data": bytes((i * 131 + 7) & 0xff for i in range(66659)),
    "log": b"".join(b"line %d\n" % i for i in range(10)),
    "renamed": bytes((i * 7 + 1) & 0xff for i in range(3000)) + bytes(8192 - 3000),
}
bad = [n for n, w in want.items() if open(os.path.join(d, n), "rb").read() != w]
print("user_sys: differ: %s" % bad) if bad else None
sys.exit(1 if bad else 0)
PY
fi
echo "user_sys: PASS ($board $case)"
