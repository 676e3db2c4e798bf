# RISC-V SMP's own checks (docs/smp.md, "RISC-V"); the generic ones (suite smp, `cpus`/`irqs`,
# a lost hart, panics) run on both RISC-V virt boards from tests/qemu/smp.cmake.  MTTCG (QEMU's
# default for RISC-V on this host; spelled out) runs each hart on a host thread, so races are
# real.  RV64 starts its harts through OpenSBI's HSM hart_start and signals them with SBI IPIs;
# RV32 (-bios none) releases the harts parked in mstart.S and signals them through its M-mode
# MSIP -> SSIP forwarder.
#   <board>.smp2.ktest.tlb_shootdown  arch/riscv/smp_ktest.c: a remapped kernel page is read
#                                right on the other hart after flush_tlb_kernel_range, and after
#                                flush_tlb_page with an mm_cpumask naming it; flush_icache_pte's
#                                stale-hart marks
#   <board>.smp2.tlb_shootdown_off_fails  the first case with tinymm.tlb_shootdown=0 (the debug
#                                switch): the other hart reads the old frame through its stale
#                                TLB entry, the case fails and the kernel exits 1
#   <board>.ktest.tlb_shootdown_alone  at -smp 1 the same cases on the one hart (the call runs on
#                                the caller): the local flushes, nothing skipped (ktest.all's skip:0)
#   <board>.smp4.ktest.tlb_shootdown, <board>.smp8.boot  (label long) the suite at -smp 4, and
#                                -smp 8 (QEMU virt's most harts, NR_CPUS) boots every hart
#   <board>.ktest.all_smp2       every suite at -smp 2 (issue 38: ktest.all at -smp 2 on every virt
#                                board), nothing skipped (ASIDs stay on with several harts).
#                                <board>.ktest.all_smp4 the same at -smp 4 (label long);
#                                <board>.ktest.all_smp2_asid3 (long) at -smp 2 with 3-bit ASIDs:
#                                every user task of every suite across frequent rollovers
#                                (DISABLED with all_smp2, below)
#   <board>.smp2.ktest.asid_rollover  arch/riscv/asid_ktest.c with tinymm.asid_bits=3 (7 user
#                                ASIDs): user tasks in many mms on both harts, the same address
#                                holding each mm's own value, across rollovers; a loop's hart
#                                running a reserved old-generation ASID is still flushed
#   <board>.smp2.asid_rollover_noshootdown_fails  that second case with the remote flushes off:
#                                the loop's hart keeps its entry, the case fails, exit status 1
#   <board>.smp4.ktest.asid_rollover (long) the same at -smp 4 with 4-bit ASIDs;
#   <board>.smp4.asids_off_too_few (long) 3-bit ASIDs for 4 harts: off (v6.10's rule, more than
#                                twice the harts), the suites still pass on the flushing path
#   qemu-virt-riscv32.smp.absent_hart_skipped  a device tree naming hart 5, which QEMU does not
#                                have: its release slot is written, nobody answers, it is
#                                reported after the timeout and skipped, the others boot.  (On
#                                RV64 OpenSBI marks such a cpu node disabled before the kernel
#                                reads the tree: the lost_cpu test covers the timeout there.)
# Included from tests/qemu/tests.cmake.
set(SMP_MTTCG "-accel tcg,thread=multi")
foreach(b qemu-virt-riscv64 qemu-virt-riscv32)
  boot_test(${b}.smp2.ktest.tlb_shootdown ${b} --qemu "-smp 2 ${SMP_MTTCG}"
    --append "tinymm.test=tlb_shootdown" --ktap
    --expect "^# totals: pass:4 fail:0 skip:0$")
  boot_test(${b}.smp2.tlb_shootdown_off_fails ${b} --qemu "-smp 2 ${SMP_MTTCG}"
    --append "tinymm.test=tlb_shootdown_off" --status 1
    --expect "^    not ok 1 stale_without_shootdown$" --expect "^# totals: pass:0 fail:1 skip:0$")
  boot_test(${b}.ktest.tlb_shootdown_alone ${b} --append "tinymm.test=tlb_shootdown"
    --expect "^# totals: pass:4 fail:0 skip:0$")
  boot_test(${b}.smp4.ktest.tlb_shootdown ${b} --qemu "-smp 4 ${SMP_MTTCG}"
    --append "tinymm.test=tlb_shootdown" --ktap --expect "^# totals: pass:4 fail:0 skip:0$")
  boot_test(${b}.smp8.boot ${b} --qemu "-smp 8 ${SMP_MTTCG}" --append "tinymm.run=cpus"
    --expect "smp: Brought up 1 node, 8 CPUs$" --expect "^8 of 8 CPUs online"
    --reject "failed to")
  set_tests_properties(${b}.smp4.ktest.tlb_shootdown ${b}.smp8.boot PROPERTIES LABELS "qemu;long")
  boot_test(${b}.smp2.ktest.asid_rollover ${b} --qemu "-smp 2 ${SMP_MTTCG}"
    --append "tinymm.test=asid_rollover tinymm.asid_bits=3" --timeout 60 --ktap
    --expect "mmu: 3-bit ASIDs: one per address space, no flush on a switch$"
    --expect "^    # asid_rollover: 2 harts, 48 address spaces, [0-9]+ rollovers \\(3-bit ASIDs\\)$"
    --expect "^# totals: pass:2 fail:0 skip:0$")
  boot_test(${b}.smp2.asid_rollover_noshootdown_fails ${b} --qemu "-smp 2 ${SMP_MTTCG}"
    --append "tinymm.test=asid_rollover_noshootdown tinymm.asid_bits=3" --timeout 60 --status 1
    --expect "^    not ok 1 reserved_asid_stale_without_shootdown$"
    --expect "^# totals: pass:0 fail:1 skip:0$")
  boot_test(${b}.smp4.ktest.asid_rollover ${b} --qemu "-smp 4 ${SMP_MTTCG}"
    --append "tinymm.test=asid_rollover tinymm.asid_bits=4" --timeout 90 --ktap
    --expect "mmu: 4-bit ASIDs: one per address space, no flush on a switch$"
    --expect "^# totals: pass:2 fail:0 skip:0$")
  boot_test(${b}.smp4.asids_off_too_few ${b} --qemu "-smp 4 ${SMP_MTTCG}"
    --append "tinymm.test=asid_rollover tinymm.asid_bits=3" --timeout 90 --ktap
    --expect "mmu: ASIDs off: 8 for 4 harts \\(more than twice as many wanted\\): a full TLB flush per address-space switch$"
    --expect "^    # asid_rollover: 4 harts, 96 address spaces, 0 rollovers \\(3-bit ASIDs, off\\)$"
    --expect "^# totals: pass:2 fail:0 skip:0$")
  set_tests_properties(${b}.smp2.ktest.asid_rollover ${b}.smp2.asid_rollover_noshootdown_fails
    PROPERTIES TIMEOUT 90)
  set_tests_properties(${b}.smp4.ktest.asid_rollover ${b}.smp4.asids_off_too_few PROPERTIES
    LABELS "qemu;long" TIMEOUT 120)
  boot_test(${b}.ktest.all_smp2 ${b} --qemu "-smp 2 ${SMP_MTTCG}" --append "tinymm.test=*"
    --timeout 120 --ktap --ktap-skip 0 --reject "b_dirty corrupted")
  boot_test(${b}.ktest.all_smp4 ${b} --qemu "-smp 4 ${SMP_MTTCG}" --append "tinymm.test=*"
    --timeout 180 --ktap --ktap-skip 0 --reject "b_dirty corrupted")
  boot_test(${b}.ktest.all_smp2_asid3 ${b} --qemu "-smp 2 ${SMP_MTTCG}"
    --append "tinymm.test=* tinymm.asid_bits=3" --timeout 150 --ktap --ktap-skip 0
    --expect "mmu: 3-bit ASIDs: one per address space, no flush on a switch$"
    --reject "b_dirty corrupted")
  set_tests_properties(${b}.ktest.all_smp2 PROPERTIES TIMEOUT 150)
  set_tests_properties(${b}.ktest.all_smp2_asid3 PROPERTIES TIMEOUT 180 LABELS "qemu;long")
  set_tests_properties(${b}.ktest.all_smp4 PROPERTIES TIMEOUT 210 LABELS "qemu;long")
