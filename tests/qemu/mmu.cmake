# RISC-V page tables (included from the end of tests/qemu/tests.cmake; docs/mmu.md): the KTAP
# suite `riscv_pgtable` (arch/riscv/pgtable_ktest.c) maps a vmalloc area and reads and writes it
# through the hardware walker, with and without Svpbmt; meminfo's VmallocTotal is the range.
foreach(b qemu-virt-riscv64 qemu-virt-riscv32)
  boot_test(${b}.riscv_pgtable.ktest ${b} --append "tinymm.test=riscv_pgtable" --ktap
    --expect "^    ok 2 vmalloc_area_through_the_walker$"
    --expect "^    ok 3 table_frames_typed_and_counted$"
    --expect "vmap: this CPU has no non-cacheable memory type: mapping refused$"
    --expect "^    ok 4 writecombine$" --expect "^# totals: pass:4 fail:0 skip:0$"
    --reject "is PBMT NC")
endforeach()
# QEMU 7.2 has Svpbmt off by default; on, it appears in riscv,isa and the NC mapping works.
boot_test(qemu-virt-riscv64.riscv_pgtable.svpbmt qemu-virt-riscv64 --append "tinymm.test=riscv_pgtable"
  --qemu "-cpu rv64,svpbmt=on" --ktap
  --expect "mmu: Sv39 on, [0-9]+ KiB of page tables. lowmem at 0xffffffd000000000, .* vmalloc .0xffffffc000000000-0xffffffd000000000.. Svpbmt$"
  --expect "riscv_pgtable: write-combining vmap at 0xffffffc0[0-9a-f]+ is PBMT NC, read and written$"
  --expect "^    ok 4 writecombine$" --expect "^# totals: pass:4 fail:0 skip:0$"
  --reject "mapping refused")
# The address space (docs/mmu.md): Sv39's 64 GiB vmalloc range below the direct map at
# 0xffffffd000000000; Sv32's 2G/2G split as ARM's (${A}.mmu.lpae_on below).  The PLIC's
# registers are the first ioremap() area, with phys=; nothing is mapped W+X.
boot_test(qemu-virt-riscv64.meminfo_vmalloc qemu-virt-riscv64 --append "tinymm.run=meminfo$<SEMICOLON> vmallocinfo"
  --expect "mmu: Sv39 on, [0-9]+ KiB of page tables. lowmem at 0xffffffd000000000, text RO\\+X, rodata RO, data and RAM RW\\+NX. vmalloc .0xffffffc000000000-0xffffffd000000000.$"
  --expect "^0xffffffc000000000-0xffffffc000601000 6295552 plic_init\\+0x[0-9a-f]+/0x[0-9a-f]+ phys=0x000000000c000000 ioremap$"
  --expect "^VmallocTotal: +67108864 kB$" --expect "^PageTables: +[1-9][0-9]* kB$")
boot_test(qemu-virt-riscv32.meminfo_vmalloc qemu-virt-riscv32 --append "tinymm.run=meminfo$<SEMICOLON> vmallocinfo"
  --expect "mmu: Sv32 on, [0-9]+ KiB of page tables. lowmem at 0x80000000, text RO\\+X, rodata RO, data and RAM RW\\+NX. vmalloc .0xf0800000-0xff000000.$"
  --expect "^0xf0800000-0xf0e01000 6295552 plic_init\\+0x[0-9a-f]+/0x[0-9a-f]+ phys=0x000000000c000000 ioremap$"
  --expect "^VmallocTotal: +237568 kB$")

# The portable KTAP suite `mmu` (tests/ktest/mmu_ktest.c; docs/mmu.md, "Tests") on every board:
# the whole-table walk, W^X, the direct map's leaves, the table frames, the empty user half, the
# image's boundaries, vmalloc, ioremap and the fixmap, __ro_after_init, a non-cacheable vmap()
# with PG_uncached (mapped on ARM and RV64 with Svpbmt, refused elsewhere) and a set_memory split.
# The walk prints its figures; the user half's NULL read must trap at 0x...10 in either wording.
set(MMU_CASES every_entry_as_designed_and_no_w_and_x user_half_empty
  image_sections_at_their_boundaries vmalloc_through_the_mmu ioremap_console_uart
  ro_after_init_read_only_after_boot noncacheable_vmap_marks_pg_uncached
  set_memory_splits_a_direct_map_leaf)
