# The LRU lists over a real virtio disk on every board (tests/qemu/lru_test.sh: two-touch
# activation seen through `lru`, `vmstat` and `meminfo`, vmstat's format).  The `lru` KTAP suite
# (a fake disk: batches, activation, unevictable, rotation, release) runs in ktest.all.
foreach(b ${TINYMM_BOARDS})
  add_test(NAME ${b}.lru.two_touch COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/lru_test.sh
    --dir ${CMAKE_BINARY_DIR}/lru/${b} --board ${b})
  set_tests_properties(${b}.lru.two_touch PROPERTIES TIMEOUT 300 LABELS qemu)
endforeach()
