# mlock (docs/mlock.md), included from tests/qemu/tests.cmake:
#   <board>.ktest.mlock     the KTAP suite `mlock` (tests/ktest/mlock_ktest.c), its six cases
#   mlock.<board>.track     /bin/mlocktest track: Mlocked, Unevictable, vmstat, `maps -v` and `lru`
#                           follow mlock, munlock, mlock2(MLOCK_ONFAULT), mlockall to the page
#                           (the root filesystem on vda, or ram1 on the boards without a disk)
#   mlock.<board>.poison    HWPoison in an mlocked page: v6.10's "dirty LRU page: Recovered" (the unmap
#                           munlocked it), Mlocked and Unevictable drop by the page at once, the
#                           owner dies of SIGBUS at its touch
#   mlock.<board>.resident  a task reads a file 4x the page cache's room twice while another holds
#                           a file mlocked: the locked pages stay (pagemap: same frames), unlocked
#                           ones are reclaimed, every byte right (virt boards: 128 MiB on an ext2
#                           virtio disk the host made, 32 MiB of RAM; hifive-unleashed,
#                           orangepi-pc, raspi2b: 14 MiB on the root RAM disk, 64 MiB of RAM
#                           (-m, or mem=64M where QEMU's RAM is fixed) pinned down to 3.5 MiB)
# tests/qemu/mlock_test.sh says what each checks.
foreach(b ${TINYMM_BOARDS} orangepi-pc raspi2b hifive-unleashed)
  set(memarg)
  if(b STREQUAL "hifive-unleashed")
    set(memarg --mem 8G)
  elseif(b STREQUAL "orangepi-pc" OR b STREQUAL "raspi2b")
    set(memarg --mem 1G)
  endif()
  boot_test(${b}.ktest.mlock ${b} ${memarg} --append "tinymm.test=mlock" --ktap
    --expect "^# totals: pass:6 fail:0 skip:0$" --reject "^    not ok")
  foreach(m track poison)
    add_test(NAME mlock.${b}.${m} COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/mlock_test.sh ${b} ${m})
    set_tests_properties(mlock.${b}.${m} PROPERTIES TIMEOUT 180 LABELS qemu)
  endforeach()
endforeach()
# The virt boards stream 2 x 128 MiB from a virtio disk; the RAM-disk boards 2 x 14 MiB (about
# 20 s, most of it the 128 `pagemap` commands).  Only the Orange Pi PC's runs by default; the
# rest are label long (`make test-long`).
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32 hifive-unleashed orangepi-pc raspi2b)
  add_test(NAME mlock.${b}.resident COMMAND ${CMAKE_SOURCE_DIR}/tests/qemu/mlock_test.sh ${b} resident)
  if(NOT b STREQUAL orangepi-pc)
    set_tests_properties(mlock.${b}.resident PROPERTIES TIMEOUT 300 LABELS "qemu;long")
  else()
    set_tests_properties(mlock.${b}.resident PROPERTIES TIMEOUT 300 LABELS qemu)
  endif()
endforeach()
