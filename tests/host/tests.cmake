# Host unit tests as CTest entries.  QEMU's own DTBs (dumped with -machine dumpdtb=) feed the
# device-tree tests; a fixture makes them once per run.
set(QDTB ${CMAKE_BINARY_DIR}/qemu-dtb)
add_test(NAME host.qemu_dtbs COMMAND ${CMAKE_SOURCE_DIR}/tests/host/dump_qemu_dtbs.sh ${QDTB})
set_tests_properties(host.qemu_dtbs PROPERTIES FIXTURES_SETUP qemu_dtbs)
set(QEMU_DTBS ${QDTB}/arm-96M.dtb ${QDTB}/arm-512M.dtb ${QDTB}/riscv64-512M.dtb
  ${QDTB}/riscv32-96M.dtb)

foreach(t vsprintf memblock cmdline shell ktest printk time power meminfo uart panic kallsyms atomic spinlock kpageflags pageflags vmstat page_reporting buddy bad_page slab sched timer pagecache writeback errseq errname lru truncate reclaim hwpoison soft_offline page_alloc pcp pcp_order pcp_batch irqsoff vfs buffer)
  add_test(NAME host.${t} COMMAND ${t}_test)
endforeach()
add_test(NAME host.buddy_order7 COMMAND buddy_order7_test)
# The swap slot allocator, and the swap header check on what util-linux's mkswap writes.
find_program(MKSWAP mkswap PATHS /sbin /usr/sbin REQUIRED)
add_test(NAME host.swapfile COMMAND swapfile_test)
set_tests_properties(host.swapfile PROPERTIES TIMEOUT 120
  ENVIRONMENT "MKSWAP=${MKSWAP};TMPDIR=${CMAKE_BINARY_DIR}")
# Its consistency check must catch a map changed behind the allocator's back.
add_test(NAME host.swapfile_checker_fails COMMAND swapfile_test --break-the-map)
set_tests_properties(host.swapfile_checker_fails PROPERTIES WILL_FAIL TRUE)
add_test(NAME host.smp_mm COMMAND smp_mm_test)
set_tests_properties(host.smp_mm PROPERTIES TIMEOUT 300)
# pcp->lock compiled out: the race must be caught (a stamp, a count, ASan or a crash).  Through
# sh, so a crash (a signal, which CTest reports as "aborted" whatever WILL_FAIL says) is a
# failure like the others; a run that passes still makes the test fail.
add_test(NAME host.smp_mm_nolock COMMAND sh -c "$<TARGET_FILE:smp_mm_nolock_test> || exit 1")
set_tests_properties(host.smp_mm_nolock PROPERTIES TIMEOUT 300 WILL_FAIL TRUE)
foreach(t pgtable vmalloc set_memory)
  add_test(NAME host.${t} COMMAND ${t}_test)
  add_test(NAME host.${t}_2level COMMAND ${t}_2level_test)
endforeach()
add_test(NAME host.xarray COMMAND xarray_test)
set_tests_properties(host.xarray PROPERTIES TIMEOUT 120)	# a broken xa_find_after loops
# The kernel core's test never waits for the wall clock (simulated time): a hang is a bug.
set_tests_properties(host.sched host.timer PROPERTIES TIMEOUT 120)
add_test(NAME host.sha256 COMMAND sha256_test)
add_test(NAME host.crc COMMAND crc_test)
# shellcheck over every shell script in tests/ and tools/ (.shellcheckrc), and proof it can fail.
add_test(NAME lint.shellcheck COMMAND ${CMAKE_SOURCE_DIR}/tests/lint/shellcheck.sh)
add_test(NAME lint.shellcheck_catches_bugs COMMAND ${CMAKE_SOURCE_DIR}/tests/lint/shellcheck.sh --selftest)
add_test(NAME host.fdt COMMAND fdt_test ${QEMU_DTBS} ${CMAKE_BINARY_DIR}/dtb/good.dtb)
add_test(NAME host.fdt_address COMMAND fdt_address_test)
find_program(MKE2FS mke2fs PATHS /sbin /usr/sbin REQUIRED)
find_program(DUMPE2FS dumpe2fs PATHS /sbin /usr/sbin REQUIRED)
find_program(DEBUGFS debugfs PATHS /sbin /usr/sbin REQUIRED)
add_test(NAME host.ext2_super COMMAND ext2_super_test)
set_tests_properties(host.ext2_super PROPERTIES
  TIMEOUT 120 ENVIRONMENT "MKE2FS=${MKE2FS};DUMPE2FS=${DUMPE2FS};DEBUGFS=${DEBUGFS};TMPDIR=${CMAKE_BINARY_DIR}")
