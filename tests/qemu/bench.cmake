# `make bench` under CTest: tools/bench on one board (RV32, the board the issue sets targets for;
# the fastest boot), checked for form, not speed: the exact row format, every operation (the page
# allocator's, the slab allocator's kmalloc rows and the kernel core's) with and without -nocheck, numbers > 0 with
# min <= median <= max.  The counts themselves belong in docs/benchmarks.md, never in a threshold
# here.  exec-hello (kernel/bench_exec.c) is not required: it needs the virtio root disk, which
# a loaded host can stall under -icount (tools/bench says why when it is missing); when it is
# there its row is checked for form like the others.
#
# This file is both the CTest registration (included from tests.cmake) and the test itself
# (run as `cmake -DTOP=<tree> -DBOARD=<board> -P bench.cmake`).
if(NOT CMAKE_SCRIPT_MODE_FILE)
  add_test(NAME bench.qemu-virt-riscv32.rows COMMAND ${CMAKE_COMMAND} -DTOP=${CMAKE_SOURCE_DIR}
    -DBOARD=qemu-virt-riscv32 -P ${CMAKE_CURRENT_LIST_FILE})
  set_tests_properties(bench.qemu-virt-riscv32.rows PROPERTIES TIMEOUT 120 LABELS qemu)
  return()
endif()
cmake_minimum_required(VERSION 3.20)

execute_process(COMMAND ${TOP}/tools/bench --no-build --no-host --board ${BOARD}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tools/bench exited with ${rc}:\n${err}")
endif()

set(ops order0-alloc order0-free order0-alloc-refill order3-alloc order3-free order10-split
  order10-merge init-per-frame struct-page memmap-overhead
  kmalloc-64-alloc kmalloc-64-free kmalloc-512-alloc kmalloc-512-free kmalloc-mixed-alloc
  kmalloc-mixed-free kmalloc-mixed-overhead-permille
  spin-lock-irqsave mutex-lock-unlock folio-lock-unlock wake-up-empty hrtimer-start-cancel
  yield-roundtrip pagecache-hit vmalloc-16k vfree-16k memcpy-4k memset-4k ext2-read-hit-4k ext2-lookup
  fault-anon fault-file-minor fault-cow fork-exit folio-referenced swapout-4k swapin-4k
  migrate-4k compact-64mib
  syscall-getpid)
set(want)
set(optional exec-hello exec-hello-nocheck)	# checked for form when present (see above)
foreach(op ${ops})
  list(APPEND want ${op} ${op}-nocheck)
endforeach()

string(REGEX REPLACE "\n$" "" out "${out}")
string(REPLACE "\n" ";" lines "${out}")
set(seen)
foreach(line IN LISTS lines)
  # bench<TAB><board><TAB><operation><TAB><min><TAB><median><TAB><max><TAB><unit>, nothing else
  if(NOT line MATCHES "^bench\t([^\t]+)\t([^\t]+)\t([0-9]+)\t([0-9]+)\t([0-9]+)\t(instructions|bytes)$")
    message(FATAL_ERROR "not a bench row: '${line}'")
  endif()
  set(board ${CMAKE_MATCH_1})
  set(op ${CMAKE_MATCH_2})
  set(lo ${CMAKE_MATCH_3})
  set(med ${CMAKE_MATCH_4})
  set(hi ${CMAKE_MATCH_5})
  set(unit ${CMAKE_MATCH_6})
  if(NOT board STREQUAL BOARD)
    message(FATAL_ERROR "row for board '${board}', expected '${BOARD}': ${line}")
  endif()
  if(NOT op IN_LIST want AND NOT op IN_LIST optional)
    message(FATAL_ERROR "unknown operation '${op}': ${line}")
  endif()
  if(op IN_LIST seen)
    message(FATAL_ERROR "operation '${op}' twice")
  endif()
  list(APPEND seen ${op})
  if(NOT (lo GREATER 0 AND lo LESS_EQUAL med AND med LESS_EQUAL hi))
    message(FATAL_ERROR "not 0 < min <= median <= max: ${line}")
  endif()
  if(op MATCHES "^(struct-page|memmap-overhead|kmalloc-mixed-overhead-permille)")
    set(u bytes)
  else()
    set(u instructions)
  endif()
  if(NOT unit STREQUAL u)
    message(FATAL_ERROR "unit '${unit}', expected '${u}': ${line}")
  endif()
endforeach()
foreach(op ${want})
  if(NOT op IN_LIST seen)
    message(FATAL_ERROR "no row for '${op}'")
  endif()
endforeach()
# Sizes the build fixes: struct page is 32 bytes on 32-bit boards, 48 on 64-bit ones.
if(NOT out MATCHES "\tstruct-page\t(32|48)\t")
  message(FATAL_ERROR "struct-page is neither 32 nor 48 bytes")
endif()
