# The root filesystem image with the user programs (docs/user.md), booted as `make run ROOTFS=1`
# boots it (tools/run --rootfs), on every virt board: the kernel's ext2 lists /bin and reads each
# program back with the host's SHA-256, /mnt is empty, and the build's image is left untouched
# (tests/qemu/rootfs_boot.sh).  rootfs_boot.catches_damage boots a copy with a byte of
# /bin/hello flipped: the hash check must fail.
foreach(b ${TINYMM_BOARDS})
  add_test(NAME rootfs_boot.${b} COMMAND ${CMAKE_CURRENT_LIST_DIR}/rootfs_boot.sh ${b})
  set_tests_properties(rootfs_boot.${b} PROPERTIES TIMEOUT 90 LABELS qemu)
endforeach()
add_test(NAME rootfs_boot.catches_damage COMMAND sh -c
  "out=$(${CMAKE_CURRENT_LIST_DIR}/rootfs_boot.sh qemu-virt-arm --damage)$<SEMICOLON> rc=$?$<SEMICOLON> echo \"$out\" | tail -n 3
   [ $rc = 1 ] && echo \"$out\" | grep -q '^rootfs_boot: FAIL: sha256sum /bin/hello: the kernel read [0-9a-f]\\{64\\}, the host built'")
set_tests_properties(rootfs_boot.catches_damage PROPERTIES TIMEOUT 90 LABELS qemu)
