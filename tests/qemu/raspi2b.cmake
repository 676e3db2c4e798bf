# Raspberry Pi 2 Model B (-M raspi2b): QEMU boots the boot folder build/raspi2b/boot as the
# firmware reads it (tools/run: config.txt's kernel= and device_tree=, cmdline.txt then the
# test's --append as bootargs); kernel7.img is loaded at 0x10000 and moves itself to 0x8000.
# The ARM has 960 MiB at 0 (the GPU keeps 64 MiB of the fixed 1 GiB); no virtio, no Goldfish.
# Included from tests/qemu/tests.cmake (boot_test, CHECK are set there).
set(R raspi2b)
set(RBUILD ${CMAKE_SOURCE_DIR}/build/${R})
set(RBOOT ${RBUILD}/boot)
set(RMK ${CMAKE_SOURCE_DIR}/board/${R}/mkimage.sh)
set(RDTB_DEBIAN /usr/local/share/tinymm/dtbs/bcm2836-rpi-2-b.dtb)

# The artifact: every loaded byte (tools/check-image), and the folder as a person copies it.
add_test(NAME ${R}.image_is_a_complete_payload COMMAND ${CMAKE_SOURCE_DIR}/tools/check-image
  arm-none-eabi-nm arm-none-eabi-objcopy ${RBUILD}/tinymm.elf ${RBOOT}/kernel7.img)
