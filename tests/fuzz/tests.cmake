# libFuzzer target for the device-tree parser (tests/fuzz/fdt_fuzz.c), included by cmake/host.cmake
# after tests/host/tests.cmake (QDTB, the qemu_dtbs fixture) and tests/qemu/tests.cmake (DTC, the
# test DTBs in ${CMAKE_BINARY_DIR}/dtb).  The host build compiles with gcc, which has no libFuzzer,
# so clang builds this one binary through a custom command.  Running it for hours: README.md.
find_program(CLANG NAMES clang clang-14)
if(NOT CLANG)
  message(FATAL_ERROR "clang not found: the fuzz.fdt test needs clang and libclang-rt-14-dev "
    "(run tools/install-deps)")
endif()

set(FUZZ_DIR ${CMAKE_BINARY_DIR}/fuzz)
set(FDT_FUZZ ${CMAKE_BINARY_DIR}/fdt_fuzz)
# The memory manager's fuzz runs and their must-abort twins (tests/fuzz/fuzz_run.sh says how
# each is judged).
set(FUZZ_RUN ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_run.sh)
# fuzz_run_test(<what> <fuzzer> [<runs> <max_len> <min_ops>]): fuzz.<what>, the seed-1 run.
function(fuzz_run_test what fuzzer)
  add_test(NAME fuzz.${what} COMMAND ${FUZZ_RUN} run ${what} ${fuzzer} ${FUZZ_DIR} ${ARGN})
  set_tests_properties(fuzz.${what} PROPERTIES LABELS fuzz TIMEOUT 300)
endfunction()
# fuzz_must_abort(<what> <fuzzer> <mode> <name> <want> [<also>]): one input with
# <WHAT>_FUZZ_BREAK=<mode> must abort with "<what>_fuzz: <want>" (and a line matching <also>).
function(fuzz_must_abort what fuzzer mode name want)
  string(TOUPPER ${what} var)
  add_test(NAME ${name} COMMAND ${FUZZ_RUN} must-abort ${what} ${fuzzer} ${FUZZ_DIR} ${want} ${ARGN})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT ${var}_FUZZ_BREAK=${mode} LABELS fuzz
    TIMEOUT 300)
endfunction()
set(FUZZ_CFLAGS -std=c11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all
  -fno-omit-frame-pointer -Wall -Wextra -Werror -Wno-unused-parameter
  -I${CMAKE_SOURCE_DIR}/include -I${CMAKE_SOURCE_DIR}/tests/fuzz)

# Fail here, not at build time, when the libFuzzer runtime (libclang-rt-14-dev) is missing.
file(MAKE_DIRECTORY ${FUZZ_DIR})
file(WRITE ${FUZZ_DIR}/probe.c "#include <stddef.h>\n#include <stdint.h>\n"
  "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return d && n > 99; }\n")
execute_process(COMMAND ${CLANG} -fsanitize=fuzzer,address,undefined probe.c -o probe
  WORKING_DIRECTORY ${FUZZ_DIR} RESULT_VARIABLE probe_rc ERROR_VARIABLE probe_err)
if(NOT probe_rc EQUAL 0)
  message(FATAL_ERROR "${CLANG} cannot build a libFuzzer target (install libclang-rt-14-dev: "
    "run tools/install-deps):\n${probe_err}")
endif()

