# (A ';' inside an argument is written $<SEMICOLON>: CMake would split the list there.)
# QEMU boot tests: each one boots a board's image (built by its preset) and checks the console
# and the exit status through tests/qemu/boot_check.sh.
set(CHECK ${CMAKE_SOURCE_DIR}/tests/qemu/boot_check.sh)

# Test DTBs for the bad-input boots, compiled from tests/dts at build time.
file(GLOB TEST_DTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/dts/*.dts)
set(TEST_DTBS)
foreach(dts ${TEST_DTS})
  get_filename_component(name ${dts} NAME_WE)
  set(dtb ${CMAKE_BINARY_DIR}/dtb/${name}.dtb)
  add_custom_command(OUTPUT ${dtb}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/dtb
    COMMAND ${DTC} -q -I dts -O dtb -o ${dtb} ${dts}
    DEPENDS ${dts} ${CMAKE_SOURCE_DIR}/tests/dts/rv32-base.dtsi)
  list(APPEND TEST_DTBS ${dtb})
endforeach()
add_custom_target(test_dtbs ALL DEPENDS ${TEST_DTBS})

function(boot_test name board)
  add_test(NAME ${name} COMMAND ${CHECK} --board ${board} ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 60 LABELS qemu)
endfunction()

foreach(b ${TINYMM_BOARDS})
  # Every suite (3-5 s; the HWPoison ones allocate 100 000 blocks per case): room for a loaded CI.
  boot_test(${b}.ktest.all ${b} --append "tinymm.test=*" --timeout 120 --ktap
    --reject "b_dirty corrupted")
  set_tests_properties(${b}.ktest.all PROPERTIES TIMEOUT 150)
  # The same under -icount with a slow virtual CPU (1 us per instruction, idle time skipped):
  # deterministic, and every timer, flusher pass and preemption lands at other points than on
  # a real clock.  It found the flusher spinning on a mapping a suite had reinitialised while
  # it was still listed (docs/writeback.md), which otherwise showed only under host load.
  boot_test(${b}.ktest.all_icount ${b} --append "tinymm.test=*" --timeout 120
    --qemu "-icount shift=10,sleep=off" --ktap --reject "b_dirty corrupted")
  set_tests_properties(${b}.ktest.all_icount PROPERTIES TIMEOUT 150)
  boot_test(${b}.ktest.must_fail_exits_nonzero ${b} --append "tinymm.test=ktest_must_fail"
    --status 1 --expect "^    not ok 1 fails_on_purpose$" --expect "^# totals: pass:0 fail:1 skip:1$"
    --expect "EXPECTATION FAILED at .*selftest.c:[0-9]+$")
  # boot_check.sh --ktap (tests/qemu/lib.sh: tm_ktap) rejects a run with a failed case, naming it.
  add_test(NAME ${b}.ktest.ktap_check_catches_failure COMMAND sh -c
    "out=$(${CHECK} --board ${b} --append tinymm.test=ktest_must_fail --status 1 --ktap)$<SEMICOLON> rc=$?
     printf '%s\\n' \"$out\" | tail -n 3
     [ $rc = 1 ] && printf '%s\\n' \"$out\" | grep -q '^boot_check: FAIL: KTAP cases failed:$' &&
       printf '%s\\n' \"$out\" | grep -q '^    not ok 1 fails_on_purpose$'")
  set_tests_properties(${b}.ktest.ktap_check_catches_failure PROPERTIES TIMEOUT 60 LABELS qemu)
  boot_test(${b}.ktest.no_match_fails ${b} --append "tinymm.test=no_such_suite" --status 1
    --expect "^1\\.\\.0$" --expect "^# no suite matches 'no_such_suite'$")
  foreach(m 96M 512M)
    boot_test(${b}.mem${m} ${b} --mem ${m} --append "tinymm.run=memmap$<SEMICOLON> meminfo" --memcheck
      --expect "^tinymm> memmap$" --expect "^tinymm> meminfo$" --expect "^MemFree: +[0-9]+ kB$")
  endforeach()
  boot_test(${b}.run_keeps_going_after_failure ${b}
    --append "tinymm.run=nosuchcmd$<SEMICOLON> memmap extra$<SEMICOLON> version$<SEMICOLON> poweroff 300$<SEMICOLON> help"
    --status 1 --expect "^nosuchcmd: unknown command \\(try 'help'\\)$"
    --expect "^memmap: unexpected argument 'extra'$" --expect "^tinymm [^ ]+ \\(${b}, "
    --expect "^poweroff: usage: poweroff \\[status 0-255\\]$" --expect "^  version +print"
    # help: a usage wider than its 24-column name column is printed whole, the description
    # on the next line, indented to the column
    --expect "^  blk list[|]stats[|]read[|]sha256[|]readrand[|]write[|]pfn[|]inject [.][.][.]$"
    --expect "^  hwpoison inject[|]inject-hw[|]unpoison[|]soft-offline <pfn> [|] list [|] stats$"
    --expect "^ {27}block devices: list, counters, " --expect "^ {27}memory errors: inject ")
  # The interactive shell: backspace, Ctrl-U, Ctrl-C, then a command that powers off.
  boot_test(${b}.shell_line_editing ${b} --input "helx\\x7fp\\rjunk\\x15meminfo\\rabc\\x03poweroff 5\\r"
    --status 5 --expect "^  meminfo +memory usage" --expect "^MemTotal: +[0-9]+ kB$"
    --expect "^tinymm> abc\\^C$" --reject "unknown command")
  # A deliberate bad access: the full report (cause, registers, named backtrace), exit status 1.
  boot_test(${b}.fault_read_null_dumps ${b} --append "tinymm.run=fault read 0" --status 1 --timeout 10
    --expect "(Unhandled exception: data abort: translation fault \\(level 1\\) on read at 0x00000000|Unhandled trap: load page fault at 0x0+)$"
    --expect "(pc|epc) : \\[<[0-9a-f]+>\\] cmd_fault\\+0x[0-9a-f]+/0x[0-9a-f]+$"
    --expect "(r10|s11): [0-9a-f]+" --expect "Call trace:$"
    --expect " \\[<[0-9a-f]+>\\] shell_exec\\+0x[0-9a-f]+/0x[0-9a-f]+$"
    --expect " \\[<[0-9a-f]+>\\] kernel_init\\+0x[0-9a-f]+/0x[0-9a-f]+$"
    --expect "Kernel panic - not syncing: Fatal exception$")
  boot_test(${b}.fault_exec_null_dumps ${b} --append "tinymm.run=fault exec 0" --status 1 --timeout 10
    --expect "(prefetch abort: translation fault \\(level 1\\) at 0x00000000|Unhandled trap: instruction page fault at 0x0+)$"
    --expect "Call trace:$")
  boot_test(${b}.fault_write_null_dumps ${b} --append "tinymm.run=fault write 0" --status 1 --timeout 10
    --expect "(data abort: translation fault \\(level 1\\) on write at 0x00000000|Unhandled trap: store/AMO page fault at 0x0+)$")
  boot_test(${b}.fault_bad_argument ${b} --append "tinymm.run=fault sideways 0" --status 1
    --expect "^fault: usage: fault read\\|write\\|exec <address> \\| fault stack$")
  # A trap inside a KTAP case fails that case, the next case still runs, the run exits non-zero.
  boot_test(${b}.ktest.trap_in_test_fails_the_case ${b} --append "tinymm.test=ktest_trap_in_test"
    --status 1 --expect "^    # traps_unexpectedly: unexpected BUG/panic/trap: Unhandled "
    --expect "^    not ok 1 traps_unexpectedly$" --expect "^    ok 2 runs_after_the_trap$"
    --expect "^# totals: pass:1 fail:1 skip:0$")
  # RAM that cannot hold the image: one line from tools/run, never a silent hang.
  boot_test(${b}.mem_too_small_for_kernel ${b} --mem 1M --status 2 --timeout 10
    --expect "^tools/run: MEM=1M is too small for ${b}: the kernel image \\(and QEMU's DTB\\) need [0-9]+M$")
  boot_test(${b}.poweroff_status ${b} --append "tinymm.run=poweroff 7" --status 7)
  boot_test(${b}.dtb_prints_tree ${b} --append "tinymm.run=dtb"
    --expect "^/dts-v1/$<SEMICOLON>$" --expect "^	memory@[0-9a-f]+ \\{$" --expect "^		device_type = \"memory\"$<SEMICOLON>$"
    --expect "^	chosen \\{$")
  boot_test(${b}.dmesg_keeps_hidden_messages ${b} --append "tinymm.loglevel=0 tinymm.run=dmesg"
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Memory: [0-9]+K/" --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] tinymm .* on ${b} ")
  boot_test(${b}.unknown_option_warns ${b} --append "tinymm.bogus=1 tinymm.loglevel=x tinymm.run=version"
    --expect "cmdline: unknown option 'tinymm.bogus'$" --expect "cmdline: bad value for option 'tinymm.loglevel'$")
endforeach()

# Structural device-tree errors, on RV32 (no firmware reads the DTB before tinymm does).
set(R qemu-virt-riscv32)
set(D ${CMAKE_BINARY_DIR}/dtb)
boot_test(${R}.dtb.good ${R} --dtb ${D}/good.dtb --append "tinymm.run=memmap"
  --expect "^\\[mem 0x0000000083000000-0x00000000830fffff\\] no-map$"
  --expect "^\\[mem 0x0000000082000000-0x0000000082001fff\\] reserved$"
  --expect "^\\[mem 0x0000000088000000-0x0000000089[0-9a-f]+\\] usable$"
  --expect "^\\[mem 0x0000000089[0-9a-f]+-0x0000000089ffefff\\] memmap$"
  # QEMU put this DTB above the RAM it describes: it is copied into RAM (docs/boot.md).
  --expect " dt: at 0x8fe00000, outside RAM: copied to 0x89fff000$"
  --expect "^\\[mem 0x0000000089fff000-0x0000000089ffffff\\] dtb$"
  --expect "memmap: 24576 pages, struct page 32 bytes, 768K \\(0\\.78% of RAM\\)$"
  --expect "dt: /reserved-memory/stray@86000000: \\[mem 0x0000000086000000-0x0000000086000fff\\] is not in RAM, ignored")
# The boot hart has no /cpus node (the HiFive's boot hart is any of 1-4: tinymm looks for the
# node whose reg is a0, never "the first"): one line, status 1.
boot_test(${R}.dtb.no_boot_cpu ${R} --dtb ${D}/no-boot-cpu.dtb --status 1 --timeout 10
  --expect "tinymm: cpus: the boot hart/cpu 0 has no /cpus node \\(reg 0\\)$")
boot_test(${R}.dtb.no_memory ${R} --dtb ${D}/no-memory.dtb --status 1 --timeout 10
  --expect "tinymm: dt: no /memory node \\(device_type = \"memory\"\\): RAM unknown$")
boot_test(${R}.dtb.bad_cells ${R} --dtb ${D}/bad-cells.dtb --status 1 --timeout 10
  --expect "tinymm: dt: /memory@80000000: reg is 12 bytes, not a multiple of 16 \\(#address-cells = 2, #size-cells = 2\\)$")
boot_test(${R}.dtb.overlap ${R} --dtb ${D}/overlap.dtb --status 1 --timeout 10
  --expect "tinymm: dt: /memory@83000000: bank \\[mem 0x0000000083000000-0x0000000086ffffff\\] overlaps RAM \\[mem 0x0000000080000000-0x0000000083ffffff\\]$")
boot_test(${R}.dtb.zero_size ${R} --dtb ${D}/zero-size.dtb --status 1 --timeout 10
  --expect "tinymm: dt: /memory@80000000: bank 1 at 0x90000000 has size 0$")
boot_test(${R}.dtb.kernel_outside_ram ${R} --dtb ${D}/too-small.dtb --status 1 --timeout 10
  --expect "tinymm: memory: kernel image \\[mem 0x0000000080000000-0x[0-9a-f]+\\] is not inside RAM \\(32K in all\\)")

# dma-ranges: ZONE_DMA is what every DMA-capable bus can reach (16 MiB here); the command line
# wins over the device tree.
boot_test(${R}.dtb.dma_ranges_make_zone_dma ${R} --dtb ${D}/dma-ranges.dtb --append "tinymm.run=buddyinfo$<SEMICOLON> zoneinfo"
  --expect "^Node 0, zone      DMA " --expect "^Node 0, zone   Normal "
  --expect "^  start_pfn: +524288$" --expect "^        spanned  4096$" --expect "^        spanned  28672$")
boot_test(${R}.dtb.dma_ranges_cmdline_wins ${R} --dtb ${D}/dma-ranges.dtb
  --append "tinymm.zone_dma_limit=0x82000000 tinymm.run=zoneinfo"
  --expect "^        spanned  8192$")

# RV32's 2G/2G split direct-maps RAM up to 0xf0000000 (docs/mmu.md): RAM QEMU puts above
# lowmem's end is cut off in one line and left unused (no HIGHMEM).
boot_test(${R}.ram_above_lowmem_truncated ${R} --mem 3G --append "tinymm.run=memmap"
  --expect "dt: /memory@80000000: bank \\[mem 0x0000000080000000-0x000000013fffffff\\] truncated at 0xefffffff, the end of lowmem \\(no HIGHMEM\\): 1280 MiB unused"
  --expect "^\\[mem 0x[0-9a-f]+-0x00000000efffffff\\] memmap$" --reject "^\\[mem 0x00000000f")

# The front door: make run's board check and exit status.
add_test(NAME make.run_unknown_board COMMAND ${CMAKE_COMMAND} -DTOP=${CMAKE_SOURCE_DIR}
  -P ${CMAKE_SOURCE_DIR}/tests/qemu/make_run_unknown_board.cmake)
add_test(NAME make.run_exit_status COMMAND make -s -C ${CMAKE_SOURCE_DIR} run
  BOARD=qemu-virt-riscv32 "ARGS=tinymm.run=poweroff 0")
include(${CMAKE_CURRENT_LIST_DIR}/pageflags.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/kpageflags.cmake)

# Structural device-tree errors on RV64, where OpenSBI 1.1 (-bios default) reads the DTB first,
# adds its own reservation (mmode_resv0) and passes it on in a1: tests/dts/rv64-*.dts, built on
# rv64-base.dtsi.  OpenSBI passes all five bad trees through, so tinymm's own line is checked;
# what OpenSBI itself stops on is in docs/devicetree.md, "Corrupt device trees and OpenSBI".
set(R64 qemu-virt-riscv64)
file(GLOB RV64_DTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/dts/rv64-*.dts)
foreach(dts ${RV64_DTS})
  get_filename_component(name ${dts} NAME_WE)
  add_custom_command(OUTPUT ${D}/${name}.dtb APPEND
    DEPENDS ${CMAKE_SOURCE_DIR}/tests/dts/rv64-base.dtsi)
endforeach()
boot_test(${R64}.dtb.good ${R64} --dtb ${D}/rv64-good.dtb --append "tinymm.run=memmap"
  --expect "^Platform Timer Device +: aclint-mtimer @ 10000000Hz$"
  --expect "^\\[mem 0x0000000080000000-0x000000008007ffff\\] firmware$"
  --expect "^\\[mem 0x0000000082000000-0x0000000082001fff\\] reserved$"
  --expect "^\\[mem 0x0000000083000000-0x00000000830fffff\\] no-map$"
  --expect "^\\[mem 0x0000000088000000-0x[0-9a-f]+\\] usable$" --reject "^\\[mem 0x000000008[a-f]")
# Zicbom from the device tree (arch/riscv/cmo.c, docs/cacheflush.md): with a block size it is
# chosen (one line), without one or with one not a power of two it is disabled with v6.10's line.
boot_test(${R64}.dtb.zicbom ${R64} --dtb ${D}/rv64-zicbom.dtb --append "tinymm.run=cacheops"
  --expect "^\\[ *[0-9.]+\\] riscv: cache operations: Zicbom, 64-byte blocks$"
  --expect "^dcache_clean +0$" --reject "Zicbom detected" --reject "Zicbom disabled")
boot_test(${R64}.dtb.zicbom_no_block_size ${R64} --dtb ${D}/rv64-zicbom-no-block-size.dtb
  --append "tinymm.run=memmap"
  --expect "Zicbom detected in ISA string, disabling as no cbom-block-size found$"
  --reject "cache operations: Zicbom")
boot_test(${R64}.dtb.zicbom_bad_block_size ${R64} --dtb ${D}/rv64-zicbom-bad-block-size.dtb
  --append "tinymm.run=memmap"
  --expect "Zicbom disabled as cbom-block-size present, but is not a power-of-2$"
  --reject "cache operations: Zicbom")
boot_test(${R64}.dtb.no_memory ${R64} --dtb ${D}/rv64-no-memory.dtb --status 1 --timeout 10
  --expect "tinymm: dt: no /memory node \\(device_type = \"memory\"\\): RAM unknown$")
boot_test(${R64}.dtb.bad_cells ${R64} --dtb ${D}/rv64-bad-cells.dtb --status 1 --timeout 10
  --expect "tinymm: dt: /memory@80000000: reg is 12 bytes, not a multiple of 16 \\(#address-cells = 2, #size-cells = 2\\)$")
boot_test(${R64}.dtb.overlap ${R64} --dtb ${D}/rv64-overlap.dtb --status 1 --timeout 10
  --expect "tinymm: dt: /memory@83000000: bank \\[mem 0x0000000083000000-0x0000000086ffffff\\] overlaps RAM \\[mem 0x0000000080000000-0x0000000083ffffff\\]$")
boot_test(${R64}.dtb.zero_size ${R64} --dtb ${D}/rv64-zero-size.dtb --status 1 --timeout 10
  --expect "tinymm: dt: /memory@80000000: bank 1 at 0x90000000 has size 0$")
boot_test(${R64}.dtb.kernel_outside_ram ${R64} --dtb ${D}/rv64-too-small.dtb --status 1 --timeout 10
  --expect "tinymm: memory: kernel image \\[mem 0x0000000080200000-0x[0-9a-f]+\\] is not inside RAM \\(32K in all\\)")
include(${CMAKE_CURRENT_LIST_DIR}/bench.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/bench_batch.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/vmstat.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/buddy.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/pcp_batch.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/slab.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/kcore.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sched.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/smp.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/blk.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sdmmc.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/sdmmc_spi.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/partitions.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/swapfile.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/pagecache.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/writeback.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lru.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/reclaim.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/balloon.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/hwpoison_workload.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/soft_offline.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/hwpoison.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/irqsoff.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lockdep.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/mmu.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/lkdtm.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/boards.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/raspi2b.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/mem_limit.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/vfs.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/ext2.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/user.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/user_exec.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/user_sys.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/user_ram.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/mapwrite.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/migrate.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/mapread.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/usermode_riscv.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/usermode_arm.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/young.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/cacheflush.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/smp_riscv.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/smp_arm.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/dma.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/mlock.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/page_idle.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/smp_user.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/hwpoison_user.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/oom.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/swap.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/swap_opi.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/swap_hifive.cmake)

# Multi-CPU boots under MTTCG run one host thread per guest CPU.  On the 2-core build machine a
# ticket lock's next waiter is often a thread the host has not scheduled: every CPU spins until
# the host runs it, and a -smp 4 stress boot that takes 1 s alone took 50-85 s with other tests
# beside it (docs/smp.md, "Host overcommit").  So the long multi-CPU boots count as 2
# processors for `ctest -j`: with -j 2 each runs with nothing else beside it.  (-smp 2 boots
# share the host with one other test: fine, and serialising them too cost 25 s of `make test`.)
get_property(_qemu_tests DIRECTORY PROPERTY TESTS)
foreach(t ${_qemu_tests})
  if(t MATCHES "(all_smp4|stress_[0-9]cpus|\\.smp[48]\\.|_[48]cpus$|smp[0-9]\\.user\\.forkcow)")
    set_tests_properties(${t} PROPERTIES PROCESSORS 2)
  endif()
endforeach()
