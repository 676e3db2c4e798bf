# ARM SMP's own TLB checks (docs/smp.md, "ARM virt"; arch/arm/smp_ktest.c): ARMv7 broadcasts the
# inner-shareable TLB operations in hardware, and tinymm.tlb_shootdown=0 (arch/arm/tlbflush.c)
# swaps them for the local ones so that the stale entry can be seen.  MTTCG spelled out: QEMU
# keeps a softmmu TLB per vCPU, which a local TLBIMVAA flushes on the calling vCPU only.
#   qemu-virt-arm.smp2.ktest.tlb_shootdown   a remapped kernel page read right on the other CPU
#                                after flush_tlb_kernel_range by address (TLBIMVAAIS), with
#                                interrupts masked, and over 65 pages (TLBIALLIS)
#   qemu-virt-arm.smp2.tlb_shootdown_off_fails   suite tlb_shootdown_off (the local forms): the
#                                other CPU reads the old frame, the case fails, the kernel exits 1
#   qemu-virt-arm.smp2.tlb_shootdown_param_fails  the suite tlb_shootdown with
#                                tinymm.tlb_shootdown=0 on the command line: all three cases fail
#   qemu-virt-arm.ktest.tlb_shootdown_alone   -smp 1: the same cases on the one CPU pass
#   qemu-virt-arm.smp4.ktest.tlb_shootdown   (label long) at -smp 4
# Included from tests/qemu/tests.cmake.
set(A qemu-virt-arm)
set(SMP_ARM_MTTCG "-accel tcg,thread=multi")
boot_test(${A}.smp2.ktest.tlb_shootdown ${A} --qemu "-smp 2 ${SMP_ARM_MTTCG}"
  --append "tinymm.test=tlb_shootdown" --ktap --expect "^# totals: pass:3 fail:0 skip:0$")
boot_test(${A}.smp2.tlb_shootdown_off_fails ${A} --qemu "-smp 2 ${SMP_ARM_MTTCG}"
  --append "tinymm.test=tlb_shootdown_off" --status 1
  --expect "^    not ok 1 stale_without_shootdown$" --expect "^# totals: pass:0 fail:1 skip:0$")
boot_test(${A}.smp2.tlb_shootdown_param_fails ${A} --qemu "-smp 2 ${SMP_ARM_MTTCG}"
  --append "tinymm.tlb_shootdown=0 tinymm.test=tlb_shootdown" --status 1
  --expect "^    not ok 1 kernel_remap_reaches_other_cpus$"
  --expect "^    not ok 3 whole_tlb_flush_reaches_other_cpus$"
  --expect "^# totals: pass:0 fail:3 skip:0$")
boot_test(${A}.ktest.tlb_shootdown_alone ${A} --append "tinymm.test=tlb_shootdown"
  --expect "^# totals: pass:3 fail:0 skip:0$")
boot_test(${A}.smp4.ktest.tlb_shootdown ${A} --qemu "-smp 4 ${SMP_ARM_MTTCG}"
  --append "tinymm.test=tlb_shootdown" --ktap --expect "^# totals: pass:3 fail:0 skip:0$")
set_tests_properties(${A}.smp4.ktest.tlb_shootdown PROPERTIES LABELS "qemu;long")