endforeach()

# OpenSBI 1.1's HSM hart_start marks a hart STARTING before it stores the start address: a hart
# that looks in between leaves for the boot address with the boot arguments (seen once in ~60
# boots under load: the kernel started again on hart 1).  entry.S's late_secondary sends such a
# hart where it was started; tinymm.smp_start_at_boot=1 starts CPU 1 at the boot entry on
# purpose.  Without late_secondary this boot restarts the kernel and hangs.  OpenSBI picks its
# boot hart by lottery, so CPU1 may be any hart but the boot one.
boot_test(qemu-virt-riscv64.smp.firmware_start_race qemu-virt-riscv64 --qemu "-smp 3 ${SMP_MTTCG}"
  --append "tinymm.smp_start_at_boot=1 tinymm.run=cpus" --timeout 30
  --expect "${LOG}CPU1: Booted secondary processor 0x[0-2]$"
  --expect "${LOG}smp: Brought up 1 node, 3 CPUs$"
  --expect "^  1  0x[0-2]         online    +0  idle/1$")

set(R qemu-virt-riscv32)
set(SMP_RV32_BAD_DTB ${CMAKE_BINARY_DIR}/dtb/virt-rv32-smp2-hart5.dtb)
add_custom_command(OUTPUT ${SMP_RV32_BAD_DTB}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/dtb
  COMMAND qemu-system-riscv32 -M virt,dumpdtb=${SMP_RV32_BAD_DTB} -bios none -smp 2 -m 256M
    -nographic -net none
  COMMAND fdtput -c ${SMP_RV32_BAD_DTB} /cpus/cpu@5
  COMMAND fdtput -t s ${SMP_RV32_BAD_DTB} /cpus/cpu@5 device_type cpu
  COMMAND fdtput -t s ${SMP_RV32_BAD_DTB} /cpus/cpu@5 compatible riscv
  COMMAND fdtput -t x ${SMP_RV32_BAD_DTB} /cpus/cpu@5 reg 5
  COMMENT "QEMU virt's RV32 device tree at -smp 2 with a hart 5 QEMU does not have")
add_custom_target(smp_rv32_test_dtb ALL DEPENDS ${SMP_RV32_BAD_DTB})
boot_test(${R}.smp.absent_hart_skipped ${R} --dtb ${SMP_RV32_BAD_DTB} --qemu "-smp 2"
  --append "tinymm.run=cpus" --timeout 30
  --expect "${LOG}CPU1: failed to come online \\(hwid 0x5, 2000 ms\\): skipped$"
  --expect "${LOG}CPU2: Booted secondary processor 0x1$"
  --expect "${LOG}smp: Brought up 1 node, 2 CPUs$"
  --expect "^  1  0x5         failed        -  -$"
  --expect "^  2  0x1         online    +0  idle/2$")
