# PG_dcache_clean and the cache maintenance it decides (docs/cacheflush.md), on every board: the
# KTAP suite `cacheflush` (tests/ktest/cacheflush_ktest.c), its three cases: an executable
# mapping of a folio the kernel wrote does the work once (ARM: D-cache clean+invalidate and an
# I-cache invalidate; RISC-V: FENCE.I) and sets the flag, a second one skips it, a read-only one
# does nothing, a rewrite clears the flag and the next executable mapping works again, frames
# come from the allocator with it clear.
#   <board>.selfmod   /bin/selfmod /mnt (user/selfmod.c) run twice: both print "selfmod: ok"
#                     (code written, mapped executable, run; rewritten and mapped afresh; rewritten
#                     in place and the architecture's flush call made; the calls' EINVAL/EFAULT);
#                     `cacheops -z` between the runs, so the second run's counts are its own (its
#                     program's pages already clean): ARM one D-cache flush per write through the
#                     file (2) and one clean by the call (1), RISC-V three FENCE.I (one per
#                     write).  Under QEMU the operations run (and must not trap); the host
#                     cache model shows they are needed (cachemodel.*).
# Included from tests/qemu/tests.cmake.
foreach(spec "qemu-virt-arm||arm" "orangepi-pc|1G|arm" "raspi2b|1G|arm" "qemu-virt-riscv64||riscv"
             "qemu-virt-riscv32||riscv" "hifive-unleashed|8G|riscv")
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 b)
  list(GET spec 1 mem)
  list(GET spec 2 a)
  set(memarg)
  if(mem)
    set(memarg --mem ${mem})
  endif()
  boot_test(${b}.ktest.cacheflush ${b} ${memarg} --append "tinymm.test=cacheflush" --ktap
    --expect "^# totals: pass:3 fail:0 skip:0$" --reject "^    not ok")
  if(a STREQUAL "arm")
    set(counts --expect "^dcache_clean +1$" --expect "^dcache_flush +2$" --expect "^fence_i +0$")
  else()
    set(counts --expect "^fence_i +3$" --expect "^dcache_flush +0$")
  endif()
  boot_test(${b}.selfmod ${b} ${memarg} --rootfs
    --append "tinymm.run=exec /bin/selfmod /mnt$<SEMICOLON> cacheops -z$<SEMICOLON> exec /bin/selfmod /mnt$<SEMICOLON> cacheops"
    --expect "^selfmod: ok$" --expect "^/bin/selfmod: exited with status 0$" ${counts}
    --reject "selfmod: FAIL" --reject "status [1-9]")
endforeach()
