# Real development boards (TINYMM_REAL_BOARDS, issue 31): QEMU's model of each board boots the
# flashable artifact itself (tools/run: the board's QEMU_ARTIFACT and QEMU_MEM_DEFAULT from
# qemu.conf).  These boards have no virtio-mmio, no sifive,test0 and no Goldfish RTC, so the
# per-board tests of tests/qemu/*.cmake (TINYMM_BOARDS, QEMU virt) do not apply; these do.
# Included from the end of tests/qemu/tests.cmake (boot_test, CHECK, D are set there).

# --- HiFive Unleashed (-M sifive_u, OpenSBI payload tinymm.bin, 8 GiB, boot hart 1-4) ---
set(H hifive-unleashed)
set(HBIN ${CMAKE_SOURCE_DIR}/build/${H}/tinymm.bin)
set(HELF ${CMAKE_SOURCE_DIR}/build/${H}/tinymm.elf)
set(HCHECK ${CMAKE_SOURCE_DIR}/tools/check-image riscv64-unknown-elf-nm riscv64-unknown-elf-objcopy)

# The payload: first bytes _sstart's, .bss and the symbol table covered (tools/check-image);
# and the check fails on a payload cut short.
add_test(NAME ${H}.image_is_a_complete_payload COMMAND ${HCHECK} ${HELF} ${HBIN})
add_test(NAME ${H}.image_check_catches_truncation COMMAND sh -c
  "t=$(mktemp)$<SEMICOLON> head -c 65536 '${HBIN}' >\"$t\"
   out=$(${CMAKE_SOURCE_DIR}/tools/check-image riscv64-unknown-elf-nm riscv64-unknown-elf-objcopy '${HELF}' \"$t\" 2>&1)$<SEMICOLON> rc=$?
   rm -f \"$t\"$<SEMICOLON> echo \"$out\"
   [ $rc = 1 ] && echo \"$out\" | grep -q 'bytes do not cover .bss'")
set_tests_properties(${H}.image_is_a_complete_payload ${H}.image_check_catches_truncation
  PROPERTIES TIMEOUT 20 LABELS qemu)

# Every KTAP suite the glob selects (none of them needs a virtio device); sched's
# unhandled_irq_is_masked skips (no Goldfish RTC or GIC to raise a stray interrupt with).
# The boot line names the hart OpenSBI chose: 1-4, never the E51 (0); its PLIC context is the
# hart's S-mode one (2 x hart).
# Under -icount (1 us per instruction, idle time skipped), as <b>.ktest.all_icount on virt: the
# sched suite's wall-clock bounds allow 50 ms of host jitter, and two 8 GiB guests on a loaded
# 2-core host once stalled a msleep(20) for 108 ms; guest time tied to instructions cannot.
# 3 GiB by default (1 GiB of it above 4 GiB, so the 64-bit DMA masks and everything above
# 32 bits are exercised): ~23 s alone.  ktest.all_8g, label long (`make test-long`): the same at
# the board's 8 GiB, ~60 s alone (rmap's fork-out-of-memory case, page reporting, HWPoison and
# soft offline walk or take all of it); 300 s of wall time because -icount runs at the host's
# pace and a fully loaded 2-core host once took more than 150 s.
foreach(spec "ktest.all|3G" "ktest.all_8g|8G")
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 name)
  list(GET spec 1 size)
  boot_test(${H}.${name} ${H} --mem ${size} --append "tinymm.test=*" --timeout 300 --ktap-skip 1
    --qemu "-icount shift=10,sleep=off"
    --expect "booting on hart/cpu [1-4]$<SEMICOLON> timer 1000000 Hz$"
    --expect "^\\[ *[0-9.]+\\] cpu[1-4]: " --expect "plic: .* context [2468], chained"
    --expect "riscv-timer: SBI TIME set_timer, one-shot"
    --expect "^    ok [0-9]+ unhandled_irq_is_masked # SKIP no Goldfish RTC and no GIC"
    --reject "booting on hart/cpu 0")
  set_tests_properties(${H}.${name} PROPERTIES TIMEOUT 330)
