#!/usr/bin/env bash
# slab_shell.sh BOARD - kmalloc, kfree, slabinfo, slabcheck, page and meminfo at the shell
# (tests/qemu/slab.cmake).  `kfree <addr>` needs the address `kmalloc` gave, so it boots twice:
# the first boot learns the addresses, the second runs the same commands from the same fresh
# state (the allocators are deterministic) and then the frees.
. "$(dirname "$0")/lib.sh"
tm_init slab_shell
[ $# = 1 ] || tm_usage "usage: slab_shell.sh BOARD"
check=$TM_CHECK board=$1
fail() { tm_fail "$@"; }
learn="kmalloc 64 2; kmalloc 3000"
out=$("$check" --board "$board" --append "tinymm.run=$learn") || { printf '%s\n' "$out"; fail "first boot"; }
# shellcheck disable=SC2046  # the addresses, split into $1..$3
set -- $(printf '%s\n' "$out" | sed -n 's/^kmalloc: [0-9]* bytes at \(0x[0-9a-f]*\) (.*)$/\1/p')
[ $# = 3 ] || fail "expected 3 kmalloc lines, got: $*"
a=$1 b=$2 big=$3
[ $(( b - a )) = 64 ] || fail "two kmalloc-64 objects $a and $b are not neighbours"
[ $(( big % 4096 )) = 0 ] || fail "kmalloc 3000 gave $big: not page-aligned"
pfn=$(printf '0x%x' $(( a >> 12 )))
# Then: the objects' slab page, a good free, a double free (a report: a non-debug cache cannot
# tell, so this one is a free of an address inside an object), the large block, slabinfo.
# Slab: 12 kB = this kmalloc-64 page + the boot threads' task_struct page + the kmem_cache page
# holding the task_struct cache.  On ARM the three boot threads' stacks are vmalloc areas
# (kernel/kthread.c), each with a vm_struct (kmalloc-64: 3 more objects there), a vmap_area
# (kmalloc-32) and a pages array (kmalloc-8, the shell's kmalloc-16): 3 more slab pages.
k64=1 slab=12
[ "$board" = qemu-virt-arm ] && k64=4 slab=24
out=$("$check" --board "$board" --status 1 --append "tinymm.run=$learn; page $pfn; kfree $a; \
kfree $(( b + 8 )); kfree $big; kfree $big; slabinfo; slabcheck; meminfo" \
  --expect "^kmalloc: 64 bytes at $a \(kmalloc-64\)$" --expect "^kmalloc: 3000 bytes at $big \(pages\)$" \
  --expect '^page_type: 0xffffefff\(slab\)$' --expect '^slab: cache kmalloc-64$' \
  --expect "BUG kmalloc-64: kfree: $(printf '0x%x' $(( b + 8 ))) is not the start of an object$" \
  --expect "^kfree: $(printf '0x%x' $(( b + 8 ))) not freed \(see above\)$" \
  --expect "BUG kmalloc: kfree: $big is not a slab object or the start of an allocated block$" \
  --expect "^kfree: $big not freed \(see above\)$" \
  --expect "^kmalloc-64 +$k64 +64 +64 +64 +1 : tunables +0 +0 +0 : slabdata +1 +1 +0$" \
  --expect '^slabcheck: ok \(0 problems\)$' --expect "^Slab: +$slab kB$" --reject 'slabcheck: FAILED')
rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || exit 1
echo "slab_shell: PASS"