set(MMU_EXPECT --expect "^    1\\.\\.8$"
  --expect "mmu: [1-9][0-9]* leaves, [1-9][0-9]* pages, [1-9][0-9]* fixmap slots, [0-9]+ pmd \\+ [1-9][0-9]* pte tables$"
  --expect "(translation fault \\(level 1\\) on read|load page fault) at 0x0+10$"
  --expect "^# totals: pass:8 fail:0 skip:0$")
set(i 0)
foreach(c ${MMU_CASES})
  math(EXPR i "${i} + 1")
  list(APPEND MMU_EXPECT --expect "^    ok ${i} ${c}$")
endforeach()
foreach(b ${TINYMM_BOARDS})
  # ARM has a non-cacheable type; QEMU's RISC-V CPUs without -cpu ...,svpbmt=on do not.
  set(nc "refused")
  if(b STREQUAL qemu-virt-arm)
    set(nc "mapped, PG_uncached set and cleared")
  endif()
  boot_test(${b}.mmu.ktest ${b} --append "tinymm.test=mmu" --ktap ${MMU_EXPECT}
    --expect "^    # mmu: non-cacheable vmap ${nc}$")
endforeach()
# With Svpbmt, ioremap()'s PAGE_KERNEL_IO carries PBMT IO (the walk compares it exactly) while the
# fixmap slots, set before Svpbmt was read, do not (the walk checks them for W and not X).
boot_test(qemu-virt-riscv64.mmu.ktest_svpbmt qemu-virt-riscv64 --append "tinymm.test=mmu"
  --qemu "-cpu rv64,svpbmt=on" --ktap ${MMU_EXPECT}
  --expect "mmu: Sv39 on, .*, Svpbmt$"
  --expect "^    # mmu: non-cacheable vmap mapped, PG_uncached set and cleared$")
# ARM's own: the registers, the memory types, the fault status in arch/arm/traps.c's words.
boot_test(qemu-virt-arm.mmu_lpae.ktest qemu-virt-arm --append "tinymm.test=mmu_lpae" --ktap
  --expect "^    ok 2 lpae_registers$" --expect "^    ok 3 memory_types$"
  --expect "^    ok 4 fault_status_words$" --expect "^# totals: pass:4 fail:0 skip:0$")

# The ARM MMU on its LPAE tables, seen from the console (included from the end of
# tests/qemu/tests.cmake): the boot lines, meminfo's page-table and vmalloc figures, and
# mm/vmalloc_cmd.c's commands over real page tables.  The `mmu` KTAP suite (above) checks the
# tables themselves, `mmu_lpae` (arch/arm/mmu_ktest.c) ARM's registers and memory types.
# docs/mmu.md, "ARM".
set(A qemu-virt-arm)
boot_test(${A}.mmu.lpae_on ${A} --append "tinymm.run=meminfo"
  # "." for the line's ";" and "[": a ";" splits a CMake list, and an unclosed "[" joins it
  --expect "mmu: LPAE on, 16 KiB of page tables. lowmem at 0x80000000, text RO\\+X, rodata RO, data and RAM RW\\+XN. vmalloc .0xf0800000-0xff000000.$"
  --expect "mmu: ID_MMFR2.HWAccFlg [0-9]+. LPAE has no hardware Access flag"
  # the boot threads' stacks (kworker/events, kswapd0 and kcompactd0 8 KiB, shell 16 KiB) are
  # VmallocUsed
  --expect "^PageTables: +20 kB$" --expect "^VmallocTotal: +237568 kB$" --expect "^VmallocUsed: +40 kB$"
  --reject "staying on the boot tables")
