# MBR partitions on a virtio disk made by sfdisk (tests/qemu/partitions_test.sh says what each
# case checks; docs/block-partitions.md).  Included from the end of tests/qemu/tests.cmake.
set(PART_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/partitions_test.sh)
foreach(b ${TINYMM_BOARDS})
  foreach(c rw beyond overlap ext2)
    add_test(NAME ${b}.partitions.${c} COMMAND ${PART_TEST} ${b} ${c}
      ${CMAKE_BINARY_DIR}/partitions/${b}-${c})
    set_tests_properties(${b}.partitions.${c} PROPERTIES TIMEOUT 90 LABELS qemu)
  endforeach()
endforeach()
# The checks can fail: the host expecting another seed in vda3 must see a difference.
add_test(NAME qemu-virt-riscv64.partitions.rw_wrong_seed_fails COMMAND ${PART_TEST} qemu-virt-riscv64
  rw_wrong_seed ${CMAKE_BINARY_DIR}/partitions/qemu-virt-riscv64-rw_wrong_seed)
set_tests_properties(qemu-virt-riscv64.partitions.rw_wrong_seed_fails PROPERTIES TIMEOUT 90 LABELS qemu
  WILL_FAIL TRUE)
