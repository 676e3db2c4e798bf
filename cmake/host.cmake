# The host build (no BOARD): portable code under cmocka with ASan and UBSan, and the CTest
# entries that boot each board's image in QEMU (the images come from the board presets, which
# `make test` builds first).
enable_testing()
find_library(CMOCKA cmocka REQUIRED)
find_library(LIBFDT fdt REQUIRED)
find_program(DTC dtc REQUIRED)

set(SAN -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_compile_options(-Wall -Wextra -Werror -Wno-unused-parameter -g -O1 ${SAN}
  -D_POSIX_C_SOURCE=200809L -DTINYMM_HOST=1)
add_link_options(${SAN})
# tests/host/include/asm/ is the host's "architecture": the compiler's atomics.
include_directories(include tests/host/include tests/host)

# The portable kernel code as one library; tests/host/shim.c stands in for arch/ and the UART.
set(HOST_KERNEL_SRCS ${TINYMM_PORTABLE_SRCS})
list(REMOVE_ITEM HOST_KERNEL_SRCS drivers/uart.c)
add_library(host_kernel STATIC ${HOST_KERNEL_SRCS} tests/host/shim.c)

# MAX_PAGE_ORDER is configurable (CMakeLists.txt): the buddy allocator's tests (cmocka and the
# KTAP suite it runs) once more over a kernel built with 7, so nothing assumes 10.
add_library(host_kernel_order7 STATIC ${HOST_KERNEL_SRCS} tests/host/shim.c)
target_compile_options(host_kernel_order7 PRIVATE -UMAX_PAGE_ORDER -DMAX_PAGE_ORDER=7)
add_executable(buddy_order7_test tests/host/buddy_test.c)
target_compile_options(buddy_order7_test PRIVATE -UMAX_PAGE_ORDER -DMAX_PAGE_ORDER=7)
target_link_libraries(buddy_order7_test host_kernel_order7 ${CMOCKA} ${LIBFDT})

# One cmocka executable per portable file (or close group), each a CTest entry.
foreach(t vsprintf memblock cmdline shell ktest dt_memory printk time power meminfo devicetree panic atomic spinlock kpageflags pageflags pageflags_users vmstat page_reporting buddy slab xarray errseq errname swapfile)
  add_executable(${t}_test tests/host/${t}_test.c)
  target_link_libraries(${t}_test host_kernel ${CMOCKA} ${LIBFDT})
endforeach()
# The MMU's portable layer (docs/mmu.md) over the fake architecture of
# tests/host/include/asm/pgtable.h (a board builds them where its arch has <asm/pgtable.h>:
# cmake/kernel.cmake).  Not in host_kernel, because each of its tests is built twice, with three
# levels and with two
# (FAKE_PGTABLE_LEVELS=2: the pmd folded, 32-bit entries).
set(HOST_MMU_SRCS mm/pagewalk.c mm/set_memory.c mm/vmalloc.c mm/vmalloc_cmd.c mm/ioremap.c mm/ptdump.c
  tests/host/fake_pgtable.c)
list(APPEND HOST_MMU_SRCS mm/pgtable-generic.c)	# the young helpers (docs/young.md)
foreach(t pgtable vmalloc set_memory)
  add_executable(${t}_test tests/host/${t}_test.c ${HOST_MMU_SRCS})
  target_link_libraries(${t}_test host_kernel ${CMOCKA} ${LIBFDT})
  add_executable(${t}_2level_test tests/host/${t}_test.c ${HOST_MMU_SRCS})
  target_compile_definitions(${t}_2level_test PRIVATE FAKE_PGTABLE_LEVELS=2)
  target_link_libraries(${t}_2level_test host_kernel ${CMOCKA} ${LIBFDT})
endforeach()
foreach(t pgtable_test pgtable_2level_test)
  target_sources(${t} PRIVATE mm/vmstat_cmd.c)	# (see the shell commands below)
endforeach()
# The kernel core (cmake/kernel.cmake's TINYMM_CORE_SRCS without the device drivers) over the
# host "architecture" of tests/host/host_sched_arch.c: ucontext threads and a simulated timer.
# Objects, not a static library, so the core's shell commands (ps, irqs, ...) are linked too;
# only the tests that name host_core get them, the others are built as before.
set(HOST_CORE_SRCS kernel/irq.c kernel/cpu.c kernel/sched.c kernel/kthread.c kernel/timer.c
  kernel/wait.c kernel/mutex.c kernel/rwsem.c kernel/completion.c kernel/workqueue.c kernel/sched_show.c
  mm/filemap.c mm/readahead.c mm/page-writeback.c mm/fs-writeback.c
  mm/truncate.c mm/vmscan.c mm/vmscan_node.c mm/kswapd.c mm/swap_state.c mm/page_io.c mm/mkswap.c mm/memory-failure.c mm/hwpoison_actions.c mm/soft-offline.c mm/migrate.c
  block/blk-core.c block/fops.c block/partitions/core.c block/partitions/msdos.c
  fs/buffer.c fs/buffer_aops.c fs/buffer_migrate.c
  tests/host/host_sched_arch.c
  # kthread.c's vmalloc stacks: linked, never taken (host_sched_arch.c: arch_vmap_stack_usable())
  mm/pagewalk.c mm/vmalloc.c tests/host/fake_pgtable.c)
add_library(host_core OBJECT ${HOST_CORE_SRCS})
# The same over the two-level fake architecture (the pmd folded, Sv32-like), for the tests that
# walk user page tables (host.fault_2level).
add_library(host_core_2level OBJECT ${HOST_CORE_SRCS})
target_compile_definitions(host_core_2level PRIVATE FAKE_PGTABLE_LEVELS=2)
foreach(t sched timer pagecache writeback lru truncate reclaim hwpoison soft_offline page_alloc pcp pcp_order pcp_batch bad_page)
  add_executable(${t}_test tests/host/${t}_test.c)
  target_link_libraries(${t}_test host_core host_kernel ${CMOCKA} ${LIBFDT})
endforeach()
# The VFS and ramfs (fs/) over the kernel core and the real block layer (no disk registered).
add_executable(vfs_test tests/host/vfs_test.c ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS})
target_link_libraries(vfs_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# lib/string.c (the boards' memcpy, memmove, memset) against the host C library's.
add_executable(string_test tests/host/string_test.c)
target_compile_options(string_test PRIVATE -fno-builtin -fno-tree-loop-distribute-patterns)
target_link_libraries(string_test ${CMOCKA})
# The ELF checks (fs/binfmt_elf_check.c) against static programs each board's cross compiler
# makes from tests/host/data/elf_prog.c, and binutils' readelf's reading of them.
find_program(ARM_GCC arm-none-eabi-gcc REQUIRED)
find_program(RISCV_GCC riscv64-unknown-elf-gcc REQUIRED)
set(ELF_PROG_SRC ${CMAKE_SOURCE_DIR}/tests/host/data/elf_prog.c)
set(ELF_PROG_FLAGS -O2 -nostdlib -static -ffreestanding)
add_custom_command(OUTPUT elf_prog_arm elf_prog_rv32 elf_prog_rv64
  COMMAND ${ARM_GCC} ${ELF_PROG_FLAGS} -march=armv7-a ${ELF_PROG_SRC} -o elf_prog_arm
  COMMAND ${RISCV_GCC} ${ELF_PROG_FLAGS} -march=rv32imac -mabi=ilp32 ${ELF_PROG_SRC} -o elf_prog_rv32
  COMMAND ${RISCV_GCC} ${ELF_PROG_FLAGS} -march=rv64imac -mabi=lp64 ${ELF_PROG_SRC} -o elf_prog_rv64
  DEPENDS ${ELF_PROG_SRC} COMMENT "cross-compiling the ELF test programs" VERBATIM)
add_executable(binfmt_elf_test tests/host/binfmt_elf_test.c
  elf_prog_arm elf_prog_rv32 elf_prog_rv64)
target_compile_definitions(binfmt_elf_test PRIVATE
  ELF_PROG_ARM="${CMAKE_BINARY_DIR}/elf_prog_arm" ELF_PROG_RV32="${CMAKE_BINARY_DIR}/elf_prog_rv32"
  ELF_PROG_RV64="${CMAKE_BINARY_DIR}/elf_prog_rv64")
target_link_libraries(binfmt_elf_test host_kernel ${CMOCKA})
# The address space's areas (mm/mmap.c) through the `vma` KTAP suite, over the fake arch.
add_executable(vma_test tests/host/vma_test.c mm/mmap.c mm/memory.c mm/memory_zap.c mm/rmap.c mm/rmap_anon.c mm/mprotect.c)
target_sources(vma_test PRIVATE mm/memory_shared.c mm/rmap_file.c)	# shared mappings, i_mmap
target_sources(vma_test PRIVATE mm/pgtable-generic.c)	# folio_referenced's young helpers
target_sources(vma_test PRIVATE ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS})	# an area's file reference
target_link_libraries(vma_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# RAM disk ram0's sample filesystem (drivers/brd.c), made as cmake/kernel.cmake makes it for a
# board: the ext2 KTAP suite runs on the host over the real brd driver.
set(BRD_SAMPLE ${CMAKE_BINARY_DIR}/gen/brd_sample.bin)
add_custom_command(OUTPUT ${BRD_SAMPLE}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/gen
  COMMAND ${CMAKE_SOURCE_DIR}/tools/mkramdisk ${BRD_SAMPLE}
  DEPENDS ${CMAKE_SOURCE_DIR}/tools/mkramdisk
  COMMENT "host: the sample filesystem for ram0 (mke2fs)" VERBATIM)
set_source_files_properties(drivers/brd_image.S PROPERTIES
  COMPILE_DEFINITIONS "BRD_SAMPLE_IMAGE=\"${BRD_SAMPLE}\"" OBJECT_DEPENDS ${BRD_SAMPLE})
set(HOST_BRD_SRCS drivers/brd.c drivers/brd_image.S block/blk_cmd.c)
# The `ext2` KTAP suite (tests/ktest/ext2_*.c) over ram0, e2fsck -fn after every case.
add_executable(ext2_test tests/host/ext2_test.c tests/ktest/ext2_ktest.c tests/ktest/ext2_fixture.c
  tests/ktest/ext2_dir_ktest.c
  ${HOST_BRD_SRCS} ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS})
