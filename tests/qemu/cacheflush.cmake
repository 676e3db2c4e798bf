# PG_dcache_clean and the cache maintenance it decides (docs/cacheflush.md), on every board: the
# KTAP suite `cacheflush` (tests/ktest/cacheflush_ktest.c), its three cases: an executable
# mapping of a folio the kernel wrote does the work once (ARM: D-cache clean+invalidate and an
# I-cache invalidate; RISC-V: FENCE.I) and sets the flag, a second one skips it, a read-only one
# does nothing, a rewrite clears the flag and the next executable mapping works again, frames
# come from the allocator with it clear.  Included from tests/qemu/tests.cmake.
foreach(spec "qemu-virt-arm|" "orangepi-pc|1G" "raspi2b|1G" "qemu-virt-riscv64|"
             "qemu-virt-riscv32|" "hifive-unleashed|8G")
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 b)
  list(GET spec 1 mem)
  set(memarg)
  if(mem)
    set(memarg --mem ${mem})
  endif()
  boot_test(${b}.ktest.cacheflush ${b} ${memarg} --append "tinymm.test=cacheflush" --ktap
    --expect "^# totals: pass:3 fail:0 skip:0$" --reject "^    not ok")
endforeach()
