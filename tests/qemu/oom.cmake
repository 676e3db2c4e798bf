# The OOM killer end to end on every board (tests/qemu/oom_test.sh, docs/oom.md):
#   oom.<board>   /bin/oom (anonymous memory without end) is killed with Linux's
#                 "Out of memory: Killed process <pid> (oom) ..." line and SIGKILL, a background
#                 /bin/sleep survives it, vmstat oom_kill is 1, AnonPages comes back, the shell
#                 runs /bin/hello after, buddycheck and slabcheck pass
#   oom.<virt board>.sleeper   the biggest task asleep in nanosleep (/bin/oom -h 160) is the
#                 first victim: its sleep ends, it dies, its memory lets /bin/oom grow on
#                 until that is killed too (oom_kill 2, AnonPages 0 kB again)
#   oom.<virt board>.spinner   the same with the biggest task spinning on system calls
#                 (/bin/oom -s 160: mprotect of its area for ever): it dies at the end of the
#                 call it is in (every return to user mode takes the kill, the fast paths too)
# The cases without a user task to kill (NULL, no kill, no hang) are the KTAP suite `oom`
# (tests/ktest/oom_ktest.c), run on every board by <board>.ktest.all.
foreach(b ${TINYMM_BOARDS} orangepi-pc raspi2b hifive-unleashed)
  add_test(NAME oom.${b} COMMAND ${CMAKE_CURRENT_LIST_DIR}/oom_test.sh ${b})
  set_tests_properties(oom.${b} PROPERTIES TIMEOUT 450 LABELS qemu)
endforeach()
# Label long (`make test-long`): the Pi's and the HiFive's 1 GiB runs (20-35 s each); the
# Orange Pi PC's, a board with fixed RAM too, and the virt boards' run by default.
set_tests_properties(oom.raspi2b oom.hifive-unleashed PROPERTIES LABELS "qemu;long")
foreach(b ${TINYMM_BOARDS})
  foreach(c sleeper spinner)
    add_test(NAME oom.${b}.${c} COMMAND ${CMAKE_CURRENT_LIST_DIR}/oom_test.sh ${b} ${c})
    set_tests_properties(oom.${b}.${c} PROPERTIES TIMEOUT 300 LABELS qemu)
  endforeach()
endforeach()
