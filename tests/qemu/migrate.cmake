# Page migration of user pages in use (tests/qemu/migrate_test.sh, docs/migration.md):
#   user_sys.<virt board>.migrate   /bin/migtest writes and reads anonymous, MAP_SHARED ext2,
#                                   MAP_PRIVATE ext2 and fork-shared pages while the shell
#                                   migrates each twice: the moves, pagemap and kpageflags right,
#                                   every word exact, the bad-input lines, e2fsck clean and the
#                                   file's bytes on the host.  The `migrate` KTAP suite runs in
#                                   every board's ktest.all.
# qemu-virt-arm runs by default; the RISC-V boards repeat it under label long.
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  add_test(NAME user_sys.${b}.migrate COMMAND ${CMAKE_CURRENT_LIST_DIR}/migrate_test.sh ${b})
  set_tests_properties(user_sys.${b}.migrate PROPERTIES TIMEOUT 400 LABELS qemu
    ENVIRONMENT "MKE2FS=${MKE2FS};E2FSCK=${E2FSCK};DEBUGFS=${DEBUGFS}")
  if(NOT b STREQUAL qemu-virt-arm)
    set_tests_properties(user_sys.${b}.migrate PROPERTIES LABELS "qemu;long")
  endif()
endforeach()
