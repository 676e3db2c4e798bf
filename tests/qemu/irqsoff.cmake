# The irqsoff tracer (docs/irqsoff.md), label `irqsoff`.  Its kernels are builds of their own
# (presets <board>-irqsoff, build/<board>-irqsoff): a fixture builds what is stale first, so
# `ctest -L irqsoff` works on a tree where only the default images were built.  RV32 (the board
# the issue measures) and ARM (a different entry path and counter) run the workload.
set(IRQSOFF_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/irqsoff_test.sh)
foreach(b qemu-virt-riscv32 qemu-virt-arm)
  # The kernel alone: the tests boot it with disks of their own, never the build's rootfs.
  add_test(NAME ${b}.irqsoff.build COMMAND sh -c
    "cmake --preset ${b}-irqsoff >/dev/null && cmake --build --preset ${b}-irqsoff -j2 --target tinymm.elf"
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  # ARM's are label long (`make test-long`): RV32, the board the issue measures, runs by default.
  if(b STREQUAL qemu-virt-arm)
    set(irqsoff_labels "qemu;irqsoff;long")
  else()
    set(irqsoff_labels "qemu;irqsoff")
  endif()
  set_tests_properties(${b}.irqsoff.build PROPERTIES TIMEOUT 300 LABELS "${irqsoff_labels}"
    FIXTURES_SETUP irqsoff_${b})

  # `make bench`'s scenario and a page-cache read with the tracer on (irqsoff_test.sh says what
  # is checked): the format, max > 0, real functions, a trap-entry section, reset.
  add_test(NAME ${b}.irqsoff.workload COMMAND ${IRQSOFF_TEST}
    --dir ${CMAKE_BINARY_DIR}/irqsoff/${b}-workload --board ${b})

  # A masked loop of 1000, 2000, 3000 iterations (after one unmeasured): seen from and to its
  # function, lengths growing by the same whole number of instructions per iteration, the max at
  # least the longest; `top` counts the four.
  boot_test(${b}.irqsoff.selftest ${b} --irqsoff --append "tinymm.run=irqsoff selftest$<SEMICOLON> irqsoff top 3"
    --expect "^irqsoff selftest: 1000/2000/3000 iterations masked: [0-9]+/[0-9]+/[0-9]+ instructions$"
    --expect "^irqsoff selftest: ok: [1-8] instructions per iteration, [0-9]+ outside the loop$"
    --expect "^ +[0-9]+ +[4-9]  irqsoff_selftest_section\\+0x[0-9a-f]+ +irqsoff_selftest_section\\+0x[0-9a-f]+$")
  # The same loop masked behind the tracer's back (arch_local_irq_save): the selftest's check
  # must fail, or it would pass whatever the tracer saw.
  boot_test(${b}.irqsoff.selftest_must_fail ${b} --irqsoff --append "tinymm.run=irqsoff selftest must_fail"
    --status 1 --expect "^irqsoff selftest: FAIL: no section from irqsoff_selftest_section seen \\(1000 iterations masked\\)$"
    --reject "selftest: ok")
  # Off, on again, and bad input: one line each.
  boot_test(${b}.irqsoff.commands ${b} --irqsoff
    --append "tinymm.irqsoff=0 tinymm.run=irqsoff$<SEMICOLON> irqsoff on$<SEMICOLON> sleep 5$<SEMICOLON> irqsoff$<SEMICOLON> irqsoff top 0$<SEMICOLON> irqsoff sideways$<SEMICOLON> irqsoff top 2 3"
    --status 1 --expect "^irqsoff: the tracer is off \\(boot with tinymm.irqsoff=1, or: irqsoff on\\)$"
    --expect "^irqsoff: max [0-9]+ instructions, from [A-Za-z_.]+\\+0x[0-9a-f]+ to [A-Za-z_.]+\\+0x[0-9a-f]+$"
    --expect "^irqsoff: top: n must be 1-256$"
    --expect "^irqsoff: usage: irqsoff \\[reset \\| top \\[n\\] \\| on \\| off \\| selftest \\[must_fail\\]\\]$")
  foreach(t workload selftest selftest_must_fail commands)
    set_tests_properties(${b}.irqsoff.${t} PROPERTIES TIMEOUT 150 LABELS "${irqsoff_labels}"
      FIXTURES_REQUIRED irqsoff_${b})
  endforeach()
endforeach()

# The default build has no tracer: the command and the option say where it is, in one line.
boot_test(qemu-virt-riscv32.irqsoff.not_built_in qemu-virt-riscv32
  --append "tinymm.irqsoff=1 tinymm.run=irqsoff" --status 1
  --expect "irqsoff: not built in \\(make run IRQSOFF=1\\)$" --expect "^irqsoff: not built in \\(make run IRQSOFF=1\\)$")
set_tests_properties(qemu-virt-riscv32.irqsoff.not_built_in PROPERTIES LABELS "qemu;irqsoff")
