# The per-CPU lists' bounded worst case on every board (included from tests/qemu/tests.cmake, so
# boot_test() and TINYMM_BOARDS are known): the KTAP suite `pcp_batch` (tests/ktest/
# pcp_batch_ktest.c) booted with a small batch at scale 0, a different one per board (the
# default setting runs in ${b}.ktest.all); `pcp` alongside, whose v6.10-tuning cases skip
# themselves under changed parameters, and `pcp_order` (the order 1-3 fast paths against a model
# of v6.10's counters, whose caps follow the scale).  On RV32 also the largest scale, and values
# out of range: one warning line each naming the range, the default kept.
set(PCP_BATCH_qemu-virt-arm 1)
set(PCP_BATCH_qemu-virt-riscv64 4)
set(PCP_BATCH_qemu-virt-riscv32 15)
foreach(b ${TINYMM_BOARDS})
  boot_test(${b}.pcp_batch.batch${PCP_BATCH_${b}}_scale0 ${b}
    --append "tinymm.pcp_batch=${PCP_BATCH_${b}} tinymm.pcp_batch_scale_max=0 tinymm.test=pcp*"
    --timeout 40 --expect "^    ok 1 parameters_in_force$"
    --expect "^    ok [0-9]+ drain_all_in_chunks$" --expect "^    ok [0-9]+ decay_in_chunks$"
    --expect "^    ok [0-9]+ refills_in_a_row_grow # SKIP tinymm.pcp_batch"
    --expect "^    ok 1 order3_counters_as_v610$"
    --expect "^# totals: pass:9 fail:0 skip:4$" --reject "^ *not ok" --reject "cmdline:")
endforeach()
boot_test(qemu-virt-riscv32.pcp_batch.scale6 qemu-virt-riscv32
  --append "tinymm.pcp_batch_scale_max=6 tinymm.test=pcp_batch" --timeout 40
  --expect "^# totals: pass:6 fail:0 skip:0$" --reject "^ *not ok" --reject "cmdline:")
boot_test(qemu-virt-riscv32.pcp_batch.bad_values_warn qemu-virt-riscv32
  --append "tinymm.pcp_batch=0 tinymm.pcp_batch_scale_max=7 tinymm.test=pcp*" --timeout 40
  --expect "cmdline: tinymm.pcp_batch=0 out of range \\(1-1024\\), default kept$"
  --expect "cmdline: tinymm.pcp_batch_scale_max=7 out of range \\(0-6\\), default kept$"
  --expect "^# totals: pass:13 fail:0 skip:0$" --reject "^ *not ok")
