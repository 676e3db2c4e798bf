# The page commands on every board (included from tests/qemu/tests.cmake, which defines
# boot_test): `page <pfn>` on the kernel's first frame (its pfn from the board's load address),
# `page 0xdeadbeef` and bad arguments, and `page-flags` listing every accessor name with its
# policy and, last on the line, its `used by`.  The names come from the table itself
# (__PAGEFLAG_ACCESSORS in page-flags.h) and the used-by values from PF_USED_BY_* in
# mm/page_flags.c, so a new flag or user is checked here without an edit.

set(PF_HEADER_FILE ${CMAKE_SOURCE_DIR}/include/tinymm/page-flags.h)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PF_HEADER_FILE})
file(READ ${PF_HEADER_FILE} PF_HEADER)
set(PF_ROW_RE "X\\([A-Za-z0-9]+,[ \t]*([a-z0-9_]+),[ \t]*PG_[a-z0-9_]+,[ \t]*(PF_[A-Z_]+)[,)]")
string(REGEX MATCHALL "${PF_ROW_RE}" PF_ROWS "${PF_HEADER}")
list(LENGTH PF_ROWS PF_NROWS)
if(PF_NROWS LESS 30)
  message(FATAL_ERROR "tests/qemu/pageflags.cmake: found ${PF_NROWS} rows of __PAGEFLAG_ACCESSORS in "
    "${PF_HEADER_FILE}; the row pattern no longer matches the table")
endif()
set(PF_USED_FILE ${CMAKE_SOURCE_DIR}/mm/page_flags.c)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PF_USED_FILE})
file(STRINGS ${PF_USED_FILE} PF_USED_LINES REGEX "^#define PF_USED_BY_")
set(PF_EXPECT --expect "^name +bit +alias of +policy +meaning +used by$")
foreach(row ${PF_ROWS})
  string(REGEX REPLACE "${PF_ROW_RE}" "\\1" name "${row}")
  string(REGEX REPLACE "${PF_ROW_RE}" "\\2" policy "${row}")
  set(used "")
  foreach(line ${PF_USED_LINES})
    if(line MATCHES "^#define PF_USED_BY_${name}[ \t]+\"([^\"]+)\"")
      string(REPLACE "." "[.]" used "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(used STREQUAL "")
    message(FATAL_ERROR "tests/qemu/pageflags.cmake: no PF_USED_BY_${name} in ${PF_USED_FILE}")
  endif()
  list(APPEND PF_EXPECT --expect "^${name} +[0-9]+ +[-a-z0-9_]+ +${policy} +[^ ].*[^ ] {2,}${used}$")
endforeach()

foreach(b ${TINYMM_BOARDS})
  file(STRINGS ${CMAKE_SOURCE_DIR}/board/${b}/board.cmake load REGEX "^set\\(TINYMM_LOAD_ADDR ")
  if(NOT load MATCHES "TINYMM_LOAD_ADDR 0x([0-9a-fA-F]+)000[ )]")
    message(FATAL_ERROR "tests/qemu/pageflags.cmake: no page-aligned TINYMM_LOAD_ADDR for ${b}")
  endif()
  string(TOLOWER ${CMAKE_MATCH_1} kpfn)
  boot_test(${b}.page.kernel_first_frame ${b} --append "tinymm.run=page 0x${kpfn}"
    --expect "^tinymm> page 0x${kpfn}$"
    --expect "^page: refcount:1 mapcount:0 mapping:0+ index:0x0 pfn:0x${kpfn}$"
    --expect "^flags: 0x[0-9a-f]+\\(reserved\\|node=0\\|zone=1\\)$"
    --expect "^raw: [0-9a-f]+( [0-9a-f]+)+$"
    --expect "^page dumped because: page command$" --reject "^head:")
  boot_test(${b}.page.invalid_pfn ${b} --append "tinymm.run=page 0xdeadbeef" --status 1
    --expect "^page: pfn 0xdeadbeef is not valid \\(hole or beyond memory\\)$"
    --reject "^page: refcount" --reject "^page dumped because")
  boot_test(${b}.page.bad_arguments ${b} --append "tinymm.run=page$<SEMICOLON> page 0x4g$<SEMICOLON> page 1 2"
    --status 1 --expect "^page: usage: page <pfn>$" --reject "^page: refcount")
  boot_test(${b}.page_flags.lists_every_name ${b} --append "tinymm.run=page-flags" ${PF_EXPECT}
    --expect "^reported +3 +uptodate +PF_NO_COMPOUND " --expect "^checked +10 +owner_priv_1 "
    --expect "^has_hwpoisoned +8 +active +PF_SECOND " --expect "^large_rmappable +9 +workingset +PF_SECOND ")
endforeach()
