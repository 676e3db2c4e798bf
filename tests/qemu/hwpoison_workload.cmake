# HWPoison under a read/write workload, checked from the host, on every board
# (tests/qemu/hwpoison_workload_test.sh says what is checked; docs/hwpoison.md, "Host-checked
# workload").  <board>.hwpoison.workload: an 8 MiB seeded image, `blk-stress vda OPS SEED POISONS`
# in 32 MiB of RAM, the final image and the log judged by tests/qemu/hwpoison_workload_helper.py.
# <board>.hwpoison.workload_detects_corruption: the same helper on that run's files must fail when
# one byte outside every lost range is flipped, the seed is wrong, or a read mismatch is added
# outside every lost range (the run is its fixture: `ctest -R detects` runs both).
set(HWPOISON_WORKLOAD_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/hwpoison_workload_test.sh)
set(HWPOISON_WORKLOAD_OPS 6000)
set(HWPOISON_WORKLOAD_POISONS 200)
set(seed 19001)
foreach(b ${TINYMM_BOARDS})
  set(dir ${CMAKE_BINARY_DIR}/hwpoison-workload/${b})
  add_test(NAME ${b}.hwpoison.workload COMMAND ${HWPOISON_WORKLOAD_TEST}
    --dir ${dir} --board ${b} --mode run --ops ${HWPOISON_WORKLOAD_OPS} --seed ${seed}
    --poisons ${HWPOISON_WORKLOAD_POISONS})
  set_tests_properties(${b}.hwpoison.workload PROPERTIES TIMEOUT 150 LABELS qemu
    FIXTURES_SETUP hwpoison_workload_${b})
  add_test(NAME ${b}.hwpoison.workload_detects_corruption COMMAND ${HWPOISON_WORKLOAD_TEST}
    --dir ${dir} --mode detects-corruption)
  set_tests_properties(${b}.hwpoison.workload_detects_corruption PROPERTIES TIMEOUT 60 LABELS qemu
    FIXTURES_REQUIRED hwpoison_workload_${b})
  math(EXPR seed "${seed} + 1")
endforeach()
