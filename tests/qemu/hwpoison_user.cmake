# HWPoison in mapped pages from user mode (tests/qemu/hwpoison_user_test.sh, docs/hwpoison.md
# "Mapped frames"): /bin/hwpoison's anonymous page (SIGBUS at once for the madvise caller, at
# its next touch for the owner, at the address), clean file page (dropped, right bytes after
# the refault), dirty file page (fsync says EIO) and soft offline of mapped file pages.
#   user_sys.<virt board>.hwpoison_user   a fresh ext2 image as vdb on /mnt; the host checks it
#   user_ram.<board>.hwpoison_user        ram0's sample filesystem on /mnt (root on ram1)
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  add_test(NAME user_sys.${b}.hwpoison_user COMMAND ${CMAKE_CURRENT_LIST_DIR}/hwpoison_user_test.sh ${b})
  set_tests_properties(user_sys.${b}.hwpoison_user PROPERTIES TIMEOUT 300
    ENVIRONMENT "MKE2FS=${MKE2FS};E2FSCK=${E2FSCK};DEBUGFS=${DEBUGFS}")
endforeach()
foreach(b orangepi-pc raspi2b hifive-unleashed)
  add_test(NAME user_ram.${b}.hwpoison_user COMMAND ${CMAKE_CURRENT_LIST_DIR}/hwpoison_user_test.sh ${b})
  set_tests_properties(user_ram.${b}.hwpoison_user PROPERTIES TIMEOUT 300 LABELS qemu)
endforeach()
