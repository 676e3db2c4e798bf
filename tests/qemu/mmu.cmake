# RISC-V page tables (included from the end of tests/qemu/tests.cmake; docs/mmu.md): the KTAP
# suite `riscv_pgtable` (arch/riscv/pgtable_ktest.c) maps a vmalloc area and reads and writes it
# through the hardware walker, with and without Svpbmt; meminfo's VmallocTotal is the range.
foreach(b qemu-virt-riscv64 qemu-virt-riscv32)
  boot_test(${b}.riscv_pgtable.ktest ${b} --append "tinymm.test=riscv_pgtable" --ktap
    --expect "^    ok 2 vmalloc_area_through_the_walker$"
    --expect "^    ok 3 table_frames_typed_and_counted$"
    --expect "vmap: no Svpbmt on this CPU: write-combining mapping refused$"
    --expect "^    ok 4 writecombine$" --expect "^# totals: pass:4 fail:0 skip:0$"
    --reject "is PBMT NC")
endforeach()
# QEMU 7.2 has Svpbmt off by default; on, it appears in riscv,isa and the NC mapping works.
boot_test(qemu-virt-riscv64.riscv_pgtable.svpbmt qemu-virt-riscv64 --append "tinymm.test=riscv_pgtable"
  --qemu "-cpu rv64,svpbmt=on" --ktap
  --expect "vmalloc: 0xffffffc600000000-0xffffffd5ffffffff, Sv39, Svpbmt$"
  --expect "riscv_pgtable: write-combining vmap at 0xffffffc6[0-9a-f]+ is PBMT NC, read and written$"
  --expect "^    ok 4 writecombine$" --expect "^# totals: pass:4 fail:0 skip:0$"
  --reject "mapping refused")
# VmallocTotal: Linux's 64 GiB Sv39 range, Sv32's 768 MiB (ARM's: ${A}.mmu.lpae_on below).
boot_test(qemu-virt-riscv64.meminfo_vmalloc qemu-virt-riscv64 --append "tinymm.run=meminfo"
  --expect "^VmallocTotal: +67108864 kB$" --expect "^PageTables: +0 kB$")
boot_test(qemu-virt-riscv32.meminfo_vmalloc qemu-virt-riscv32 --append "tinymm.run=meminfo"
  --expect "vmalloc: 0xc0000000-0xefffffff, Sv32$" --expect "^VmallocTotal: +786432 kB$")

# The ARM MMU on its LPAE tables, seen from the console (included from the end of
# tests/qemu/tests.cmake): the boot lines, meminfo's page-table and vmalloc figures, and
# mm/vmalloc_cmd.c's commands over real page tables.  The `mmu` KTAP suite (arch/arm/
# mmu_ktest.c, in <b>.ktest.all) checks the tables themselves.  docs/mmu.md, "ARM".
set(A qemu-virt-arm)
boot_test(${A}.mmu.lpae_on ${A} --append "tinymm.run=meminfo"
  # "." for the line's ";" and "[": a ";" splits a CMake list, and an unclosed "[" joins it
  --expect "mmu: LPAE on, 16 KiB of page tables. text RO\\+X, rodata RO, data and RAM RW\\+XN, MMIO device. vmalloc .0xf0800000-0xff000000.$"
  --expect "mmu: ID_MMFR2.HWAccFlg [0-9]+. LPAE has no hardware Access flag"
  # The boot threads' stacks (kworker/events and kswapd0 8 KiB, shell 16 KiB): VmallocUsed, and
  # the vmalloc range's pmd and pte tables beside the 16 KiB of the boot line
  --expect "^PageTables: +24 kB$" --expect "^VmallocTotal: +237568 kB$" --expect "^VmallocUsed: +32 kB$"
  --reject "staying on 1 MiB sections")
# 2 areas, one freed, the check, a bad free (status 1), then meminfo with 2 pages in use.  The
# first 0xb000 bytes of the range hold the boot threads' stacks (kernel/kthread.c), listed first.
boot_test(${A}.mmu.vmalloc_commands ${A} --status 1
  --append "tinymm.run=vmalloc 64$<SEMICOLON> vmalloc 8$<SEMICOLON> vfree 0xf080b000$<SEMICOLON> vmallocinfo$<SEMICOLON> vmalloccheck$<SEMICOLON> vfree 0x40000000$<SEMICOLON> meminfo"
  --expect "^vmalloc: 0xf080b000-0xf081b000 pages=16$" --expect "^vmalloc: 0xf081c000-0xf081e000 pages=2$"
  --expect "^0xf0800000-0xf0803000 +12288 kthread_create_opts\\+0x[0-9a-f]+/0x[0-9a-f]+ pages=2 vmalloc$"
  --expect "^0xf081c000-0xf081f000 +12288 cmd_vmalloc\\+0x[0-9a-f]+/0x[0-9a-f]+ pages=2 vmalloc$"
  --reject "^0xf080b000-0xf081c000"
  --expect "^vmalloccheck: ok \\(0 problems\\)$"
  --expect "^vfree: 0x40000000 is not the start of a vmalloc area: nothing freed$"
  --expect "^VmallocUsed: +40 kB$")
# A vmalloc area's guard page is unmapped in the hardware tables: reading it is a level-3
# translation fault (the area's pte table exists, the guard's pte does not).
# (The area follows the boot threads' stacks.)
boot_test(${A}.mmu.vmalloc_guard_faults ${A} --status 1 --timeout 10
  --append "tinymm.run=vmalloc 8$<SEMICOLON> fault read 0xf080d000"
  --expect "^vmalloc: 0xf080b000-0xf080d000 pages=2$"
  --expect "Unhandled exception: data abort: translation fault \\(level 3\\) on read at 0xf080d000$")
# ptdump over the live LPAE tables, in Linux's arch/arm/mm/dump.c format (arch/arm/ptdump.c):
# the region markers, the image's text read-only and executable, RAM in 2 MiB blocks, the device
# window, a vmalloc area, and no line both writable and executable.
boot_test(${A}.mmu.ptdump ${A} --append "tinymm.run=vmalloc 8$<SEMICOLON> ptdump"
  --expect "^---\\[ Kernel Mapping \\]---$" --expect "^---\\[ vmalloc\\(\\) Area \\]---$"
  --expect "^---\\[ vmalloc\\(\\) End \\]---$"
  --expect "^0x40100000-0x401[0-9a-f]{5} +[0-9]+K     ro x  SHD MEM/CACHED/WBWA$"
  --expect "^0x[0-9a-f]{8}-0x[0-9a-f]{8} +[0-9]+M RW NX SHD$"
  --expect "^0x08000000-0x10000000 +128M RW NX SHD$"
  --expect "^0xf080b000-0xf080d000 +8K     RW NX SHD MEM/CACHED/WBWA$"
  --reject "RW x " --reject "RW SHD")
