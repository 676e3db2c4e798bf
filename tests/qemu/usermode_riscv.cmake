# RISC-V user mode (docs/arch-user-riscv.md): the KTAP suite `usermode`
# (arch/riscv/usermode_ktest.c) on every RISC-V board, RV64 under OpenSBI, RV32 from tinymm's
# own M-mode start, and the HiFive Unleashed (RV64, the same arch code).  Hand-assembled user
# programs: getpid/exit_group through ecall, SIGSEGV/SIGILL/SIGTRAP kills with v6.10's
# unhandled-signal line, uaccess fixups, a user loop preempted by the timer, two address spaces
# yielding to each other, ASIDs (with a rollover on RV32's 9 bits), and a pte made old under a
# U-mode loop made young again by the loop's next access: QEMU 7.2's harts set A themselves
# (docs/young.md).
set(USERMODE_EXPECT --ktap
  --expect "^    ok 1 ecall_getpid_then_exit$"
  --expect "usr-segv\\[[0-9]+\\]: unhandled signal 11 code 0x1 at 0x0*40000000$"
  --expect "usr-ill\\[[0-9]+\\]: unhandled signal 4 code 0x1 at 0x0*10004$"
  --expect "usr-kaddr\\[[0-9]+\\]: unhandled signal 11 code 0x1 at 0x(80000000|ffffffd000000000)$"
  --expect "usr-trap\\[[0-9]+\\]: unhandled signal 5 code 0x1 at 0x0*10000$"
  --expect "status: [0-9a-f]*20 badaddr: 0*40000000 cause: 0*f$"
  --expect "^    ok 7 timer_preempts_a_user_loop$"
  --expect "^    ok 10 user_access_makes_old_pte_young$"
  --expect "^    # usermode: an old pte made young by the hardware$"
  --expect "^# totals: pass:10 fail:0 skip:0$")
foreach(b qemu-virt-riscv64 qemu-virt-riscv32)
  boot_test(${b}.ktest.usermode ${b} --append "tinymm.test=usermode" ${USERMODE_EXPECT}
    --expect "mmu: [0-9]+-bit ASIDs: one per address space, no flush on a switch$")
endforeach()
boot_test(hifive-unleashed.ktest.usermode hifive-unleashed --mem 8G --append "tinymm.test=usermode"
  ${USERMODE_EXPECT})
