# The allocator's text commands on every board (mm/vmstat.c, mm/vmstat_show.c; docs/vmstat.md),
# and the check that no kernel image links the C library's heap.  Included from the end of
# tests/qemu/tests.cmake, so boot_test() and TINYMM_BOARDS are known.  The exact text is held by
# tests/host/vmstat_test.c; here each board shows the line shapes and its own layout.

# One field of buddyinfo/pagetypeinfo's free counts ("%6lu ") and of the block counts ("%12lu ").
set(VS_F6 "[ 0-9]{5}[0-9] ")
set(VS_F12 "[ 0-9]{11}[0-9] ")
set(VS_ORDERS "(${VS_F6}){11}")

foreach(b ${TINYMM_BOARDS})
  # The first RAM frame, where QEMU's virt machines put it; ZONE_DMA below 16 MiB above it.
  if(b STREQUAL qemu-virt-arm)
    set(first 0x40000)
    set(first_dec 262144)
    set(dma_limit 0x41000000)
  else()
    set(first 0x80000)
    set(first_dec 524288)
    set(dma_limit 0x81000000)
  endif()
  math(EXPR normal_dec "${first_dec} + 4096")
  math(EXPR last "${first} + 65535" OUTPUT_FORMAT HEXADECIMAL)
  string(REGEX REPLACE "^0x" "" first_hex ${first})

  # /proc/buddyinfo: one line per populated zone, eleven "%6lu " counts.
  boot_test(${b}.vmstat.buddyinfo ${b} --append "tinymm.zone_dma_limit=${dma_limit} tinymm.run=buddyinfo"
    --expect "^Node 0, zone      DMA ${VS_ORDERS}$" --expect "^Node 0, zone   Normal ${VS_ORDERS}$"
    --reject "^Node 0, zone  Movable")

  # /proc/pagetypeinfo at boot: every 4 MiB pageblock of 256 MiB is Movable, as in Linux, but
  # one: the first threads' stacks and task_structs (unmovable) claimed it.
  boot_test(${b}.vmstat.pagetypeinfo ${b} --append "tinymm.run=pagetypeinfo"
    --expect "^Page block order: 10$" --expect "^Pages per block:  1024$"
    --expect "^Free pages count per migrate type at order       0      1      2      3      4      5      6      7      8      9     10 $"
    --expect "^Node    0, zone   Normal, type    Unmovable ${VS_ORDERS}$"
    --expect "^Node    0, zone   Normal, type      Movable ${VS_ORDERS}$"
    --expect "^Node    0, zone   Normal, type  Reclaimable (     0 ){11}$"
    --expect "^Number of blocks type     Unmovable      Movable  Reclaimable $"
    --expect "^Node 0, zone   Normal            1           63            0 $"
    --reject "HighAtomic|Isolate|CMA|zone      DMA")
  # Two zones, and a pageblock taken over by an unmovable allocation.
  boot_test(${b}.vmstat.pagetypeinfo_two_zones ${b}
    --append "tinymm.zone_dma_limit=${dma_limit} tinymm.run=alloc 10$<SEMICOLON> pagetypeinfo"
    --expect "^alloc: order 10 pfn 0x[0-9a-f]+$"
    --expect "^Node    0, zone      DMA, type      Movable ${VS_ORDERS}$"
    --expect "^Node    0, zone   Normal, type    Unmovable ${VS_ORDERS}$"
    --expect "^Node 0, zone      DMA            0            4            0 $"
    --expect "^Node 0, zone   Normal            2           58            0 $")

  # /proc/zoneinfo: each zone's block, the empty ones cut short after protection.
  boot_test(${b}.vmstat.zoneinfo ${b} --append "tinymm.zone_dma_limit=${dma_limit} tinymm.run=zoneinfo"
    --expect "^Node 0, zone      DMA$" --expect "^Node 0, zone   Normal$" --expect "^Node 0, zone  Movable$"
    --expect "^  pages free     [1-9][0-9]*$" --expect "^        boost    0$"
    --expect "^        min      [1-9][0-9]*$" --expect "^        low      [1-9][0-9]*$"
    --expect "^        high     [1-9][0-9]*$"
    --expect "^        spanned  4096$" --expect "^        present  4096$"
    --expect "^        spanned  61440$" --expect "^        present  61440$"
    --expect "^        managed  [1-9][0-9]*$" --expect "^        cma      0$"
    --expect "^        protection: \\(0, 0, 0\\)$" --expect "^      nr_free_pages [1-9][0-9]*$"
    --expect "^  pagesets$" --expect "^    cpu: 0$" --expect "^              count: [0-9]+$"
    --expect "^              high:  [0-9]+$" --expect "^              batch: [0-9]+$"
    --expect "^  start_pfn:           ${first_dec}$" --expect "^  start_pfn:           ${normal_dec}$"
    --reject "promo|per-node stats|node_unreclaimable|high_min")

  # fragmap: the legend, one line of 64 pageblocks (the kernel's and the memmap's blocks partly
  # used: one or two at the start, as the image now crosses the first 4 MiB boundary on RV64
  # (OpenSBI loads it 2 MiB in); one block claimed by the first threads' unmovable stacks), an
  # order-10 block taken whole, one zone by name, and a name that is no zone.
  boot_test(${b}.vmstat.fragmap ${b}
    --append "tinymm.run=fragmap$<SEMICOLON> alloc 10$<SEMICOLON> fragmap normal$<SEMICOLON> fragmap HighMem"
    --status 1
    --expect "^legend: \\. free  U M R in use \\(Unmovable Movable Reclaimable block\\)  u m r partly free  # reserved  _ no memory$"
    --expect "^Node 0, zone   Normal: pfn ${first}-${last}, 64 pageblocks of 1024 frames$"
    --expect "^0x000${first_hex} mm?\\.+u[.m]*m$"
    --expect "^0x000${first_hex} mm?\\.*U[.mu]*m$"
    --expect "^fragmap: no zone 'HighMem' \\(zones: DMA Normal Movable\\)$")
  boot_test(${b}.vmstat.fragmap_dma ${b}
    --append "tinymm.zone_dma_limit=${dma_limit} tinymm.run=fragmap DMA$<SEMICOLON> fragmap Movable"
    --status 1
    --expect "^Node 0, zone      DMA: pfn ${first}-0x[0-9a-f]+fff, 4 pageblocks of 1024 frames$"
    --expect "^0x000${first_hex} (m\\.|mm)\\.\\.$"
    --expect "^fragmap: zone Movable has no memory$" --reject "zone   Normal:")
