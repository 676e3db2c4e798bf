# Reclaim of mapped file pages (tests/qemu/mapread.sh, docs/shared-mappings.md, "Reclaim of
# mapped pages: the test"): /bin/mapread streams through a MAP_SHARED file 4x the memory the
# page cache can have, every word exact, its RSS sampled by `ps` below a bound, pages stolen by
# reclaim, buddycheck/slabcheck clean.
#   user_sys.<virt board>.mapread          a 128 MiB file on an ext2 vdb, 32 MiB of RAM, two
#                                          passes; its 64 hot pages stay resident (mincore)
#   user_ram.<hifive-unleashed|orangepi-pc|raspi2b>.mapread
#                                          a 14 MiB file on the root RAM disk, 64 MiB of RAM
#                                          (QEMU's -m on the HiFive, mem=64M on the two ARM
#                                          boards, whose RAM is fixed at 1 GiB) of which vmalloc
#                                          pins all but 3.5 MiB; its 16 hot pages stay
#                                          resident (at most 16 evictions in 7 passes)
# By default qemu-virt-arm's and the Orange Pi PC's; the other four are label long
# (`make test-long`).
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  add_test(NAME user_sys.${b}.mapread COMMAND ${CMAKE_CURRENT_LIST_DIR}/mapread.sh ${b})
  set_tests_properties(user_sys.${b}.mapread PROPERTIES TIMEOUT 300 LABELS qemu
    ENVIRONMENT "MKE2FS=${MKE2FS}")
  if(NOT b STREQUAL qemu-virt-arm)
    set_tests_properties(user_sys.${b}.mapread PROPERTIES LABELS "qemu;long")
  endif()
endforeach()
foreach(b hifive-unleashed orangepi-pc raspi2b)
  add_test(NAME user_ram.${b}.mapread COMMAND ${CMAKE_CURRENT_LIST_DIR}/mapread.sh ${b})
  set_tests_properties(user_ram.${b}.mapread PROPERTIES TIMEOUT 300 LABELS qemu)
  if(NOT b STREQUAL orangepi-pc)
    set_tests_properties(user_ram.${b}.mapread PROPERTIES LABELS "qemu;long")
  endif()
endforeach()
