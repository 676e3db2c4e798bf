# The shell's `exec` on the boards with no disk driver (orangepi-pc, raspi2b, hifive-unleashed),
# booted with tinymm.root=ram1: the root filesystem is the kernel's built-in copy of
# build/<board>/rootfs.img (drivers/brd.c, docs/brd.md; tests/qemu/user_ram.sh):
#   user_ram.<board>   hello prints its line and exits 0, crash null is killed by SIGSEGV and
#                      crash illegal by SIGILL, memtest 64 MiB and sysfuzz 20000 calls exit 0,
#                      AnonPages back to 0, buddycheck and slabcheck pass, in one boot
#   user_ram.check_catches_wrong_status   the same check wanting hello's status 1 must fail
#   user_ram.<board>.forkcow   /bin/forkcow hold's page through `pagemap` (shared, then the
#                      parent's own), /bin/forkcow 8 exits 0 (fork and copy-on-write,
#                      docs/fork.md), then AnonPages 0 kB, buddycheck and slabcheck pass
#   user_ram.<board>.maps      tests/qemu/user_maps.sh (the virt boards' user_sys.<board>.maps):
#                      `maps` and `pagemap` of a live /bin/sleep, bad pids and addresses
foreach(b orangepi-pc raspi2b hifive-unleashed)
  add_test(NAME user_ram.${b} COMMAND ${CMAKE_CURRENT_LIST_DIR}/user_ram.sh ${b})
  set_tests_properties(user_ram.${b} PROPERTIES TIMEOUT 120 LABELS qemu)
  add_test(NAME user_ram.${b}.forkcow COMMAND ${CMAKE_CURRENT_LIST_DIR}/user_ram.sh ${b} forkcow)
  set_tests_properties(user_ram.${b}.forkcow PROPERTIES TIMEOUT 120 LABELS qemu)
  add_test(NAME user_ram.${b}.maps COMMAND ${CMAKE_CURRENT_LIST_DIR}/user_maps.sh ${b})
  set_tests_properties(user_ram.${b}.maps PROPERTIES TIMEOUT 120 LABELS qemu)
endforeach()
add_test(NAME user_ram.check_catches_wrong_status COMMAND sh -c
  "out=$(${CMAKE_CURRENT_LIST_DIR}/user_ram.sh raspi2b --hello-status 1 2>&1)$<SEMICOLON> rc=$?
   printf '%s\\n' \"$out\" | tail -n 3
   [ $rc != 0 ] && printf '%s\\n' \"$out\" |
     grep -q \"^user_ram: FAIL: exec /bin/hello a b: wanted '/bin/hello: exited with status 1', the shell said: \"")
set_tests_properties(user_ram.check_catches_wrong_status PROPERTIES TIMEOUT 120 LABELS qemu)
