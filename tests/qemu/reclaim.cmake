# Page reclaim on every board, over a real virtio disk in 32 MiB of RAM (tests/qemu/reclaim_test.sh
# says what each mode checks; tests/qemu/reclaim_helper.py makes the images, the host's digests
# and the plain-LRU figure).  pressure: a disk 8x RAM read twice, a quarter of it written, every
# digest and the final image right, reclaim and refaults seen in vmstat.  scan-seq/scan-random:
# an 8 MiB hot set's hit rate while a 128 MiB cold scan passes once, in disk order or in random
# order (>= 95%; printed as `scan_resistance <board> seq|random hit_rate=`).
# Label `long`: `ctest -LE long` skips them.
set(RECLAIM_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/reclaim_test.sh)
foreach(b ${TINYMM_BOARDS})
  foreach(mode pressure scan-seq scan-random)
    string(REPLACE "-" "_" name ${mode})
    add_test(NAME ${b}.reclaim.${name} COMMAND ${RECLAIM_TEST}
      --dir ${CMAKE_BINARY_DIR}/reclaim/${b}-${mode} --board ${b} --mode ${mode})
    if(mode STREQUAL pressure)
      set(timeout 300)		# 35-75 s measured (2 cores, 3 boards at once)
    else()
      set(timeout 150)		# 10-25 s
    endif()
    set_tests_properties(${b}.reclaim.${name} PROPERTIES TIMEOUT ${timeout} LABELS "qemu;long")
  endforeach()
endforeach()