target_link_libraries(ext2_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# The MBR parser alone (pure) over sfdisk's tables (tests/host/msdos_images.sh).
add_executable(msdos_test tests/host/msdos_test.c block/partitions/msdos.c)
target_link_libraries(msdos_test host_kernel ${CMOCKA} ${LIBFDT})
# Partitions as block devices over the real block layer, and the `partitions` KTAP suite.
add_executable(partitions_test tests/host/partitions_test.c tests/host/file_bdev.c
  tests/ktest/partitions_ktest.c)
target_link_libraries(partitions_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# brd itself: zeros, a write across a disk page, `blk list`, brd_reset, vda after the RAM disks.
add_executable(brd_test tests/host/brd_test.c tests/host/file_bdev.c ${HOST_BRD_SRCS}
  ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS})
target_link_libraries(brd_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# The page-fault core (mm/memory.c) through the `fault` KTAP suite: a private mm over the fake
# arch (three levels, and two: the root's entries are then the pte tables' pmds), anonymous
# memory and a ramfs file mapped private.
set(FAULT_TEST_SRCS tests/host/fault_test.c mm/mmap.c mm/memory.c mm/memory_zap.c mm/rmap.c mm/rmap_anon.c mm/mprotect.c
  ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS})
list(APPEND FAULT_TEST_SRCS mm/memory_shared.c mm/rmap_file.c)	# shared mappings, i_mmap
list(APPEND FAULT_TEST_SRCS mm/pgtable-generic.c)	# folio_referenced's young helpers
add_executable(fault_test ${FAULT_TEST_SRCS})
target_link_libraries(fault_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# The PG_dcache_clean policies of both architectures over the host cache model
# (docs/cacheflush.md): the fault path of fault_test, with arch/*/cacheflush.c built for the host.
add_executable(cachemodel_test tests/host/cachemodel_test.c tests/host/cachemodel.c
  arch/arm/cacheflush.c arch/riscv/cacheflush.c arch/riscv/cmo.c mm/mmap.c mm/memory.c mm/memory_zap.c mm/rmap.c mm/rmap_anon.c
  mm/mprotect.c mm/memory_shared.c mm/rmap_file.c mm/pgtable-generic.c ${TINYMM_VFS_SRCS}
  ${TINYMM_EXT2_SRCS})
target_link_libraries(cachemodel_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# asm/cmo.h (RISC-V's kinds of cache operation) from the real tree, after the host's asm/: every
# other asm/ header stays the host's (asm/cmo_insn.h sends the instructions to the model).
target_include_directories(cachemodel_test AFTER PRIVATE arch/riscv/include)
# The DMA API's streaming maintenance over the cache model (docs/dma.md): kernel/dma/ with one
# architecture's arch_sync_dma_* each (both define them); RISC-V's through arch/riscv/cmo.c.
add_executable(dma_cachemodel_arm_test tests/host/dma_cachemodel_test.c tests/host/cachemodel.c
  ${TINYMM_DMA_SRCS} arch/arm/dma-noncoherent.c arch/riscv/cmo.c)	# (cmo.c: the test resets it)
target_compile_definitions(dma_cachemodel_arm_test PRIVATE DMA_CM_ARM=1)
add_executable(dma_cachemodel_riscv_test tests/host/dma_cachemodel_test.c tests/host/cachemodel.c
  ${TINYMM_DMA_SRCS} arch/riscv/dma-noncoherent.c arch/riscv/cmo.c)
# The SD/MMC host's data path (drivers/sunxi_mmc_dma.c, docs/sunxi-mmc.md) with ARM's
# arch_sync_dma_* against a fake controller over the cache model.
add_executable(sunxi_mmc_cachemodel_test tests/host/sunxi_mmc_cachemodel_test.c tests/host/cachemodel.c
  drivers/sunxi_mmc_dma.c ${TINYMM_DMA_SRCS} arch/arm/dma-noncoherent.c arch/riscv/cmo.c)
foreach(t dma_cachemodel_arm_test dma_cachemodel_riscv_test sunxi_mmc_cachemodel_test)
  target_link_libraries(${t} host_core host_kernel ${CMOCKA} ${LIBFDT})
  target_include_directories(${t} AFTER PRIVATE arch/riscv/include)	# asm/cmo.h only
endforeach()
add_executable(fault_2level_test ${FAULT_TEST_SRCS})
target_compile_definitions(fault_2level_test PRIVATE FAKE_PGTABLE_LEVELS=2)
target_link_libraries(fault_2level_test host_core_2level host_kernel ${CMOCKA} ${LIBFDT})
# Shared file mappings and the file side of rmap (docs/shared-mappings.md): the `rmap_file`
# KTAP suite, two mms mapping one ramfs file, over the fake architecture.
add_executable(rmap_file_test tests/host/rmap_file_test.c mm/mmap.c mm/memory.c mm/memory_zap.c mm/rmap.c mm/rmap_anon.c
  mm/mprotect.c mm/memory_shared.c mm/rmap_file.c mm/pgtable-generic.c ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS})
target_link_libraries(rmap_file_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# mlock (docs/mlock.md): the `mlock` KTAP suite, one mm's VM_LOCKED areas over the fake arch.
add_executable(mlock_test tests/host/mlock_test.c mm/mmap.c mm/memory.c mm/memory_zap.c mm/rmap.c mm/rmap_anon.c
  mm/mprotect.c mm/memory_shared.c mm/rmap_file.c mm/pgtable-generic.c mm/mlock_sys.c
  ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS})
target_link_libraries(mlock_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# User tasks over the fake arch: the uaccess calls (lib/usercopy.c) through the host's raw
# copies (tests/host/host_uaccess.c, a software walk of current->mm's tables), and exec (the ELF
# loader, fs/binfmt_elf.c) loading qemu-virt-riscv64's /bin/hello from ramfs into a fake mm.
set(HOST_USER_SRCS kernel/fork.c mm/fork_mm.c fs/file.c kernel/user_task.c fs/exec.c fs/binfmt_elf.c
  kernel/exit.c kernel/signal.c lib/usercopy.c mm/user_fault.c mm/oom_kill.c
  tests/host/host_uaccess.c mm/mmap.c mm/memory.c mm/memory_zap.c mm/rmap.c mm/rmap_anon.c mm/mprotect.c
  ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS})
list(APPEND HOST_USER_SRCS mm/memory_shared.c mm/rmap_file.c)	# shared mappings, i_mmap
list(APPEND HOST_USER_SRCS mm/pgtable-generic.c)	# the young helpers (docs/young.md)
add_executable(uaccess_test tests/host/uaccess_test.c ${HOST_USER_SRCS})
# Page migration (docs/migration.md): the `migrate` KTAP suite over the fake arch, under ASan.
add_executable(migrate_test tests/host/migrate_test.c ${HOST_USER_SRCS} mm/rmap_migrate.c fs/task_mmu.c)
target_link_libraries(migrate_test host_core host_kernel ${CMOCKA} ${LIBFDT})
target_link_libraries(uaccess_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# Idle page tracking (docs/page_idle.md): the `page_idle` KTAP suite over the fake arch (its
# live-MMU case through host_uaccess.c's walk) and the command's lines.
add_executable(page_idle_test tests/host/page_idle_test.c mm/page_idle.c ${HOST_USER_SRCS})
target_link_libraries(page_idle_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# Swap areas (docs/swap.md): the `swapfile` KTAP suite on ram3 over brd and the fault path on
# the fake arch, and the shell's swapon/swapoff/swaps lines.
add_executable(swapfile_ktest_test tests/host/swapfile_ktest_test.c mm/swapon.c mm/swapon_cmd.c
  ${HOST_BRD_SRCS} ${HOST_USER_SRCS})
target_link_libraries(swapfile_ktest_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# The `swap` KTAP suite (anonymous memory out to ram3 and back) the same way.
add_executable(swap_ktest_test tests/host/swap_ktest_test.c mm/swapon.c mm/rmap_migrate.c ${HOST_BRD_SRCS}
  ${HOST_USER_SRCS})
target_link_libraries(swap_ktest_test host_core host_kernel ${CMOCKA} ${LIBFDT})
add_executable(exec_test tests/host/exec_test.c fs/task_mmu.c kernel/user_task_cmd.c
  ${HOST_USER_SRCS})
target_compile_definitions(exec_test PRIVATE USER_TASK_STACK_ORDER=2)	# ASan's frames
target_link_libraries(exec_test host_core host_kernel ${CMOCKA} ${LIBFDT})
target_sources(exec_test PRIVATE kernel/shell.c)	# `exec -b` sets the shell's $!
# The system calls (issue 33: fs/sys_*.c, mm/mmap_sys.c, kernel/sys*.c, fs/file.c) called as a
# user task would, with user addresses in a fake mm reached through tests/host/host_uaccess.c.
add_executable(syscalls_test tests/host/syscalls_test.c tests/host/host_uaccess.c
  mm/mmap.c mm/memory.c mm/memory_zap.c mm/rmap.c mm/rmap_anon.c mm/mprotect.c mm/user_fault.c mm/oom_kill.c mm/mmap_sys.c
  mm/mlock_sys.c
  kernel/fork.c mm/fork_mm.c kernel/exit.c kernel/sys.c kernel/sys_sched.c kernel/sys_time.c kernel/syscall_table.c lib/usercopy.c
  fs/file.c fs/sys_fd.c fs/sys_path.c ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS}
  # the table's execve (its user-mode hooks are kernel/user_task.c's stand-ins here)
  fs/exec.c fs/binfmt_elf.c kernel/user_task.c)
target_link_libraries(syscalls_test host_core host_kernel ${CMOCKA} ${LIBFDT})
target_sources(syscalls_test PRIVATE mm/memory_shared.c mm/rmap_file.c mm/msync.c	# MAP_SHARED, msync
  mm/mincore.c)
target_sources(syscalls_test PRIVATE mm/hwpoison_user.c kernel/signal.c)	# madvise(MADV_HWPOISON)
target_sources(syscalls_test PRIVATE mm/pgtable-generic.c)	# folio_referenced's young helpers
# Buffer heads over a host file holding an ext2 image (mke2fs/debugfs/e2fsck judge it).
add_executable(buffer_test tests/host/buffer_test.c tests/host/file_bdev.c)
target_link_libraries(buffer_test host_core host_kernel ${CMOCKA} ${LIBFDT})
# Shell commands in files nothing else refers to are never pulled out of the static library:
# the tests that run them link them directly.
target_sources(vmstat_test PRIVATE mm/page_alloc_cmd.c)
target_sources(slab_test PRIVATE mm/slab_cmd.c)
add_executable(sha256_test tests/host/sha256_test.c lib/sha256.c)
target_link_libraries(sha256_test ${CMOCKA})
# The SD card's CRCs (drivers/mmc_spi.c, docs/mmc-spi.md).
add_executable(crc_test tests/host/crc_test.c lib/crc7.c lib/crc-itu-t.c)
target_link_libraries(crc_test ${CMOCKA})
add_executable(uart_test tests/host/uart_test.c drivers/uart.c)
target_link_libraries(uart_test ${CMOCKA})
add_executable(kallsyms_test tests/host/kallsyms_test.c kernel/kallsyms.c lib/vsprintf.c)
target_link_libraries(kallsyms_test ${CMOCKA})
# The irqsoff tracer is in no host library (its hooks would be in every mask): its test builds
# it alone, with the hooks on in the test's own masks.
add_executable(irqsoff_test tests/host/irqsoff_test.c kernel/trace_irqsoff.c kernel/kallsyms.c lib/vsprintf.c)
target_compile_definitions(irqsoff_test PRIVATE CONFIG_IRQSOFF_TRACER=1)
target_link_libraries(irqsoff_test ${CMOCKA})
add_executable(fdt_test tests/host/fdt_test.c tests/host/fdt_test_mutate.c tests/host/fdt_test_blobs.c
  lib/fdt.c lib/fdt_address.c lib/fdt_check.c)
target_link_libraries(fdt_test ${CMOCKA} ${LIBFDT})
add_executable(fdt_address_test tests/host/fdt_address_test.c lib/fdt.c lib/fdt_address.c lib/fdt_check.c)
target_link_libraries(fdt_address_test ${CMOCKA} ${LIBFDT})
# ext2's superblock and descriptor checks, against images Debian's mke2fs makes at test time
# and dumpe2fs's reading of them (tests/host/ext2_super_test.c).
add_executable(ext2_super_test tests/host/ext2_super_test.c tests/host/e2fsprogs.c fs/ext2/super_check.c
  lib/vsprintf.c)
target_include_directories(ext2_super_test PRIVATE fs/ext2)
target_link_libraries(ext2_super_test ${CMOCKA})
# ext2's directory blocks: against images e2fsprogs makes and judges (mke2fs -d, debugfs,
# e2fsck), and on chunks built by the test.
foreach(t ext2_dir ext2_dirblock)
  add_executable(${t}_test tests/host/${t}_test.c fs/ext2/dir_block.c lib/vsprintf.c)
  target_include_directories(${t}_test PRIVATE fs/ext2)
  target_link_libraries(${t}_test ${CMOCKA})
endforeach()

include(${CMAKE_SOURCE_DIR}/tests/host/tests.cmake)
include(${CMAKE_SOURCE_DIR}/tests/host/user.cmake)
include(${CMAKE_SOURCE_DIR}/tests/qemu/tests.cmake)
include(${CMAKE_SOURCE_DIR}/tests/fuzz/tests.cmake OPTIONAL)

# docs/page-flags.rst held to the code (tests/host/pageflags_doc_test.c).  Its second input,
# tinymm_functions.txt, lists every function tinymm defines (tests/host/tinymm_functions.sh).
file(GLOB_RECURSE TINYMM_ALL_SRCS CONFIGURE_DEPENDS arch/*.[ch] boot/*.[ch] kernel/*.[ch] mm/*.[ch]
  lib/*.[ch] block/*.[ch] fs/*.[ch] drivers/*.[ch] include/*.h)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/tinymm_functions.txt
  COMMAND ${CMAKE_SOURCE_DIR}/tests/host/tinymm_functions.sh $<TARGET_FILE:host_kernel> ${CMAKE_C_COMPILER}
    ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/tinymm_functions.txt
  DEPENDS host_kernel ${CMAKE_SOURCE_DIR}/tests/host/tinymm_functions.sh ${TINYMM_ALL_SRCS}
  COMMENT "Listing tinymm's functions for pageflags_doc_test" VERBATIM)
add_custom_target(tinymm_functions ALL DEPENDS ${CMAKE_BINARY_DIR}/tinymm_functions.txt)
add_executable(pageflags_doc_test tests/host/pageflags_doc_test.c)
target_link_libraries(pageflags_doc_test host_kernel ${CMOCKA})
add_dependencies(pageflags_doc_test tinymm_functions)
# mm's per-CPU state under real concurrency (tests/host/smp_mm_test.c): the portable kernel
# built for 4 CPUs, pthreads playing them (host_cpu_id), the pcp and slab paths raced under
# ASan and UBSan.
add_library(host_kernel_smp STATIC ${HOST_KERNEL_SRCS} tests/host/shim.c)
target_compile_definitions(host_kernel_smp PRIVATE CONFIG_NR_CPUS=4)
add_executable(smp_mm_test tests/host/smp_mm_test.c)
target_compile_definitions(smp_mm_test PRIVATE CONFIG_NR_CPUS=4)
target_link_libraries(smp_mm_test host_kernel_smp ${CMOCKA} ${LIBFDT} pthread)
# Its twin with pcp->lock compiled out (TINYMM_TEST_PCP_NO_LOCK): the same race test must fail.
add_library(host_kernel_smp_nolock STATIC ${HOST_KERNEL_SRCS} tests/host/shim.c)
target_compile_definitions(host_kernel_smp_nolock PRIVATE CONFIG_NR_CPUS=4 TINYMM_TEST_PCP_NO_LOCK)
add_executable(smp_mm_nolock_test tests/host/smp_mm_test.c)
target_compile_definitions(smp_mm_nolock_test PRIVATE CONFIG_NR_CPUS=4 TINYMM_TEST_PCP_NO_LOCK)
target_link_libraries(smp_mm_nolock_test host_kernel_smp_nolock ${CMOCKA} ${LIBFDT} pthread)

# The default run's longest tests start first (tests/cost.cmake says why).
include(${CMAKE_SOURCE_DIR}/tests/cost.cmake)
