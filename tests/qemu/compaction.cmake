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
