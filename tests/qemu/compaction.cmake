# Fragmentation and compaction on every board (included from tests/qemu/tests.cmake):
# `extfrag` against `buddyinfo` (tests/qemu/extfrag_test.sh, Linux's formulas recomputed in
# tests/qemu/extfrag_check.py) and its twin that hands the checker a wrong buddyinfo and must
# fail.  The `extfrag` KTAP suite (hand-built free lists) runs in ktest.all.
foreach(b ${TINYMM_BOARDS})
  add_test(NAME ${b}.extfrag.matches_buddyinfo
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/extfrag_test.sh ${b})
  add_test(NAME ${b}.extfrag.check_catches_skew
    COMMAND ${CMAKE_CURRENT_LIST_DIR}/extfrag_test.sh ${b} --skew)
  set_tests_properties(${b}.extfrag.matches_buddyinfo ${b}.extfrag.check_catches_skew
    PROPERTIES TIMEOUT 120 LABELS qemu)
  set_tests_properties(${b}.extfrag.check_catches_skew PROPERTIES WILL_FAIL TRUE)
endforeach()
# The shell flow (tests/qemu/compaction_test.sh): `fragment 32`, `fragmap` and `extfrag` before
# and after `compact` (no wholly free pageblock before, one after; the top order's fragmentation
# index from positive to -1.000), buddycheck, the release.  The `compaction` KTAP suite (the
# same fixture: a failing order-9 allocation made to succeed by hand, by direct compaction and
# by kcompactd, data exact, a pinned folio left in place) runs in ktest.all.
foreach(b ${TINYMM_BOARDS})
  add_test(NAME ${b}.compaction.shell_fragmap COMMAND ${CMAKE_CURRENT_LIST_DIR}/compaction_test.sh ${b})
  set_tests_properties(${b}.compaction.shell_fragmap PROPERTIES TIMEOUT 150 LABELS qemu)
endforeach()
# Memory fragmented by a user task and the page cache (tests/qemu/compaction_user_test.sh):
# `fragment 32`, then /bin/migtest -s 1536 fills the free frames and gives every other page back;
# `compact` moves the task's pages as well as the fixture's folios (sampled with pagemap), a
# pageblock comes free, `alloc 9` succeeds, every word the task checks stays exact.
# qemu-virt-riscv64 runs by default; the other virt boards repeat it under label long.
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  add_test(NAME user_sys.${b}.compaction COMMAND ${CMAKE_CURRENT_LIST_DIR}/compaction_user_test.sh ${b})
  set_tests_properties(user_sys.${b}.compaction PROPERTIES TIMEOUT 300 LABELS qemu
    ENVIRONMENT "MKE2FS=${MKE2FS}")
  if(NOT b STREQUAL qemu-virt-riscv64)
    set_tests_properties(user_sys.${b}.compaction PROPERTIES LABELS "qemu;long")
  endif()
endforeach()
