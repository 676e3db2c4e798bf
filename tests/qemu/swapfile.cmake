# Swap areas on virtio disks made by util-linux's mkswap (tests/qemu/swapfile_test.sh says what
# is checked; docs/swap.md).  Included from the end of tests/qemu/tests.cmake.
set(SWAPFILE_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/swapfile_test.sh)
find_program(MKSWAP_QEMU mkswap PATHS /sbin /usr/sbin REQUIRED)
foreach(b ${TINYMM_BOARDS})
  add_test(NAME ${b}.swapfile.mkswap COMMAND ${SWAPFILE_TEST} ${b} ok ${CMAKE_BINARY_DIR}/swapfile/${b})
  set_tests_properties(${b}.swapfile.mkswap PROPERTIES TIMEOUT 90 LABELS qemu
    ENVIRONMENT "MKSWAP=${MKSWAP_QEMU}")
endforeach()
# The checks can fail: another size expected in /proc/swaps.
add_test(NAME qemu-virt-arm.swapfile.wrong_size_fails COMMAND ${SWAPFILE_TEST} qemu-virt-arm
  wrong_size ${CMAKE_BINARY_DIR}/swapfile/qemu-virt-arm-wrong_size)
set_tests_properties(qemu-virt-arm.swapfile.wrong_size_fails PROPERTIES TIMEOUT 90 LABELS qemu
  WILL_FAIL TRUE ENVIRONMENT "MKSWAP=${MKSWAP_QEMU}")
