# mem=nn[KMG], Linux's "force usage of a specific amount of memory" (docs/memblock.md, "mem="),
# included from tests/qemu/tests.cmake:
#   <board>.mem_limit            mem=64M: the map keeps exactly the lowest 64 MiB of RAM
#                                (board_memmap.sh --memcheck --ram 64M: the regions add up to 64M,
#                                MemTotal is their usable part and the Memory: line's figure,
#                                buddyinfo's free pages add up to MemFree), the info line names
#                                the range removed; where the DTB lay above 64 MiB it is copied
#                                into what is left
#   <board>.mem_limit_bad        mem=0 and mem=64MB: one "bad value" line each, all RAM kept
#   <board>.mem_limit_too_large  mem= not below the RAM: one line, all RAM kept
#   <board>.mem_limit_too_small  mem=1M: raised to the kernel image's end + 16 MiB, one line
set(BMAP ${CMAKE_CURRENT_LIST_DIR}/board_memmap.sh)
set(MEMRUN "tinymm.run=memmap$<SEMICOLON> buddyinfo$<SEMICOLON> meminfo")
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32 hifive-unleashed orangepi-pc raspi2b)
  set(mem 1G)
  set(ram 1024M)
  set(moved "")
  if(b STREQUAL "hifive-unleashed")
    set(mem 8G)
    set(ram 8192M)
  elseif(b STREQUAL "raspi2b")
    set(ram 960M)		# 960 MiB for the ARM (the GPU keeps the rest)
  endif()
  # The DTB above 64 MiB (RISC-V virt: the top of RAM; U-Boot's relocated copy; the Pi's
  # 0x08000000) is no longer RAM: copied below the limit.  ARM virt's is at the start of RAM.
  if(NOT b STREQUAL "qemu-virt-arm")
    set(moved --expect "dt: at 0x[0-9a-f]+, outside RAM: copied to 0x[0-9a-f]+$")
  endif()
  add_test(NAME ${b}.mem_limit COMMAND ${BMAP} ${b} ${mem} --ram 64M
    --append "mem=64M ${MEMRUN}"
    --expect "mem=65536K: \\[mem 0x[0-9a-f]{16}-0x[0-9a-f]{16}\\] removed, 65536K of RAM left$"
    --expect "^Memory: [0-9]+K/65536K available " ${moved})
  add_test(NAME ${b}.mem_limit_bad COMMAND ${BMAP} ${b} ${mem} --ram ${ram}
    --append "mem=0 mem=64MB ${MEMRUN}"
    --expect "cmdline: bad value for option 'mem'$" --reject "removed, [0-9]+K of RAM left$")
  set_tests_properties(${b}.mem_limit ${b}.mem_limit_bad PROPERTIES TIMEOUT 60 LABELS qemu)
endforeach()
# The two other refusals, once each on an ARM board and a RISC-V one (the policy itself is
# host.memblock's apply_memory_limit_policy, exactly).
add_test(NAME raspi2b.mem_limit_too_large COMMAND ${BMAP} raspi2b 1G --ram 960M
  --append "mem=1G ${MEMRUN}"
  --expect "mem=1048576K is not below the 983040K of RAM: no limit$")
add_test(NAME qemu-virt-riscv32.mem_limit_too_small COMMAND ${CHECK} --board qemu-virt-riscv32
  --append "mem=1M tinymm.run=meminfo"
  --expect "mem=1024K is below the [0-9]+K tinymm needs \\(RAM to the kernel image's end, and 16M more\\): raised to it, \\[mem 0x[0-9a-f]{16}-0x000000008fffffff\\] removed$"
  --expect "^MemTotal: +1[0-9]{4} kB$")
set_tests_properties(raspi2b.mem_limit_too_large qemu-virt-riscv32.mem_limit_too_small PROPERTIES
  TIMEOUT 60 LABELS qemu)
