# virtio-blk and the block layer on every board (included from the end of tests/qemu/tests.cmake,
# so boot_test(), CHECK and TINYMM_BOARDS are known); docs/virtio-blk.md describes what is tested.
# Disk images are made per test in build/host/blk/<test> by tests/qemu/blk_test.sh (a seeded
# generator: the same bytes every run), which also compares `blk read` dumps with the host's
# `hexdump -C -v` of the same image.
set(BLK_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/blk_test.sh)
set(BLK_LOG "^\\[ *[0-9]+\\.[0-9]{6}\\] ")

function(blk_test name)
  add_test(NAME ${name} COMMAND ${BLK_TEST} --dir ${CMAKE_BINARY_DIR}/blk/${name} ${ARGN})
  set_tests_properties(${name} PROPERTIES TIMEOUT 90 LABELS qemu)
endfunction()

# blkdebug: reads of sector 8 fail with EIO (QEMU-FACTS.md); written next to the images.
file(WRITE ${CMAKE_BINARY_DIR}/blk/blkdebug-sector8.cfg
  "[inject-error]\nevent = \"read_aio\"\nerrno = \"5\"\nsector = \"8\"\nonce = \"off\"\n")

foreach(b ${TINYMM_BOARDS})
  if(b STREQUAL qemu-virt-arm)
    set(top 0x0a003e00)
    set(next 0x0a003c00)
  else()
    set(top 0x10008000)
    set(next 0x10007000)
  endif()
  # The KTAP suite on a scratch disk: round trips, bad bios, flush, a full virtqueue.
  blk_test(${b}.blk.ktest --img scratch.img:8M:- -- --board ${b} --disk @DIR@/scratch.img
    --append "tinymm.test=virtio_blk" --timeout 60
    --expect "^# totals: pass:7 fail:0 skip:0$" --reject "not ok")
  # Two disks: the first image given is vda, at the highest transport address; each reads back
  # what the host wrote into it (a distinct label in every sector), byte for byte.
  blk_test(${b}.blk.two_disks_in_order --img a.img:1M:A --img b.img:2M:B
    --hexcheck 1:a.img:0:64 --hexcheck 2:b.img:0:64 --hexcheck 3:a.img:1000:777 --hexcheck 4:b.img:0x1ffff0:16
    -- --board ${b} --disk @DIR@/a.img --disk @DIR@/b.img
    --append "tinymm.run=blk list$<SEMICOLON> blk read vda 0 64$<SEMICOLON> blk read vdb 0 64$<SEMICOLON> blk read vda 1000 777$<SEMICOLON> blk read vdb 0x1ffff0 16"
    --expect "^vda: 1048576 bytes \\(2048 sectors\\), logical block 512, max segments [0-9]+, virtio-mmio@${top} irq [0-9]+ queue [0-9]+, features flush seg_max blk_size, ok$"
    --expect "^vdb: 2097152 bytes \\(4096 sectors\\), logical block 512, max segments [0-9]+, virtio-mmio@${next} irq [0-9]+ queue [0-9]+, features flush seg_max blk_size, ok$"
    --expect "^00000000  74 69 6e 79 6d 6d 20 64  69 73 6b 20 41 20 40 30  \\|tinymm disk A @0\\|$"
    --expect "^00000000  74 69 6e 79 6d 6d 20 64  69 73 6b 20 42 20 40 30  \\|tinymm disk B @0\\|$")
  # Without force-legacy=false QEMU offers a Version 1 device: refused in one line.
  blk_test(${b}.blk.legacy_refused --img a.img:1M:A --
    --board ${b} --disk @DIR@/a.img --qemu "-global virtio-mmio.force-legacy=true"
    --append "tinymm.run=blk list"
    --expect "${BLK_LOG}virtio-mmio ${top}: legacy \\(version 1\\) device 2 refused: tinymm drives only modern devices$<SEMICOLON> use -global virtio-mmio.force-legacy=false$"
    --expect "^blk: no disks" --reject "^vda:")
  # A device that stops answering (QEMU throttled to one request a second, the timeout at
  # 300 ms): the disk is failed with one line, the reader gets an error, nothing hangs.
  blk_test(${b}.blk.timeout_fails_device --img a.img:1M:A -- --board ${b} --status 1
    --qemu "-drive file=@DIR@/a.img,if=none,id=d0,format=raw,throttling.iops-total=1 -device virtio-blk-device,drive=d0"
    --append "tinymm.blk_timeout_ms=300 tinymm.run=blk sha256 vda 0 65536$<SEMICOLON> blk list$<SEMICOLON> version"
    --expect "${BLK_LOG}virtio-blk vda: device error: [0-9]+ requests made no progress in 300 ms$<SEMICOLON> device failed$"
    --expect "^blk: vda: read error at offset 0x0: device failed \\(-EIO\\)$"
    --expect "^vda: .*, failed$" --expect "^tinymm [0-9]")
  # QEMU's blkdebug fails every read of sector 8: that read fails with a clear line, its
  # neighbours read right, the error is counted, the device stays usable (ok).  (One more read,
  # of 512 bytes: the partition scan's of the MBR at boot, block/partitions/core.c.)
  blk_test(${b}.blk.blkdebug_eio --img a.img:1M:A --hexcheck 1:a.img:0:512 --hexcheck 3:a.img:8192:512 --
    --board ${b} --status 1
    --qemu "-drive file=blkdebug:${CMAKE_BINARY_DIR}/blk/blkdebug-sector8.cfg:@DIR@/a.img,if=none,id=d0,format=raw -device virtio-blk-device,drive=d0"
    --append "tinymm.run=blk read vda 0 512$<SEMICOLON> blk read vda 4096 512$<SEMICOLON> blk read vda 8192 512$<SEMICOLON> blk stats$<SEMICOLON> blk list"
    --expect "^blk read: vda: reading 4096 bytes at offset 4096 \\(sector 8\\) failed: I/O error \\(-EIO\\)$"
    --expect "^vda +3 +8704 +2901 +0 +0 +0 +0 +0 +0 +1$" --expect ", ok$")
  # A lying device (the test hook corrupts the next used-ring entry the driver reads): one line,
  # the request in flight fails with -EIO, later ones at once with -ENXIO, the machine goes on.
  foreach(what id len idx)
    if(what STREQUAL id)
      set(why "used ring id 300 out of range \\(queue size 256\\)")
    elseif(what STREQUAL len)
      set(why "used ring len 8193 for id [0-9]+ exceeds the 4097 device-writable bytes offered")
    else()
      set(why "used ring idx [0-9]+ is 257 entries past the last seen, more than the 1 in flight")
    endif()
    blk_test(${b}.blk.inject_bad_used_${what} --img a.img:1M:A --img b.img:1M:B --hexcheck 3:b.img:0:32 --
      --board ${b} --disk @DIR@/a.img --disk @DIR@/b.img --status 1
      --append "tinymm.run=blk inject vda bad-used-${what}$<SEMICOLON> blk read vda 0 512$<SEMICOLON> blk read vda 0 16$<SEMICOLON> blk list$<SEMICOLON> blk read vdb 0 32$<SEMICOLON> version"
      --expect "${BLK_LOG}virtio-blk vda: device error: ${why}$<SEMICOLON> device failed$"
      --expect "^blk read: vda: reading 4096 bytes at offset 0 \\(sector 0\\) failed: I/O error \\(-EIO\\)$"
      --expect "^blk read: vda: reading 4096 bytes at offset 0 \\(sector 0\\) failed: device failed \\(-ENXIO\\)$"
      --expect "^vda: .*, failed$" --expect "^vdb: .*, ok$" --expect "^tinymm [^ ]+ \\(${b}, ")
  endforeach()
  # Bad input: each one line, non-zero status; nothing reaches the device (the one read counted
  # is the partition scan's of the MBR at boot).
  blk_test(${b}.blk.bad_input --img a.img:1M:A -- --board ${b} --disk @DIR@/a.img --status 1
    --append "tinymm.run=blk read vdz 0 16$<SEMICOLON> blk read vda 0 0$<SEMICOLON> blk read vda 1048570 7$<SEMICOLON> blk read vda 0x100000 1$<SEMICOLON> blk read vda zero 1$<SEMICOLON> blk inject vda sideways$<SEMICOLON> blk stats"
    --expect "^blk: no device 'vdz'$" --expect "^blk read: zero length$"
    --expect "^blk read: offset 1048570 \\+ length 7 is past the end of vda \\(1048576 bytes\\)$"
    --expect "^blk read: offset 1048576 \\+ length 1 is past the end of vda \\(1048576 bytes\\)$"
    --expect "^blk read: invalid number 'zero'$"
    --expect "^blk inject: usage: blk inject <dev> bad-used-id\\|bad-used-len\\|bad-used-idx \\(virtio\\) \\| no-answer\\|lose-irq\\|late-irq\\|stall\\|reset-card \\(mmc\\) \\| no-answer\\|bad-crc\\|reset-card \\(mmc_spi\\) \\| read-error \\(ram\\)$"
    --expect "^vda +1 +512 +512 +0 +0 +0 +0 +0 +0 +0$")
endforeach()

# A missing image is one line from tools/run before QEMU starts.
boot_test(tools.run_missing_disk_image qemu-virt-riscv32 --disk /nonexistent/disk.img --status 2
  --timeout 10 --expect "^tools/run: disk image '/nonexistent/disk.img' not found$")
# --disk a,b (what make run DISK=a,b passes): the names in the given order.
blk_test(tools.run_disk_list --img a.img:1M:A --img b.img:2M:B -- --board qemu-virt-riscv32
  --append "tinymm.run=blk list" --disk @DIR@/a.img,@DIR@/b.img --expect "^vda: 1048576 bytes" --expect "^vdb: 2097152 bytes")