endforeach()
set_tests_properties(${H}.ktest.all_8g PROPERTIES LABELS "qemu;long")
# The explicit-only suites that need no device (virtio_blk needs a virtio disk: skipped; the
# must-fail, trap and overflow suites exist to fail and are covered on the virt boards, except
# ktest_must_fail below).
# (36 s on an idle 2-core machine, 110 s at load average 14: room for a busy CI host.)
boot_test(${H}.ktest.buddy ${H} --mem 8G --append "tinymm.test=buddy" --timeout 240
  --expect "^    ok [0-9]+ zones_never_merge_across # SKIP one zone"
  --expect "^# totals: pass:[1-9][0-9]* fail:0 skip:1$" --reject "^    not ok")
# Label long (`make test-long`): ~40-80 s, most of it one case taking all 8 GiB a page at a
# time; by default the suite runs on the virt boards (buddy.cmake) and in ktest.all at 3 GiB here.
set_tests_properties(${H}.ktest.buddy PROPERTIES TIMEOUT 270 LABELS "qemu;long")
boot_test(${H}.ktest.slab ${H} --mem 8G --append "tinymm.test=slab" --timeout 60
  --expect "^# totals: pass:12 fail:0 skip:0$" --reject "^    not ok")
boot_test(${H}.ktest.lockdep ${H} --mem 8G --append "tinymm.test=lockdep" --timeout 60
  --expect "^# totals: pass:5 fail:0 skip:0$" --reject "^    not ok")
boot_test(${H}.ktest.bad_page ${H} --mem 8G --append "tinymm.test=bad_page" --timeout 60
  --expect "^# totals: pass:4 fail:0 skip:0$" --reject "^    not ok")
boot_test(${H}.ktest.ext2 ${H} --mem 8G --append "tinymm.test=ext2" --timeout 60
  --expect "^# totals: pass:19 fail:0 skip:0$" --reject "^    not ok")
# A failing case powers off with status 1 through semihosting, and the KTAP check catches it.
add_test(NAME ${H}.ktest.must_fail_is_caught COMMAND sh -c
  "out=$(${CHECK} --board ${H} --mem 8G --append tinymm.test=ktest_must_fail --status 1 --ktap)$<SEMICOLON> rc=$?
   printf '%s\\n' \"$out\" | tail -n 3
   [ $rc = 1 ] && printf '%s\\n' \"$out\" | grep -q '^boot_check: FAIL: KTAP cases failed:$' &&
     printf '%s\\n' \"$out\" | grep -q '^    not ok 1 fails_on_purpose$'")
set_tests_properties(${H}.ktest.must_fail_is_caught PROPERTIES TIMEOUT 60 LABELS qemu)

# The memory map is the DTB's: 8 GiB at 0x80000000 (--memcheck: the regions add up to exactly
# 8G, MemTotal is the usable part), OpenSBI's no-map 0x80000000-0x8007ffff left out, RAM up to
# 0x27fffffff; buddyinfo's free pages add up to MemFree.
set(BMAP ${CMAKE_CURRENT_LIST_DIR}/board_memmap.sh)
add_test(NAME ${H}.memmap_matches_dtb COMMAND ${BMAP} ${H} 8G
  --expect "^\\[mem 0x0000000080000000-0x000000008007ffff\\] firmware$"
  --expect "^\\[mem 0x0000000080080000-0x00000000801fffff\\] usable$"
  --expect "^\\[mem 0x0000000080200000-0x[0-9a-f]+\\] kernel$"
  --expect "^\\[mem 0x[0-9a-f]+-0x000000027fffffff\\] "
  --expect "memmap: 2097152 pages, struct page [0-9]+ bytes")
# The same check fails when QEMU is given other RAM than the test claims (a later -m wins).
add_test(NAME ${H}.memcheck_catches_wrong_size COMMAND sh -c
  "out=$(${BMAP} ${H} 8G --qemu '-m 4G')$<SEMICOLON> rc=$?$<SEMICOLON> printf '%s\\n' \"$out\" | tail -n 3
   [ $rc != 0 ] && printf '%s\\n' \"$out\" | grep -q 'memmap covers 4294967296 bytes, QEMU was given 8589934592'")
set_tests_properties(${H}.memmap_matches_dtb ${H}.memcheck_catches_wrong_size PROPERTIES
  TIMEOUT 60 LABELS qemu)

# Bad input: an unknown option warns, a bad command powers off with status 1; a fault is the
# full report and status 1; `poweroff N` exits N (semihosting carries the status).
boot_test(${H}.bad_cmdline_status ${H} --mem 8G --append "tinymm.bogus=1 tinymm.run=nosuchcmd"
  --status 1 --expect "cmdline: unknown option 'tinymm.bogus'$"
  --expect "^nosuchcmd: unknown command \\(try 'help'\\)$")
