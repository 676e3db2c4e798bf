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
    --expect "^# totals: pass:17 fail:0 skip:0$")
endforeach()

# Kernel stacks from vmalloc (kernel/kthread.c): `fault stack` in the shell thread runs into the
# guard page below its stack, which ARM reports as a kernel stack overflow naming the thread
# (arch/arm/traps.c; tests/qemu/stack_overflow_test.sh checks the addresses).
add_test(NAME qemu-virt-arm.fault.stack_overflow
  COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/stack_overflow_test.sh qemu-virt-arm)
set_tests_properties(qemu-virt-arm.fault.stack_overflow PROPERTIES TIMEOUT 60 LABELS qemu)
foreach(b qemu-virt-riscv64 qemu-virt-riscv32)
  # RISC-V runs with paging off: stacks come from the page allocator, with no guard page, and
  # `fault stack` refuses rather than overwrite what lies below (this test changes when paging
  # goes on: it becomes the ARM one above).
  boot_test(${b}.fault.stack_refused_without_guard ${b} --append "tinymm.run=fault stack" --status 1
    --expect "^fault: stack: thread 'shell' has no guard page below its stack \\(not from vmalloc\\): refused$"
    --reject "Kernel stack overflow|Unhandled")
  # The trap entry's stack check (arch/riscv/entry.S) with paging off: a trap taken with sp less
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
  # The same with paging on, the way a vmalloc stack will overflow (arch/riscv/pgtable_ktest.c):
  # a 2-page area behind another stands in for the stack; sp moves 16 bytes into the guard page
  # below it and a store there page-faults.  The first two vmalloc areas of the range: the
  # stand-in is at VMALLOC_START + 0x2000 (until RISC-V's own stacks come from vmalloc).
  if(b STREQUAL qemu-virt-riscv64)
    set(lo 0xffffffc600002000)
    set(hi 0xffffffc600004000)
    set(st 0xffffffc600001ff0)
  else()
    set(lo 0xc0002000)
    set(hi 0xc0004000)
    set(st 0xc0001ff0)
  endif()
  boot_test(${b}.riscv_vmap_stack_guard ${b} --append "tinymm.test=riscv_vmap_stack_guard" --status 1
    --timeout 10
    # ("." for the line's "[": an unclosed "[" joins CMake list items)
    --expect "riscv_vmap_stack_guard: stack .${lo}-${hi}\\), store at ${st} with paging on$"
    --expect "Insufficient stack space to handle exception!$"
    --expect "Task stack: +\\[${lo}\\.\\.${hi}\\]$"
    --expect "Unhandled trap: store/AMO page fault at ${st}, sp ${st}$"
    --expect "CPU: 0 PID: [0-9]+ Comm: ktest$"
    --expect "Kernel panic - not syncing: Kernel stack overflow$"
    --reject "Fatal exception|inside the trap handler|^ok 1")
endforeach()
