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

# Coverage feedback comes from lib/fdt.c alone (the checker's own branches would only grow the
# corpus), and without -fsanitize-coverage=trace-cmp: with it, the comparison hooks in the
# accessors the checker calls thousands of times per input took 70% of the time (2700 instead
# of 15000 execs/s) for no more coverage; the seeds and fdt.dict supply the magic values.
add_custom_command(OUTPUT ${FDT_FUZZ}
  COMMAND ${CLANG} ${FUZZ_CFLAGS} -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp
          -c ${CMAKE_SOURCE_DIR}/lib/fdt.c -o ${FUZZ_DIR}/fdt.o
  COMMAND ${CLANG} ${FUZZ_CFLAGS} -c ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_fuzz.c
          -o ${FUZZ_DIR}/fdt_fuzz.o
  COMMAND ${CLANG} ${FUZZ_CFLAGS} -c ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_model.c
          -o ${FUZZ_DIR}/fdt_model.o
  COMMAND ${CLANG} -fsanitize=fuzzer,address,undefined ${FUZZ_DIR}/fdt.o ${FUZZ_DIR}/fdt_fuzz.o
          ${FUZZ_DIR}/fdt_model.o -o ${FDT_FUZZ}
  DEPENDS ${CMAKE_SOURCE_DIR}/lib/fdt.c ${CMAKE_SOURCE_DIR}/include/tinymm/fdt.h
          ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_fuzz.c ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_model.c
          ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_fuzz.h
  COMMENT "clang: fdt_fuzz (libFuzzer, ASan, UBSan)" VERBATIM)
add_custom_target(fdt_fuzz ALL DEPENDS ${FDT_FUZZ})

# 200000 inputs from seed 1 over a fresh copy of the seeds: QEMU's DTBs and tests/dts.  About
# 30 s on one core; libFuzzer stops with a non-zero status at the first mismatch or sanitizer
# report and leaves the input as ${FUZZ_DIR}/crash-<sha1>.
add_test(NAME fuzz.fdt COMMAND ${CMAKE_SOURCE_DIR}/tests/fuzz/fdt_fuzz.sh ${FDT_FUZZ} ${DTC}
  ${FUZZ_DIR}/fdt-corpus ${QDTB} ${CMAKE_BINARY_DIR}/dtb --
  -seed=1 -runs=200000 -dict=${CMAKE_SOURCE_DIR}/tests/fuzz/fdt.dict -timeout=25
  -artifact_prefix=${FUZZ_DIR}/ -print_final_stats=1)
# Every check on every node of every seed (the fuzz run samples the tree-walking ones).
add_test(NAME fuzz.fdt_seeds_full COMMAND ${FDT_FUZZ} ${QEMU_DTBS} ${CMAKE_BINARY_DIR}/dtb/good.dtb)
set_tests_properties(fuzz.fdt_seeds_full PROPERTIES ENVIRONMENT FDT_FUZZ_FULL=1)
# A failed check must abort and reach the exit status: FDT_FUZZ_BREAK=1 fails one on purpose.
add_test(NAME fuzz.fdt_mismatch_aborts COMMAND sh -c [[
  out=$("$0" "$1" 2>&1); rc=$?; printf '%s\n' "$out"; echo "exit status $rc"
  [ "$rc" -ne 0 ] && printf '%s\n' "$out" | grep -q 'fdt_fuzz: mismatch at .*: i == t.nn + break_on_purpose'
  ]] ${FDT_FUZZ} ${CMAKE_BINARY_DIR}/dtb/good.dtb)
set_tests_properties(fuzz.fdt_mismatch_aborts PROPERTIES ENVIRONMENT FDT_FUZZ_BREAK=1)
set_tests_properties(fuzz.fdt fuzz.fdt_seeds_full fuzz.fdt_mismatch_aborts PROPERTIES
  FIXTURES_REQUIRED qemu_dtbs LABELS fuzz TIMEOUT 300)
