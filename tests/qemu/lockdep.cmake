# The lock-order checker on every board (included from the end of tests/qemu/tests.cmake, so
# boot_test(), CHECK and TINYMM_BOARDS are known; docs/lockdep.md): the explicit KTAP suite
# `lockdep` (tests/ktest/lockdep_ktest.c) passes and prints one circular-dependency report per
# inverted pair, naming both acquisition points, one lockdep_assert_held() warning and one
# lockdep_assert_folio_locked() warning; the shell's `lockdep` prints /proc/lockdep_stats' first
# two lines.
foreach(b ${TINYMM_BOARDS})
  boot_test(${b}.lockdep.ktest ${b} --append "tinymm.test=lockdep"
    --expect "^# totals: pass:5 fail:0 skip:0$"
    --expect "^(\\[ *[0-9.]+\\] )?WARNING: possible circular locking dependency detected$"
    --expect " \\(a\\), at: take_b_then_a\\+0x[0-9a-f]+/0x[0-9a-f]+$"
    --expect " \\(b\\), at: take_b_then_a\\+0x[0-9a-f]+/0x[0-9a-f]+$"
    --expect " -> #1 \\(b\\): taken at take_a_then_b\\+0x[0-9a-f]+/0x[0-9a-f]+$"
    --expect " while holding \\(a\\) taken at take_a_then_b\\+0x[0-9a-f]+/0x[0-9a-f]+$"
    --expect " \\(&m\\), at: mutex_and_folio_lock_take_part\\+"
    --expect "^(\\[ *[0-9.]+\\] )?WARNING: CPU: 0 PID: 0 at tests/ktest/lockdep_ktest.c:[0-9]+ needs_assert_lock\\+0x[0-9a-f]+/0x[0-9a-f]+: needs_assert_lock\\(\\) called without &assert_lock held$"
    --expect "^(\\[ *[0-9.]+\\] )?WARNING: CPU: 0 PID: 0 at mm/page-writeback.c:[0-9]+ folio_clear_dirty_for_io\\+0x[0-9a-f]+/0x[0-9a-f]+: folio_clear_dirty_for_io\\(\\) called without folio_lock\\(folio\\) held$"
    --expect "^(\\[ *[0-9.]+\\] )?WARNING: CPU: 0 PID: 0 at mm/filemap.c:[0-9]+ [a-z_]+\\+0x[0-9a-f]+/0x[0-9a-f]+: folio_unlock\\(\\) called without folio_lock\\(folio\\) held$")
  boot_test(${b}.lockdep.shell ${b} --append "tinymm.run=lockdep"
    --expect "^ lock-classes: +[1-9][0-9]* \\[max: 127\\]$"
    --expect "^ direct dependencies: +[0-9]+ \\[max: 512\\]$" --reject "debug_locks")
endforeach()
# tinymm.lockdep=0 (the bench's -nocheck boots): off from boot, said by the stats' debug_locks
# line; the boot's own lock use still passes every check that is not the checker's.
foreach(b qemu-virt-arm qemu-virt-riscv64 qemu-virt-riscv32)
  boot_test(${b}.lockdep.off ${b} --append "tinymm.lockdep=0 tinymm.run=lockdep"
    --expect "^ debug_locks: +0$" --reject "circular locking")
endforeach()
