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
    --expect "^# totals: pass:16 fail:0 skip:0$")
endforeach()