endforeach()

# "The kernel links no malloc": each image's symbol table (the board toolchain's nm) must neither
# define nor reference the C library's heap (tests/qemu/no_malloc.sh).

foreach(b ${TINYMM_BOARDS})
  file(STRINGS ${CMAKE_SOURCE_DIR}/board/${b}/board.cmake tc REGEX "^set\\(TINYMM_TOOLCHAIN ")
  string(REGEX REPLACE "^set\\(TINYMM_TOOLCHAIN ([^ )]+).*" "\\1" tc "${tc}")
  file(STRINGS ${CMAKE_SOURCE_DIR}/cmake/toolchain-${tc}.cmake nm REGEX "^set\\(CMAKE_NM ")
  if(NOT nm MATCHES "^set\\(CMAKE_NM ([^ )]+)")
    message(FATAL_ERROR "tests/qemu/vmstat.cmake: no CMAKE_NM in cmake/toolchain-${tc}.cmake for ${b}")
  endif()
  add_test(NAME ${b}.image.no_malloc COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/no_malloc.sh ${CMAKE_MATCH_1}
    ${CMAKE_SOURCE_DIR}/build/${b}/tinymm.elf)
  set_tests_properties(${b}.image.no_malloc PROPERTIES TIMEOUT 30)
endforeach()

# The check itself catches a reference: an object that calls malloc (host compiler and nm) fails
# with that one line.
add_test(NAME host.no_malloc_catches_malloc COMMAND sh -c
  "printf 'void *malloc(unsigned long)$<SEMICOLON> void alloc_pages(void) {} void *f(void) { return malloc(1)$<SEMICOLON> }\\n' | ${CMAKE_C_COMPILER} -x c -c -o no_malloc_probe.o - || exit 2
   out=$(${CMAKE_SOURCE_DIR}/tests/qemu/no_malloc.sh ${CMAKE_NM} no_malloc_probe.o)$<SEMICOLON> rc=$?
   echo \"$out\"$<SEMICOLON> [ $rc = 1 ] && [ \"$out\" = \"no_malloc: no_malloc_probe.o links the C library's heap: malloc \" ]"
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR})