boot_test(${H}.fault_read_null_dumps ${H} --mem 8G --append "tinymm.run=fault read 0" --status 1
  --expect "Unhandled trap: load page fault at 0x0+$"
  --expect "epc : \\[<[0-9a-f]+>\\] cmd_fault\\+0x[0-9a-f]+/0x[0-9a-f]+$" --expect "Call trace:$"
  --expect "Kernel panic - not syncing: Fatal exception$")
boot_test(${H}.poweroff_status ${H} --mem 8G --append "tinymm.run=poweroff 7" --status 7)
# The real board's path: with semihosting off (a later -semihosting-config wins) the ebreak is a
# breakpoint the trap handler steps over, SBI SRST fails in QEMU (-2, not supported), and the
# kernel says so and halts: the boot must hang after "reboot: System halted", not exit.
add_test(NAME ${H}.poweroff_without_semihosting_halts COMMAND sh -c
  "out=$(${CHECK} --board ${H} --mem 8G --append 'tinymm.run=poweroff 7' --status 7 --timeout 8 --qemu '-semihosting-config enable=off')$<SEMICOLON> rc=$?
   printf '%s\\n' \"$out\" | tail -n 4
   [ $rc != 0 ] && printf '%s\\n' \"$out\" | grep -q 'no power-off within 8s (hang)' &&
     printf '%s\\n' \"$out\" | grep -Eq 'poweroff: SBI system reset failed \\(error -2\\), status 7$' &&
     printf '%s\\n' \"$out\" | grep -Eq '\\] reboot: System halted$'")
set_tests_properties(${H}.poweroff_without_semihosting_halts PROPERTIES TIMEOUT 30 LABELS qemu)

# The console: the DT's (/chosen/stdout-path -> sifive,uart0) with its receive interrupt through
# the PLIC, typed at; and the board's early UART alone when the tree names none.
boot_test(${H}.shell_typed_input ${H} --mem 8G --input "helx\\x7fp\\rmeminfo\\rpoweroff 5\\r"
  --status 5 --expect "console: sifive,uart0 at 0x10010000$<SEMICOLON> dtb at "
  --expect "console: receive interrupt on irq [0-9]+$" --expect "^  meminfo +memory usage"
  --expect "^MemTotal: +[0-9]+ kB$" --reject "unknown command")
set(HDTB ${CMAKE_BINARY_DIR}/dtb/hifive-no-stdout-path.dtb)
add_custom_command(OUTPUT ${HDTB}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/dtb
  COMMAND qemu-system-riscv64 -M sifive_u,dumpdtb=${HDTB} -smp 5 -m 8G -nographic -nic none >/dev/null
  COMMAND fdtput -d ${HDTB} /chosen stdout-path
  COMMENT "QEMU's sifive_u device tree without /chosen/stdout-path")
add_custom_target(hifive_test_dtb ALL DEPENDS ${HDTB})
boot_test(${H}.early_console_without_stdout_path ${H} --mem 8G --dtb ${HDTB}
  --append "tinymm.run=version" --expect "console: no /chosen/stdout-path, keeping the board's UART$"
  --expect "^tinymm [^ ]+ \\(${H}, rv64\\)")

# --- Orange Pi PC (-M orangepi-pc, the SD-card image through Debian's U-Boot, 1 GiB) ---
# tools/run boots a private copy of build/orangepi-pc/sdcard.img with the test's --append as
# bootargs in the copy's boot.scr (board/orangepi-pc/mkimage.sh --rescript); QEMU's RAM is fixed.
set(O orangepi-pc)
set(OBUILD ${CMAKE_SOURCE_DIR}/build/${O})
set(OMK ${CMAKE_SOURCE_DIR}/board/${O}/mkimage.sh)
add_test(NAME ${O}.image_is_a_complete_payload COMMAND ${CMAKE_SOURCE_DIR}/tools/check-image
  arm-none-eabi-nm arm-none-eabi-objcopy ${OBUILD}/tinymm.elf ${OBUILD}/tinymm.bin)
