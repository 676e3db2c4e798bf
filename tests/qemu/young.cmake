# The accessed ("young") bit of user ptes on the live MMU, on every board: the KTAP suite `young`
# (tests/ktest/young_ktest.c, docs/young.md), its seven cases, the one WARNING the lock-rule case
# causes on purpose (ptep_clear_flush_young without the pte lock), and the line that says who made an
# old pte young again: a fault on ARM (LPAE on all three ARM boards: an Access flag fault that
# handle_mm_fault() resolves), the hardware on RISC-V (QEMU 7.2 sets A in the pte itself).
# Included from tests/qemu/tests.cmake (boot_test is set there).
foreach(spec "qemu-virt-arm||a fault \\(handle_mm_fault\\)" "orangepi-pc|1G|a fault \\(handle_mm_fault\\)"
             "raspi2b|1G|a fault \\(handle_mm_fault\\)" "qemu-virt-riscv64||the hardware"
             "qemu-virt-riscv32||the hardware" "hifive-unleashed|8G|the hardware")
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 b)
  list(GET spec 1 mem)
  list(GET spec 2 by)
  set(memarg)
  if(mem)
    set(memarg --mem ${mem})
  endif()
  boot_test(${b}.ktest.young ${b} ${memarg} --append "tinymm.test=young" --ktap
    --expect "^    # young: a read through an old pte: made young by ${by}$"
    --expect "^    # young: a write through an old pte: made young by ${by}$"
    --expect "WARNING: CPU: 0 PID: [0-9]+ at mm/pgtable-generic.c:[0-9]+ [a-z_]+\\+0x[0-9a-f]+/0x[0-9a-f]+: vma_assert_pte_locked\\(\\) called without &vma->vm_mm->page_table_lock held$"
    --expect "^# totals: pass:7 fail:0 skip:0$" --reject "^    not ok")
endforeach()
