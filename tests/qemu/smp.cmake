# SMP (docs/smp.md): the virt boards with more than one CPU (QEMU's -smp; MTTCG runs each guest
# CPU on a host thread).  The other tests run at QEMU's default -smp 1.
set(LOG "^\\[ *[0-9]+\\.[0-9]{6}\\] ")
set(SMP_BOARDS qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
# Hardware ids as a pattern: OpenSBI boots RV64 on whichever hart wins its lottery (hart 0 most
# often, not always), so logical CPU n is not always hart n there.
set(HWID "0x[0-9a-f]+")

foreach(b ${SMP_BOARDS})
  # Every CPU comes up and runs cross-CPU calls: suite smp, none skipped.
  boot_test(${b}.smp.ktest_2cpus ${b} --append "tinymm.test=smp" --qemu "-smp 2" --ktap
    --expect "${LOG}smp: Brought up 1 node, 2 CPUs$"
    --expect "^# totals: pass:10 fail:0 skip:0$" --reject "failed to (boot|come online)")
  boot_test(${b}.smp.ktest_4cpus ${b} --append "tinymm.test=smp" --qemu "-smp 4" --ktap
    --expect "${LOG}smp: Brought up 1 node, 4 CPUs$"
    --expect "^# totals: pass:10 fail:0 skip:0$" --reject "failed to (boot|come online)")
  set_tests_properties(${b}.smp.ktest_4cpus PROPERTIES LABELS "qemu;long")
  # As many CPUs as the image supports, on a host with fewer cores: slower, still correct.
  boot_test(${b}.smp.ktest_8cpus ${b} --append "tinymm.test=smp" --qemu "-smp 8" --ktap
    --timeout 60 --expect "${LOG}smp: Brought up 1 node, 8 CPUs$"
    --expect "^# totals: pass:10 fail:0 skip:0$" --reject "failed to (boot|come online)")
  set_tests_properties(${b}.smp.ktest_8cpus PROPERTIES LABELS "qemu;long")
  # Every suite with a second CPU running beside it (the suites' own threads on CPU 0 unless
  # KTEST_SUITE_SMP: kernel/ktest.c), and at -smp 4 (long).
  if(b STREQUAL qemu-virt-arm)
    boot_test(${b}.ktest.all_smp2 ${b} --qemu "-smp 2" --append "tinymm.test=*" --timeout 120
      --ktap --reject "b_dirty corrupted")
    set_tests_properties(${b}.ktest.all_smp2 PROPERTIES TIMEOUT 150)
    boot_test(${b}.ktest.all_smp4 ${b} --qemu "-smp 4" --append "tinymm.test=*" --timeout 180
      --ktap --reject "b_dirty corrupted")
    set_tests_properties(${b}.ktest.all_smp4 PROPERTIES TIMEOUT 210 LABELS "qemu;long")
  endif()
  # The scheduler across CPUs (suite sched_smp): pinned threads run where pinned, the caller
  # moves itself, two spinners run at once, a remote wake-up takes an IPI_RESCHEDULE.
  boot_test(${b}.smp.sched_2cpus ${b} --append "tinymm.test=sched_smp" --qemu "-smp 2" --ktap
    --expect "^# totals: pass:4 fail:0 skip:0$")
  boot_test(${b}.smp.sched_4cpus ${b} --append "tinymm.test=sched_smp" --qemu "-smp 4" --ktap
    --expect "^# totals: pass:4 fail:0 skip:0$")
  set_tests_properties(${b}.smp.sched_4cpus PROPERTIES LABELS "qemu;long")
  # The allocators under a worker pinned to every CPU (suite smp_stress): folios handed between
  # CPUs with their stamps checked, kmalloc objects checked; then one file's page cache written
  # and read from every CPU with direct reclaim and memory_failure() of each worker's own frames
  # alongside, the data exact afterwards; buddycheck, slabcheck, lru_check clean, no lock-order
  # report.
  boot_test(${b}.smp.stress_2cpus ${b} --append "tinymm.test=smp_stress" --qemu "-smp 2" --ktap
    --timeout 60 --expect "^# totals: pass:2 fail:0 skip:0$" --reject "BUG|Bad page state|WARNING")
  boot_test(${b}.smp.stress_4cpus ${b} --append "tinymm.test=smp_stress" --qemu "-smp 4" --ktap
    --timeout 180 --expect "^# totals: pass:2 fail:0 skip:0$" --reject "BUG|Bad page state|WARNING")
  set_tests_properties(${b}.smp.stress_4cpus PROPERTIES LABELS "qemu;long" TIMEOUT 210)
  # The page cache's lockless lookup (suite filemap_lockless, tests/ktest/filemap_lockless_ktest.c):
  # readers on every other CPU look up a 64-page file a writer keeps filling, truncating and
  # evicting, each folio found of the index asked for.  At -smp 2 it runs in ktest.all_smp2 too;
  # here at -smp 4 (long), and its twin without the second look after folio_try_get() must fail.
  boot_test(${b}.smp.filemap_lockless_4cpus ${b} --append "tinymm.test=filemap_lockless"
    --qemu "-smp 4" --ktap --timeout 90 --expect "^# totals: pass:3 fail:0 skip:0$"
    --expect "^    # the second look turned back [1-9][0-9]* folios that moved in the pause$"
    --expect "^    # 4 CPU\\(s\\): [0-9]+ lookups, [1-9][0-9]* hits, 0 wrong, writer "
    --reject "BUG|Bad page state|WARNING")
  set_tests_properties(${b}.smp.filemap_lockless_4cpus PROPERTIES LABELS "qemu;long")
  boot_test(${b}.smp.filemap_lockless_broken_fails ${b} --append "tinymm.test=filemap_lockless_broken"
    --qemu "-smp 2" --status 1 --timeout 60
    --expect "^    # 2 CPU\\(s\\): [0-9]+ lookups, [0-9]+ hits, [1-9][0-9]* wrong, writer "
    --expect "^    not ok 1 filemap_lockless_without_second_look$")
  # QEMU's default, one CPU: Linux's singular; the calls run on the caller (suite smp's
  # one-CPU checks).
  boot_test(${b}.smp.ktest_1cpu ${b} --append "tinymm.test=smp" --ktap
    --expect "${LOG}smp: Brought up 1 node, 1 CPU$" --expect "^# totals: pass:10 fail:0 skip:0$")
  # `cpus` (each CPU's hardware id and what it runs: the shell on the boot CPU, idle threads on
  # the others, asked through an IPI) and `irqs` with a column per CPU and the IPI rows; CPU1
  # took the function call `cpus` sent it.
  boot_test(${b}.smp.cpus_irqs ${b} --append "tinymm.run=cpus$<SEMICOLON> irqs" --qemu "-smp 2"
    --expect "^CPU  hwid        state       PID  running$"
    --expect "^  0  ${HWID} +online    +[1-9][0-9]*  shell$"
    --expect "^  1  ${HWID} +online    +0  idle/1$"
    --expect "^2 of 2 CPUs online \\(NR_CPUS [0-9]+\\)$"
    --expect "^           CPU0       CPU1$"
    --expect "^IPI0: +[0-9]+ +[0-9]+  Rescheduling interrupts$"
    --expect "^IPI1: +[0-9]+ +[1-9][0-9]*  Function call interrupts$"
    --expect "^IPI2: +0 +0  CPU stop interrupts$")
  # A CPU the firmware starts but that never answers (tinymm.smp_lost_cpu parks it where it
  # never reaches the kernel): reported after the timeout, skipped; the others come up.
  boot_test(${b}.smp.lost_cpu_skipped ${b} --qemu "-smp 3"
    --append "tinymm.smp_lost_cpu=1 tinymm.run=cpus" --timeout 30
    --expect "${LOG}CPU1: failed to come online \\(hwid ${HWID}, 2000 ms\\): skipped$"
    --expect "${LOG}CPU2: Booted secondary processor ${HWID}$"
    --expect "${LOG}smp: Brought up 1 node, 2 CPUs$"
    --expect "^  1  ${HWID} +failed        -  -$"
    --expect "^  2  ${HWID} +online    +0  idle/2$")
  # A panic on one CPU stops the others, prints what each ran and powers off with status 1:
  # CPU1 or CPU2 panics in an IPI while the test thread on CPU0 waits for it.
  boot_test(${b}.smp.panic_stops_others ${b} --qemu "-smp 3" --append "tinymm.test=smp_panic"
    --status 1
    --expect "Kernel panic - not syncing: smp_panic on CPU[12]$"
    --expect "${LOG}CPU0: stopping$" --expect "${LOG}CPU: 0 PID: [0-9]+ Comm: ktest$"
    --expect " smp_call_function_single\\+0x[0-9a-f]+/0x[0-9a-f]+$"
    --expect "${LOG}CPU: [12] PID: 0 Comm: idle/[12]$"
    --expect "---\\[ end Kernel panic - not syncing: smp_panic on CPU[12] \\]---$"
    --reject "failed to stop")
  boot_test(${b}.smp.lkdtm_panic_stops_others ${b} --qemu "-smp 2" --append "tinymm.run=lkdtm PANIC"
    --status 1 --expect "Kernel panic - not syncing: dumptest$"
    --expect "${LOG}CPU1: stopping$" --expect "${LOG}CPU: 1 PID: 0 Comm: idle/1$"
    --expect " (arch_cpu_idle|cpu_idle_loop)\\+0x[0-9a-f]+/0x[0-9a-f]+$"
    --reject "failed to stop")
endforeach()

# ARM: a device tree naming a CPU QEMU does not have (cpu@5 beside -smp 2's two; fdtput makes it
# the first cpu node, so logical CPU1): PSCI refuses CPU_ON, one line says so, the CPU is skipped
# and the others boot.  (A ']' without its '[' in a CMake argument joins the list: none here.)
set(A qemu-virt-arm)
set(SMP_BAD_DTB ${CMAKE_BINARY_DIR}/dtb/virt-arm-smp2-cpu5.dtb)
add_custom_command(OUTPUT ${SMP_BAD_DTB}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/dtb
  COMMAND qemu-system-arm -M virt,dumpdtb=${SMP_BAD_DTB} -cpu cortex-a15 -smp 2 -m 256M
    -nographic -net none
  COMMAND fdtput -c ${SMP_BAD_DTB} /cpus/cpu@5
  COMMAND fdtput -t s ${SMP_BAD_DTB} /cpus/cpu@5 device_type cpu
  COMMAND fdtput -t s ${SMP_BAD_DTB} /cpus/cpu@5 compatible arm,cortex-a15
  COMMAND fdtput -t s ${SMP_BAD_DTB} /cpus/cpu@5 enable-method psci
  COMMAND fdtput -t x ${SMP_BAD_DTB} /cpus/cpu@5 reg 5
  COMMENT "QEMU virt's ARM device tree at -smp 2 with a third cpu node QEMU has no CPU for")
add_custom_target(smp_test_dtb ALL DEPENDS ${SMP_BAD_DTB})
boot_test(${A}.smp.psci_refused_cpu_skipped ${A} --dtb ${SMP_BAD_DTB} --qemu "-smp 2"
  --append "tinymm.run=cpus"
  --expect "${LOG}psci: CPU_ON of CPU1 \\(hwid 0x5\\) refused: INVALID_PARAMETERS \\(-2\\)$"
  --expect "${LOG}CPU1: failed to boot: -22$"
  --expect "${LOG}CPU2: Booted secondary processor 0x1$"
  --expect "${LOG}smp: Brought up 1 node, 2 CPUs$"
  --expect "^  1  0x5         failed        -  -$"
  --expect "^  2  0x1         online    +0  idle/2$")
