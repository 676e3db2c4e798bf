# `tools/bench --batch-table --quick` under CTest (kernel/bench_pcp.c: order-0 calls and zone-lock
# holds per pcp batch and scale), on RV32 at 256 MiB (default batch 15): the exact rows, each
# 0 < min <= median <= max, and the worst cases ordered as the bound says: the longest zone-lock
# hold and the slowest refill shrink from batch 15 at scale 5 to batch 15 at scale 0 to batch 1
# at scale 0.  No instruction count is a threshold here; the table is in docs/benchmarks.md.
#
# Both the CTest registration (included from tests.cmake) and the test itself
# (`cmake -DTOP=<tree> -DBOARD=<board> -P bench_batch.cmake`).
if(NOT CMAKE_SCRIPT_MODE_FILE)
  add_test(NAME bench.qemu-virt-riscv32.batch_table COMMAND ${CMAKE_COMMAND} -DTOP=${CMAKE_SOURCE_DIR}
    -DBOARD=qemu-virt-riscv32 -P ${CMAKE_CURRENT_LIST_FILE})
  set_tests_properties(bench.qemu-virt-riscv32.batch_table PROPERTIES TIMEOUT 120 LABELS qemu)
  return()
endif()
cmake_minimum_required(VERSION 3.20)

execute_process(COMMAND ${TOP}/tools/bench --batch-table --quick --no-build --board ${BOARD} --mem 256M
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tools/bench --batch-table exited with ${rc}:\n${err}")
endif()

set(want)
foreach(s "" "-scale0")
  foreach(b 1 4 15)
    foreach(op order0-alloc order0-free zone-lock-hold)
      list(APPEND want batch${b}${s}-${op})
    endforeach()
  endforeach()
endforeach()

string(REGEX REPLACE "\n$" "" out "${out}")
string(REPLACE "\n" ";" lines "${out}")
set(seen)
foreach(line IN LISTS lines)
  if(NOT line MATCHES "^bench\t([^\t]+)\t([^\t]+)\t([0-9]+)\t([0-9]+)\t([0-9]+)\tinstructions$")
    message(FATAL_ERROR "not a bench row: '${line}'")
  endif()
  set(op ${CMAKE_MATCH_2})
  set(lo ${CMAKE_MATCH_3})
  set(med ${CMAKE_MATCH_4})
  set(hi ${CMAKE_MATCH_5})
  if(NOT CMAKE_MATCH_1 STREQUAL BOARD OR NOT op IN_LIST want OR op IN_LIST seen)
    message(FATAL_ERROR "unexpected or repeated row: ${line}")
  endif()
  list(APPEND seen ${op})
  if(NOT (lo GREATER 0 AND lo LESS_EQUAL med AND med LESS_EQUAL hi))
    message(FATAL_ERROR "not 0 < min <= median <= max: ${line}")
  endif()
  set(max_${op} ${hi})
endforeach()
foreach(op ${want})
  if(NOT op IN_LIST seen)
    message(FATAL_ERROR "no row for '${op}'")
  endif()
endforeach()
foreach(op zone-lock-hold order0-alloc)
  if(NOT (max_batch1-scale0-${op} LESS max_batch15-scale0-${op} AND
          max_batch15-scale0-${op} LESS max_batch15-${op}))
    message(FATAL_ERROR "${op} worst cases not ordered batch1-scale0 < batch15-scale0 < batch15: "
      "${max_batch1-scale0-${op}}, ${max_batch15-scale0-${op}}, ${max_batch15-${op}}")
  endif()
endforeach()