# The GIC's two register ranges are the first ioremap() areas, the boot threads' stacks the
# next three and the PL031 RTC's registers the next (the root filesystem's first file time
# reads the wall clock; boot order is fixed), so the commands below find their areas at
# 0xf0832000.
# 2 areas, one freed, the check, a bad free (status 1), then meminfo with 2 pages in use.
boot_test(${A}.mmu.vmalloc_commands ${A} --status 1
  --append "tinymm.run=vmalloc 64$<SEMICOLON> vmalloc 8$<SEMICOLON> vfree 0xf0832000$<SEMICOLON> vmallocinfo$<SEMICOLON> vmalloccheck$<SEMICOLON> vfree 0x40000000$<SEMICOLON> meminfo"
  --expect "^vmalloc: 0xf0832000-0xf0842000 pages=16$" --expect "^vmalloc: 0xf0843000-0xf0845000 pages=2$"
  --expect "^0xf0800000-0xf0811000 +69632 gic_of_init\\+0x[0-9a-f]+/0x[0-9a-f]+ phys=0x0000000008000000 ioremap$"
  --expect "^0xf0811000-0xf0822000 +69632 gic_of_init\\+0x[0-9a-f]+/0x[0-9a-f]+ phys=0x0000000008010000 ioremap$"
  --expect "^0xf0822000-0xf0825000 +12288 kthread_create_opts\\+0x[0-9a-f]+/0x[0-9a-f]+ pages=2 vmalloc$"
  --expect "^0xf0830000-0xf0832000 +8192 pl031_rtc_read_ns\\+0x[0-9a-f]+/0x[0-9a-f]+ phys=0x0000000009010000 ioremap$"
  --expect "^0xf0843000-0xf0846000 +12288 cmd_vmalloc\\+0x[0-9a-f]+/0x[0-9a-f]+ pages=2 vmalloc$"
  --reject "^0xf0832000-0xf0843000"
  --expect "^vmalloccheck: ok \\(0 problems\\)$"
  --expect "^vfree: 0x40000000 is not the start of a vmalloc area: nothing freed$"
  --expect "^VmallocUsed: +48 kB$")
# A vmalloc area's guard page is unmapped in the hardware tables: reading it is a level-3
# translation fault (the area's pte table exists, the guard's pte does not).
# (The area follows the boot threads' stacks.)
boot_test(${A}.mmu.vmalloc_guard_faults ${A} --status 1 --timeout 10
  --append "tinymm.run=vmalloc 8$<SEMICOLON> fault read 0xf0834000"
  --expect "^vmalloc: 0xf0832000-0xf0834000 pages=2$"
  --expect "Unhandled exception: data abort: translation fault \\(level 3\\) on read at 0xf0834000$")
# ptdump over the live LPAE tables, in Linux's arch/arm/mm/dump.c format (arch/arm/ptdump.c):
# the region markers, the image's text read-only and executable at its virtual address, RAM in
# 2 MiB blocks, the GIC's ioremap() areas Device, a vmalloc area, the console's fixmap slot, and
# no line both writable and executable.
boot_test(${A}.mmu.ptdump ${A} --append "tinymm.run=vmalloc 8$<SEMICOLON> ptdump"
  --expect "^---\\[ Kernel Mapping \\]---$" --expect "^---\\[ vmalloc\\(\\) Area \\]---$"
  --expect "^---\\[ vmalloc\\(\\) End \\]---$"
  --expect "^---\\[ Fixmap Area \\]---$"
  --expect "^0x80100000-0x80[0-9a-f]{6} +[0-9]+K     ro x  SHD MEM/CACHED/WBWA$"
  --expect "^0x[0-9a-f]{8}-0x[0-9a-f]{8} +[0-9]+M RW NX SHD$"
  --expect "^0xf0800000-0xf0810000 +64K     RW NX SHD DEV/SHARED$"
  --expect "^0xf0832000-0xf0834000 +8K     RW NX SHD MEM/CACHED/WBWA$"
  --expect "^0xffeff000-0xfff00000 +4K     RW NX SHD DEV/SHARED$"
  --reject "RW x " --reject "RW SHD")
# __ro_after_init read-only at the end of boot on every board (mm/set_memory.c's
# mark_rodata_ro, docs/mmu.md); the `mmu` suite checks the ptes and that a write faults.
foreach(b ${TINYMM_BOARDS})
  boot_test(${b}.mmu.ro_after_init ${b} --append "tinymm.run=version"
    --expect "Write protecting __ro_after_init: .0x[0-9a-f]{8,16}-0x[0-9a-f]{8,16}., [0-9]+k$"
    --reject "stays writable")
