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
