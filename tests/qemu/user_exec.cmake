# The shell's `exec` end to end on every virt board, with the root filesystem image
# (tests/qemu/user_exec.sh, docs/user.md "Tests"):
#   user_exec.<board>.errors   a missing file, a directory: the exec fails with words
#   user_exec.<board>.hello    /bin/hello prints its line and exits 0; AnonPages back; checks pass
#   user_exec.<board>.crash    each crash mode killed by SIGSEGV/SIGILL, the kernel alive after
# hello and crash need the architecture's user mode (arch/<arch>: arch_ret_to_user) and, for
# hello's line, the write system call (kernel/syscall_table.c): they are registered for a board
# once its tree has them, so a tree without them stays green and says so here.
file(READ ${CMAKE_SOURCE_DIR}/kernel/syscall_table.c USER_EXEC_SYSCALLS)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/kernel/syscall_table.c)
# Does @board's architecture define arch_ret_to_user?  (A function: board.cmake's variables
# stay in it.)
function(user_exec_arch_has_user board out)
  include(${CMAKE_SOURCE_DIR}/board/${board}/board.cmake)
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/arch/${TINYMM_ARCH}/*.S ${CMAKE_SOURCE_DIR}/arch/${TINYMM_ARCH}/*.c)
  set(${out} FALSE PARENT_SCOPE)
  foreach(f ${srcs})
    file(STRINGS ${f} hit REGEX "arch_ret_to_user")
    if(hit)
      set(${out} TRUE PARENT_SCOPE)
    endif()
  endforeach()
endfunction()
foreach(b ${TINYMM_BOARDS})
  add_test(NAME user_exec.${b}.errors COMMAND ${CMAKE_CURRENT_LIST_DIR}/user_exec.sh ${b} errors)
  set_tests_properties(user_exec.${b}.errors PROPERTIES TIMEOUT 90 LABELS qemu)
  user_exec_arch_has_user(${b} has_user)
  if(has_user AND USER_EXEC_SYSCALLS MATCHES "__NR_write,")
    foreach(c hello crash)
      add_test(NAME user_exec.${b}.${c} COMMAND ${CMAKE_CURRENT_LIST_DIR}/user_exec.sh ${b} ${c})
      set_tests_properties(user_exec.${b}.${c} PROPERTIES TIMEOUT 90 LABELS qemu)
    endforeach()
  else()
    message(STATUS "user_exec.${b}.hello/crash not registered: the arch has no arch_ret_to_user or the table no write (issue 33's arch and sys halves)")
  endif()
endforeach()
