# HWPoison through the `hwpoison` shell command on every board (docs/hwpoison.md).  The `hwpoison`
# KTAP suite (one case per page state, on a fake disk) runs in ktest.all, which never injects a
# "hardware" error: these boots do, each in a boot of its own.
#   free_frame: a frame in the middle of RAM, free at boot: v6.10's "free buddy page: Recovered",
#     the frame hwpoison in `page` and `kpageflags` (KPF_HWPOISON, bit 19), listed, counted in
#     `hwpoison stats` and meminfo's HardwareCorrupted (v6.10's width); injected again: "already
#     hardware poisoned", status 1, nothing counted; unpoisoned: back to the buddy, 0 kB.
#   kernel_frame: the kernel image's first frame: v6.10's "unhandlable page.", "unknown page:
#     Ignored" alone (tinymm's "left to its owner" is debug-level: in dmesg, not on the console),
#     status 1; unpoison refuses a reserved frame (one line).
#   inject_hw: a hardware report; unpoison refused from then on, for that frame and another,
#     with v6.10's "Unpoison: Disabled after HW memory failure 0x<pfn>".
#   bad_pfn: below RAM (a hole), past its end, not a number, no pfn: one line each naming the
#     command, nothing reaches memory_failure(), nothing counted, unpoison still allowed.
#   pagecache: tests/qemu/hwpoison_test.sh (a real disk, typed at the console: clean and dirty
#     page-cache frames, -EIO to sync once, the disk's bytes read back).
set(HWP ${CMAKE_SOURCE_DIR}/tests/qemu/hwpoison_test.sh)
foreach(b ${TINYMM_BOARDS})
  if(b STREQUAL qemu-virt-arm)		# RAM 0x40000000-0x4fffffff; the kernel at 0x40100000
    set(free 0x48123)
    set(free2 0x48456)
    set(kern 0x40100)
    set(past 0x50000)
  else()				# RAM 0x80000000-0x8fffffff
    set(free 0x88123)
    set(free2 0x88456)
    set(past 0x90000)
    if(b STREQUAL qemu-virt-riscv64)	# OpenSBI below the kernel
      set(kern 0x80200)
    else()
      set(kern 0x80000)
    endif()
  endif()
  boot_test(${b}.hwpoison.free_frame ${b} --status 1
    --append "tinymm.run=meminfo$<SEMICOLON> hwpoison inject ${free}$<SEMICOLON> page ${free}$<SEMICOLON> kpageflags ${free} 1$<SEMICOLON> hwpoison list$<SEMICOLON> hwpoison stats$<SEMICOLON> meminfo$<SEMICOLON> hwpoison inject ${free}$<SEMICOLON> hwpoison stats$<SEMICOLON> meminfo$<SEMICOLON> hwpoison unpoison ${free}$<SEMICOLON> page ${free}$<SEMICOLON> hwpoison list$<SEMICOLON> meminfo"
    --expect "^HardwareCorrupted:     0 kB$"
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Memory failure: ${free}: recovery action for free buddy page: Recovered$"
    --expect "^flags: 0x[0-9a-f]+\\(hwpoison\\|node=0\\|zone=1\\)$"
    --expect "^page: refcount:1 mapcount:0 mapping:0+ index:0x0 pfn:${free}$"
    --expect "^${free} 0x0000000000080000$"
    --expect "^${free}: free buddy page: Recovered \\(free page, software\\)$"
    --expect "^node0 total 1$" --expect "^node0 recovered 1$" --expect "^node0 ignored 0$"
    --expect "^HardwareCorrupted:     4 kB$"
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Memory failure: ${free}: already hardware poisoned$"
    --expect "^hwpoison inject: pfn ${free}: already hardware poisoned \\(-EHWPOISON\\)$"
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Unpoison: Software-unpoisoned page ${free}$"
    --expect "^flags: 0x[0-9a-f]+\\(node=0\\|zone=1\\)$"
    --expect "^hwpoison list: no poisoned frames$"
    --reject "^node0 total 2$" --reject "^HardwareCorrupted:     8 kB$" --reject "Bad page|BUG")
  boot_test(${b}.hwpoison.kernel_frame ${b} --status 1
    --append "tinymm.run=hwpoison inject ${kern}$<SEMICOLON> hwpoison unpoison ${kern}$<SEMICOLON> hwpoison list$<SEMICOLON> hwpoison stats$<SEMICOLON> meminfo"
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Memory failure: ${kern}: unhandlable page\\.$"
    --reject "left to its owner"
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Memory failure: ${kern}: recovery action for unknown page: Ignored$"
    --expect "^hwpoison inject: pfn ${kern}: not recovered \\(-EBUSY\\)$"
    --expect "^hwpoison unpoison: pfn ${kern}: refused: a reserved frame stays poisoned \\(-EBUSY\\)$"
    --expect "^${kern}: unknown page: Ignored \\(reserved page, software\\)$"
    --expect "^node0 total 1$" --expect "^node0 ignored 1$" --expect "^HardwareCorrupted:     4 kB$")
  boot_test(${b}.hwpoison.inject_hw ${b} --status 1
    --append "tinymm.run=hwpoison inject-hw ${free}$<SEMICOLON> hwpoison unpoison ${free}$<SEMICOLON> hwpoison inject ${free2}$<SEMICOLON> hwpoison unpoison ${free2}$<SEMICOLON> hwpoison list$<SEMICOLON> meminfo"
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Memory failure: ${free}: recovery action for free buddy page: Recovered$"
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Unpoison: Disabled after HW memory failure ${free}$"
    --expect "^hwpoison unpoison: pfn ${free}: refused: disabled after a hardware memory failure \\(-EOPNOTSUPP\\)$"
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Unpoison: Disabled after HW memory failure ${free2}$"
    --expect "^${free}: free buddy page: Recovered \\(free page, hardware\\)$"
    --expect "^${free2}: free buddy page: Recovered \\(free page, software\\)$"
    --expect "^HardwareCorrupted:     8 kB$"
    --reject "Software-unpoisoned")
  boot_test(${b}.hwpoison.bad_pfn ${b} --status 1
    --append "tinymm.run=hwpoison inject 0x10$<SEMICOLON> hwpoison inject ${past}$<SEMICOLON> hwpoison inject-hw ${past}$<SEMICOLON> hwpoison unpoison 0x10$<SEMICOLON> hwpoison soft-offline ${past}$<SEMICOLON> hwpoison inject zz$<SEMICOLON> hwpoison inject$<SEMICOLON> hwpoison bogus$<SEMICOLON> hwpoison stats$<SEMICOLON> meminfo$<SEMICOLON> hwpoison inject ${free}$<SEMICOLON> hwpoison unpoison ${free}"
    --expect "^hwpoison inject: pfn 0x10 is not valid \\(hole or beyond memory\\)$"
    --expect "^hwpoison inject: pfn ${past} is not valid \\(hole or beyond memory\\)$"
    --expect "^hwpoison inject-hw: pfn ${past} is not valid \\(hole or beyond memory\\)$"
    --expect "^hwpoison unpoison: pfn 0x10 is not valid \\(hole or beyond memory\\)$"
    --expect "^hwpoison soft-offline: pfn ${past} is not valid \\(hole or beyond memory\\)$"
    --expect "^hwpoison inject: invalid number 'zz'$"
    --expect "^hwpoison inject: usage: hwpoison inject <pfn>$"
    --expect "^hwpoison: usage: hwpoison inject\\|inject-hw\\|unpoison\\|soft-offline <pfn> \\| list \\| stats$"
    --expect "^node0 total 0$" --expect "^HardwareCorrupted:     0 kB$"
    --expect "^\\[ *[0-9]+\\.[0-9]{6}\\] Unpoison: Software-unpoisoned page ${free}$"
    --reject "Memory failure: 0x10:" --reject "Memory failure: ${past}:" --reject "Disabled after HW")
  add_test(NAME ${b}.hwpoison.pagecache COMMAND ${HWP}
    --dir ${CMAKE_BINARY_DIR}/hwpoison/${b} --board ${b} --free ${free})
  set_tests_properties(${b}.hwpoison.pagecache PROPERTIES TIMEOUT 180 LABELS qemu)
endforeach()