# The card as a person writes it, judged by sfdisk, e2fsck -fn, debugfs, fsck.vfat -n and mtools
# (tests/qemu/orangepi_card.sh): U-Boot SPL + U-Boot at 8 KiB; partition 1 at sector 2048, type
# 83, not bootable, a clean ext2 holding boot.scr, the uImage (load = entry = 0x40008000) and the
# DTB; partition 2, the last 1 MiB, the only bootable one, a clean FAT holding uboot.env alone.
set(OCARD ${CMAKE_CURRENT_LIST_DIR}/orangepi_card.sh)
add_test(NAME ${O}.sdcard_layout COMMAND ${OCARD} ${OBUILD}/sdcard.img)
# The same check fails on a copy of the card with a broken ext2 (an inode's link count off by
# one: e2fsck's pass 4), with partition 1 flagged bootable (U-Boot's 0:auto would read the
# environment from the ext2 and miss it), or without uboot.env.
foreach(fault "corrupt_ext2|debugfs -w -R 'set_inode_field /uImage links_count 2' \"$c?offset=1048576\"|Inode [0-9]+ ref count is 2, should be 1"
              "bootable_partition_1|sfdisk -q -A $c 1|partition 1 is bootable"
              "missing_env|MTOOLS_SKIP_CHECK=1 mdel -i $c@@66060288 ::uboot.env|partition 2 holds '', not uboot.env alone")
  string(REPLACE "|" ";" fault "${fault}")
  list(GET fault 0 what)
  list(GET fault 1 break)
  list(GET fault 2 says)
  add_test(NAME ${O}.sdcard_check_catches_${what} COMMAND sh -c
    "c=$(mktemp)$<SEMICOLON> cp ${OBUILD}/sdcard.img $c$<SEMICOLON> ${break} 2>/dev/null
     out=$(${OCARD} $c 2>&1)$<SEMICOLON> rc=$?$<SEMICOLON> rm -f $c$<SEMICOLON> printf '%s\\n' \"$out\" | tail -n 4
     [ $rc = 1 ] && printf '%s\\n' \"$out\" | grep -Eq \"${says}\" &&
       printf '%s\\n' \"$out\" | grep -q '^orangepi_card: FAIL: '")
  set_tests_properties(${O}.sdcard_check_catches_${what} PROPERTIES TIMEOUT 30 LABELS qemu)
endforeach()
# --no-env: the card for "U-Boot's defaults", partition 1 alone and nothing bootable; U-Boot
# finds no environment, its distro boot scans partition 1 and runs /boot.scr from the ext2.
add_test(NAME ${O}.no_env_card_boots_by_distro_boot COMMAND sh -c
  "c=$(mktemp)$<SEMICOLON> ${OMK} --no-env $c ${OBUILD}/tinymm.bin && ${OCARD} --no-env $c | tail -n 1 &&
   out=$(timeout 40 ${CMAKE_SOURCE_DIR}/tools/run --board ${O} --sdimg $c --append 'tinymm.run=poweroff 4' 2>&1)$<SEMICOLON> rc=$?
   rm -f $c$<SEMICOLON> printf '%s\\n' \"$out\" | tr -d '\\r' | grep -E 'Environment|mmc 0|boot.scr|command line'
   [ $rc = 4 ] && printf '%s\\n' \"$out\" | grep -q 'Loading Environment from FAT... Unable to use mmc 0:1' &&
     printf '%s\\n' \"$out\" | grep -q 'Scanning mmc 0:1' && printf '%s\\n' \"$out\" | grep -q 'Found U-Boot script /boot.scr' &&
     printf '%s\\n' \"$out\" | grep -q 'Kernel command line: tinymm.run=poweroff 4'")
set_tests_properties(${O}.no_env_card_boots_by_distro_boot PROPERTIES TIMEOUT 60 LABELS qemu)
# --rescript on a card whose partition 1 is not ext2 (a FAT card from an older mkimage.sh): one
# line, and the card is left as it was.
add_test(NAME ${O}.rescript_refuses_non_ext2_card COMMAND sh -c
  "c=$(mktemp)$<SEMICOLON> truncate -s 64M $c$<SEMICOLON> echo 'start=2048, type=6' | sfdisk -q $c
   mkfs.vfat -F 16 --offset 2048 $c 64512 >/dev/null$<SEMICOLON> s=$(sha256sum <$c)
   out=$(${OMK} --rescript --args x $c 2>&1)$<SEMICOLON> rc=$?$<SEMICOLON> t=$(sha256sum <$c)$<SEMICOLON> rm -f $c
   echo \"$out\"$<SEMICOLON> [ $rc = 1 ] && [ \"$s\" = \"$t\" ] && [ $(echo \"$out\" | wc -l) = 1 ] &&
   echo \"$out\" | grep -q 'partition 1 is not ext2'")
