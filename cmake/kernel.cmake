# The kernel image for one board (included from CMakeLists.txt when BOARD is set).
if(NOT EXISTS ${CMAKE_SOURCE_DIR}/board/${BOARD}/board.cmake)
  message(FATAL_ERROR "unknown board '${BOARD}' (boards: ${TINYMM_BOARDS} ${TINYMM_REAL_BOARDS})")
endif()
include(${CMAKE_SOURCE_DIR}/board/${BOARD}/board.cmake)
# Board settings most boards leave out: QEMU runs the board with -semihosting (RISC-V powers
# off through it then; ARM always tries it), and the flashable artifact besides tinymm.elf.
# The most CPUs the image runs (CONFIG_NR_CPUS, include/tinymm/smp.h): set where tinymm starts
# the secondary CPUs (TINYMM_NR_CPUS in board.cmake); 1 elsewhere, and on the host.
if(NOT DEFINED TINYMM_NR_CPUS)
  set(TINYMM_NR_CPUS 1)
endif()
add_compile_definitions(CONFIG_NR_CPUS=${TINYMM_NR_CPUS})
if(NOT DEFINED BOARD_SEMIHOSTING)
  set(BOARD_SEMIHOSTING 0)
endif()
if(NOT DEFINED BOARD_EARLY_UART_SHIFT)
  set(BOARD_EARLY_UART_SHIFT 0)
endif()
if(NOT DEFINED BOARD_IMAGE)
  set(BOARD_IMAGE "")
endif()
if(NOT DEFINED BOARD_ARTIFACT)		# what board/<board>/mkimage.sh makes from tinymm.bin
  set(BOARD_ARTIFACT sdcard.img)
endif()

configure_file(include/tinymm/board_config.h.in ${CMAKE_BINARY_DIR}/gen/tinymm/board_config.h @ONLY)
configure_file(linker/kernel.ld.in ${CMAKE_BINARY_DIR}/kernel.ld @ONLY)