# Coverage feedback comes from the parser alone, lib/fdt.c and lib/fdt_check.c (the checker's own
# branches would only grow the
# corpus), and without -fsanitize-coverage=trace-cmp: with it, the comparison hooks in the
# accessors the checker calls thousands of times per input took 70% of the time (2700 instead
# of 15000 execs/s) for no more coverage; the seeds and fdt.dict supply the magic values.
add_custom_command(OUTPUT ${FDT_FUZZ}
  COMMAND ${CLANG} ${FUZZ_CFLAGS} -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp
          -c ${CMAKE_SOURCE_DIR}/lib/fdt.c -o ${FUZZ_DIR}/fdt.o
  COMMAND ${CLANG} ${FUZZ_CFLAGS} -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp
          -c ${CMAKE_SOURCE_DIR}/lib/fdt_check.c -o ${FUZZ_DIR}/fdt_check.o
  COMMAND ${CLANG} ${FUZZ_CFLAGS} -c ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_fuzz.c
          -o ${FUZZ_DIR}/fdt_fuzz.o
  COMMAND ${CLANG} ${FUZZ_CFLAGS} -c ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_model.c
          -o ${FUZZ_DIR}/fdt_model.o
  COMMAND ${CLANG} -fsanitize=fuzzer,address,undefined ${FUZZ_DIR}/fdt.o ${FUZZ_DIR}/fdt_check.o
          ${FUZZ_DIR}/fdt_fuzz.o
          ${FUZZ_DIR}/fdt_model.o -o ${FDT_FUZZ}
  DEPENDS ${CMAKE_SOURCE_DIR}/lib/fdt.c ${CMAKE_SOURCE_DIR}/lib/fdt_check.c
          ${CMAKE_SOURCE_DIR}/lib/fdt_internal.h ${CMAKE_SOURCE_DIR}/include/tinymm/fdt.h
          ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_fuzz.c ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_model.c
          ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_fuzz.h
  COMMENT "clang: fdt_fuzz (libFuzzer, ASan, UBSan)" VERBATIM)
add_custom_target(fdt_fuzz ALL DEPENDS ${FDT_FUZZ})

# 100000 inputs from seed 1 over a fresh copy of the seeds: QEMU's DTBs and tests/dts.  About
# 10 s on one core (20 s with other tests beside it); libFuzzer stops with a non-zero status at the first mismatch or sanitizer
# report and leaves the input as ${FUZZ_DIR}/crash-<sha1>.  fuzz.fdt_long (label long,
# `make test-long`): the same from the same seed to 200000, over a corpus of its own.
foreach(spec "fuzz.fdt|100000|fdt-corpus" "fuzz.fdt_long|200000|fdt-corpus-long")
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 name)
  list(GET spec 1 runs)
  list(GET spec 2 corpus)
  add_test(NAME ${name} COMMAND ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_fuzz.sh ${FDT_FUZZ} ${DTC}
    ${FUZZ_DIR}/${corpus} ${QDTB} ${CMAKE_BINARY_DIR}/dtb --
    -seed=1 -runs=${runs} -dict=${CMAKE_SOURCE_DIR}/tests/fuzz/fdt.dict -timeout=25
    -artifact_prefix=${FUZZ_DIR}/ -print_final_stats=1)