endforeach()
# RISC-V's ptdump (arch/riscv/ptdump.c, Linux v6.10's arch/riscv/mm/ptdump.c format) over
# the live swapper_pg_dir.  At the shell
# (tests/qemu/ptdump_test.sh says what it checks): every line in the board's exact columns,
# the markers, a `vmalloc 16` area as 16K of PTE runs `D A G . . W R V` with its guard page
# absent, no W+X line; on RV64 also with Svpbmt on (PMA mappings keep MT clear).  The KTAP
# suite riscv_ptdump checks lines character for character and, with Svpbmt, MT(NC) and MT(IO)
# on real vmaps, echoing their lines as diagnostics.
set(PTDUMP_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/ptdump_test.sh)
foreach(b qemu-virt-riscv64 qemu-virt-riscv32)
  add_test(NAME ${b}.mmu.ptdump COMMAND ${PTDUMP_TEST} --dir ${CMAKE_BINARY_DIR}/ptdump/${b} --board ${b})
  set_tests_properties(${b}.mmu.ptdump PROPERTIES TIMEOUT 60 LABELS qemu)
  boot_test(${b}.riscv_ptdump.ktest ${b} --append "tinymm.test=riscv_ptdump" --ktap
    --expect "^    ok 1 line_format$" --expect "^    ok 3 vmalloc_area_in_the_dump$"
    --expect "^    # ptdump: 0x[0-9a-f]+-0x[0-9a-f]+    0x[0-9a-f]+        16K PTE( \\.   \\.\\.  )?   \\.\\.   D A G \\. \\. W R V$"
    --expect "vmap: this CPU has no non-cacheable memory type: mapping refused$"
    --expect "^# totals: pass:4 fail:0 skip:0$" --reject "MT\\(")
endforeach()
add_test(NAME qemu-virt-riscv64.mmu.ptdump_svpbmt COMMAND ${PTDUMP_TEST}
  --dir ${CMAKE_BINARY_DIR}/ptdump/svpbmt --board qemu-virt-riscv64 --qemu "-cpu rv64,svpbmt=on")
set_tests_properties(qemu-virt-riscv64.mmu.ptdump_svpbmt PROPERTIES TIMEOUT 60 LABELS qemu)
boot_test(qemu-virt-riscv64.riscv_ptdump.svpbmt qemu-virt-riscv64 --append "tinymm.test=riscv_ptdump"
  --qemu "-cpu rv64,svpbmt=on" --ktap
  --expect "^    # ptdump: 0x[0-9a-f]{16}-0x[0-9a-f]{16}    0x[0-9a-f]{16} +[48]K PTE \\. MT\\(NC\\)   \\.\\.   D A G \\. \\. W R V$"
  --expect "^    # ptdump: 0x[0-9a-f]{16}-0x[0-9a-f]{16}    0x[0-9a-f]{16} +[48]K PTE \\. MT\\(IO\\)   \\.\\.   D A G \\. \\. W R V$"
  --expect "^    ok 4 uncached_columns$" --expect "^# totals: pass:4 fail:0 skip:0$"
  --reject "mapping refused")
# The script's checks fail on a dump broken on purpose (--break edits it before they run): a
# W+X line on RV64, a letter gone on RV32.
foreach(case "qemu-virt-riscv64|wx|s/ D A G \\. \\. W R V$/ D A G . X W R V/|writable and executable"
             "qemu-virt-riscv32|letter|s/ W R V$/ W R ./|area A: want 'PTE")
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 b)
  list(GET case 1 what)
  list(GET case 2 sed)
  list(GET case 3 msg)
  add_test(NAME ${b}.mmu.ptdump_check_catches_${what} COMMAND sh -c
    "out=$(${PTDUMP_TEST} --dir ${CMAKE_BINARY_DIR}/ptdump/${b}-${what} --board ${b} --break \"$1\" 2>&1)$<SEMICOLON> rc=$?
     printf '%s\\n' \"$out\" | tail -n 1
     [ $rc = 1 ] && printf '%s\\n' \"$out\" | tail -n 1 | grep -qF \"$2\"" sh "${sed}" "${msg}")
  set_tests_properties(${b}.mmu.ptdump_check_catches_${what} PROPERTIES TIMEOUT 60 LABELS qemu)
