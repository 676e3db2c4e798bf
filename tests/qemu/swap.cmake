# Swap end to end (issue 39, docs/swap.md; tests/qemu/swap_test.sh, /bin/anonhog in docs/user.md).
# The root filesystem is vda, the swap disk vdb: a sparse file the host's mkswap (util-linux,
# /sbin/mkswap) formats at test time.  One boot each:
#   swap.<board>          32 MiB of RAM, 256 MiB of swap: three /bin/anonhog 32 at once (3x RAM)
#                         all come back exact (one of them, -f, checks once through write(2)
#                         and read(2): the kernel's own faults on swapped-out user pages);
#                         swaps lists /dev/vdb; meminfo SwapTotal/SwapFree/SwapCached;
#                         vmstat pswpout and pswpin >= 2048; SwapFree back to SwapTotal
#                         after; then a sleeping anonhog 12 pushed out by an anonhog 40,
#                         `swapoff vdb` brings it back (SwapTotal 0 kB, no swap-in afterwards)
#                         and the sleeper, woken, finds its memory exact; buddycheck, slabcheck
#   swap.<board>.partition   the area on a partition (vdb1, type 82, of an MBR disk): anonhog
#                         48 on 32 MiB through it; swaps lists /dev/vdb1 (65532 kB); after
#                         power-off the MBR and partition 2 (seeded bytes) are untouched
#   swap.<board>.bad      swapon of an all-zero disk, of a header whose last_page is beyond the
#                         device (mkswap 64 MiB, truncated to 16), of a version-2 header, of a
#                         device already on (by both names), of a missing device, and swapoff of
#                         an area not on: one "swapon|swapoff: <dev>: <reason>" line each,
#                         nothing written to the refused disks, the good area still on
#   swap.<board>.noroom   32 MiB of RAM, a sleeping anonhog 64: swapoff refused in one line,
#                         vdb still on, the 64 MiB exact when woken, then swapoff works
#   swap.<board>.oom      32 MiB of RAM, 64 MiB of swap: /bin/oom is killed only once the swap
#                         is full ("Free swap  = 0kB" in the OOM report), its slots come back
#   swap.<board>.ioerr    vdb through QEMU's blkdebug (reads fail after the first write):
#                         anonhog 48 is killed (the shell's "killed by signal", the kernel's
#                         "anonhog[<pid>]: swap-in of 0x<addr> failed: <why>"), an mlocked
#                         anonhog 4 beside it and an anonhog 8 after it exit exact, no OOM
#                         kill, swapoff works
#   swap.<board>.sysfuzz  /bin/sysfuzz 1 20000 on 32 MiB with swap on and anonhog -p 8 40
#                         swapping beside it: both end well, SwapFree back, swapoff works
#   The six variants run by default on qemu-virt-arm; the RISC-V boards' are label long
#   (`make test-long`), as the same code on another architecture.  swap.<board> runs on all.
#   anonhog.<board>       /bin/anonhog -p 4 192 without swap on 256 MiB: the program's checks
#                         pass on memory that never left RAM (4 passes, every order); then
#                         anonhog -f /mnt/k 32 (pass 2 through write/read of a file) passes too
#                         and removes its file
#   anonhog.<board>.catches_mismatch   anonhog -x 5 8 flips one bit of page 5 after the fill:
#                         it must print "anonhog: mismatch at page 5 word 3: ..." and exit 1
#                         (the checker the swap tests rely on does catch a wrong word)
# The virt boards only here.  The SD-card boards' swap (partition 3 of the card, mmcblk0p3,
# tests/qemu/swap_sd_test.sh) is tests/qemu/swap_opi.cmake's swap.orangepi-pc and swap.raspi2b
# and tests/qemu/swap_hifive.cmake's swap.hifive-unleashed.
set(SWAP_TEST ${CMAKE_CURRENT_LIST_DIR}/swap_test.sh)
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  add_test(NAME swap.${b} COMMAND ${SWAP_TEST} ${b} pressure)
  set_tests_properties(swap.${b} PROPERTIES TIMEOUT 300 LABELS qemu)
  foreach(c partition bad noroom oom ioerr sysfuzz)
    add_test(NAME swap.${b}.${c} COMMAND ${SWAP_TEST} ${b} ${c})
    if(b STREQUAL qemu-virt-arm)
      set_tests_properties(swap.${b}.${c} PROPERTIES TIMEOUT 300 LABELS qemu)
    else()
      set_tests_properties(swap.${b}.${c} PROPERTIES TIMEOUT 300 LABELS "qemu;long")
    endif()
  endforeach()
  boot_test(anonhog.${b} ${b} --rootfs
    --append "tinymm.run=exec /bin/anonhog -p 4 192$<SEMICOLON> exec /bin/anonhog -s 2 -f /mnt/k 32$<SEMICOLON> ls /mnt"
    --expect "^anonhog: all ok \\(192 MiB, seed 1, 4 passes\\)$"
    --expect "^anonhog: 192 MiB checked strided$"
    --expect "^anonhog: 32 MiB checked through the kernel$"
    --expect "^anonhog: all ok \\(32 MiB, seed 2, 3 passes\\)$"
    --reject "^/bin/anonhog: exited with status [1-9]" --reject "mismatch" --reject "^k$")
  boot_test(anonhog.${b}.catches_mismatch ${b} --rootfs --append "tinymm.run=exec /bin/anonhog -x 5 8"
    --status 1 --expect "^anonhog: mismatch at page 5 word 3: got 0x[0-9a-f]{8} want 0x[0-9a-f]{8}$"
    --expect "^/bin/anonhog: exited with status 1$" --reject "all ok")
endforeach()