add_test(NAME ${R}.boot_folder_layout COMMAND sh -c
  "cd ${RBOOT} && ls -1 && cat config.txt &&
   [ \"$(ls -1 | tr '\\n' ' ')\" = 'bcm2836-rpi-2-b.dtb cmdline.txt config.txt kernel7.img ' ] &&
   grep -qx 'kernel=kernel7.img' config.txt && grep -qx 'device_tree=bcm2836-rpi-2-b.dtb' config.txt &&
   grep -qx 'enable_uart=1' config.txt && [ $(wc -l <cmdline.txt) = 1 ] &&
   cmp kernel7.img ${RBUILD}/tinymm.bin && cmp bcm2836-rpi-2-b.dtb ${RDTB_DEBIAN}")
# A missing input is one line naming the Debian package, and nothing is written.
add_test(NAME ${R}.mkimage_missing_dtb_names_package COMMAND sh -c
  "t=$(mktemp -u)$<SEMICOLON> out=$(RASPI_DTB=/nonexistent ${RMK} $t ${RBUILD}/tinymm.bin 2>&1)$<SEMICOLON> rc=$?
   echo \"$out\"$<SEMICOLON> [ $rc = 1 ] && [ ! -e $t ] && [ $(echo \"$out\" | wc -l) = 1 ] &&
   echo \"$out\" | grep -q \"linux-image-armmp:armhf\"")
# --args is cmdline.txt, which tools/run hands over as the firmware would: a folder made with
# its own arguments boots with them (tools/run --kernel FOLDER).
add_test(NAME ${R}.cmdline_txt_is_the_command_line COMMAND sh -c
  "d=$(mktemp -d)/boot$<SEMICOLON> ${RMK} --args 'tinymm.run=poweroff 4' $d ${RBUILD}/tinymm.bin || exit 1
   out=$(timeout 30 ${CMAKE_SOURCE_DIR}/tools/run --board ${R} --kernel $d 2>&1)$<SEMICOLON> rc=$?
   rm -rf $(dirname $d)$<SEMICOLON> printf '%s\\n' \"$out\" | tail -n 3
   [ $rc = 4 ] && printf '%s\\n' \"$out\" | grep -q 'Kernel command line: tinymm.run=poweroff 4'")
set_tests_properties(${R}.image_is_a_complete_payload ${R}.boot_folder_layout
  ${R}.mkimage_missing_dtb_names_package ${R}.cmdline_txt_is_the_command_line
  PROPERTIES TIMEOUT 40 LABELS qemu)

# Every KTAP suite the glob selects (none needs a virtio device), none skipped: the BCM2836
# per-core controller as root with the ARM-control one chained on its GPU line, the PL011
# console; all of RAM is ZONE_DMA (the tree's dma-ranges reach 0x3f000000); the stray
# interrupt of sched.unhandled_irq_is_masked and arm_irq's lines are the boot core's mailboxes.
# Under -icount (guest time tied to instructions), as the HiFive's and the virt boards'
# all_icount: on a loaded 2-core host this model's wall-clock timing once stretched the sched
# suite's msleep(20) to 85 ms and let an earlier case's thread exit inside a later case.
# (The Orange Pi PC's ktest.all stays on wall-clock time: under -icount its U-Boot-booted model
# hangs in the timer suite.)
boot_test(${R}.ktest.all ${R} --mem 1G --append "tinymm.test=*" --timeout 150 --ktap
  --qemu "-icount shift=10,sleep=off"
  --expect "console: arm,pl011 at 0x3f201000$<SEMICOLON> dtb at 0x8000000, [0-9]+ bytes$"
  --expect "bcm2836-l1: local_intc@40000000 at 0x40000000, core 0, 10 lines$"
  --expect "bcm2835-armctrl: interrupt-controller@7e00b200 at 0x3f00b200, 72 lines, chained to irq [0-9]+$"
  --expect "^    # 245760 frames in ZONE_DMA, 0 in ZONE_NORMAL$"
  --expect "irq [0-9]+: nobody cared \\(bcm2836-l1 hwirq 6 has no handler\\), disabled$"
  --expect "^    ok [0-9]+ unhandled_irq_is_masked$" --expect "^    ok [0-9]+ memory_types$")
set_tests_properties(${R}.ktest.all PROPERTIES TIMEOUT 180)
boot_test(${R}.ktest.slab ${R} --mem 1G --append "tinymm.test=slab" --timeout 60
  --expect "^# totals: pass:12 fail:0 skip:0$" --reject "^    not ok")
boot_test(${R}.ktest.lockdep ${R} --mem 1G --append "tinymm.test=lockdep" --timeout 60
  --expect "^# totals: pass:5 fail:0 skip:0$" --reject "^    not ok")
boot_test(${R}.ktest.bad_page ${R} --mem 1G --append "tinymm.test=bad_page" --timeout 60
  --expect "^# totals: pass:4 fail:0 skip:0$" --reject "^    not ok")
boot_test(${R}.ktest.ext2 ${R} --mem 1G --append "tinymm.test=ext2" --timeout 60
  --expect "^# totals: pass:19 fail:0 skip:0$" --reject "^    not ok")
add_test(NAME ${R}.ktest.must_fail_is_caught COMMAND sh -c
  "out=$(${CHECK} --board ${R} --mem 1G --append tinymm.test=ktest_must_fail --status 1 --ktap)$<SEMICOLON> rc=$?
   printf '%s\\n' \"$out\" | tail -n 3
   [ $rc = 1 ] && printf '%s\\n' \"$out\" | grep -q '^boot_check: FAIL: KTAP cases failed:$' &&
     printf '%s\\n' \"$out\" | grep -q '^    not ok 1 fails_on_purpose$'")
set_tests_properties(${R}.ktest.must_fail_is_caught PROPERTIES TIMEOUT 60 LABELS qemu)

# The memory map is the DTB's as QEMU patched it: 960 MiB at 0, the /memreserve/ page at 0, the
# kernel at 0x8000 (moved there from QEMU's 0x10000), the DTB at 0x08000000; buddyinfo's free
# pages add up to MemFree.  The same check fails when it is told the tree has all 1 GiB.
set(BMAP ${CMAKE_CURRENT_LIST_DIR}/board_memmap.sh)
add_test(NAME ${R}.memmap_matches_dtb COMMAND ${BMAP} ${R} 1G --ram 960M
  --expect "^\\[mem 0x0000000000000000-0x0000000000000fff\\] reserved$"
  --expect "^\\[mem 0x0000000000001000-0x0000000000007fff\\] usable$"
  --expect "^\\[mem 0x0000000000008000-0x[0-9a-f]+\\] kernel$"
  --expect "^\\[mem 0x0000000008000000-0x[0-9a-f]+\\] dtb$"
  --expect "^\\[mem 0x[0-9a-f]+-0x000000003bffffff\\] "
  --expect "memmap: 245760 pages, struct page [0-9]+ bytes")
add_test(NAME ${R}.memcheck_catches_wrong_size COMMAND sh -c
  "out=$(${BMAP} ${R} 1G)$<SEMICOLON> rc=$?$<SEMICOLON> printf '%s\\n' \"$out\" | tail -n 3
   [ $rc != 0 ] && printf '%s\\n' \"$out\" | grep -q 'memmap covers 1006632960 bytes, QEMU was given 1073741824'")
set_tests_properties(${R}.memmap_matches_dtb ${R}.memcheck_catches_wrong_size PROPERTIES
  TIMEOUT 60 LABELS qemu)

# QEMU's entry: SVC at 0x10000 (the image moves itself down to 0x8000, where it is linked).
boot_test(${R}.boots_from_qemu_in_svc ${R} --mem 1G --append "tinymm.run=dmesg"
  --expect "CPU: All CPU\\(s\\) started in SVC mode\\.$"
  --expect "cpus: 4 in the device tree, booting on hart/cpu 0xf00$<SEMICOLON> timer 62500000 Hz$")
# The firmware's entry: non-secure HYP at 0x8000 (no move), r2 = a DTB the firmware patched
# (memory, bootargs), CPUs 1-3 parked: tests/qemu/raspi2b_armstub.S from QEMU's reset state.
set(RSTUB ${CMAKE_BINARY_DIR}/raspi2b/armstub.bin)
set(RFWDTB ${CMAKE_BINARY_DIR}/raspi2b/firmware.dtb)
add_custom_command(OUTPUT ${RSTUB} ${RFWDTB}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/raspi2b
  COMMAND arm-none-eabi-gcc -nostdlib -Wl,-Ttext=0 -o ${CMAKE_BINARY_DIR}/raspi2b/armstub.elf
          ${CMAKE_CURRENT_LIST_DIR}/raspi2b_armstub.S
  COMMAND arm-none-eabi-objcopy -O binary ${CMAKE_BINARY_DIR}/raspi2b/armstub.elf ${RSTUB}
  COMMAND ${CMAKE_COMMAND} -E copy ${RDTB_DEBIAN} ${RFWDTB}
  COMMAND fdtput -t x ${RFWDTB} /memory@0 reg 0 3c000000
  COMMAND fdtput -t s ${RFWDTB} /chosen bootargs "tinymm.run=dmesg$<SEMICOLON> memmap$<SEMICOLON> poweroff 6"
  DEPENDS ${CMAKE_CURRENT_LIST_DIR}/raspi2b_armstub.S
  COMMENT "raspi2b: a firmware-like entry stub and the DTB the firmware would pass" VERBATIM)
add_custom_target(raspi2b_test_stub ALL DEPENDS ${RSTUB} ${RFWDTB})
set(RFW ${CMAKE_CURRENT_LIST_DIR}/raspi2b_firmware_boot.sh)
add_test(NAME ${R}.boots_as_the_firmware_does COMMAND ${RFW} ${RSTUB} ${RBOOT}/kernel7.img ${RFWDTB} 6
  --expect "CPU: All CPU\\(s\\) started in HYP mode: running in SVC, HYP left unused$"
  --expect "dtb at 0x1000000, [0-9]+ bytes$"
  --expect "^\\[mem 0x0000000000008000-0x[0-9a-f]+\\] kernel$"
  --expect "^\\[mem 0x[0-9a-f]+-0x000000003bffffff\\] ")
set_tests_properties(${R}.boots_as_the_firmware_does PROPERTIES TIMEOUT 40 LABELS qemu)

# Bad input and power-off through semihosting: statuses propagate.
boot_test(${R}.bad_cmdline_status ${R} --mem 1G --append "tinymm.bogus=1 tinymm.run=nosuchcmd"
  --status 1 --expect "cmdline: unknown option 'tinymm.bogus'$"
  --expect "^nosuchcmd: unknown command \\(try 'help'\\)$")
boot_test(${R}.fault_read_null_dumps ${R} --mem 1G --append "tinymm.run=fault read 0" --status 1
  --expect "Unhandled exception: data abort: translation fault \\(level 1\\) on read at 0x00000000$"
  --expect "pc : \\[<[0-9a-f]+>\\] cmd_fault\\+0x[0-9a-f]+/0x[0-9a-f]+$" --expect "Call trace:$"
  --expect "Kernel panic - not syncing: Fatal exception$")
boot_test(${R}.poweroff_status ${R} --mem 1G --append "tinymm.run=poweroff 7" --status 7)
# A tree without a memory node (QEMU's -dtb would add one, so through the firmware-like entry):
# one line, power-off with status 1.
set(RNOMEM ${CMAKE_BINARY_DIR}/raspi2b/no-memory.dtb)
add_custom_command(OUTPUT ${RNOMEM}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/raspi2b
  COMMAND ${CMAKE_COMMAND} -E copy ${RDTB_DEBIAN} ${RNOMEM}
  COMMAND fdtput -r ${RNOMEM} /memory@0
  COMMENT "raspi2b: the Pi's DTB without its memory node")
add_custom_target(raspi2b_test_dtb ALL DEPENDS ${RNOMEM})
add_test(NAME ${R}.dtb_without_memory_fails COMMAND ${RFW} ${RSTUB} ${RBOOT}/kernel7.img ${RNOMEM} 1
  --expect "dt: no /memory node \\(device_type = \"memory\"\\): RAM unknown$")
set_tests_properties(${R}.dtb_without_memory_fails PROPERTIES TIMEOUT 40 LABELS qemu)
# Typed at: the PL011's receive interrupt, through the ARM-control controller chained on the
# per-core one.
boot_test(${R}.shell_typed_input ${R} --mem 1G --input "helx\\x7fp\\rirqs\\rpoweroff 5\\r"
  --status 5 --expect "console: receive interrupt on irq [0-9]+$" --expect "^  meminfo +memory usage"
  --expect "^ +[0-9]+: +[1-9][0-9]* bcm2835-armctrl +89 Level +console$" --reject "unknown command")
# The real board's path: with semihosting off (a later -semihosting-config wins) the `svc` is
# stepped over and the PM block's watchdog halts the SoC, which QEMU's model turns into the end
# of the emulation: exit 0 (the watchdog carries no status; the console says so).  A fault's
# panic ends the same way.
add_test(NAME ${R}.poweroff_without_semihosting_uses_watchdog COMMAND sh -c
  "out=$(${CHECK} --board ${R} --mem 1G --append 'tinymm.run=poweroff 7' --status 0 --timeout 20 --qemu '-semihosting-config enable=off')$<SEMICOLON> rc=$?
   printf '%s\\n' \"$out\" | tail -n 4
   [ $rc = 0 ] && printf '%s\\n' \"$out\" | grep -Eq 'poweroff: no semihosting host: the board.s power controller, status 7 not carried$' &&
     printf '%s\\n' \"$out\" | grep -Eq '\\] reboot: Power down$' &&
     ! printf '%s\\n' \"$out\" | grep -q 'System halted'")
add_test(NAME ${R}.fault_without_semihosting_uses_watchdog COMMAND sh -c
  "out=$(${CHECK} --board ${R} --mem 1G --append 'tinymm.run=fault read 0' --status 0 --timeout 20 --qemu '-semihosting-config enable=off')$<SEMICOLON> rc=$?
   printf '%s\\n' \"$out\" | tail -n 4
   [ $rc = 0 ] && printf '%s\\n' \"$out\" | grep -q 'Kernel panic - not syncing: Fatal exception' &&
     printf '%s\\n' \"$out\" | grep -Eq '\\] reboot: Power down$'")
set_tests_properties(${R}.poweroff_without_semihosting_uses_watchdog
  ${R}.fault_without_semihosting_uses_watchdog PROPERTIES TIMEOUT 40 LABELS qemu)
