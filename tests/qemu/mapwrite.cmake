# Shared file mappings end to end (tests/qemu/mapwrite.sh, docs/shared-mappings.md):
#   user_sys.<virt board>.mapwrite           /bin/mapwrite three times on a fresh ext2 vdb and
#                                            /bin/mapbus killed by SIGBUS past EOF: the
#                                            host's e2fsck -fn clean and the bytes exact, the
#                                            kernel's sha256sum right, msync leaves nothing dirty
#   user_ram.<board>.mapwrite                the same writes on ram0 (root on ram1), the digest
#                                            after umount and mount again
#   user_sys.<virt board>.mapwrite_pressure  16 MiB then 14 MiB through MAP_SHARED on 32 MiB with
#                                            the flusher every 100 ms: reclaim ran, bytes exact
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  add_test(NAME user_sys.${b}.mapwrite COMMAND ${CMAKE_CURRENT_LIST_DIR}/mapwrite.sh ${b} basic)
  set_tests_properties(user_sys.${b}.mapwrite PROPERTIES TIMEOUT 300
    ENVIRONMENT "MKE2FS=${MKE2FS};E2FSCK=${E2FSCK};DEBUGFS=${DEBUGFS}")
  add_test(NAME user_sys.${b}.mapwrite_pressure COMMAND ${CMAKE_CURRENT_LIST_DIR}/mapwrite.sh ${b} pressure)
  set_tests_properties(user_sys.${b}.mapwrite_pressure PROPERTIES TIMEOUT 500
    ENVIRONMENT "MKE2FS=${MKE2FS};E2FSCK=${E2FSCK};DEBUGFS=${DEBUGFS}")
endforeach()
foreach(b orangepi-pc raspi2b hifive-unleashed)
  add_test(NAME user_ram.${b}.mapwrite COMMAND ${CMAKE_CURRENT_LIST_DIR}/mapwrite.sh ${b} basic)
  set_tests_properties(user_ram.${b}.mapwrite PROPERTIES TIMEOUT 300 LABELS qemu)
endforeach()
