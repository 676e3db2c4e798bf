# The kernel core's fatal checks, one boot each (the `sched` KTAP suite itself runs in ktest.all).
foreach(b ${TINYMM_BOARDS})
  # A thread that writes below its stack: the canary is found at its next switch, the machine
  # stops naming it (not a test failure to recover from: memory below may be damaged).
  boot_test(${b}.sched.stack_overflow_panics ${b} --append "tinymm.test=sched_overflow" --status 1
    --timeout 20
    --expect "Kernel panic - not syncing: stack overflow in thread 'overflow-test' \\(pid [0-9]+\\): canary at 0x[0-9a-f]+ overwritten$"
    --reject "^ok 1 sched_overflow")
  # The sched suite again with the clock tied to instructions (-icount): timers fire within one
  # tick of their deadlines (strict timing), as time only moves as the guest runs.
  boot_test(${b}.sched.icount ${b} --append "tinymm.ktest_strict_timing=1 tinymm.test=sched" --timeout 60
    --qemu "-icount shift=0,sleep=off"
    --expect "^# totals: pass:18 fail:0 skip:0$")
endforeach()

# Kernel stacks from vmalloc (kernel/kthread.c): `fault stack` in the shell thread runs into the
# guard page below its stack, which every board reports as a kernel stack overflow naming the
# thread (arch/*/traps.c; tests/qemu/stack_overflow_test.sh checks the addresses).
foreach(b ${TINYMM_BOARDS})
  add_test(NAME ${b}.fault.stack_overflow
    COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/stack_overflow_test.sh ${b})
  set_tests_properties(${b}.fault.stack_overflow PROPERTIES TIMEOUT 60 LABELS qemu)
endforeach()
foreach(b qemu-virt-riscv64 qemu-virt-riscv32)
  # The trap entry's stack check (arch/riscv/entry.S): a trap taken with sp less
  # than a frame above the thread's stack bottom goes to the overflow stack and is reported.
  boot_test(${b}.riscv_bad_stack ${b} --append "tinymm.test=riscv_bad_stack" --status 1 --timeout 10
    --expect "Insufficient stack space to handle exception!$"
    --expect "Task stack: +\\[0x[0-9a-f]+\\.\\.0x[0-9a-f]+\\]$"
    --expect "Overflow stack: +\\[0x[0-9a-f]+\\.\\.0x[0-9a-f]+\\]$"
    --expect "CPU: 0 PID: [0-9]+ Comm: bad-sp$"
    --expect "Unhandled trap: breakpoint at 0x0+, sp 0x[0-9a-f]+010$"
    --expect " \\[<[0-9a-f]+>\\] bad_sp_fn\\+0x[0-9a-f]+/0x[0-9a-f]+$"
    --expect "Kernel panic - not syncing: Kernel stack overflow$"
    --reject "Fatal exception|inside the trap handler|^ok 1")
endforeach()
