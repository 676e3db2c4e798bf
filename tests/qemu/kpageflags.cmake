# kpageflags (mm/kpageflags.c, tools/kpageflags-extract, tools/pagemap.py; docs/kpageflags.md).
# Included from the end of tests/qemu/tests.cmake, so boot_test() and TINYMM_BOARDS are known.

# The host tools on a captured RV32 console log (tests/host/data/kpageflags-rv32.log): the file
# byte for byte, every error exit, page-types' table text, the PNG's size and colours.
add_test(NAME host.kpageflags_tools COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/kpageflags_tools.sh)

foreach(b ${TINYMM_BOARDS})
  # The first pfn of RAM, where QEMU's virt machines put it.
  if(b STREQUAL qemu-virt-arm)
    set(first 0x40000)
  else()
    set(first 0x80000)
  endif()
  # All of RAM (256M: 65536 lines) through the extractor, pagemap.py's table and PNG; what it
  # made stays in build/host/kpageflags/<board>.{log,bin,txt,png} for a person to look at.
  add_test(NAME ${b}.kpageflags.whole_ram COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/kpageflags_boot.sh
    --board ${b} --pfn ${first} --out ${CMAKE_BINARY_DIR}/kpageflags)
  set_tests_properties(${b}.kpageflags.whole_ram PROPERTIES TIMEOUT 90 LABELS qemu)
  # The frame's text on the console: a hole below RAM, RAM's first frame, a usage error, and a
  # huge count from RAM's last two frames, cut at max_pfn (the end of 256M of RAM).
  math(EXPR max_pfn "${first} + 0x10000" OUTPUT_FORMAT HEXADECIMAL)
  math(EXPR near_end "${max_pfn} - 2" OUTPUT_FORMAT HEXADECIMAL)
  boot_test(${b}.kpageflags.frame_and_usage ${b}
    --append "tinymm.run=kpageflags 0 2$<SEMICOLON> kpageflags ${first} 1$<SEMICOLON> kpageflags ${first}$<SEMICOLON> kpageflags ${near_end} 0x10000000"
    --status 1 --expect "^--- kpageflags begin pfn=0x0 count=2 ---$" --expect "^0x1 0x0000000000100000$"
    --expect "^--- kpageflags end count=2 ---$" --expect "^${first} 0x0000000100000000$"
    --expect "^kpageflags: usage: kpageflags <pfn> <count>$"
    --expect "^--- kpageflags begin pfn=${near_end} count=2 ---$"
    --expect "^kpageflags: stopped at pfn ${max_pfn} \\(max_pfn\\)$")
endforeach()
