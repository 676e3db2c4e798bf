# The buddy allocator on every board (included from the end of tests/qemu/tests.cmake, so
# boot_test(), CHECK and TINYMM_BOARDS are known): the KTAP suite `buddy` (tests/ktest/
# buddy_ktest.c) with one zone and with a ZONE_DMA limit, and the shell commands buddyinfo,
# alloc, free, buddycheck and meminfo.
#
# `free <pfn>` needs the pfn `alloc` gave, so those tests boot twice: tests/qemu/buddy_shell.sh.

# One "%6lu " field of buddyinfo, exactly: six columns, right-aligned, then a space.
set(BUDDY_F "( {5}[0-9]| {4}[0-9]{2}| {3}[0-9]{3}| {2}[0-9]{4}| [0-9]{5}|[0-9]{6}) ")
set(BUDDY_ORDERS "${BUDDY_F}${BUDDY_F}${BUDDY_F}${BUDDY_F}${BUDDY_F}${BUDDY_F}${BUDDY_F}${BUDDY_F}${BUDDY_F}${BUDDY_F}${BUDDY_F}")


foreach(b ${TINYMM_BOARDS})
  # The kernel's first frame (reserved), and a ZONE_DMA limit in free RAM: unaligned on ARM
  # (order-4 blocks meet at it) and RV32 (order 0), pageblock-aligned on RV64.
  file(STRINGS ${CMAKE_SOURCE_DIR}/board/${b}/board.cmake load REGEX "^set\\(TINYMM_LOAD_ADDR ")
  string(REGEX REPLACE ".*TINYMM_LOAD_ADDR 0x([0-9a-fA-F]+)000[ )].*" "0x\\1" kpfn "${load}")
  string(TOLOWER ${kpfn} kpfn)
  if(b STREQUAL qemu-virt-arm)
    set(dma 0x44010000)
  elseif(b STREQUAL qemu-virt-riscv32)
    set(dma 0x84001000)
  else()
    set(dma 0x84000000)
  endif()

  boot_test(${b}.buddy.ktest_one_zone ${b} --append "tinymm.test=buddy" --timeout 40
    --expect "^    ok [0-9]+ zones_never_merge_across # SKIP one zone"
    --expect "^# totals: pass:[1-9][0-9]* fail:0 skip:1$" --reject "^    not ok")
  boot_test(${b}.buddy.ktest_dma_limit ${b} --append "tinymm.zone_dma_limit=${dma} tinymm.test=buddy"
    --timeout 40 --expect "^    ok [0-9]+ zones_never_merge_across$" --ktap)
  # With tinymm.page_poison=1 the order-0 free fast path finds no per-CPU lists (zone_pcp[] is
  # NULL) and fills every freed frame before filing it (mm/pcp.c: pcp_free_nofast); a frame that
  # skipped the fill is reported at its next allocation.
  boot_test(${b}.buddy.ktest_page_poison ${b}
    --append "tinymm.page_poison=1 tinymm.zone_dma_limit=${dma} tinymm.test=buddy" --timeout 60
    --expect "^    ok [0-9]+ order0_fast_paths$" --ktap --reject "memory corruption at pfn")
  # mm/page_check.c's reports (tests/ktest/bad_page_ktest.c): v6.10's reasons, the free-tail
  # words, the rate limit, the stack after each report.
  boot_test(${b}.buddy.ktest_bad_page ${b} --append "tinymm.test=bad_page" --timeout 40
    --expect "^# totals: pass:4 fail:0 skip:0$" --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Call trace:$"
    --reject "^    not ok")
  boot_test(${b}.buddy.buddyinfo ${b} --append "tinymm.run=buddyinfo$<SEMICOLON> buddycheck"
    --expect "^Node 0, zone   Normal ${BUDDY_ORDERS}$" --reject "zone +DMA"
    --expect "^buddycheck: ok \\(0 problems\\)$")
  boot_test(${b}.buddy.buddyinfo_dma_limit ${b}
    --append "tinymm.zone_dma_limit=${dma} tinymm.run=buddyinfo$<SEMICOLON> buddycheck"
    --expect "^Node 0, zone      DMA ${BUDDY_ORDERS}$" --expect "^Node 0, zone   Normal ${BUDDY_ORDERS}$"
    --expect "^buddycheck: ok \\(0 problems\\)$")
  add_test(NAME ${b}.buddy.alloc_free_meminfo
    COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/buddy_shell.sh ${b} ${kpfn} alloc-free)
  add_test(NAME ${b}.buddy.alloc_until_failure_96M
    COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/buddy_shell.sh ${b} ${kpfn} alloc-fail 96M)
  set_tests_properties(${b}.buddy.alloc_free_meminfo ${b}.buddy.alloc_until_failure_96M
    PROPERTIES TIMEOUT 120 LABELS qemu)
endforeach()