add_test(NAME host.ext2_dir COMMAND ext2_dir_test)
# The ext2 KTAP suite on ram0, Debian's e2fsck -fn judging the image after every case.
find_program(E2FSCK e2fsck PATHS /sbin /usr/sbin REQUIRED)
add_test(NAME host.ext2 COMMAND ext2_test)
set_tests_properties(host.ext2 PROPERTIES
  TIMEOUT 300 ENVIRONMENT "E2FSCK=${E2FSCK};TMPDIR=${CMAKE_BINARY_DIR}")
add_test(NAME host.brd COMMAND brd_test)
# MBR tables made by sfdisk (a fixture), then the parser on each (docs/block-partitions.md).
find_program(SFDISK sfdisk PATHS /sbin /usr/sbin REQUIRED)
add_test(NAME host.msdos_images COMMAND ${CMAKE_SOURCE_DIR}/tests/host/msdos_images.sh
  ${CMAKE_BINARY_DIR}/msdos)
set_tests_properties(host.msdos_images PROPERTIES FIXTURES_SETUP msdos_images TIMEOUT 60)
add_test(NAME host.msdos COMMAND msdos_test ${CMAKE_BINARY_DIR}/msdos)
set_tests_properties(host.msdos PROPERTIES FIXTURES_REQUIRED msdos_images TIMEOUT 30)
add_test(NAME host.partitions COMMAND partitions_test)
set_tests_properties(host.partitions PROPERTIES FIXTURES_REQUIRED msdos_images TIMEOUT 60
  ENVIRONMENT "MSDOS_IMAGES=${CMAKE_BINARY_DIR}/msdos;TMPDIR=${CMAKE_BINARY_DIR}")
