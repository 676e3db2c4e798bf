# The slab allocator on every board (included from the end of tests/qemu/tests.cmake, so
# boot_test(), CHECK and TINYMM_BOARDS are known): the KTAP suite `slab` (tests/ktest/
# slab_ktest.c) as the image boots and with every cache a debug cache (tinymm.slub_debug=1), and
# the shell commands kmalloc, kfree, slabinfo, slabcheck, page and meminfo.
#
# `kfree <addr>` needs the address `kmalloc` gave, so that test boots twice:
# tests/qemu/slab_shell.sh.

# One slabinfo line: name, active_objs, num_objs, objsize, objperslab, pagesperslab, zeros, slabs.
function(slabinfo_re out name active total objsize perslab pages slabs)
  set(${out} "^${name} +${active} +${total} +${objsize} +${perslab} +${pages} : tunables +0 +0 +0 : slabdata +${slabs} +${slabs} +0$" PARENT_SCOPE)
endfunction()


foreach(b ${TINYMM_BOARDS})
  boot_test(${b}.slab.ktest ${b} --append "tinymm.test=slab" --timeout 40
    --expect "^# totals: pass:12 fail:0 skip:0$" --reject "^    not ok")
  boot_test(${b}.slab.ktest_slub_debug ${b} --append "tinymm.slub_debug=1 tinymm.test=slab"
    --timeout 40 --expect "^# totals: pass:12 fail:0 skip:0$" --reject "^    not ok")
  # kmalloc-128: empty after boot on every board (ioremap()'s bookkeeping uses kmalloc-32/64).
  slabinfo_re(k128 kmalloc-128 3 32 128 32 1 1)
  slabinfo_re(k2k kmalloc-2k 1 8 2048 8 4 1)
  boot_test(${b}.slab.slabinfo ${b}
    --append "tinymm.run=slabinfo$<SEMICOLON> kmalloc 128 3$<SEMICOLON> kmalloc 2000$<SEMICOLON> slabinfo$<SEMICOLON> slabcheck"
    --expect "^slabinfo - version: 2.1$"
    --expect "^# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>$"
    --expect "${k128}" --expect "${k2k}" --expect "^slabcheck: ok \\(0 problems\\)$")
  boot_test(${b}.slab.bad_sizes ${b} --status 1
    --append "tinymm.run=kmalloc 0$<SEMICOLON> kmalloc 4194305$<SEMICOLON> kfree 0x10$<SEMICOLON> kfree 0x1000"
    --expect "^kmalloc: 0 bytes at 0x10 \\(ZERO_SIZE_PTR\\)$" --expect "^kmalloc: failed after 0 of 1$"
    --expect "BUG kmalloc: kfree: 0x1000 is not in memory$" --expect "^kfree: 0x1000 not freed \\(see above\\)$"
    --reject "^kfree: 0x10 not freed")
  add_test(NAME ${b}.slab.kmalloc_kfree COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/slab_shell.sh ${b})
endforeach()