set_tests_properties(${O}.sdcard_layout ${O}.rescript_refuses_non_ext2_card PROPERTIES TIMEOUT 30 LABELS qemu)
# A missing input is one line naming the Debian package, and no card is written.
add_test(NAME ${O}.mkimage_missing_uboot_names_package COMMAND sh -c
  "t=$(mktemp -u)$<SEMICOLON> out=$(ORANGEPI_UBOOT=/nonexistent ${OMK} $t ${OBUILD}/tinymm.bin 2>&1)$<SEMICOLON> rc=$?
   echo \"$out\"$<SEMICOLON> [ $rc = 1 ] && [ ! -e $t ] && [ $(echo \"$out\" | wc -l) = 1 ] &&
   echo \"$out\" | grep -q \"install Debian's u-boot-sunxi:armhf\"")
add_test(NAME ${O}.mkimage_missing_dtb_names_package COMMAND sh -c
  "t=$(mktemp -u)$<SEMICOLON> out=$(ORANGEPI_DTB=/nonexistent ${OMK} $t ${OBUILD}/tinymm.bin 2>&1)$<SEMICOLON> rc=$?
   echo \"$out\"$<SEMICOLON> [ $rc = 1 ] && [ ! -e $t ] && [ $(echo \"$out\" | wc -l) = 1 ] &&
   echo \"$out\" | grep -q \"linux-image-armmp:armhf\"")
