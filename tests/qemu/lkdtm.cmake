# `lkdtm <TEST>` (kernel/lkdtm.c; docs/mmu.md, "lkdtm"), included from the end of
# tests/qemu/tests.cmake: one CTest per test per board, <board>.lkdtm.<TEST>.  Each boots with
# tinymm.run=lkdtm <TEST> through tests/qemu/lkdtm_check.sh, which wants LKDTM's lines, no
# "lkdtm: FAIL" line (a test whose access returns prints one), the panic and exit status 1, and
# the trap report below naming the address LKDTM printed (@ADDR@).
set(LKDTM_CHECK ${CMAKE_CURRENT_LIST_DIR}/lkdtm_check.sh)

# The report each test must end in, in arch/<arch>/traps.c's words.
# ARM (LPAE): data or prefetch abort and the long-descriptor fault status with its level: 3 for
# the image's 4 KiB pages and vmalloc, 2 or 3 for RAM (2 MiB blocks, 4 KiB pages beside the
# image), 1 for page 0 (TTBR0's half of the tables is empty).
set(lkdtm_arm_WRITE_RO "data abort: permission fault \\(level 3\\) on write at @ADDR@$")
set(lkdtm_arm_WRITE_RO_AFTER_INIT "data abort: permission fault \\(level 3\\) on write at @ADDR@$")
set(lkdtm_arm_WRITE_KERN "data abort: permission fault \\(level 3\\) on write at @ADDR@$")
set(lkdtm_arm_EXEC_DATA "prefetch abort: permission fault \\(level 3\\) at @ADDR@$")
set(lkdtm_arm_EXEC_STACK "prefetch abort: permission fault \\(level [23]\\) at @ADDR@$")
set(lkdtm_arm_EXEC_KMALLOC "prefetch abort: permission fault \\(level [23]\\) at @ADDR@$")
set(lkdtm_arm_EXEC_VMALLOC "prefetch abort: permission fault \\(level 3\\) at @ADDR@$")
set(lkdtm_arm_EXEC_RODATA "prefetch abort: permission fault \\(level 3\\) at @ADDR@$")
set(lkdtm_arm_EXEC_NULL "prefetch abort: translation fault \\(level 1\\) at @ADDR@$")
set(lkdtm_arm_ACCESS_NULL "data abort: translation fault \\(level 1\\) on read at @ADDR@$")
# RISC-V: scause's name; every test is a page fault.
foreach(t WRITE_RO WRITE_RO_AFTER_INIT WRITE_KERN)
  set(lkdtm_riscv_${t} "Unhandled trap: store/AMO page fault at @ADDR@$")
endforeach()
foreach(t EXEC_DATA EXEC_STACK EXEC_KMALLOC EXEC_VMALLOC EXEC_RODATA EXEC_NULL)
  set(lkdtm_riscv_${t} "Unhandled trap: instruction page fault at @ADDR@$")
endforeach()
set(lkdtm_riscv_ACCESS_NULL "Unhandled trap: load page fault at @ADDR@$")
# EXHAUST_STACK: the guard page below the stack, reported as a stack overflow (no LKDTM address).
set(lkdtm_arm_EXHAUST_STACK "Insufficient stack space to handle exception!$")
set(lkdtm_riscv_EXHAUST_STACK "Insufficient stack space to handle exception!$")

# Every test on every board: a name added here gets its CTest on every board.
set(LKDTM_TESTS WRITE_RO WRITE_RO_AFTER_INIT WRITE_KERN EXEC_DATA EXEC_STACK EXEC_KMALLOC
  EXEC_VMALLOC EXEC_RODATA EXEC_NULL ACCESS_NULL EXHAUST_STACK)

foreach(b ${TINYMM_BOARDS})
  if(b MATCHES "riscv")
    set(arch riscv)
  else()
    set(arch arm)
  endif()
  foreach(t ${LKDTM_TESTS})
    if(NOT DEFINED lkdtm_${arch}_${t})
      message(FATAL_ERROR "lkdtm.cmake: no trap report for ${t} on ${arch} (set lkdtm_${arch}_${t})")
    endif()
    set(panic "Fatal exception")
    if(t STREQUAL EXHAUST_STACK)
      set(panic "Kernel stack overflow")
    endif()
    add_test(NAME ${b}.lkdtm.${t}
      COMMAND ${LKDTM_CHECK} --board ${b} --test ${t} --report "${lkdtm_${arch}_${t}}" --panic "${panic}")
    set_tests_properties(${b}.lkdtm.${t} PROPERTIES TIMEOUT 60 LABELS qemu)
  endforeach()
endforeach()

# `lkdtm` alone lists the tests; an unknown name and extra arguments are one-line errors.
foreach(b ${TINYMM_BOARDS})
  boot_test(${b}.lkdtm.list_and_bad_names ${b} --status 1
    --append "tinymm.run=lkdtm$<SEMICOLON> lkdtm write_ro$<SEMICOLON> lkdtm WRITE_RO EXEC_DATA"
    --expect "^Available crash types:$" --expect "^WRITE_RO_AFTER_INIT$" --expect "^EXHAUST_STACK$"
    --expect "^lkdtm: unknown test 'write_ro' \\(lkdtm with no argument lists them\\)$"
    --expect "^lkdtm: usage: lkdtm \\[TEST\\] \\(no argument: the list\\)$"
    --reject "Performing direct entry" --reject "Unhandled")
endforeach()

# The checker fails a wrong expectation: WRITE_RO expected as a translation fault must not pass
# (it is a permission fault, which the console shows).
set(A qemu-virt-arm)
add_test(NAME ${A}.lkdtm.check_catches_wrong_kind COMMAND sh -c
  "out=$(${LKDTM_CHECK} --board ${A} --test WRITE_RO --report 'data abort: translation fault .* on write at @ADDR@$')$<SEMICOLON> rc=$?
   printf '%s\\n' \"$out\" | tail -n 3
   [ $rc = 1 ] && printf '%s\\n' \"$out\" | grep -q '^lkdtm_check: FAIL: no trap report matching .data abort: translation fault .* on write at 0x[0-9a-f]*.. after the LKDTM line$' &&
     printf '%s\\n' \"$out\" | grep -q 'data abort: permission fault (level 3) on write at 0x'")
set_tests_properties(${A}.lkdtm.check_catches_wrong_kind PROPERTIES TIMEOUT 60 LABELS qemu)
