# The DMA API (docs/dma.md) on every board: the KTAP suites `dma` (tests/ktest/dma_ktest.c:
# coherency from the board's own device tree and a made-up one, masks, the maintenance each
# direction costs on a non-coherent device, dma_alloc_coherent's non-cacheable mapping and
# PG_uncached frames) and `dma_debug` (tests/ktest/dma_debug_ktest.c: one WARNING per misuse).
# The RISC-V virt boards once more with Svpbmt (-cpu ...,svpbmt=on): dma_alloc_coherent for a
# non-coherent device then maps PBMT NC instead of refusing.  The cache model shows the
# maintenance is the right one (cachemodel.dma.*, tests/host/tests.cmake).
# Included from tests/qemu/tests.cmake.
foreach(spec "qemu-virt-arm|" "orangepi-pc|1G" "raspi2b|1G" "qemu-virt-riscv64|" "qemu-virt-riscv32|"
             "hifive-unleashed|8G")
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 b)
  list(GET spec 1 mem)
  set(memarg)
  if(mem)
    set(memarg --mem ${mem})
  endif()
  boot_test(${b}.ktest.dma ${b} ${memarg} --append "tinymm.test=dma" --ktap
    --expect "^# totals: pass:8 fail:0 skip:0$" --reject "^    not ok")
  boot_test(${b}.ktest.dma_debug ${b} ${memarg} --append "tinymm.test=dma_debug" --ktap
    --expect "^# totals: pass:10 fail:0 skip:0$" --reject "^    not ok")
endforeach()
boot_test(qemu-virt-riscv64.ktest.dma_svpbmt qemu-virt-riscv64 --append "tinymm.test=dma" --ktap
  --expect "^# totals: pass:8 fail:0 skip:0$" --expect "Svpbmt$" --reject "^    not ok"
  --reject "no non-cacheable memory type" --qemu "-cpu rv64,svpbmt=on")
