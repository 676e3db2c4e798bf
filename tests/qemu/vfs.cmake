# The VFS and ramfs from the shell on qemu-virt-arm (docs/vfs.md): one scripted session over
# the ramfs root and a second ramfs mount; file contents are judged by SHA-256 against the
# `blk write` stream recomputed on the host (tests/qemu/writeback_expect.py, the documented
# xorshift64*), written here at configure time.  The `vfs` KTAP suite runs in ktest.all.
set(VFS_DIR ${CMAKE_BINARY_DIR}/vfs)
file(MAKE_DIRECTORY ${VFS_DIR})
# vfs_expect(<var> <file> <spec>...): <var> = SHA-256 of the bytes the specs describe, each
# "zeros:<n>" or "stream:<seed>:<length>" (writeback_expect.py's stream), concatenated.
function(vfs_expect var file)
  execute_process(COMMAND python3 -c "import sys; sys.path.insert(0, sys.argv[1]); import writeback_expect as w; open(sys.argv[2], 'wb').write(b''.join(bytes(int(s.split(':')[1])) if s.startswith('zeros') else w.stream(int(s.split(':')[1]), int(s.split(':')[2])) for s in sys.argv[3:]))"
    ${CMAKE_SOURCE_DIR}/tests/qemu ${VFS_DIR}/${file} ${ARGN} COMMAND_ERROR_IS_FATAL ANY)
  file(SHA256 ${VFS_DIR}/${file} sum)
  set(${var} ${sum} PARENT_SCOPE)
endfunction()
vfs_expect(VFS_F f.bin stream:7:10000)
vfs_expect(VFS_G g.bin zeros:4096 stream:9:5000)
vfs_expect(VFS_H h.bin stream:7:100 zeros:8092)

set(S "$<SEMICOLON> ")
boot_test(qemu-virt-arm.vfs.shell_session qemu-virt-arm --status 1
  --append "tinymm.run=mount${S}mkdir /d${S}fwrite /d/f 0 10000 7${S}sha256sum /d/f${S}fwrite /d/g 4096 5000 9${S}sha256sum /d/g${S}ls /d${S}mv /d/f /d/h${S}ln /d/h /d/hh${S}ln -s h /d/l${S}stat /d/hh${S}ls -l /d${S}truncate /d/l 100${S}truncate /d/h 8192${S}sha256sum /d/hh${S}rm /d/hh${S}mkdir /d/m${S}mount -t ramfs none /d/m${S}fwrite /d/m/x 0 1 1${S}mount${S}df${S}mv /d/h /d/m/h${S}umount /d${S}umount /d/m${S}ls /d/m${S}ls /nope${S}rmdir /d${S}mkdir /d${S}cat /d${S}ln /d /e${S}truncate /d/g x${S}ls /d"
  --expect "^${VFS_F}  /d/f$"
  --expect "^${VFS_G}  /d/g$"
  --expect "^${VFS_H}  /d/hh$"
  --expect "^none / ramfs rw 0 0$"
  --expect "^none /d/m ramfs rw 0 0$"
  --expect "^Device: none.*Links: 2$"
  --expect "^lrwxrwxrwx  1 0 0        1 [0-9-]+ [0-9:]+ l -> h$"
  --expect "^-rw-r--r--  2 0 0    10000 [0-9-]+ [0-9:]+ hh$"
  --expect "^none +0 +0 +0 +0% /d/m$"
  --expect "^mv: /d/h: EXDEV$"
  --expect "^umount: /d: EINVAL$"
  --expect "^ls: /nope: ENOENT$"
  --expect "^rmdir: /d: ENOTEMPTY$"
  --expect "^mkdir: /d: EEXIST$"
  --expect "^cat: /d: EISDIR$"
  --expect "^ln: /e: EPERM$"
  --expect "^truncate: invalid size 'x'$"
  --reject "^x$" --reject "WARNING" --reject "BUG")
