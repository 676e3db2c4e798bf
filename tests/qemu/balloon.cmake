# virtio-balloon free page reporting on every board (included from the end of
# tests/qemu/tests.cmake, so boot_test(), CHECK and TINYMM_BOARDS are known);
# docs/page_reporting.md, "virtio-balloon", describes what is tested.
# reporting / nodevice (tests/qemu/balloon_test.sh): 512 MiB, `memhog 400` typed at the shell,
# QEMU's VmRSS read from the host: it must fall by >= 300 MiB within 15 s with the device, and
# must not within 8 s without it (the check can fail); a second `memhog 400` must succeed.
# ~5 s / ~10 s.
set(BALLOON_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/balloon_test.sh)
set(BALLOON_DEV "-device virtio-balloon-device,free-page-reporting=on")
set(BALLOON_LOG "^\\[ *[0-9]+\\.[0-9]{6}\\] virtio-balloon virtio-mmio@0x[0-9a-f]+: ")
foreach(b ${TINYMM_BOARDS})
  # Without the device the whole window is watched: 8 s, where reporting shows its fall within
  # about 3 s of the memhog (the reporting boot takes ~5 s in all).
  add_test(NAME ${b}.balloon.reporting COMMAND ${BALLOON_TEST} --board ${b} --mode reporting)
  add_test(NAME ${b}.balloon.nodevice COMMAND ${BALLOON_TEST} --board ${b} --mode nodevice
    --window 8)
  set_tests_properties(${b}.balloon.reporting ${b}.balloon.nodevice PROPERTIES TIMEOUT 90
    LABELS qemu)
  # A device that never returns a report (tinymm.balloon_inject=no-notify: never kicked):
  # report() times out, the device is failed, reporting is off, the 32 blocks come back
  # unreported and usable (memhog 200 of 256 MiB needs them).
  boot_test(${b}.balloon.timeout ${b} --qemu "${BALLOON_DEV}" --status 1
    --append "tinymm.balloon_timeout_ms=300 tinymm.balloon_inject=no-notify tinymm.run=report$<SEMICOLON> report$<SEMICOLON> reporting$<SEMICOLON> memhog 200"
    --expect "${BALLOON_LOG}report timed out after 300 ms$<SEMICOLON> blocks returned unreported, device failed, free page reporting off$"
    --expect "^report: device failed \\(error -110\\) after 0 blocks, 0 pages$"
    --expect "^report: no free page reporting device registered$"
    --expect "^reporting: off \\(no device registered\\)$" --expect "failed 32 blocks"
    --expect "^memhog: freed 200 MiB$")
  # A used ring entry naming a descriptor that does not exist: the device is failed the same way.
  boot_test(${b}.balloon.bad_used_id ${b} --qemu "${BALLOON_DEV}" --status 1
    --append "tinymm.balloon_inject=bad-used-id tinymm.run=report$<SEMICOLON> report"
    --expect "${BALLOON_LOG}device error: used ring id [0-9]+ out of range \\(queue size 32\\)$<SEMICOLON> blocks returned unreported, device failed, free page reporting off$"
    --expect "^report: device failed \\(error -5\\)" --expect "^report: no free page reporting device registered$")
  # A device without free-page-reporting=on: one line at boot, nothing registered.
  boot_test(${b}.balloon.no_feature ${b} --qemu "-device virtio-balloon-device" --status 1
    --append "tinymm.run=report"
    --expect "${BALLOON_LOG}no free page reporting \\(VIRTIO_BALLOON_F_REPORTING not offered\\)$"
    --expect "${BALLOON_LOG}inflate/deflate on \\(queues 0 and 1 of [0-9]+ entries\\), irq [0-9]+$"
    --expect "^report: no free page reporting device registered$" --reject "Free page reporting enabled")
  # Page poisoning on: QEMU would discard nothing (and zeros would fail the poison check): off.
  boot_test(${b}.balloon.page_poison ${b} --qemu "${BALLOON_DEV}" --status 1
    --append "tinymm.page_poison=1 tinymm.run=report"
    --expect "${BALLOON_LOG}free page reporting off: tinymm.page_poison=1 fills free pages"
    --expect "^report: no free page reporting device registered$" --reject "Free page reporting enabled")
  # The KTAP suite beside a real device: it sets the balloon (and its delayed work) aside, drives
  # its own fake device, and registers the balloon again at the end, which reports once more.
  boot_test(${b}.balloon.ktest_beside_device ${b} --mem 512M --qemu "${BALLOON_DEV}"
    --append "tinymm.run=ktest page_reporting$<SEMICOLON> report$<SEMICOLON> reporting"
    --expect "^ok 1 page_reporting$" --expect "^# totals: pass:10 fail:0 skip:0$"
    --expect "^report: [1-9][0-9]* blocks, [0-9]+ pages reported in [0-9]+ pass"
    --expect "^reporting: on, order 10 and up, capacity 32$")
  # Inflate and deflate through QEMU's monitor (tests/qemu/balloon_inflate_test.sh, docs/balloon.md):
  # `balloon 192` on 256 MiB: MemTotal -64 MiB exactly, MemAvailable -60..68 MiB, 16384 offline
  # frames in page-types' table, info balloon actual=192; `balloon 256`: all back.  ~7 s.
  set(INFLATE_TEST ${CMAKE_SOURCE_DIR}/tests/qemu/balloon_inflate_test.sh)
  add_test(NAME ${b}.balloon.inflate COMMAND ${INFLATE_TEST} --board ${b})
  # The twin without the device: the meminfo check must catch that nothing moved.
  add_test(NAME ${b}.balloon.inflate_check_catches_nodevice COMMAND ${INFLATE_TEST} --board ${b}
    --mode nodevice)
  set_tests_properties(${b}.balloon.inflate_check_catches_nodevice PROPERTIES
    PASS_REGULAR_EXPRESSION "balloon_inflate_test: FAIL: MemTotal fell 0 kB, want 65536")
  # A target above the guest's memory (`balloon 1`): capped, out of puff, each said once; back.
  add_test(NAME ${b}.balloon.inflate_cap COMMAND ${INFLATE_TEST} --board ${b} --mode cap)
  # The first inflate request's used length corrupt: device failed, every page back.
  add_test(NAME ${b}.balloon.inflate_bad_used COMMAND ${INFLATE_TEST} --board ${b} --mode bad_used)
  set_tests_properties(${b}.balloon.inflate ${b}.balloon.inflate_check_catches_nodevice
    ${b}.balloon.inflate_cap ${b}.balloon.inflate_bad_used PROPERTIES TIMEOUT 60 LABELS qemu)
  # The KTAP suite beside a real device (it uses a device-less balloon of its own).
  boot_test(${b}.balloon.ktest_inflate ${b} --qemu "${BALLOON_DEV}"
    --append "tinymm.test=balloon_inflate" --ktap)
endforeach()
# The suite without a device, on every board: the virt boards here, the real ones at their RAM.
foreach(b ${TINYMM_BOARDS})
  boot_test(${b}.balloon.ktest_nodevice ${b} --append "tinymm.test=balloon_inflate" --ktap)
endforeach()
boot_test(hifive-unleashed.balloon.ktest hifive-unleashed --mem 8G --timeout 60
  --append "tinymm.test=balloon_inflate" --ktap)
foreach(b orangepi-pc raspi2b)
  boot_test(${b}.balloon.ktest ${b} --mem 1G --timeout 60 --append "tinymm.test=balloon_inflate" --ktap)
endforeach()
