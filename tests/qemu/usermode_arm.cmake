# ARM user mode (arch/arm/entry-user.S, user.c, uaccess.S, asid.c; docs/user-arm.md): the KTAP
# suite `usermode` (arch/arm/usermode_ktest.c) alone on each ARM board (it also runs in their
# ktest.all), with the console lines a killed task leaves, in v6.10's words: the data abort's
# report (fault status 0xa07: LPAE, write, level-3 translation fault; 0x20c-0x20f: read, permission
# fault at any level on the kernel image) with show_pte's entries, and the SIGILL line; and a pte
# made old under a USR-mode loop made young again by the loop's Access flag fault (docs/young.md).
foreach(b qemu-virt-arm orangepi-pc raspi2b)
  set(mem)
  if(NOT b STREQUAL "qemu-virt-arm")
    set(mem --mem 1G)
  endif()
  boot_test(${b}.ktest.usermode ${b} ${mem} --append "tinymm.test=usermode" --timeout 60 --ktap
    --expect "^    ok 1 getpid_then_exit_group$"
    --expect "^    ok 5 tls_and_address_space_per_task$"
    --expect "^    ok 7 timer_preempts_user_loop$"
    --expect "^    ok 9 user_access_makes_old_pte_young$"
    --expect "^# totals: pass:9 fail:0 skip:0$"
    --expect "um-store: unhandled page fault \\(11\\) at 0x00001000, code 0xa07$"
    --expect ". pgd = [0-9a-f]{8}$"
    --expect "\\[00001000\\] \\*pgd=[0-9a-f]{16}, \\*pmd=[0-9a-f]{16}, \\*pte=0000000000000000$"
    --expect "um-udf \\([0-9]+\\): undefined instruction: pc=00010000$"
    --expect "um-kload: unhandled page fault \\(11\\) at 0x80100000, code 0x20[cdef]$"
    --reject "WARNING:" --reject "Unhandled exception")
endforeach()
