#!/usr/bin/env bash
# buddy_shell.sh BOARD KPFN alloc-free | alloc-fail MEM - alloc, free, buddycheck and meminfo at
# the shell (tests/qemu/buddy.cmake).  KPFN is the kernel image's first frame.
# alloc-free: `free <pfn>` needs the pfn `alloc` gave, so it boots twice: the first boot learns
#   the pfns, the second runs the same commands from the same fresh state (the allocator is
#   deterministic: same image, same command line, same blocks) and then good and bad frees;
#   every MemFree line must be exactly what the allocations and frees so far leave (each after a
#   `drain`: MemFree leaves out the frames on the per-CPU lists).
# alloc-fail: order-10 blocks until memory runs out in MEM: n printed, n * 4 MiB gone.
. "$(dirname "$0")/lib.sh"
tm_init buddy_shell
[ $# -ge 3 ] || tm_usage "usage: buddy_shell.sh BOARD KPFN alloc-free | alloc-fail MEM"
check=$TM_CHECK board=$1 kpfn=$2 mode=$3 mem=${4:-}
fail() { tm_fail "$@"; }
memfree() { printf '%s\n' "$1" | sed -n 's/^MemFree: *\([0-9]*\) kB$/\1/p' | tr '\n' ' '; }

if [ "$mode" = alloc-fail ]; then	# alloc until memory runs out: n blocks printed, n gone
  out=$("$check" --board "$board" --mem "$mem" --status 1 --timeout 40 \
    --append "tinymm.run=drain; meminfo; alloc 10 1000; drain; meminfo; buddycheck" \
    --expect '^alloc: failed after [1-9][0-9]* of 1000$' --expect '^buddycheck: ok \(0 problems\)$')
  rc=$?
  printf '%s\n' "$out"
  [ $rc = 0 ] || exit 1
  n=$(printf '%s\n' "$out" | sed -n 's/^alloc: failed after \([0-9]*\) of 1000$/\1/p')
  lines=$(printf '%s\n' "$out" | grep -Ec '^alloc: order 10 pfn 0x[0-9a-f]*[048c]00$')
  [ "$lines" = "$n" ] || fail "$lines aligned order-10 blocks printed, 'failed after $n'"
  # shellcheck disable=SC2046  # the two MemFree figures, split into $1 and $2
  set -- $(memfree "$out")
  [ $# = 2 ] && [ $(( $1 - $2 )) = $(( n * 4096 )) ] ||
    fail "MemFree $1 -> $2 kB after $n blocks of 4096 kB"
  echo "buddy_shell: PASS ($n blocks of 4 MiB before the watermark)"
  exit 0
fi

# alloc-free: learn what `alloc 3 2; alloc 0 4` gives from a fresh boot.  Four order-0 blocks
# come from consecutive frames after the drain, so two of them are buddies wherever the run
# starts (boot's own allocations decide that); the other two stay allocated throughout.
learn="drain; meminfo; alloc 3 2; alloc 0 4"
out=$("$check" --board "$board" --append "tinymm.run=$learn") || { printf '%s\n' "$out"; fail "first boot"; }
# shellcheck disable=SC2046  # the six pfns, split into $1..$6
set -- $(printf '%s\n' "$out" | sed -n 's/^alloc: order [03] pfn \(0x[0-9a-f]*\)$/\1/p')
[ $# = 6 ] || fail "expected 6 alloc lines, got: $*"
b3a=$1 b3b=$2 b0a=$3 b0b=$4
if [ $(( b0a ^ 1 )) != $(( b0b )) ]; then b0a=$4 b0b=$5; fi
[ $(( b0a ^ 1 )) = $(( b0b )) ] || fail "alloc 0 4 gave $3 $4 $5 $6: no buddies among the first three"
m0=$(printf '%s\n' "$out" | sed -n 's/^MemFree: *\([0-9]*\) kB$/\1/p' | head -n 1)
bug() { printf 'BUG: Bad page state in process swapper  pfn:%05x$' $(( $1 )); }
# Then: a good free, then bad ones (order 1 for an order-0 block whose buddy is in use, the
# kernel's first frame, a pfn below RAM), each leaving MemFree alone; the buddy freed at last.
out=$("$check" --board "$board" --status 1 --timeout 30 --append "tinymm.run=$learn; drain; meminfo; \
free $b3a 3; drain; meminfo; free $b0a 1; drain; meminfo; free $kpfn 0; drain; meminfo; free 0x10 0; \
drain; meminfo; page $kpfn; free $b0b 0; drain; meminfo; buddycheck; buddyinfo" \
  --expect "^alloc: order 3 pfn $b3a$" --expect "^alloc: order 3 pfn $b3b$" \
  --expect "^alloc: order 0 pfn $b0a$" --expect "^alloc: order 0 pfn $b0b$" \
  --expect "$(bug "$b0b")" --expect "^free: pfn $b0a order 1: bad page state \(see above\); the frame is kept out$" \
  --expect "$(bug "$kpfn")" --expect "page dumped because: PAGE_FLAGS_CHECK_AT_FREE flag\(s\) set$" \
  --expect "^free: pfn $kpfn order 0: bad page state \(see above\); the frame is kept out$" \
  --expect '^free: pfn 0x10 is not valid \(hole or beyond memory\)$' \
  --expect '^flags: 0x[0-9a-f]+\(reserved\|node=0\|zone=1\)$' \
  --expect '^buddycheck: ok \(0 problems\)$' --reject 'buddycheck: FAILED')
rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || exit 1
got=$(memfree "$out")
want="$m0 $(( m0 - 80 )) $(( m0 - 48 )) $(( m0 - 48 )) $(( m0 - 48 )) $(( m0 - 48 )) $(( m0 - 44 )) "
[ "$got" = "$want" ] || fail "MemFree went $got kB, expected $want"
echo "buddy_shell: PASS"
