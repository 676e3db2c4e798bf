# Writeback through the page cache to a real virtio disk on every board, checked from the host
# byte for byte (tests/qemu/writeback_test.sh says what each mode checks;
# tests/qemu/writeback_expect.py regenerates `blk write`'s bytes).  The `writeback` KTAP suite
# (a fake disk: tags, counters, write_cache_pages, errseq) runs in ktest.all.
set(WB_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/writeback_test.sh)
# Sector 140 lies in the second written range (65536 + 16384 bytes = sectors 128..159).
file(WRITE ${CMAKE_BINARY_DIR}/writeback/blkdebug-write-sector140.cfg
  "[inject-error]\nevent = \"write_aio\"\nerrno = \"5\"\nsector = \"140\"\nonce = \"off\"\n")
foreach(b ${TINYMM_BOARDS})
  foreach(mode integrity eio flusher throttle badinput)
    add_test(NAME ${b}.writeback.${mode} COMMAND ${WB_TEST}
      --dir ${CMAKE_BINARY_DIR}/writeback/${b}-${mode} --board ${b} --mode ${mode}
      --blkdebug ${CMAKE_BINARY_DIR}/writeback/blkdebug-write-sector140.cfg)
    set_tests_properties(${b}.writeback.${mode} PROPERTIES TIMEOUT 300 LABELS qemu)
  endforeach()
endforeach()
