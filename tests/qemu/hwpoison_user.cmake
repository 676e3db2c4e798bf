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
# The KTAP suite `hwpoison_user` (tests/ktest/hwpoison_user_ktest.c) alone on every board: the
# hwpoison entry's layout for the first and last frame, and an anonymous page shared by fork
# poisoned (both ptes entries, VM_FAULT_HWPOISON, fork copies, unpoison), with v6.10's line, and
# a frame already poisoned: SIGBUS for an action-required caller mapping it (kill_accessing_process).
foreach(spec "qemu-virt-arm|" "orangepi-pc|1G" "raspi2b|1G" "qemu-virt-riscv64|" "qemu-virt-riscv32|"
             "hifive-unleashed|8G")
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 b)
  list(GET spec 1 mem)
  set(memarg)
  if(mem)
    set(memarg --mem ${mem})
  endif()
  boot_test(${b}.ktest.hwpoison_user ${b} ${memarg} --append "tinymm.test=hwpoison_user" --ktap
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Memory failure: 0x[0-9a-f]+: recovery action for dirty LRU page: Recovered$"
    --expect "^# totals: pass:3 fail:0 skip:0$" --reject "^    not ok")
endforeach()
