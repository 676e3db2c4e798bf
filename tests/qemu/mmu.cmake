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
# VmallocTotal: Linux's 64 GiB Sv39 range, Sv32's 768 MiB; 0 on ARM (no page tables yet).
boot_test(qemu-virt-riscv64.meminfo_vmalloc qemu-virt-riscv64 --append "tinymm.run=meminfo"
  --expect "^VmallocTotal: +67108864 kB$" --expect "^PageTables: +0 kB$")
boot_test(qemu-virt-riscv32.meminfo_vmalloc qemu-virt-riscv32 --append "tinymm.run=meminfo"
  --expect "vmalloc: 0xc0000000-0xefffffff, Sv32$" --expect "^VmallocTotal: +786432 kB$")
boot_test(qemu-virt-arm.meminfo_vmalloc qemu-virt-arm --append "tinymm.run=meminfo"
  --expect "^VmallocTotal: +0 kB$")
