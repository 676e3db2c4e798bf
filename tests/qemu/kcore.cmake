# The kernel core's shell contract on every board (included from the end of
# tests/qemu/tests.cmake, so boot_test(), CHECK and TINYMM_BOARDS are known): `uptime`, `sleep`,
# `ps`, `irqs`, and the RISC-V tinymm.timer=sbi choice.  docs/kernel-core.md describes them.
#
# Counting lines and comparing two uptimes is more than boot_check.sh's --expect can say, so
# those tests go through tests/qemu/kcore_uptime.sh.

function(kcore_uptime_test name board opts ms)
  add_test(NAME ${name} COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/kcore_uptime.sh ${board} "${opts}"
    ${ms} ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 60 LABELS qemu)
endfunction()

# A log line: "[    0.012345] text".
set(LOG "^\\[ *[0-9]+\\.[0-9]{6}\\] ")

foreach(b ${TINYMM_BOARDS})
  if(b STREQUAL qemu-virt-arm)
    set(timer_re "GICv2 +27 Level  arch_timer$")
    set(console_re "GICv2 +33 Level  console$")
    # The GIC is the root controller: nothing is chained.
    set(chain_re "${LOG}GICv2: [0-9]+ lines, distributor 0x[0-9a-f]+, CPU interface 0x[0-9a-f]+$")
  else()
    set(timer_re "RISC-V INTC +5 Level  riscv-timer$")
    set(console_re "PLIC +10 Level  console$")
    # The PLIC is a handler on the INTC's supervisor external line (hwirq 9).
    set(chain_re "^ +[0-9]+: +[0-9]+ RISC-V INTC +9 Level  PLIC$")
  endif()

  kcore_uptime_test(${b}.kcore.uptime ${b} - -)
  kcore_uptime_test(${b}.kcore.uptime_after_sleep ${b} - 200)
  boot_test(${b}.kcore.sleep_invalid_number ${b} --append "tinymm.run=sleep abc" --status 1
    --timeout 10 --expect "^sleep: invalid number 'abc'$" --reject "^sleep: usage")
  boot_test(${b}.kcore.sleep_needs_argument ${b} --append "tinymm.run=sleep" --status 1
    --timeout 10 --expect "^sleep: usage: sleep <milliseconds>$")
  # The boot threads: idle (the boot context, on the boot stack), the system workqueue's worker,
  # kswapd and kcompactd asleep waiting for work (S: wait_event_interruptible, as Linux's), and
  # the shell running `ps` (16 KiB stack, kthreads' 8 KiB).
  boot_test(${b}.kcore.ps ${b} --append "tinymm.run=sleep 10$<SEMICOLON> ps" --timeout 10
    --expect "^  PID PRIO CPU STATE                 TIME  STACK-USED  SWITCHES     VSZ    RSS  NAME$"
    --expect "^    0    0   0 R \\(runnable\\) +[0-9]+\\.[0-9]{6} +[1-9][0-9]*/[0-9]+ +[1-9][0-9]* +0 +0  idle$"
    --expect "^    1   20 +[0-9]+ S \\(sleeping\\) +[0-9]+\\.[0-9]{6} +[1-9][0-9]*/8192 +[0-9]+ +0 +0  kworker/events$"
    --expect "^    2   16 +[0-9]+ S \\(sleeping\\) +[0-9]+\\.[0-9]{6} +[1-9][0-9]*/8192 +[0-9]+ +0 +0  kswapd0$"
    --expect "^    3   16 +[0-9]+ S \\(sleeping\\) +[0-9]+\\.[0-9]{6} +[1-9][0-9]*/8192 +[0-9]+ +0 +0  kcompactd0$"
    --expect "^    4   16   0 R \\(running\\) +[0-9]+\\.[0-9]{6} +[1-9][0-9]*/16384 +[0-9]+ +0 +0  shell$"
    --reject "more not shown")
  # After a 10 ms sleep the clock event has fired at least once; the console's receive line is
  # requested but quiet (no input).  Nothing fired unrequested.
  boot_test(${b}.kcore.irqs ${b} --append "tinymm.run=sleep 10$<SEMICOLON> irqs" --timeout 10
    --expect "^           CPU0$"
    --expect "^ +[0-9]+: +[1-9][0-9]* +${timer_re}"
    --expect "^ +[0-9]+: +[0-9]+ +${console_re}"
    --expect "${chain_re}"
    --expect "^Err: +[0-9]+$" --expect "^Unhandled: 0$" --reject "\\[masked\\]$")
endforeach()

# RV64 under OpenSBI: tinymm.timer=sbi takes the SBI TIME extension even though the CPU has Sstc,
# and sleeping still works on it.
set(R64 qemu-virt-riscv64)
kcore_uptime_test(${R64}.kcore.timer_sbi ${R64} "tinymm.timer=sbi" 50
  --expect "${LOG}riscv-timer: SBI TIME set_timer, one-shot, irq [0-9]+$"
  --expect "${LOG}clockevent: riscv-timer \\(sbi\\), one-shot \\(tickless\\), HZ=1000 for jiffies$"
  --reject "Sstc stimecmp")
# RV32 starts in M-mode itself: no firmware to answer an ecall, so the option is refused, loudly,
# and Sstc is used.
set(R32 qemu-virt-riscv32)
kcore_uptime_test(${R32}.kcore.timer_sbi_refused ${R32} "tinymm.timer=sbi" 50
  --expect "${LOG}riscv-timer: tinymm\\.timer=sbi ignored: no SBI firmware on this board \\(tinymm starts in M-mode itself\\), using Sstc$"
  --expect "${LOG}riscv-timer: Sstc stimecmp, one-shot, irq [0-9]+$"
  --expect "${LOG}clockevent: riscv-timer \\(sstc\\), one-shot \\(tickless\\), HZ=1000 for jiffies$")
