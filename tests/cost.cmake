# The order `ctest -j` starts tests in.  CTest runs the tests of highest COST first; it learns
# each test's time from a run (Testing/Temporary/CTestCostData.txt), but a fresh clone, as CI's,
# has none, and then starts tests in the order they were added, so a long one added last ran
# alone at the end of `make test` while the other core idled.  These are the default run's
# tests of 9 s and more, in seconds of wall time from `make test` on the 2-core build machine
# (2026-12-07); a name no longer defined is skipped.  Included last by cmake/host.cmake.
set(_tinymm_costs
  fuzz.ext2 35
  hifive-unleashed.ktest.all 23
  qemu-virt-riscv32.irqsoff.build 45
  swap.qemu-virt-riscv32 50
  swap.qemu-virt-riscv64 48
  fuzz.fdt 15
  swap.qemu-virt-arm 32
  ext2.bigfile_32m 32
  swap.qemu-virt-arm.sysfuzz 25
  mlock.orangepi-pc.resident 25
  lint.shellcheck 24
  raspi2b.ktest.all 21
  oom.orangepi-pc 21
  fuzz.buddy 20
  user_ram.hifive-unleashed 19
  user_ram.raspi2b 18
  orangepi-pc.page_idle.half_accessed 18
  user_sys.qemu-virt-arm.mapread 17
  swap.qemu-virt-arm.partition 16
  user_sys.qemu-virt-arm.migrate 16
  qemu-virt-riscv64.balloon.inflate 16
  qemu-virt-riscv32.balloon.inflate 15
  orangepi-pc.ktest.all 15
  fuzz.vmalloc 15
  swap.qemu-virt-arm.noroom 14
  fuzz.slab 12
  user_ram.orangepi-pc.mapread 12
  qemu-virt-riscv32.page_idle.half_accessed 12
  user_ram.hifive-unleashed.forkcow 12
  qemu-virt-arm.balloon.nodevice 12
  qemu-virt-riscv64.smp2.page_idle 11
  ext2.pageflags 11
  swap.orangepi-pc.catches_write_outside 11
  qemu-virt-riscv64.page_idle.half_accessed 11
  qemu-virt-arm.balloon.inflate 11
  qemu-virt-riscv32.balloon.nodevice 10
  oom.qemu-virt-riscv32.spinner 10
  qemu-virt-arm.smp2.page_idle 10
  qemu-virt-riscv32.smp2.page_idle 10
  qemu-virt-riscv64.balloon.nodevice 10
  orangepi-pc.no_env_card_boots_by_distro_boot 10
  oom.qemu-virt-riscv64.spinner 10
  qemu-virt-arm.page_idle.half_accessed 10
  user_ram.raspi2b.forkcow 9
  qemu-virt-riscv64.ktest.all_smp2 9
  qemu-virt-riscv32.ktest.all_smp2 9
  oom.qemu-virt-riscv64.sleeper 9
)
while(_tinymm_costs)
  list(POP_FRONT _tinymm_costs _name _cost)
  if(TEST ${_name})
    set_tests_properties(${_name} PROPERTIES COST ${_cost})
  endif()
endwhile()