file(GLOB TINYMM_ARCH_SRCS CONFIGURE_DEPENDS arch/${TINYMM_ARCH}/*.c arch/${TINYMM_ARCH}/*.S)
if(NOT TINYMM_MSTART)
  list(FILTER TINYMM_ARCH_SRCS EXCLUDE REGEX "mstart\\.S$")
endif()
file(GLOB TINYMM_KTEST_SRCS CONFIGURE_DEPENDS tests/ktest/*.c)
# Interrupt-controller drivers: every board links all of them; the device tree picks.
file(GLOB TINYMM_IRQCHIP_SRCS CONFIGURE_DEPENDS drivers/irq-*.c)
# The kernel core (threads, interrupts, timers) runs only on a target: it switches stacks.
set(TINYMM_CORE_SRCS kernel/irq.c kernel/cpu.c kernel/smp.c kernel/sched.c kernel/kthread.c kernel/timer.c kernel/wait.c
  kernel/mutex.c kernel/rwsem.c kernel/completion.c kernel/workqueue.c kernel/sched_show.c kernel/bench_core.c kernel/bench_compact.c kernel/cacheops.c drivers/console_input.c drivers/rtc-goldfish.c drivers/rtc-pl031.c drivers/rtc.c drivers/bcm2835_wdt.c mm/filemap.c
  drivers/virtio_mmio.c drivers/virtio_ring.c drivers/virtio_blk.c drivers/virtio_balloon.c mm/balloon_compaction.c
  drivers/mmc_core.c drivers/sunxi_mmc.c drivers/sunxi_mmc_dma.c drivers/bcm2835_sdhost.c drivers/bcm2835_dma.c
  drivers/spi-sifive.c drivers/mmc_spi.c lib/crc7.c lib/crc-itu-t.c
  drivers/brd.c drivers/brd_image.S
  block/blk-core.c block/fops.c block/blk_cmd.c block/blk-stress.c
  block/partitions/core.c block/partitions/msdos.c
  fs/buffer.c fs/buffer_aops.c fs/buffer_migrate.c
  mm/readahead.c
  mm/page-writeback.c mm/fs-writeback.c mm/truncate.c mm/vmscan.c mm/vmscan_node.c mm/kswapd.c mm/swap_state.c mm/page_io.c mm/mkswap.c mm/page_reporting_work.c mm/vmstat_work.c
  mm/memory-failure.c mm/hwpoison_actions.c mm/hwpoison_cmd.c mm/soft-offline.c mm/migrate.c mm/migrate_cmd.c
  mm/compaction.c mm/compaction_frag.c
  ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS} fs/fs_cmd.c fs/bench_fs.c
  ${TINYMM_IRQCHIP_SRCS})
# The page-table walkers, vmalloc and its commands (docs/mmu.md) where the arch has
# <asm/pgtable.h>: ARM (LPAE) and RISC-V (Sv39, Sv32); with them `lkdtm`, whose tests need
# vmalloc and the protections (docs/mmu.md, "lkdtm").
if(EXISTS ${CMAKE_SOURCE_DIR}/arch/${TINYMM_ARCH}/include/asm/pgtable.h)
  list(APPEND TINYMM_CORE_SRCS mm/mmap.c mm/memory.c mm/memory_zap.c mm/rmap.c mm/rmap_anon.c mm/rmap_migrate.c mm/fork_mm.c mm/mprotect.c mm/pagewalk.c mm/set_memory.c mm/vmalloc.c mm/vmalloc_cmd.c mm/ioremap.c
    mm/kernel_map.c mm/kernel_fault.c kernel/lkdtm.c kernel/lkdtm_rodata.c
    # user tasks (docs/user.md): their mm, exit, system calls, uaccess, user faults
    kernel/fork.c kernel/exit.c kernel/sys.c kernel/sys_sched.c kernel/syscall_table.c kernel/signal.c
    kernel/extable.c lib/usercopy.c mm/user_fault.c mm/oom_kill.c
    fs/file.c fs/sys_fd.c fs/sys_path.c mm/mmap_sys.c mm/mlock_sys.c kernel/sys_time.c
    # exec (docs/binfmt_elf.md) and the shell's user-task commands
    fs/exec.c fs/binfmt_elf.c fs/task_mmu.c kernel/user_task.c kernel/user_task_cmd.c
    kernel/bench_fault.c kernel/bench_exec.c kernel/bench_fork.c kernel/bench_swap.c
    kernel/bench_migrate.c)
  list(APPEND TINYMM_CORE_SRCS ${TINYMM_DMA_SRCS})	# the DMA API (docs/dma.md)
  # shared file mappings and the file side of rmap (docs/shared-mappings.md)
  list(APPEND TINYMM_CORE_SRCS mm/memory_shared.c mm/rmap_file.c mm/msync.c
    mm/mincore.c)
  # idle page tracking over both rmap walks (docs/page_idle.md)
  list(APPEND TINYMM_CORE_SRCS mm/page_idle.c)
  # HWPoison in mapped pages: unmapping, SIGBUS, madvise injection (docs/hwpoison.md)
  list(APPEND TINYMM_CORE_SRCS mm/hwpoison_user.c)
  # swap areas: swapon, swapoff, /proc/swaps (docs/swap.md)
  list(APPEND TINYMM_CORE_SRCS mm/swapon.c mm/swapon_cmd.c)
endif()
# The accessed-bit helpers (docs/young.md), with the page-fault core above.
if(EXISTS ${CMAKE_SOURCE_DIR}/arch/${TINYMM_ARCH}/include/asm/pgtable.h)
  list(APPEND TINYMM_CORE_SRCS mm/pgtable-generic.c)
endif()
# The syscall-getpid bench row where the arch gives its user program (arch/<arch>/bench_user.c,
# include/tinymm/bench.h): RISC-V so far; kernel/bench.c skips the row elsewhere.
if(EXISTS ${CMAKE_SOURCE_DIR}/arch/${TINYMM_ARCH}/bench_user.c)
  list(APPEND TINYMM_CORE_SRCS kernel/bench_user.c)
endif()
# ptdump where the arch prints its half (arch/<arch>/ptdump.c): ARM and RISC-V.
if(EXISTS ${CMAKE_SOURCE_DIR}/arch/${TINYMM_ARCH}/ptdump.c)
  list(APPEND TINYMM_CORE_SRCS mm/ptdump.c)
endif()
if(TINYMM_IRQSOFF_TRACER)
  list(APPEND TINYMM_CORE_SRCS kernel/trace_irqsoff.c)
else()
  list(APPEND TINYMM_CORE_SRCS kernel/trace_irqsoff_absent.c)
endif()

# RAM disk ram0's first contents, the sample ext2 filesystem (drivers/brd.c): tools/mkramdisk
# runs Debian's mke2fs; the image is reproducible (fixed UUID, hash seed and times).
set(BRD_SAMPLE ${CMAKE_BINARY_DIR}/gen/brd_sample.bin)
add_custom_command(OUTPUT ${BRD_SAMPLE}
  COMMAND ${CMAKE_SOURCE_DIR}/tools/mkramdisk ${BRD_SAMPLE}
  DEPENDS ${CMAKE_SOURCE_DIR}/tools/mkramdisk
  COMMENT "${BOARD}: the sample filesystem for ram0 (mke2fs)" VERBATIM)
# RAM disk ram1's first contents, the board's rootfs.img packed the same way: made by the
# `rootfs` target (user/CMakeLists.txt), so the kernel waits for it and is relinked when the user
# programs or rootfs.img change.
set(BRD_ROOTFS ${CMAKE_BINARY_DIR}/gen/brd_rootfs.bin)
set_source_files_properties(drivers/brd_image.S PROPERTIES
  COMPILE_DEFINITIONS "BRD_SAMPLE_IMAGE=\"${BRD_SAMPLE}\";BRD_ROOTFS_IMAGE=\"${BRD_ROOTFS}\""
  OBJECT_DEPENDS "${BRD_SAMPLE};${BRD_ROOTFS}")

# The version string is regenerated on every build, written only when it changes.
add_custom_target(version_c
  COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR} -DOUT=${CMAKE_BINARY_DIR}/gen/version.c
          -P ${CMAKE_SOURCE_DIR}/cmake/version.cmake
  BYPRODUCTS ${CMAKE_BINARY_DIR}/gen/version.c)

# Everything is compiled once; the objects are linked twice.  Pass 1 links an empty symbol table;
# its function symbols become kallsyms.S (tools/gen-kallsyms); pass 2 links that table into the
# .kallsyms section, which the linker script puts after everything else so no address moves.
# The build then checks that pass 1 and pass 2 agree on every function address.
# The boards' memcpy/memmove/memset (lib/string.c says why): GCC must not turn their loops back
# into calls to themselves.
set_source_files_properties(lib/string.c PROPERTIES COMPILE_OPTIONS
  "-fno-builtin;-fno-tree-loop-distribute-patterns")
add_library(kernel_objs OBJECT lib/string.c boot/main.c kernel/bench.c kernel/bench_pcp.c kernel/bench_smp.c ${TINYMM_PORTABLE_SRCS} ${TINYMM_ARCH_SRCS}
  ${TINYMM_CORE_SRCS}
  ${TINYMM_KTEST_SRCS} ${CMAKE_BINARY_DIR}/gen/version.c)
add_dependencies(kernel_objs version_c rootfs)	# rootfs: ram1's image (drivers/brd_image.S)
target_include_directories(kernel_objs PRIVATE include arch/${TINYMM_ARCH}/include ${CMAKE_BINARY_DIR}/gen)
if(TINYMM_MSTART)
  target_compile_definitions(kernel_objs PRIVATE TINYMM_MSTART=1)
endif()
target_compile_options(kernel_objs PRIVATE ${TINYMM_CPU_FLAGS}
  -ffreestanding -fno-common -fno-stack-protector -fno-omit-frame-pointer
  -ffunction-sections -fdata-sections -O2 -g
  -Wall -Wextra -Werror -Wno-unused-parameter -D_POSIX_C_SOURCE=200809L)

set(GEN_KALLSYMS ${CMAKE_SOURCE_DIR}/tools/gen-kallsyms)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/gen/kallsyms-empty.S
  COMMAND ${GEN_KALLSYMS} ${CMAKE_NM} - > ${CMAKE_BINARY_DIR}/gen/kallsyms-empty.S
  DEPENDS ${GEN_KALLSYMS})
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/gen/kallsyms.S
  COMMAND ${GEN_KALLSYMS} ${CMAKE_NM} tinymm-pass1.elf > ${CMAKE_BINARY_DIR}/gen/kallsyms.S
  DEPENDS tinymm-pass1.elf ${GEN_KALLSYMS})

function(kernel_link name kallsyms)
  add_executable(${name} $<TARGET_OBJECTS:kernel_objs> ${kallsyms})
  target_compile_options(${name} PRIVATE ${TINYMM_CPU_FLAGS})
  target_link_options(${name} PRIVATE ${TINYMM_CPU_FLAGS} -nostartfiles
    -T ${CMAKE_BINARY_DIR}/kernel.ld -Wl,--gc-sections -Wl,-Map=${CMAKE_BINARY_DIR}/${name}.map
    -Wl,--no-warn-rwx-segments)
  set_target_properties(${name} PROPERTIES LINK_DEPENDS ${CMAKE_BINARY_DIR}/kernel.ld)
  target_link_libraries(${name} PRIVATE gcc)
endfunction()
kernel_link(tinymm-pass1.elf ${CMAKE_BINARY_DIR}/gen/kallsyms-empty.S)
kernel_link(tinymm.elf ${CMAKE_BINARY_DIR}/gen/kallsyms.S)
add_custom_command(TARGET tinymm.elf POST_BUILD
  COMMAND ${GEN_KALLSYMS} ${CMAKE_NM} tinymm.elf > ${CMAKE_BINARY_DIR}/gen/kallsyms-check.S
  COMMAND ${CMAKE_COMMAND} -E compare_files ${CMAKE_BINARY_DIR}/gen/kallsyms.S
          ${CMAKE_BINARY_DIR}/gen/kallsyms-check.S
  COMMENT "${BOARD}: checking that the symbol table did not move any code")
add_custom_command(TARGET tinymm.elf POST_BUILD
  COMMAND ${CMAKE_SIZE} tinymm.elf
  COMMENT "${BOARD}: image size")
# A raw payload (BOARD_IMAGE tinymm.bin: the HiFive's OpenSBI next stage) is every loaded byte
# from the load address on, .bss included as zeros because .kallsyms is loaded after it;
# tools/check-image says the first bytes are _sstart's and the file reaches the image's end.
if(BOARD_IMAGE STREQUAL "tinymm.bin")
  add_custom_command(TARGET tinymm.elf POST_BUILD
    COMMAND ${CMAKE_OBJCOPY} -O binary tinymm.elf tinymm.bin
    COMMAND ${CMAKE_SOURCE_DIR}/tools/check-image ${CMAKE_NM} ${CMAKE_OBJCOPY} tinymm.elf tinymm.bin
    COMMENT "${BOARD}: tinymm.bin, the raw payload")
endif()
# A board with an image recipe (board/<board>/mkimage.sh) gets its flashable artifact from
# tinymm.bin and the boot chain's Debian packages: the Orange Pi PC's SD-card image sdcard.img,
# the Raspberry Pi's boot folder boot/; a missing package is a one-line error naming it.
if(EXISTS ${CMAKE_SOURCE_DIR}/board/${BOARD}/mkimage.sh)
  add_custom_command(TARGET tinymm.elf POST_BUILD
    COMMAND ${CMAKE_SOURCE_DIR}/board/${BOARD}/mkimage.sh ${BOARD_ARTIFACT} tinymm.bin
    COMMENT "${BOARD}: ${BOARD_ARTIFACT}, the flashable artifact")
  # A board whose card slot is a disk, not the boot medium in QEMU (the Raspberry Pi 2B): a
  # whole card with the artifact in its boot partition, which the tests put in the slot.
  if(DEFINED BOARD_CARD)
    add_custom_command(TARGET tinymm.elf POST_BUILD
      COMMAND ${CMAKE_SOURCE_DIR}/board/${BOARD}/mkimage.sh --card ${BOARD_CARD} ${BOARD_ARTIFACT}
      COMMENT "${BOARD}: ${BOARD_CARD}, a whole SD card")
  endif()
endif()

# User programs and the root filesystem image build/<board>/rootfs.img (user/CMakeLists.txt).
add_subdirectory(user)
