# User tasks on all CPUs (issue 38's "Tests"; docs/smp.md, "User tasks on all CPUs"): the
# fork/COW, shared-mapping and idle-tracking tests with the tasks pinned to different CPUs
# through sched_setaffinity and checked with getcpu (kernel/sys_sched.c), on every virt board at
# -smp 2 in the default run and at -smp 4 under the label long, under MTTCG (spelled out: each
# CPU a host thread, so the races are real).  Included from tests/qemu/tests.cmake.
#   <board>.smp<N>.user.affinity   /bin/affinity N: the set is exactly the N online CPUs; pinned to
#                                  each in turn, getcpu says that CPU; bad input as Linux (an
#                                  empty or offline-only mask EINVAL, a bad pointer EFAULT, an
#                                  unknown pid ESRCH, a short get length EINVAL)
#   <board>.smp<N>.user.forkcow    /bin/forkcow -s 8: the parent on CPU 0, every child on another
#                                  CPU (getcpu checked by each), and parent and child writing the
#                                  same copy-on-write pages at once for 400 ms from two CPUs;
#                                  then AnonPages back to 0, buddycheck and slabcheck clean
#   <board>.smp<N>.user.mapshare   /bin/mapshare: a MAP_SHARED writer on CPU 0, a reader with its
#                                  own mapping of the file on CPU 1 sees every page (and read()
#                                  does), its answer reaches the writer
#   <board>.smp2.page_idle         tests/qemu/page_idle_test.sh --smp 2 (not at -smp 4: a
#                                  repeat): the shell pinned to CPU 0 (`taskset`) marks and
#                                  reads, /bin/idletouch touches its pages on CPU 1: exactly
#                                  the touched half reads accessed
# Twins that must fail:
#   <board>.smp2.page_idle.shootdown_off_fails  the same with tinymm.tlb_shootdown=0 (ARM's
#                                  local TLB operations, RISC-V's remote flushes off): the other
#                                  CPU's touches go through its stale TLB entries unseen, so no
#                                  page reads accessed
#   qemu-virt-arm.user.forkcow_spread_needs_2cpus  forkcow -s at -smp 1 refuses to pass
#   qemu-virt-arm.smp2.user.affinity_catches_wrong_count  /bin/affinity 3 at -smp 2 names CPU 2
# And qemu-virt-arm.smp2.shell.taskset: the shell's taskset -p, its bad input one line each.
set(SMP_USER_MTTCG "-accel tcg,thread=multi")
set(SMP_USER_REJECT "BUG|WARNING|Kernel panic|Oops|unhandled signal|slabcheck: FAILED|buddycheck: FAILED")
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  foreach(n 2 4)
    set(q "-smp ${n} ${SMP_USER_MTTCG}")
    if(n EQUAL 2)
      set(others "1 other CPU")
    else()
      set(others "3 other CPUs")
    endif()
    boot_test(${b}.smp${n}.user.affinity ${b} --rootfs --qemu "${q}" --timeout 60
      --append "tinymm.run=exec /bin/affinity ${n}"
      --expect "^affinity: ${n} CPUs, each pinned and seen by getcpu: ok$"
      --expect "^affinity: bad input: ok$" --expect "^/bin/affinity: exited with status 0$"
      --reject "${SMP_USER_REJECT}")
    boot_test(${b}.smp${n}.user.forkcow ${b} --rootfs --qemu "${q}" --timeout 150
      --append "tinymm.run=exec /bin/forkcow -s 8$<SEMICOLON> sleep 200$<SEMICOLON> drop_caches$<SEMICOLON> meminfo$<SEMICOLON> buddycheck$<SEMICOLON> slabcheck"
      --expect "^forkcow: spread: the parent on CPU 0, the children on ${others}$"
      --expect "^forkcow: one child ok$" --expect "^forkcow: 8 children ok$"
      --expect "^forkcow: at once: CPU 0 and CPU 1 wrote the same pages for 400 ms, [0-9]+ rounds here: ok$"
      --expect "^forkcow: all ok$" --expect "^/bin/forkcow: exited with status 0$"
      --expect "^AnonPages: +0 kB$"
      --expect "^buddycheck: ok \\(0 problems\\)" --expect "^slabcheck: ok \\(0 problems\\)"
      --reject "${SMP_USER_REJECT}")
    boot_test(${b}.smp${n}.user.mapshare ${b} --rootfs --qemu "${q}" --timeout 90
      --append "tinymm.run=exec /bin/mapshare /mnt/shared 64$<SEMICOLON> buddycheck"
      --expect "^mapshare: writer on CPU 0, reader on CPU 1: 64 pages seen: ok$"
      --expect "^/bin/mapshare: exited with status 0$" --expect "^buddycheck: ok \\(0 problems\\)"
      --reject "${SMP_USER_REJECT}")
    set_tests_properties(${b}.smp${n}.user.forkcow PROPERTIES TIMEOUT 180)
    set_tests_properties(${b}.smp${n}.user.mapshare PROPERTIES TIMEOUT 120)
    if(n EQUAL 2)	# at -smp 4 it would only repeat this (5-7 s a board)
      add_test(NAME ${b}.smp2.page_idle COMMAND ${CMAKE_CURRENT_LIST_DIR}/page_idle_test.sh ${b}
        --smp 2)
      set_tests_properties(${b}.smp2.page_idle PROPERTIES TIMEOUT 300 LABELS qemu)
    else()
      set_tests_properties(${b}.smp4.user.affinity ${b}.smp4.user.forkcow ${b}.smp4.user.mapshare
        PROPERTIES LABELS "qemu;long")
    endif()
  endforeach()