endforeach()

# `vmalloc <KiB> nc` (mm/vmalloc_cmd.c): a write-combining area where the CPU has the type, its
# pages PG_uncached while mapped (the KTAP suites check the flag and KPF_UNCACHED); ptdump shows
# the type (ARM Normal non-cacheable, RV64 Svpbmt NC).  Without it (RV32, RV64 without Svpbmt)
# the request is refused in one line, never mapped cacheable.
boot_test(${A}.mmu.vmalloc_nc ${A} --append "tinymm.run=vmalloc 16 nc$<SEMICOLON> ptdump$<SEMICOLON> vmalloccheck"
  --expect "^vmalloc: 0xf0832000-0xf0836000 pages=4$"
  --expect "^0xf0832000-0xf0836000 +16K     RW NX SHD MEM/BUFFERABLE/WC$"
  --expect "^vmalloccheck: ok \\(0 problems\\)$")
boot_test(qemu-virt-riscv64.mmu.vmalloc_nc_svpbmt qemu-virt-riscv64 --qemu "-cpu rv64,svpbmt=on"
  --append "tinymm.run=vmalloc 16 nc$<SEMICOLON> ptdump$<SEMICOLON> vmalloccheck"
  --expect "^vmalloc: 0xffffffc00060f000-0xffffffc000613000 pages=4$"
  --expect "^0xffffffc00060f000-0xffffffc000613000    0x[0-9a-f]{16}        16K PTE \\. MT\\(NC\\)   \\.\\.   D A G \\. \\. W R V$"
  --expect "^vmalloccheck: ok \\(0 problems\\)$")
foreach(b qemu-virt-riscv64 qemu-virt-riscv32)
  boot_test(${b}.mmu.vmalloc_nc_refused ${b} --status 1 --append "tinymm.run=vmalloc 16 nc"
    --expect "vmap: this CPU has no non-cacheable memory type: mapping refused$"
    --expect "^vmalloc: 16 KiB failed \\(see above\\)$" --reject "^vmalloc: 0x")
endforeach()

# An old kernel pte (accessed flag clear) still works (tests/ktest/mmu_fault_ktest.c): ARM LPAE
# takes an Access flag fault that mm/kernel_fault.c resolves before the access is retried; QEMU's
# RISC-V sets A in the pte itself (a core that traps instead, Svade, goes the trap's way).
foreach(b ${TINYMM_BOARDS})
  if(b STREQUAL qemu-virt-arm)
    set(by "trap handler")
  else()
    set(by "hardware")
  endif()
  boot_test(${b}.mmu_fault.ktest ${b} --append "tinymm.test=mmu_fault" --ktap
    --expect "^    # mmu_fault: an old pte made young by the ${by}$"
    --expect "^# totals: pass:2 fail:0 skip:0$")
endforeach()

# Entered in HYP mode (the Orange Pi PC's U-Boot bootm does that; QEMU's virt with
# virtualization=on too): arch/arm/entry.S drops to SVC, leaving PL1 the timers, and everything
# runs as from SVC: the mmu suite and the timer (uptime's clock is the virtual counter).
boot_test(${A}.boot_from_hyp ${A} --qemu "-machine virtualization=on"
  --append "tinymm.run=dmesg$<SEMICOLON> ktest mmu$<SEMICOLON> sleep 20$<SEMICOLON> uptime"
  --expect "CPU: All CPU\\(s\\) started in HYP mode: running in SVC, HYP left unused$"
  --expect "^# totals: pass:8 fail:0 skip:0$" --expect "^up [0-9]+\\.[0-9]+$")
boot_test(${A}.boot_from_svc ${A} --append "tinymm.run=dmesg"
  --expect "CPU: All CPU\\(s\\) started in SVC mode\\.$" --reject "HYP")
