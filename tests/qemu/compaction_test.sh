#!/usr/bin/env bash
# compaction_test.sh BOARD - the shell's `fragment`, `fragmap`, `extfrag` and `compact`
# (tests/qemu/compaction.cmake): 32 MiB of the Normal zone fragmented (every other frame a
# page-cache folio, all other memory taken), then `compact`.  Before: no pageblock of the zone
# is wholly free ('.' in fragmap) and the top order's fragmentation index is positive; after:
# at least one '.' block, `compact` moved folios and failed none, the top order's index is
# -1.000 (a block is free), and buddycheck finds nothing wrong before and after the release.
. "$(dirname "$0")/lib.sh"
tm_init compaction_test
[ $# -ge 1 ] || tm_usage "usage: compaction_test.sh BOARD"
board=$1
out=$("$TM_CHECK" --board "$board" --timeout 90 \
  --append "tinymm.run=fragment 32; fragmap Normal; extfrag; compact; fragmap Normal; extfrag; buddycheck; fragment release; buddycheck; vmstat" \
  --expect '^fragment: 8 pageblocks, 4096 folios between 4096 free frames$' \
  --expect '^compact: [1-9][0-9]* pages migrated, 0 failed, 0 pinned skipped; scanned [0-9]+ to migrate, [0-9]+ free; [0-9]+ isolated$' \
  --expect '^buddycheck: ok \(0 problems\)$' --reject 'buddycheck: FAILED' \
  --expect '^compact_migrate_scanned [1-9]' --expect '^pgmigrate_success [1-9]') ||
  { printf '%s\n' "$out"; tm_fail "boot"; }
# The two fragmap pictures of Normal (the lines after each header) and the two extfrag_index lines.
maps=$(printf '%s\n' "$out" | awk '/^Node 0, zone +Normal: pfn/ { n++; next } n && /^0x[0-9a-f]+ / { print n, $2 }')
before=$(printf '%s\n' "$maps" | awk '$1 == 1 { printf "%s", $2 }')
after=$(printf '%s\n' "$maps" | awk '$1 == 2 { printf "%s", $2 }')
[ -n "$before" ] && [ -n "$after" ] || { printf '%s\n' "$out"; tm_fail "no fragmap pictures"; }
case $before in *.*) tm_fail "a wholly free pageblock before compact: $before" ;; esac
case $after in *.*) ;; *) tm_fail "no wholly free pageblock after compact: $after" ;; esac
idx=$(printf '%s\n' "$out" | awk '/^extfrag_index:$/ { getline; print $NF }')
first=$(printf '%s\n' "$idx" | sed -n 1p) second=$(printf '%s\n' "$idx" | sed -n 2p)
case $first in 0.[0-9][0-9][0-9]) ;; *) tm_fail "top-order index before compact: '$first'" ;; esac
[ "$second" = "-1.000" ] || tm_fail "top-order index after compact: '$second'"
echo "before: $before"
echo "after:  $after"
echo "extfrag_index at order $(( $(printf '%s\n' "$out" | awk '/^extfrag_index:$/ { getline; print NF - 5; exit }') )): $first -> $second"
echo "compaction_test: PASS"