endforeach()

# The debug switch off (ARM's local TLB operations, arch/arm/tlbflush.c; RISC-V's remote flushes,
# arch/riscv/context.c): the shell's marking on CPU 0 no longer reaches the TLB of CPU 1, where the
# task touches its pages, so its touches set no Access flag (A bit) and every page reads idle.
# On RISC-V this needs idletouch to make no system call with a uaccess between its spin and its
# touches: QEMU 7.2 flushes a hart's whole TLB on every sstatus.SUM change (docs/smp.md).
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  add_test(NAME ${b}.smp2.page_idle.shootdown_off_fails COMMAND sh -c
    "out=$(${CMAKE_CURRENT_LIST_DIR}/page_idle_test.sh ${b} --smp 2 --append tinymm.tlb_shootdown=0 2>&1)$<SEMICOLON> rc=$?
     printf '%s\\n' \"$out\" | tail -n 3
     [ $rc = 1 ] && printf '%s\\n' \"$out\" |
       grep -q \"page_idle: FAIL: pages accessed: '[0-9 ]*', want the even ones '0 2 4 6 8 10 12 14' \"")
  set_tests_properties(${b}.smp2.page_idle.shootdown_off_fails PROPERTIES TIMEOUT 300 LABELS qemu)
endforeach()
set(A qemu-virt-arm)
boot_test(${A}.user.forkcow_spread_needs_2cpus ${A} --rootfs --status 1
  --append "tinymm.run=exec /bin/forkcow -s 2"
  --expect "^forkcow: FAIL: -s needs at least two CPUs " --expect "^/bin/forkcow: exited with status 1$")
boot_test(${A}.smp2.user.affinity_catches_wrong_count ${A} --rootfs --qemu "-smp 2 ${SMP_USER_MTTCG}"
  --status 1 --append "tinymm.run=exec /bin/affinity 3"
  --expect "^affinity: FAIL: CPU 2 not in the set \\(3 CPUs online, 2 in the set\\)$"
  --expect "^/bin/affinity: exited with status 1$")
# The shell's `taskset -p` (kernel/sys_sched.c): show, set, and each bad input in one line (pid 1
# is the first kernel thread, kworker/events).
boot_test(${A}.smp2.shell.taskset ${A} --qemu "-smp 2 ${SMP_USER_MTTCG}" --status 1
  --append "tinymm.run=taskset -p 1$<SEMICOLON> taskset -p 99999$<SEMICOLON> taskset -p 0 1$<SEMICOLON> taskset -p zz 1$<SEMICOLON> taskset -p x$<SEMICOLON> taskset$<SEMICOLON> taskset -p 2 1"
  --expect "^pid 1's current affinity mask: 3$"
  --expect "^taskset: failed to get pid 99999's affinity: -ESRCH$"
  --expect "^taskset: failed to set pid 1's affinity: -EINVAL$"
  --expect "^taskset: invalid mask 'zz'$" --expect "^taskset: invalid pid 'x'$"
  --expect "^usage: taskset -p \\[mask\\] <pid>$" --expect "^pid 1's new affinity mask: 2$")