# ram0's sample is the same on every build (tools/mkramdisk): made twice, a second apart.
add_test(NAME host.mkramdisk_reproducible COMMAND sh -c
  "d=$(mktemp -d)$<SEMICOLON> ${CMAKE_SOURCE_DIR}/tools/mkramdisk $d/a.bin --image $d/a.img && sleep 1.1 &&
   ${CMAKE_SOURCE_DIR}/tools/mkramdisk $d/b.bin --image $d/b.img && cmp $d/a.img $d/b.img && cmp $d/a.bin $d/b.bin$<SEMICOLON> rc=$?
   rm -rf $d$<SEMICOLON> exit $rc")
set_tests_properties(host.mkramdisk_reproducible PROPERTIES TIMEOUT 60)
set_tests_properties(host.brd PROPERTIES TIMEOUT 60 ENVIRONMENT "TMPDIR=${CMAKE_BINARY_DIR}")
add_test(NAME host.ext2_dirblock COMMAND ext2_dirblock_test)
# The ELF checks against the cross compilers' programs and readelf (tests/host/binfmt_elf_test.c).
add_test(NAME host.binfmt_elf COMMAND binfmt_elf_test)
add_test(NAME host.string COMMAND string_test)
add_test(NAME host.vma COMMAND vma_test)
add_test(NAME host.fault COMMAND fault_test)
# The host cache model (docs/cacheflush.md): each scenario on ARM and RISC-V, 32- and 64-byte
# lines, and again with the model's maintenance turned off, where it must fail (WILL_FAIL).
foreach(arch arm riscv)
  foreach(line 32 64)
    foreach(sc exec_after_write clean_once rewrite_remap selfmod_syscall)
      add_test(NAME cachemodel.${arch}.line${line}.${sc} COMMAND cachemodel_test ${arch} ${line} ${sc})
      add_test(NAME cachemodel.${arch}.line${line}.${sc}.no_maintenance
        COMMAND cachemodel_test ${arch} ${line} ${sc} --no-maintenance)
      set_tests_properties(cachemodel.${arch}.line${line}.${sc}.no_maintenance PROPERTIES WILL_FAIL TRUE)
    endforeach()
  endforeach()
endforeach()
# The D-cache primitives (a DMA buffer's clean and invalidate): ARM's, and RISC-V's Zicbom and
# T-Head loops (arch/riscv/cmo.c), which no QEMU 7.2 hart has; and the choice between them.
foreach(arch arm riscv-zicbom riscv-thead)
  foreach(line 32 64)
    add_test(NAME cachemodel.${arch}.line${line}.dcache_ops COMMAND cachemodel_test ${arch} ${line} dcache_ops)
    add_test(NAME cachemodel.${arch}.line${line}.dcache_ops.no_maintenance
      COMMAND cachemodel_test ${arch} ${line} dcache_ops --no-maintenance)
    set_tests_properties(cachemodel.${arch}.line${line}.dcache_ops.no_maintenance PROPERTIES WILL_FAIL TRUE)
  endforeach()
endforeach()
# The DMA API's streaming maintenance (docs/dma.md) on a non-coherent device, unaligned buffers
# whose edge lines hold the CPU's neighbour bytes: each scenario with its maintenance-off twin
# (WILL_FAIL); ARM's FROM_DEVICE once more with a flush that forgets to clean, i.e. a plain
# invalidate of the edge lines, which must lose the neighbours (WILL_FAIL).
foreach(arch arm riscv-zicbom riscv-thead)
  if(arch STREQUAL arm)
    set(bin dma_cachemodel_arm_test)
  else()
    set(bin dma_cachemodel_riscv_test)
  endif()
  foreach(line 32 64)
    foreach(sc to_device to_device_bidi from_device from_device_bidi sync_roundtrip)
      set(n cachemodel.dma.${arch}.line${line}.${sc})
      add_test(NAME ${n} COMMAND ${bin} ${arch} ${line} ${sc})
      add_test(NAME ${n}.no_maintenance COMMAND ${bin} ${arch} ${line} ${sc} --no-maintenance)
      set_tests_properties(${n}.no_maintenance PROPERTIES WILL_FAIL TRUE)
    endforeach()
  endforeach()
endforeach()
foreach(line 32 64)
  add_test(NAME cachemodel.dma.arm.line${line}.from_device.plain_edge_inval
    COMMAND dma_cachemodel_arm_test arm ${line} from_device --flush-forgets)
  set_tests_properties(cachemodel.dma.arm.line${line}.from_device.plain_edge_inval PROPERTIES WILL_FAIL TRUE)
endforeach()
# The SD/MMC host's reads and writes through the cache model return exact bytes (each with its
# maintenance-off twin, WILL_FAIL); the controller's error statuses give -EIO.
foreach(line 32 64)
  foreach(sc read write)
    set(n cachemodel.sunxi_mmc.line${line}.${sc})
    add_test(NAME ${n} COMMAND sunxi_mmc_cachemodel_test ${line} ${sc})
    add_test(NAME ${n}.no_maintenance COMMAND sunxi_mmc_cachemodel_test ${line} ${sc} --no-maintenance)
    set_tests_properties(${n}.no_maintenance PROPERTIES WILL_FAIL TRUE)
  endforeach()
endforeach()
foreach(sc rto crc dto owned idmac no_data_over timeout bad_segment)
  add_test(NAME cachemodel.sunxi_mmc.${sc} COMMAND sunxi_mmc_cachemodel_test 64 ${sc})
endforeach()
add_test(NAME cachemodel.dma.riscv.refused COMMAND dma_cachemodel_riscv_test riscv 64 refused)
add_test(NAME cachemodel.riscv.cmo_select COMMAND cachemodel_test riscv 64 cmo_select)
add_test(NAME host.fault_2level COMMAND fault_2level_test)
add_test(NAME host.rmap_file COMMAND rmap_file_test)
add_test(NAME host.mlock COMMAND mlock_test)
add_test(NAME host.migrate COMMAND migrate_test)
add_test(NAME host.uaccess COMMAND uaccess_test)
add_test(NAME host.page_idle COMMAND page_idle_test)
add_test(NAME host.swapfile_ktest COMMAND swapfile_ktest_test)
set_tests_properties(host.swapfile_ktest PROPERTIES TIMEOUT 120)
add_test(NAME host.swap_ktest COMMAND swap_ktest_test)
set_tests_properties(host.swap_ktest PROPERTIES TIMEOUT 120)
# exec loads the RV64 board's /bin/hello (`make all` builds it first).
add_test(NAME host.exec COMMAND exec_test ${CMAKE_SOURCE_DIR}/build/qemu-virt-riscv64/user/bin/hello)
add_test(NAME host.syscalls COMMAND syscalls_test)
set_tests_properties(host.syscalls PROPERTIES TIMEOUT 120)
add_test(NAME host.devicetree COMMAND devicetree_test ${QDTB}/arm-96M.dtb)
add_test(NAME host.dt_memory COMMAND dt_memory_test ${CMAKE_BINARY_DIR}/dtb ${QDTB})
set_tests_properties(host.fdt host.devicetree host.dt_memory PROPERTIES FIXTURES_REQUIRED qemu_dtbs)
# page-flags' `used by` column (PF_USED_BY_* in mm/page_flags.c) against the setters in the tree.
add_test(NAME host.pageflags_users COMMAND pageflags_users_test ${CMAKE_SOURCE_DIR})
add_test(NAME host.pageflags_doc COMMAND pageflags_doc_test ${CMAKE_SOURCE_DIR}/docs/page-flags.rst
  ${CMAKE_BINARY_DIR}/tinymm_functions.txt)
