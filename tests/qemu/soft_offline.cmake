# Soft offline (mm/soft-offline.c, through `hwpoison soft-offline`) of page-cache frames over a
# real virtio disk, on every board, typed at the console because the frames are only known at
# run time (tests/qemu/soft_offline_test.sh says what it checks: the same digest before and
# after, the old frames hwpoison, the pages in new frames, HardwareCorrupted + 8 kB, bad input
# one line each, the dirty page written back from its new frame).  The `soft_offline` KTAP
# suite (a fake disk, every case by hand) runs in ktest.all.
foreach(b ${TINYMM_BOARDS})
  add_test(NAME ${b}.soft_offline.pagecache
    COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/soft_offline_test.sh
      --dir ${CMAKE_BINARY_DIR}/soft_offline/${b} --board ${b})
  set_tests_properties(${b}.soft_offline.pagecache PROPERTIES TIMEOUT 180 LABELS qemu)
endforeach()
