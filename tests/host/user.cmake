# The user programs and root filesystem images every board builds (user/, docs/user.md), judged
# from the host; their boot tests are tests/qemu/user.cmake.  They read build/<board>/, which
# `make all` (or `make test`) builds first.
#   user.errno              the runtime's errno translation table (tests/host/user_errno_test.c)
#   user.elf.<board>        the kernel's own ELF checks (fs/binfmt_elf_check.c) accept each
#                           program for the board's target; static ET_EXEC, everything at or
#                           above 0x10000, no W+X segment, no executable stack
#   user.linux_abi.<board>  the programs run under qemu-user, Linux's ABI: hello prints and
#                           exits 0, each crash dies by the right signal, forkcow passes
#   rootfs.<board>          rootfs.img: e2fsck -fn clean, debugfs dumps each program byte for
#                           byte, /mnt empty, rebuilt identically
# and, to show each check can fail, the same checks on inputs they must refuse.
add_executable(user_elf_check tests/host/user_elf_check.c)
target_link_libraries(user_elf_check host_kernel)
# user/lib/errno.c's Linux -> C library errno table, against glibc's (Linux's) numbers.
add_executable(user_errno_test tests/host/user_errno_test.c user/lib/errno.c)
target_include_directories(user_errno_test PRIVATE user/lib)
target_link_libraries(user_errno_test ${CMOCKA})
add_test(NAME user.errno COMMAND user_errno_test)

# The board's ABI, from its own board.cmake (read in a function: its variables stay there).
function(user_board_arch board out)
  include(${CMAKE_SOURCE_DIR}/board/${board}/board.cmake)
  if(TINYMM_ARCH STREQUAL "arm")
    set(${out} arm PARENT_SCOPE)
  elseif("${TINYMM_CPU_FLAGS}" MATCHES "-mabi=lp64")
    set(${out} rv64 PARENT_SCOPE)
  else()
    set(${out} rv32 PARENT_SCOPE)
  endif()
endfunction()
foreach(b ${TINYMM_BOARDS} ${TINYMM_REAL_BOARDS})
  user_board_arch(${b} arch)
  set(bin ${CMAKE_SOURCE_DIR}/build/${b}/user/bin)
  add_test(NAME user.elf.${b} COMMAND user_elf_check ${arch} ${bin}/hello ${bin}/crash)
  add_test(NAME user.linux_abi.${b} COMMAND ${CMAKE_SOURCE_DIR}/tests/host/user_linux_abi.sh ${b} ${arch})
  add_test(NAME rootfs.${b} COMMAND ${CMAKE_SOURCE_DIR}/tests/host/rootfs_check.sh ${b})
  set_tests_properties(user.linux_abi.${b} rootfs.${b} PROPERTIES TIMEOUT 60)
  # filetest under qemu-user, its files checked byte for byte (docs/syscalls.md)
  add_test(NAME user.linux_abi_files.${b} COMMAND ${CMAKE_SOURCE_DIR}/tests/host/user_linux_abi_files.sh ${b} ${arch})
  set_tests_properties(user.linux_abi_files.${b} PROPERTIES TIMEOUT 60)
endforeach()
# The file check must fail on a flipped byte.
add_test(NAME user.linux_abi_files.catches_damage COMMAND sh -c
  "out=$(${CMAKE_SOURCE_DIR}/tests/host/user_linux_abi_files.sh qemu-virt-arm arm --damage)$<SEMICOLON> rc=$?$<SEMICOLON> echo \"$out\"
   [ $rc = 1 ] && echo \"$out\" | grep -q '^user_linux_abi_files: data: 66659 bytes'")

set(ARM_HELLO ${CMAKE_SOURCE_DIR}/build/qemu-virt-arm/user/bin/hello)
# An ARM program for an RV32 kernel (the same class): elf_check's "wrong machine".
add_test(NAME user.elf.refuses_wrong_machine COMMAND sh -c
  "out=$($<TARGET_FILE:user_elf_check> rv32 ${ARM_HELLO})$<SEMICOLON> rc=$?$<SEMICOLON> echo \"$out\"
   [ $rc = 1 ] && echo \"$out\" | grep -q 'refused by elf_check.*wrong machine 40 (ARM)'")
# A static program linked at the toolchain's default 0x8000 (tests/host/data/elf_prog.c): the
# kernel would run it, but page 0's neighbourhood must stay unmapped.
add_test(NAME user.elf.refuses_low_address COMMAND sh -c
  "out=$($<TARGET_FILE:user_elf_check> arm ${CMAKE_BINARY_DIR}/elf_prog_arm)$<SEMICOLON> rc=$?$<SEMICOLON> echo \"$out\"
   [ $rc = 1 ] && echo \"$out\" | grep -q 'entry point 0x8000 is below 0x10000'")
# The ARM program under the RV64 qemu-user: the Linux-ABI run must fail.
add_test(NAME user.linux_abi.catches_failure COMMAND sh -c
  "out=$(${CMAKE_SOURCE_DIR}/tests/host/user_linux_abi.sh qemu-virt-arm rv64)$<SEMICOLON> rc=$?$<SEMICOLON> echo \"$out\"
   [ $rc = 1 ] && echo \"$out\" | grep -q '^user_linux_abi: FAIL: hello: exit status'")
# A damaged copy of the image: a flipped byte in /bin/hello (the dump differs) and a wrong free
# block count in group 0 (e2fsck).
set(ROOTFS_CHECK ${CMAKE_SOURCE_DIR}/tests/host/rootfs_check.sh)
add_test(NAME rootfs.check_catches_data COMMAND sh -c
  "out=$(${ROOTFS_CHECK} qemu-virt-arm --damage data)$<SEMICOLON> rc=$?$<SEMICOLON> echo \"$out\" | tail -n 3
   [ $rc = 1 ] && echo \"$out\" | grep -q '^rootfs_check: FAIL: /bin/hello in the image differs'")
add_test(NAME rootfs.check_catches_fsck COMMAND sh -c
  "out=$(${ROOTFS_CHECK} qemu-virt-arm --damage fsck)$<SEMICOLON> rc=$?$<SEMICOLON> echo \"$out\" | tail -n 3
   [ $rc = 1 ] && echo \"$out\" | grep -q '^rootfs_check: FAIL: e2fsck -fn: the filesystem is not clean'")