endforeach()
# Every check on every node of every seed (the fuzz run samples the tree-walking ones).
add_test(NAME fuzz.fdt_seeds_full COMMAND ${FDT_FUZZ} ${QEMU_DTBS} ${CMAKE_BINARY_DIR}/dtb/good.dtb)
set_tests_properties(fuzz.fdt_seeds_full PROPERTIES ENVIRONMENT FDT_FUZZ_FULL=1)
# A failed check must abort and reach the exit status: FDT_FUZZ_BREAK=1 fails one on purpose.
add_test(NAME fuzz.fdt_mismatch_aborts COMMAND sh -c [[
  out=$("$0" "$1" 2>&1); rc=$?; printf '%s\n' "$out"; echo "exit status $rc"
  [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -q 'fdt_fuzz: mismatch at .*: i == t.nn + break_on_purpose'
  ]] ${FDT_FUZZ} ${CMAKE_BINARY_DIR}/dtb/good.dtb)
set_tests_properties(fuzz.fdt_mismatch_aborts PROPERTIES ENVIRONMENT FDT_FUZZ_BREAK=1)
set_tests_properties(fuzz.fdt fuzz.fdt_long fuzz.fdt_seeds_full fuzz.fdt_mismatch_aborts PROPERTIES
  FIXTURES_REQUIRED qemu_dtbs LABELS fuzz TIMEOUT 300)
set_tests_properties(fuzz.fdt_long PROPERTIES LABELS "fuzz;long")

# libFuzzer targets over the memory manager (tests/fuzz/<what>_fuzz.c, and its further parts
# tests/fuzz/<what>_fuzz_<part>.c when it has them): the portable kernel sources and
# tests/host/shim.c built by clang as the host tests build them, into an archive so only what the
# fuzzer reaches is linked.  Coverage feedback comes from the sources matching @cov (the fuzzer's
# own files included); those matching @fast (checkers that walk everything
# after every operation) are built at -O2.  Further arguments: more flags for the @cov sources.
# Sets <WHAT>_FUZZ to the binary.
function(add_mm_fuzzer what cov fast)
  set(bin ${CMAKE_BINARY_DIR}/${what}_fuzz)
  set(objdir ${FUZZ_DIR}/${what}-objs)
  set(cflags ${FUZZ_CFLAGS} -DTINYMM_HOST=1 -D_POSIX_C_SOURCE=200809L
    -I${CMAKE_SOURCE_DIR}/tests/host/include -I${CMAKE_SOURCE_DIR}/tests/host)
  file(MAKE_DIRECTORY ${objdir})
  set(objs)
  file(GLOB parts RELATIVE ${CMAKE_SOURCE_DIR} CONFIGURE_DEPENDS
    ${CMAKE_SOURCE_DIR}/tests/fuzz/${what}_fuzz_*.c)
  foreach(src ${HOST_KERNEL_SRCS} tests/host/shim.c ${parts} tests/fuzz/${what}_fuzz.c)
    string(MAKE_C_IDENTIFIER ${src} name)
    set(obj ${objdir}/${name}.o)
    set(opt)
    if(src MATCHES "^(${cov}|tests/fuzz/${what}_fuzz(_[a-z]+)?)\\.c$")
      set(opt -fsanitize=fuzzer-no-link ${ARGN})
    elseif(src MATCHES "^(${fast})\\.c$")
      set(opt -O2)
    endif()
    add_custom_command(OUTPUT ${obj}
      COMMAND ${CLANG} ${cflags} ${opt} -MD -MF ${obj}.d -c ${CMAKE_SOURCE_DIR}/${src} -o ${obj}
      DEPENDS ${CMAKE_SOURCE_DIR}/${src} DEPFILE ${obj}.d VERBATIM)
    if(src STREQUAL tests/fuzz/${what}_fuzz.c)
      set(main ${obj})
    else()
      list(APPEND objs ${obj})
    endif()
  endforeach()
  add_custom_command(OUTPUT ${bin}
    COMMAND ${CMAKE_COMMAND} -E rm -f ${objdir}/kernel.a
    COMMAND ${CMAKE_AR} rcs ${objdir}/kernel.a ${objs}
    COMMAND ${CLANG} -fsanitize=fuzzer,address,undefined ${main} ${objdir}/kernel.a -o ${bin}
    DEPENDS ${main} ${objs}
    COMMENT "clang: ${what}_fuzz (libFuzzer, ASan, UBSan)" VERBATIM)
  add_custom_target(${what}_fuzz ALL DEPENDS ${bin})
  string(TOUPPER ${what} upper)
  set(${upper}_FUZZ ${bin} PARENT_SCOPE)
endfunction()

# The page allocator; the checker walks every frame after every operation: 85% of the time at -O1.
add_mm_fuzzer(buddy "mm/(page_alloc|page_alloc_fast|page_isolation|pcp|mm_init)" "mm/(buddy_check|memmap)")

# Each input is at least 160 operations (about 190 on average); the run takes about 25 s.
fuzz_run_test(buddy ${BUDDY_FUZZ})
# A broken invariant must abort and reach the exit status: BUDDY_FUZZ_BREAK corrupts a free
# count (buddy_check must object) or loses a free frame (the accounting must not add up).
fuzz_must_abort(buddy ${BUDDY_FUZZ} 1 fuzz.buddy_corrupt_list_aborts
  "check failed at .*: buddy_check\\(NULL\\) == 0")
fuzz_must_abort(buddy ${BUDDY_FUZZ} 2 fuzz.buddy_lost_frame_aborts
  "check failed at .*: held_frames \\+ nr_free_pages_and_pcp\\(\\) \\+ taken_frames == totalram_pages\\(\\)")

# The slab allocator; its checker and the page allocator's walk everything after every operation.
# Without trace-cmp: its hooks in the fuzzer's pattern checks and slub_debug.c's byte walks took
# half the time, and the input reaches the allocator through sizes and choices, not compares.
add_mm_fuzzer(slab "mm/(slub|slub_debug|slab_common)" "mm/(slab_show|buddy_check|memmap)"
  -fno-sanitize-coverage=trace-cmp)

# As fuzz.buddy: about 15 s.
fuzz_run_test(slab ${SLAB_FUZZ})
# A broken object must abort and reach the exit status: SLAB_FUZZ_BREAK changes a byte of a live
# object (the shadow must see it) or of a red zone (slab_check must report it).
fuzz_must_abort(slab ${SLAB_FUZZ} 1 fuzz.slab_corrupt_object_aborts
  "check failed at .*: the contents of a live object .* changed at byte" "^--- kernel log ---$")
fuzz_must_abort(slab ${SLAB_FUZZ} 2 fuzz.slab_red_zone_aborts
  "check failed at .*: slab_check\\(NULL\\) == 0"
  "^slabcheck: kmalloc-[0-9]+ object 0x[0-9a-f]+: red zone overwritten")

# The XArray (lib/xarray.c) against a sorted-array model (tests/ktest/xarray_model.h); coverage
# feedback from lib/xarray.c and the fuzzer.  xa_check() walks the whole tree after every
# operation.
add_mm_fuzzer(xarray "lib/xarray" "mm/(slub|page_alloc|pcp|memmap)")

# As fuzz.buddy; a mismatch with the model stops it too.
fuzz_run_test(xarray ${XARRAY_FUZZ})
# The harness must be able to fail: XARRAY_FUZZ_BREAK=1 stores an entry the model does not know
# (the comparison must abort), =2 sets a root mark no entry carries (xa_check must abort), =3
# leaves a leaf with a pointer on the shadow-node list (the workingset tracker must abort).
fuzz_must_abort(xarray ${XARRAY_FUZZ} 1 fuzz.xarray_model_mismatch_aborts
  "mismatch at .*: xm_compare\\(&model, &xa, eprintf\\) == 0" "^xarray: at 0x7 found 0xf marks 0")
fuzz_must_abort(xarray ${XARRAY_FUZZ} 2 fuzz.xarray_broken_invariant_aborts
  "mismatch at .*: xa_check\\(&xa, eprintf\\) == 0" "^xa_check: node .*: empty array with root marks")
fuzz_must_abort(xarray ${XARRAY_FUZZ} 3 fuzz.xarray_shadow_list_mismatch_aborts
  "mismatch at .*: xm_shadow_check\\(&xa, eprintf\\) == 0" "wrongly on the shadow list")

# vmalloc and the page-table walkers (mm/vmalloc.c, mm/pagewalk.c) over the fake MMU with three
# levels (tests/host/include/asm/pgtable.h; cmake/host.cmake's HOST_MMU_SRCS, in no library);
# coverage feedback from those two, without trace-cmp (its hooks in the checks' address
# compares took two thirds of the time).  The checks walk the whole vmalloc range and every
# frame after every operation.
set(saved_srcs ${HOST_KERNEL_SRCS})
list(APPEND HOST_KERNEL_SRCS ${HOST_MMU_SRCS})
add_mm_fuzzer(vmalloc "mm/(vmalloc|pagewalk)" "mm/(buddy_check|memmap|slub|page_alloc|pcp)"
  -fno-sanitize-coverage=trace-cmp)
set(HOST_KERNEL_SRCS ${saved_srcs})

fuzz_run_test(vmalloc ${VMALLOC_FUZZ})
# The checks must be able to fail: VMALLOC_FUZZ_BREAK=1 maps a guard page (vmalloc_check must
# object), =2 leaks a page-table frame (the tables reachable from the root must not add up).
fuzz_must_abort(vmalloc ${VMALLOC_FUZZ} 1 fuzz.vmalloc_guard_mapped_aborts
  "check failed at .*: vmalloc_check\\(NULL\\) == 0"
  "^vmalloc: area 0x[0-9a-f]+-0x[0-9a-f]+: guard page 0x[0-9a-f]+ is mapped")
fuzz_must_abort(vmalloc ${VMALLOC_FUZZ} 2 fuzz.vmalloc_leaked_table_aborts
  "check failed at .*: table_frames\\(\\) == w.tables \\+ pmd_tables\\(\\)")

# The ELF checks (fs/binfmt_elf_check.c, lib/vsprintf.c for the reasons) over whole files, from
# the cross compilers' programs as seeds (cmake/host.cmake builds them); coverage from the
# checker alone.  tests/fuzz/elf_fuzz.c says what an accepted file must satisfy.
set(ELF_FUZZ ${CMAKE_BINARY_DIR}/elf_fuzz)
add_custom_command(OUTPUT ${ELF_FUZZ}
  COMMAND ${CLANG} ${FUZZ_CFLAGS} -fsanitize=fuzzer-no-link
          -c ${CMAKE_SOURCE_DIR}/fs/binfmt_elf_check.c -o ${FUZZ_DIR}/binfmt_elf_check.o
  COMMAND ${CLANG} ${FUZZ_CFLAGS} -c ${CMAKE_SOURCE_DIR}/lib/vsprintf.c -o ${FUZZ_DIR}/elf_vsprintf.o
  COMMAND ${CLANG} ${FUZZ_CFLAGS} -c ${CMAKE_SOURCE_DIR}/tests/fuzz/elf_fuzz.c -o ${FUZZ_DIR}/elf_fuzz.o
  COMMAND ${CLANG} -fsanitize=fuzzer,address,undefined ${FUZZ_DIR}/binfmt_elf_check.o
          ${FUZZ_DIR}/elf_vsprintf.o ${FUZZ_DIR}/elf_fuzz.o -o ${ELF_FUZZ}
  DEPENDS ${CMAKE_SOURCE_DIR}/fs/binfmt_elf_check.c ${CMAKE_SOURCE_DIR}/lib/vsprintf.c
          ${CMAKE_SOURCE_DIR}/tests/fuzz/elf_fuzz.c ${CMAKE_SOURCE_DIR}/include/tinymm/binfmts.h
          ${CMAKE_SOURCE_DIR}/include/tinymm/elf.h
  COMMENT "clang: elf_fuzz (libFuzzer, ASan, UBSan)" VERBATIM)
add_custom_target(elf_fuzz ALL DEPENDS ${ELF_FUZZ})
# 500000 inputs from seed 1 over a fresh corpus of the three programs (about 4 s).
add_test(NAME fuzz.elf COMMAND sh -c [[
  rm -rf "$1" && mkdir -p "$1" && cp "$2" "$3" "$4" "$1"/ && shift 4 &&
  exec "$@"
  ]] sh ${FUZZ_DIR}/elf-corpus ${CMAKE_BINARY_DIR}/elf_prog_arm ${CMAKE_BINARY_DIR}/elf_prog_rv32
  ${CMAKE_BINARY_DIR}/elf_prog_rv64 ${ELF_FUZZ} -seed=1 -runs=500000 -timeout=25
  -artifact_prefix=${FUZZ_DIR}/elf- -print_final_stats=1 ${FUZZ_DIR}/elf-corpus)
# The checks must be able to fail: ELF_FUZZ_BREAK=1 moves an accepted entry point out of its
# segment, which check_image() must catch on the real programs.
add_test(NAME fuzz.elf_break_aborts COMMAND sh -c [[
  out=$("$0" "$@" 2>&1); rc=$?; printf '%s\n' "$out"; echo "exit status $rc"
  [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -q 'elf_fuzz: check failed at .*: entry_ok'
  ]] ${ELF_FUZZ} ${CMAKE_BINARY_DIR}/elf_prog_rv64)
set_tests_properties(fuzz.elf_break_aborts PROPERTIES ENVIRONMENT ELF_FUZZ_BREAK=1)
set_tests_properties(fuzz.elf fuzz.elf_break_aborts PROPERTIES LABELS fuzz TIMEOUT 300)
# ext2, the VFS and the buffer heads over a file-backed disk (tests/fuzz/ext2_fuzz.c): the
# kernel core (host_core's sources: scheduler, page cache, block layer) and fs/ are added to the
# portable sources; coverage feedback from fs/ and fs/ext2/.  The base images and the trees
# they hold come from ext2_fuzz_images.sh at build time (Debian's mke2fs -d, byte for byte the
# same each time), in ${FUZZ_DIR}/ext2-images, whose path is compiled in.
set(EXT2_FUZZ_IMAGES ${FUZZ_DIR}/ext2-images)
add_custom_command(OUTPUT ${EXT2_FUZZ_IMAGES}/0.img ${EXT2_FUZZ_IMAGES}/1.img ${EXT2_FUZZ_IMAGES}/2.img
  COMMAND ${CMAKE_SOURCE_DIR}/tests/fuzz/ext2_fuzz_images.sh ${EXT2_FUZZ_IMAGES}
  DEPENDS ${CMAKE_SOURCE_DIR}/tests/fuzz/ext2_fuzz_images.sh
  COMMENT "mke2fs: the ext2 fuzzer's base images" VERBATIM)
add_custom_target(ext2_fuzz_images ALL DEPENDS ${EXT2_FUZZ_IMAGES}/0.img)
get_target_property(host_core_srcs host_core SOURCES)
set(saved_srcs ${HOST_KERNEL_SRCS})
list(APPEND HOST_KERNEL_SRCS ${host_core_srcs} ${TINYMM_VFS_SRCS} ${TINYMM_EXT2_SRCS}
  tests/host/file_bdev.c)
add_mm_fuzzer(ext2 "fs/(ext2/)?[a-z_]+" "mm/(slub|page_alloc|pcp|memmap|filemap)"
  -DEXT2_FUZZ_IMAGES=\"${EXT2_FUZZ_IMAGES}\")
set(HOST_KERNEL_SRCS ${saved_srcs})
add_dependencies(ext2_fuzz ext2_fuzz_images)

# 1200 inputs of up to 200 bytes (at most 48 operations each, about 30 per input): about
# 30 s of one core (40-80 inputs/s, a third of them clean: model, e2fsck -fn, a fresh mount).
# fuzz.ext2_long (label long, `make test-long`): the same from the same seed to 2500 inputs.
fuzz_run_test(ext2 ${EXT2_FUZZ} 1200 200 18000)
add_test(NAME fuzz.ext2_long COMMAND ${FUZZ_RUN} run ext2 ${EXT2_FUZZ} ${FUZZ_DIR} 2500 200 40000)
set_tests_properties(fuzz.ext2_long PROPERTIES LABELS "fuzz;long" TIMEOUT 300)
# The checks must be able to fail: EXT2_FUZZ_BREAK=1 changes a byte of the model's hello.txt
# (the fresh mount's comparison must abort), =2 marks a free block used behind the
# filesystem's back after the umount (e2fsck -fn must object).
fuzz_must_abort(ext2 ${EXT2_FUZZ} 1 fuzz.ext2_model_mismatch_aborts
  "check failed at .*: after a fresh mount: /mnt/hello.txt: byte 0 is 0x68; the model has 0x69")
fuzz_must_abort(ext2 ${EXT2_FUZZ} 2 fuzz.ext2_e2fsck_aborts
  "check failed at .*: e2fsck -fn: exit status 4 after the umount" "^Block bitmap differences: ")
# The inputs that found bugs (tests/fuzz/ext2-regressions/README.md), each replayed once.
file(GLOB EXT2_REGRESSIONS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/fuzz/ext2-regressions/*.bin)
add_test(NAME fuzz.ext2_regressions COMMAND ${EXT2_FUZZ} ${EXT2_REGRESSIONS})
set_tests_properties(fuzz.ext2_regressions PROPERTIES LABELS fuzz TIMEOUT 300)
