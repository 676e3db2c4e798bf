#!/usr/bin/env bash
# compaction_user_test.sh BOARD - compaction of memory that user tasks and the page cache
# fragment (docs/compaction.md, docs/migration.md).  A virt board, the root filesystem and a
# fresh ext2 image as vdb on /mnt:
#   - `fragment 32`: all free memory taken, in 32 MiB of pageblocks every other frame a
#     page-cache folio, the frames between free (the fixture, mm/compaction_frag.c);
#   - /bin/migtest -s 1536 (user/migtest.c) then fills those free frames: 3072 anonymous pages
#     written, every other one given back (the task fragments them further), its four areas
#     besides, and a forked child; it checks every word of every page it keeps, generation
#     after generation;
#   - before: `fragmap` shows no wholly free pageblock; `pagemap` names the frames of the task's
#     last 16 kept pages (the lowest);
#   - `compact`: more pages migrated than the fixture's folios that moved (`fragment check`:
#     0 wrong or missing), so the task's pages moved too, and at least one of the 16 sampled
#     ones is on another frame now;
#   - after: `fragmap` shows a wholly free pageblock, `alloc 9` succeeds (and is freed), the
#     task still says "0 bad words: ok" when stopped, buddycheck after the release.
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/qemu/migtest_lib.sh
. "$(dirname "$0")/migtest_lib.sh"
tm_init compaction_user_test
[ $# = 1 ] || tm_usage "usage: compaction_user_test.sh BOARD"
board=$1
case $board in qemu-virt-*) ;; *) tm_usage "compaction_user_test.sh needs a virt board" ;; esac
MKE2FS=${MKE2FS:-$(command -v mke2fs || echo /sbin/mke2fs)}
dir=$(mktemp -d) TM_RMDIR=${TM_RMDIR:-1}
TM_TIMEOUT=120
"$MKE2FS" -q -t ext2 -b 4096 "$dir/mnt.img" 16M || tm_fail "mke2fs failed"
tm_boot "$dir" --board "$board" --rootfs --disk "$dir/mnt.img"
tm_cmd "mount vdb /mnt"
tm_cmd "fragment 32"
tm_out_has '^fragment: [0-9]+ pageblocks, [0-9]+ folios between [0-9]+ free frames$' || tm_fail "fragment 32: '$out'"
migtest_start -s 1536 /mnt/m 600
sparse=$(tm_console | sed -n "s/.*migtest: pid $pid .* sparse \(0x[0-9a-f]*\) 1536$/\1/p" | head -n 1)
[ -n "$sparse" ] || tm_fail "migtest did not print its sparse area"

# pfns: the frames of the task's last 16 kept pages (kept pages are the even ones).
pfns() {
  local p list=
  for ((p = 2 * 1536 - 32; p < 2 * 1536; p += 2)); do
    tm_cmd "$(printf 'pagemap %s 0x%x' "$pid" $((sparse + p * 4096)))"
    [[ $out =~ present\ 1\ .*\ pfn\ (0x[0-9a-f]+) ]] || tm_fail "pagemap of a kept page: '$out'"
    list="$list ${BASH_REMATCH[1]}"
  done
  echo "$list"
}
# picture: the Normal zone's fragmap picture, one character per pageblock.
picture() {
  tm_cmd "fragmap Normal"
  awk '/^0x[0-9a-f]+ / { printf "%s", $2 }' <<<"$out"
}

before=$(picture)
case $before in *.*) tm_fail "a wholly free pageblock before compact: $before" ;; esac
first=$(pfns)
tm_cmd "compact"
[[ $out =~ compact:\ ([0-9]+)\ pages\ migrated ]] || tm_fail "compact: '$out'"
migrated=${BASH_REMATCH[1]}
tm_cmd "fragment check"
[[ $out =~ fragment:\ [0-9]+\ folios,\ ([0-9]+)\ moved,\ 0\ wrong\ or\ missing ]] || tm_fail "fragment check: '$out'"
folios_moved=${BASH_REMATCH[1]}
[ "$migrated" -gt "$folios_moved" ] ||
  tm_fail "compact migrated $migrated pages, all of them the fixture's folios ($folios_moved): none of the task's"
second=$(pfns)
[ "$first" != "$second" ] || tm_fail "none of the task's 16 lowest kept pages moved:$first"
after=$(picture)
case $after in *.*) ;; *) tm_fail "no wholly free pageblock after compact: $after" ;; esac
tm_cmd "alloc 9"
[[ $out =~ alloc:\ order\ 9\ pfn\ (0x[0-9a-f]+) ]] || tm_fail "alloc 9 after compact: '$out'"
tm_cmd "free ${BASH_REMATCH[1]} 9"

migtest_stop
tm_cmd "fragment release"
tm_cmd "buddycheck"
tm_out_has '^buddycheck: ok \(0 problems\)' || tm_fail "buddycheck: '$out'"
tm_console | grep -Eq 'BUG|WARNING|Oops|Kernel panic|unhandled signal' &&
  tm_fail "the kernel complained: $(tm_console | grep -E 'BUG|WARNING|Oops|panic|unhandled signal' | head -n 3)"
tm_poweroff 0
echo "before: $before"
echo "after:  $after"
echo "compaction_user_test: PASS ($board: $migrated pages migrated, $folios_moved of them the fixture's; sampled task pages:$first ->$second)"
