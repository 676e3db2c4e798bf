# The system calls end to end on every virt board (tests/qemu/user_sys.sh, docs/syscalls.md):
#   user_sys.<board>.memtest   96 MiB of anonymous memory through brk and mmap on a 32 MiB machine,
#                              checked; AnonPages back
#   user_sys.<board>.filetest  filetest on a fresh ext2 /mnt, then e2fsck -fn and the bytes via debugfs
#   user_sys.<board>.oom       64 MiB in one mapping on 32 MiB: killed with "Out of memory", SIGKILL,
#                              the kernel's checks pass and the next program runs
#   user_sys.<board>.sysfuzz   20000 fuzzed calls, then the kernel alive, buddycheck, slabcheck,
#                              free memory back
#   user_sys.<board>.forkcow   /bin/forkcow 8 (fork, copy-on-write, wait: docs/fork.md) exits 0;
#                              AnonPages back, buddycheck, slabcheck, free memory back
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  foreach(c memtest filetest sysfuzz oom forkcow)
    add_test(NAME user_sys.${b}.${c} COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/user_sys.sh ${b} ${c})
    set_tests_properties(user_sys.${b}.${c} PROPERTIES TIMEOUT 400
      ENVIRONMENT "MKE2FS=${MKE2FS};E2FSCK=${E2FSCK};DEBUGFS=${DEBUGFS}")
  endforeach()
endforeach()
# `maps <pid>` and `pagemap <pid> <addr>` of a live task (tests/qemu/user_maps.sh, docs/user.md):
#   user_sys.<board>.maps   `exec -b /bin/sleep`, then its /proc/PID/maps lines, `maps $!`, the
#                           pagemap entries of its text, stack and holes, and bad pids/addresses
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  add_test(NAME user_sys.${b}.maps COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/user_maps.sh ${b})
  set_tests_properties(user_sys.${b}.maps PROPERTIES TIMEOUT 120 LABELS qemu)
endforeach()
# sh's $! before any `exec -b`: one line, the command fails, the script goes on (docs/shell-and-tests.md).
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  boot_test(${b}.shell.bang_without_background ${b} --append "tinymm.run=maps $!$<SEMICOLON> version"
    --status 1 --expect "^maps: \\$!: no background task$" --expect "^tinymm [^ ]+ \\(${b}, ")
endforeach()