# mkfs.ext2 and debugfs missing (a PATH holding only what the script needs before it looks for
# them): one line naming e2fsprogs.
add_test(NAME ${O}.mkimage_missing_e2fsprogs_names_package COMMAND sh -c
  "p=$(mktemp -d)$<SEMICOLON> for c in bash mkimage sfdisk mktemp rm$<SEMICOLON> do ln -s $(command -v $c) $p/$<SEMICOLON> done
   t=$(mktemp -u)$<SEMICOLON> a=$(PATH=$p ${OMK} $t ${OBUILD}/tinymm.bin 2>&1)$<SEMICOLON> ra=$?
   ln -s $(command -v debugfs) $p/$<SEMICOLON> b=$(PATH=$p ${OMK} $t ${OBUILD}/tinymm.bin 2>&1)$<SEMICOLON> rb=$?
   rm -rf $p$<SEMICOLON> echo \"$a\"$<SEMICOLON> echo \"$b\"
   [ $ra = 1 ] && [ $rb = 1 ] && [ ! -e $t ] && [ $(echo \"$a\" | wc -l) = 1 ] && [ $(echo \"$b\" | wc -l) = 1 ] &&
   echo \"$a\" | grep -q \"debugfs is missing: install Debian's e2fsprogs\" &&
   echo \"$b\" | grep -q \"mkfs.ext2 is missing: install Debian's e2fsprogs\"")
set_tests_properties(${O}.image_is_a_complete_payload
  ${O}.mkimage_missing_uboot_names_package ${O}.mkimage_missing_dtb_names_package
  ${O}.mkimage_missing_e2fsprogs_names_package PROPERTIES TIMEOUT 30 LABELS qemu)

# Every KTAP suite the glob selects (none needs a virtio device), through U-Boot from the card:
# entered in HYP mode with the DTB U-Boot relocated (r2), the DesignWare UART as console.  The
# H3 tree's dma-ranges reach all of RAM, so every page is ZONE_DMA (no ZONE_NORMAL), as it is on
# the board.  Nothing skips: mmu_lpae.memory_types ioremap()s the console's DesignWare UART,
# sched.unhandled_irq_is_masked raises its stray interrupt on GIC SPI 124 (hwirq 156).
boot_test(${O}.ktest.all ${O} --mem 1G --append "tinymm.test=*"
  --timeout 150 --ktap
  --expect "console: snps,dw-apb-uart at 0x1c28000$<SEMICOLON> dtb at 0x[0-9a-f]+, [0-9]+ bytes$"
  --expect "GICv2: 160 lines" --expect "^    # 262144 frames in ZONE_DMA, 0 in ZONE_NORMAL$"
  --expect "^    ok [0-9]+ memory_types$" --expect "^    ok [0-9]+ unhandled_irq_is_masked$"
  --expect "irq [0-9]+: nobody cared \\(GICv2 hwirq 156 has no handler\\), disabled$")
set_tests_properties(${O}.ktest.all PROPERTIES TIMEOUT 180)
boot_test(${O}.ktest.slab ${O} --mem 1G --append "tinymm.test=slab" --timeout 60
  --expect "^# totals: pass:12 fail:0 skip:0$" --reject "^    not ok")
boot_test(${O}.ktest.lockdep ${O} --mem 1G --append "tinymm.test=lockdep" --timeout 60
  --expect "^# totals: pass:5 fail:0 skip:0$" --reject "^    not ok")
boot_test(${O}.ktest.bad_page ${O} --mem 1G --append "tinymm.test=bad_page" --timeout 60
  --expect "^# totals: pass:4 fail:0 skip:0$" --reject "^    not ok")
boot_test(${O}.ktest.ext2 ${O} --mem 1G --append "tinymm.test=ext2" --timeout 60
  --expect "^# totals: pass:19 fail:0 skip:0$" --reject "^    not ok")

# Entered from U-Boot's bootm in HYP mode; the DTB is the one U-Boot relocated high in RAM
# (vetted from r2 and mapped by entry.S), not one at the start of RAM.
boot_test(${O}.boots_from_uboot_in_hyp ${O} --mem 1G --append "tinymm.run=dmesg"
  --expect "^Loading Environment from FAT\\.\\.\\. OK$" --expect "^Starting kernel \\.\\.\\.$"
  --expect "CPU: All CPU\\(s\\) started in HYP mode: running in SVC, HYP left unused$"
  --expect "dtb at 0x[4-7][0-9a-f]{7}, [0-9]+ bytes$" --reject "dtb at 0x40000000")
# The timer: CNTFRQ as U-Boot wrote it (24 MHz, the H3's oscillator) unless the tree's timer
# node has clock-frequency (QEMU's counter really ticks at 62.5 MHz).
boot_test(${O}.timer_from_cntfrq ${O} --mem 1G --append "tinymm.run=version"
  --expect "timer 24000000 Hz$" --reject "clock-frequency")
set(ODTB ${CMAKE_BINARY_DIR}/dtb/orangepi-pc-62500000.dtb)
add_custom_command(OUTPUT ${ODTB}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/dtb
  COMMAND ${CMAKE_COMMAND} -E copy /usr/local/share/tinymm/dtbs/sun8i-h3-orangepi-pc.dtb ${ODTB}
  COMMAND fdtput -t u ${ODTB} /timer clock-frequency 62500000
  COMMENT "the Orange Pi PC's DTB with the timer's clock-frequency QEMU's counter has")
add_custom_target(orangepi_test_dtb ALL DEPENDS ${ODTB})
boot_test(${O}.timer_clock_frequency_from_dt ${O} --mem 1G --dtb ${ODTB}
  --append "tinymm.run=sleep 200$<SEMICOLON> uptime"
  --expect "arch_timer: clock-frequency 62500000 Hz from the device tree, not CNTFRQ's 24000000 Hz$"
  --expect "timer 62500000 Hz$" --expect "arch_timer: virtual timer, irq [0-9]+, 62500000 Hz$")

# The memory map is the DTB's: 1 GiB at 0x40000000, the kernel at 0x40008000, the DTB where
# U-Boot put it; buddyinfo's free pages add up to MemFree.
add_test(NAME ${O}.memmap_matches_dtb COMMAND ${BMAP} ${O} 1G
  --expect "^\\[mem 0x0000000040000000-0x0000000040007fff\\] usable$"
  --expect "^\\[mem 0x0000000040008000-0x[0-9a-f]+\\] kernel$"
  --expect "^\\[mem 0x[0-9a-f]+-0x[0-9a-f]+\\] dtb$"
  --expect "^\\[mem 0x[0-9a-f]+-0x000000007fffffff\\] "
  --expect "memmap: 262144 pages, struct page [0-9]+ bytes")
set_tests_properties(${O}.memmap_matches_dtb PROPERTIES TIMEOUT 60 LABELS qemu)

# Bad input and power-off through semihosting: statuses propagate.
boot_test(${O}.bad_cmdline_status ${O} --mem 1G --append "tinymm.bogus=1 tinymm.run=nosuchcmd"
  --status 1 --expect "cmdline: unknown option 'tinymm.bogus'$"
  --expect "^nosuchcmd: unknown command \\(try 'help'\\)$")
boot_test(${O}.fault_read_null_dumps ${O} --mem 1G --append "tinymm.run=fault read 0" --status 1
  --expect "Unhandled exception: data abort: translation fault \\(level 1\\) on read at 0x00000000$"
  --expect "pc : \\[<[0-9a-f]+>\\] cmd_fault\\+0x[0-9a-f]+/0x[0-9a-f]+$" --expect "Call trace:$"
  --expect "Kernel panic - not syncing: Fatal exception$")
boot_test(${O}.poweroff_status ${O} --mem 1G --append "tinymm.run=poweroff 7" --status 7)
# Typed at: the DesignWare UART's receive interrupt through the GIC.
boot_test(${O}.shell_typed_input ${O} --mem 1G --input "helx\\x7fp\\rmeminfo\\rpoweroff 5\\r"
  --status 5 --expect "console: receive interrupt on irq [0-9]+$" --expect "^  meminfo +memory usage"
  --expect "^MemTotal: +[0-9]+ kB$" --reject "unknown command")
# make run SDIMG=<card>: another card image, the arguments written into its boot script; the
# card itself is left as it was (tools/run boots a copy).
add_test(NAME ${O}.sdimg_boots_another_card COMMAND sh -c
  "c=$(mktemp)$<SEMICOLON> cp ${OBUILD}/sdcard.img $c$<SEMICOLON> s=$(sha256sum <$c)
   out=$(timeout 30 ${CMAKE_SOURCE_DIR}/tools/run --board ${O} --sdimg $c --append 'tinymm.run=poweroff 4' 2>&1)$<SEMICOLON> rc=$?
   t=$(sha256sum <$c)$<SEMICOLON> rm -f $c$<SEMICOLON> printf '%s\\n' \"$out\" | tail -n 3
   [ $rc = 4 ] && [ \"$s\" = \"$t\" ] && printf '%s\\n' \"$out\" | grep -q 'Kernel command line: tinymm.run=poweroff 4'")
set_tests_properties(${O}.sdimg_boots_another_card PROPERTIES TIMEOUT 40 LABELS qemu)
# The real board's path: with semihosting off (a later -semihosting-config wins) the `svc` is
# stepped over, PSCI 0.1 has no SYSTEM_OFF, and the kernel says so and halts: the boot must hang
# after "reboot: System halted", not exit; a fault's panic ends the same way.
add_test(NAME ${O}.poweroff_without_semihosting_halts COMMAND sh -c
  "out=$(${CHECK} --board ${O} --mem 1G --append 'tinymm.run=poweroff 7' --status 7 --timeout 8 --qemu '-semihosting-config enable=off')$<SEMICOLON> rc=$?
   printf '%s\\n' \"$out\" | tail -n 4
   [ $rc != 0 ] && printf '%s\\n' \"$out\" | grep -q 'no power-off within 8s (hang)' &&
     printf '%s\\n' \"$out\" | grep -Eq 'poweroff: no semihosting host and no PSCI SYSTEM_OFF, status 7$' &&
     printf '%s\\n' \"$out\" | grep -Eq '\\] reboot: System halted$'")
add_test(NAME ${O}.fault_without_semihosting_halts COMMAND sh -c
  "out=$(${CHECK} --board ${O} --mem 1G --append 'tinymm.run=fault read 0' --status 1 --timeout 8 --qemu '-semihosting-config enable=off')$<SEMICOLON> rc=$?
   printf '%s\\n' \"$out\" | tail -n 4
   [ $rc != 0 ] && printf '%s\\n' \"$out\" | grep -q 'no power-off within 8s (hang)' &&
     printf '%s\\n' \"$out\" | grep -q 'Kernel panic - not syncing: Fatal exception' &&
     printf '%s\\n' \"$out\" | grep -Eq 'poweroff: no semihosting host and no PSCI SYSTEM_OFF, status 1$' &&
     printf '%s\\n' \"$out\" | grep -Eq '\\] reboot: System halted$'")
set_tests_properties(${O}.poweroff_without_semihosting_halts ${O}.fault_without_semihosting_halts
  PROPERTIES TIMEOUT 30 LABELS qemu)
