# The page cache over a real virtio disk on every board, checked from the host
# (tests/qemu/pagecache_test.sh says what each mode checks).  The `pagecache` KTAP suite (a fake
# disk: readahead windows by hand, the read path) runs in ktest.all.
set(PC_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/pagecache_test.sh)
file(WRITE ${CMAKE_BINARY_DIR}/pagecache/blkdebug-sector8.cfg
  "[inject-error]\nevent = \"read_aio\"\nerrno = \"5\"\nsector = \"8\"\nonce = \"off\"\n")
foreach(b ${TINYMM_BOARDS})
  foreach(mode integrity readahead eio badinput)
    add_test(NAME ${b}.pagecache.${mode} COMMAND ${PC_TEST}
      --dir ${CMAKE_BINARY_DIR}/pagecache/${b}-${mode} --board ${b} --mode ${mode}
      --blkdebug ${CMAKE_BINARY_DIR}/pagecache/blkdebug-sector8.cfg)
    set_tests_properties(${b}.pagecache.${mode} PROPERTIES TIMEOUT 300 LABELS qemu)
  endforeach()
endforeach()
