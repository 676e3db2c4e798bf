# Idle page tracking on every board (mm/page_idle.c, docs/page_idle.md).  Included from the end of
# tests/qemu/tests.cmake (boot_test is set there).
#   <board>.ktest.page_idle          the KTAP suite `page_idle` (tests/ktest/page_idle_ktest.c), its
#                                    eight cases, and who made the ptes young again after marking
#                                    in its live-MMU case: faults on ARM (the Access flag, LPAE),
#                                    the hardware on RISC-V (QEMU sets A: docs/young.md)
#   <board>.page_idle.half_accessed  tests/qemu/page_idle_test.sh: /bin/idletouch touches exactly
#                                    its 8 even pages of 16 after `page_idle mark`; `page_idle read`
#                                    reports exactly those accessed, kpageflags' KPF_IDLE and
#                                    page-types' table (tools/pagemap.py) agree; bad input is one
#                                    line each; the task's memory comes back
#   page_idle.check_catches_wrong_half   the same check wanting the odd half must fail, naming
#                                    the even half it found (tm_fail's line follows the console's
#                                    last prompt, so it is matched anywhere in a line)
foreach(spec "qemu-virt-arm|faults \\(handle_mm_fault\\)" "orangepi-pc|faults \\(handle_mm_fault\\)"
             "raspi2b|faults \\(handle_mm_fault\\)" "qemu-virt-riscv64|the hardware"
             "qemu-virt-riscv32|the hardware" "hifive-unleashed|the hardware")
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 b)
  list(GET spec 1 by)
  set(memarg)
  if(NOT b MATCHES "^qemu-virt-")
    execute_process(COMMAND sh -c ". ${CMAKE_SOURCE_DIR}/board/${b}/qemu.conf && echo \$QEMU_MEM_DEFAULT"
      OUTPUT_VARIABLE mem OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(memarg --mem ${mem})
  endif()
  boot_test(${b}.ktest.page_idle ${b} ${memarg} --append "tinymm.test=page_idle" --ktap
    --expect "^    # page_idle: two accesses after marking: the ptes made young by ${by}$"
    --expect "^# totals: pass:8 fail:0 skip:0$" --reject "^    not ok")
  add_test(NAME ${b}.page_idle.half_accessed COMMAND ${CMAKE_CURRENT_LIST_DIR}/page_idle_test.sh ${b})
  set_tests_properties(${b}.page_idle.half_accessed PROPERTIES TIMEOUT 300 LABELS qemu)
  # Label long (`make test-long`): the Pi's and the HiFive's (16-18 s each, page-types over
  # 1 GiB); the Orange Pi PC's checks the same ARM fault path, the virt RISC-V boards' the
  # same hardware A bit.
  if(b STREQUAL raspi2b OR b STREQUAL hifive-unleashed)
    set_tests_properties(${b}.page_idle.half_accessed PROPERTIES LABELS "qemu;long")
  endif()
endforeach()
add_test(NAME page_idle.check_catches_wrong_half COMMAND sh -c
  "out=$(${CMAKE_CURRENT_LIST_DIR}/page_idle_test.sh qemu-virt-riscv32 --expect-accessed odd 2>&1)$<SEMICOLON> rc=$?
   printf '%s\\n' \"$out\" | tail -n 3
   [ $rc = 1 ] && printf '%s\\n' \"$out\" |
     grep -q \"page_idle: FAIL: pages accessed: '0 2 4 6 8 10 12 14', want the odd ones '1 3 5 7 9 11 13 15' \"")
set_tests_properties(page_idle.check_catches_wrong_half PROPERTIES TIMEOUT 300 LABELS qemu)
