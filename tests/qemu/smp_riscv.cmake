# RISC-V SMP (docs/smp.md, "RISC-V"): both virt boards with more than one hart, under MTTCG (each
# hart a host thread, so the races are real).  RV64 starts its harts through OpenSBI's HSM
# hart_start and signals them with SBI IPIs; RV32 (-bios none) releases the harts parked in
# mstart.S and signals them through its M-mode MSIP -> SSIP forwarder.
#   <board>.smp2.boot            `cpus` at -smp 2: Linux's "Brought up" line, both harts online,
#                                each answering the cross-CPU call `cpus` makes
#   <board>.smp2.ktest.smp       the generic `smp` suite (tests/ktest, kernel/smp.c) at -smp 2
#   <board>.smp2.ktest.tlb_shootdown  arch/riscv/smp_ktest.c: a remapped kernel page is read
#                                right on the other hart after flush_tlb_kernel_range, and after
#                                flush_tlb_page with an mm_cpumask naming it; flush_icache_pte's
#                                stale-hart marks
#   <board>.smp2.tlb_shootdown_off_fails  the same with tinymm.tlb_shootdown=0 (the debug
#                                switch): the other hart reads the old frame through its stale
#                                TLB entry, the case fails and the kernel exits 1
#   <board>.ktest.tlb_shootdown_alone  at -smp 1 every case skips (nothing to shoot down)
#   <board>.smp4.*, <board>.smp8.boot  (label long) the same suites at -smp 4; -smp 8 boots all
# Included from tests/qemu/tests.cmake.
set(SMP_MTTCG "-accel tcg,thread=multi")
foreach(b qemu-virt-riscv64 qemu-virt-riscv32)
  boot_test(${b}.smp2.boot ${b} --qemu "-smp 2 ${SMP_MTTCG}" --append "tinymm.run=cpus"
    --expect "smp: Brought up 1 node, 2 CPUs$" --expect "^  1  0x1 +online +"
    --expect "^2 of 2 CPUs online" --reject "failed to" --reject "Unhandled")
  boot_test(${b}.smp2.ktest.smp ${b} --qemu "-smp 2 ${SMP_MTTCG}" --append "tinymm.test=smp"
    --ktap --reject "Unhandled")
  boot_test(${b}.smp2.ktest.tlb_shootdown ${b} --qemu "-smp 2 ${SMP_MTTCG}"
    --append "tinymm.test=tlb_shootdown" --ktap
    --expect "^# totals: pass:3 fail:0 skip:0$")
  boot_test(${b}.smp2.tlb_shootdown_off_fails ${b} --qemu "-smp 2 ${SMP_MTTCG}"
    --append "tinymm.test=tlb_shootdown_off" --status 1
    --expect "^    not ok 1 stale_without_shootdown$" --expect "^# totals: pass:0 fail:1 skip:0$")
  boot_test(${b}.ktest.tlb_shootdown_alone ${b} --append "tinymm.test=tlb_shootdown"
    --expect "^# totals: pass:0 fail:0 skip:3$")
  boot_test(${b}.smp4.ktest.smp ${b} --qemu "-smp 4 ${SMP_MTTCG}" --append "tinymm.test=smp"
    --ktap --reject "Unhandled")
  boot_test(${b}.smp4.ktest.tlb_shootdown ${b} --qemu "-smp 4 ${SMP_MTTCG}"
    --append "tinymm.test=tlb_shootdown" --ktap --expect "^# totals: pass:3 fail:0 skip:0$")
  boot_test(${b}.smp8.boot ${b} --qemu "-smp 8 ${SMP_MTTCG}" --append "tinymm.run=cpus"
    --expect "smp: Brought up 1 node, 8 CPUs$" --expect "^8 of 8 CPUs online" --reject "failed to")
  set_tests_properties(${b}.smp4.ktest.smp ${b}.smp4.ktest.tlb_shootdown ${b}.smp8.boot
    PROPERTIES LABELS "qemu;long")
endforeach()
