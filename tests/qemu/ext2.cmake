# ext2 (issue 32; docs/ext2.md): images made by Debian's mke2fs -d (tests/qemu/ext2_image.sh),
# booted as the root filesystem (tinymm.root=vda), a scripted shell session, and then Debian's
# e2fsck and debugfs as the judges (tests/qemu/ext2_test.sh, ext2_check.py).
set(E2T ${CMAKE_CURRENT_LIST_DIR}/ext2_test.sh)
# Reading: 206 files hashed by tinymm's sha256sum as on the host (indirect blocks, the
# triple-indirect one on 1 KiB blocks, a 200-entry directory, a hard link), fast / slow /
# absolute symlinks and a loop (ELOOP).
add_test(NAME ext2.read_1k COMMAND ${E2T} qemu-virt-arm 1024 read)
add_test(NAME ext2.read_4k COMMAND ${E2T} qemu-virt-riscv64 4096 read)
# Writing: create, write, append, truncate down and up, rename (a file, a directory to another
# parent), unlink, mkdir, rmdir, deep paths, a file past the double-indirect limit on 1 KiB
# blocks, a directory grown past one block with holes punched in it, hard and symbolic links,
# umount; then e2fsck -fn clean and every file's bytes exactly as written.
add_test(NAME ext2.write_1k COMMAND ${E2T} qemu-virt-arm 1024 write)
add_test(NAME ext2.write_4k COMMAND ${E2T} qemu-virt-riscv64 4096 write)
add_test(NAME ext2.write_1k_rv32 COMMAND ${E2T} qemu-virt-riscv32 1024 write)
set_tests_properties(ext2.read_1k ext2.read_4k ext2.write_1k ext2.write_4k ext2.write_1k_rv32
  PROPERTIES TIMEOUT 300 LABELS qemu)
# Damaged images (tests/qemu/ext2_corrupt.sh): bad magic, a block count past the device, an
# inode count that disagrees with the groups (mount refused in one line), a directory rec_len
# of 0 or running past its block (EUCLEAN), a block pointer past the end (EIO, as Linux), a
# symlink loop (ELOOP); the kernel survives and the image is byte for byte unchanged; directories
# with two names (one an entry in itself) renamed and removed read-write: ELOOP, no double lock.
foreach(c bad_magic blocks_past_end inode_count dir_rec_len_0 dir_rec_len_past_block
          block_past_end symlink_loop dir_alias)
  add_test(NAME ext2.corrupt.${c} COMMAND ${CMAKE_CURRENT_LIST_DIR}/ext2_corrupt.sh qemu-virt-arm ${c})
  set_tests_properties(ext2.corrupt.${c} PROPERTIES TIMEOUT 90 LABELS qemu)
endforeach()
# Four times the RAM: 128 MiB written and read back with 32 MiB of RAM, then e2fsck and debugfs.
add_test(NAME ext2.bigfile_32m COMMAND ${CMAKE_CURRENT_LIST_DIR}/ext2_bigfile.sh qemu-virt-arm)
set_tests_properties(ext2.bigfile_32m PROPERTIES TIMEOUT 400 LABELS qemu)
# Bad input (tests/qemu/ext2_errors.sh): a full disk (ENOSPC, the bytes that fit kept exactly,
# e2fsck clean, another file untouched), ENOENT, ENOTDIR, ENAMETOOLONG, ENOTEMPTY, and a
# read-only mount that refuses every change with EROFS and leaves the image unchanged.
add_test(NAME ext2.errors COMMAND ${CMAKE_CURRENT_LIST_DIR}/ext2_errors.sh qemu-virt-arm)
set_tests_properties(ext2.errors PROPERTIES TIMEOUT 120 LABELS qemu)
# ext2's page flags seen from outside (`kpageflags`, Linux's /proc/kpageflags words): PG_checked
# on the directory's folios, PG_private and PG_mappedtodisk on the file's (ext2_pageflags.sh).
add_test(NAME ext2.pageflags COMMAND ${CMAKE_CURRENT_LIST_DIR}/ext2_pageflags.sh qemu-virt-arm)
set_tests_properties(ext2.pageflags PROPERTIES TIMEOUT 120 LABELS qemu)
# The `ext2` KTAP suite (tests/ktest/ext2_ktest.c) on RAM disk ram0, which needs no disk: here on
# the virt boards, in boards.cmake and raspi2b.cmake on the real ones (and in every ktest.all).
foreach(b ${TINYMM_BOARDS})
  boot_test(${b}.ktest.ext2 ${b} --append "tinymm.test=ext2" --timeout 60
    --expect "^# totals: pass:19 fail:0 skip:0$" --reject "^    not ok")
endforeach()
