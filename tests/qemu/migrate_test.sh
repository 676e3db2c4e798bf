#!/usr/bin/env bash
# migrate_test.sh BOARD - page migration of every kind of user page while its tasks use it
# (docs/migration.md).  A virt board, the root filesystem and a fresh ext2 image as vdb on /mnt.
# /bin/migtest (user/migtest.c) keeps writing its anonymous and MAP_SHARED file pages (dirty
# ext2 folios with buffer heads), reading its MAP_PRIVATE file pages and, with a forked child,
# its copy-on-write shared anonymous pages, checking every word.  Meanwhile the shell, for every
# page of the four areas, twice:
#   - `pagemap` names the frame; `migrate <pfn>` says "migrate: <old> -> <new> (<kind>, mapped
#     <n>)": anon 1, file 1, file 1, anon 2;
#   - `pagemap` then names the new frame, still present, the exclusive bits as before (the
#     anonymous page exclusive, the shared one not);
#   - `kpageflags` of the new frame: mmap, and anon + swapbacked for anonymous pages, neither
#     for file pages; the old frame no longer mmap;
# then, right after one move, the old frame: `migrate` says "free frame"; poisoned with
# `hwpoison inject`, "poisoned frame" (then unpoisoned); a reserved kernel frame, a pfn past the
# end and a bad number each get their one line.  The stop file ends migtest, which must say
# "0 bad words: ok" (its file read back after msync too, its child's status 0) and leave `ps`; `migrate`'s
# counters show the moves and no failure; buddycheck, slabcheck; umount; the host's e2fsck -fn
# clean and the file's shared pages hold the last generation migtest wrote.
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/qemu/migtest_lib.sh
. "$(dirname "$0")/migtest_lib.sh"
tm_init migrate_test
[ $# = 1 ] || tm_usage "usage: migrate_test.sh BOARD"
board=$1
case $board in qemu-virt-*) ;; *) tm_usage "migrate_test.sh needs a virt board (a disk the host can read)" ;; esac
MKE2FS=${MKE2FS:-$(command -v mke2fs || echo /sbin/mke2fs)}
E2FSCK=${E2FSCK:-$(command -v e2fsck || echo /sbin/e2fsck)}
DEBUGFS=${DEBUGFS:-$(command -v debugfs || echo /sbin/debugfs)}
dir=$(mktemp -d) TM_RMDIR=${TM_RMDIR:-1}
TM_TIMEOUT=90
"$MKE2FS" -q -t ext2 -b 4096 "$dir/mnt.img" 16M || tm_fail "mke2fs failed"
tm_boot "$dir" --board "$board" --rootfs --disk "$dir/mnt.img"
tm_cmd "mount vdb /mnt"

migtest_start /mnt/m 300
line=$(tm_console | grep -o "migtest: pid $pid anon 0x[0-9a-f]* shared 0x[0-9a-f]* private 0x[0-9a-f]* cow 0x[0-9a-f]*" | head -n 1)
# shellcheck disable=SC2034  # read through ${!area} below
read -r _ _ _ _ anon _ shared _ private _ cow <<<"$line"
[ -n "$cow" ] || tm_fail "migtest did not print its areas"

# frame_of ADDR: the pfn `pagemap` shows for the task's page at ADDR, its exclusive bits in
# $excl ("<exclusive> <anon-exclusive>").
frame_of() {
  tm_cmd "pagemap $pid $1"
  [[ $out =~ present\ 1\ swapped\ 0\ file\ ([01])\ exclusive\ ([01])\ soft-dirty\ 0\ pfn\ (0x[0-9a-f]+)\ anon-exclusive\ ([01]) ]] ||
    tm_fail "pagemap $pid $1: not a present page: '$out'"
  excl="${BASH_REMATCH[1]}${BASH_REMATCH[2]}${BASH_REMATCH[4]}"
  pfn=${BASH_REMATCH[3]}
}
# kpf PFN: the frame's kpageflags word (hex digits, no 0x).
kpf() {
  tm_cmd "kpageflags $1 1"
  [[ $out =~ (^|$'\n')$1\ 0x([0-9a-f]{16})($'\n'|$) ]] || tm_fail "kpageflags $1 printed no word: '$out'"
  word=$((16#${BASH_REMATCH[2]}))
}
bit() { echo $(((word >> $1) & 1)); }	# KPF_MMAP 11, KPF_ANON 12, KPF_SWAPBACKED 14

moves=0 last_old=
for round in 1 2; do
  for area in anon shared private cow; do
    base=${!area}
    case $area in
      anon) kind=anon mapped=1 want_excl=011 ;;	# file 0, exclusive 1, anon-exclusive 1
      shared) kind=file mapped=1 want_excl=110 ;;
      private) kind=file mapped=1 want_excl=110 ;;
      cow) kind=anon mapped=2 want_excl=000 ;;
    esac
    for i in 0 1 2 3; do
      addr=$(printf '0x%x' $((base + i * 4096)))
      frame_of "$addr"
      old=$pfn
      [ "$excl" = "$want_excl" ] || tm_fail "$area page $i: pagemap bits $excl before the move, want $want_excl"
      tm_cmd "migrate $old"
      [[ $out =~ (^|$'\n')migrate:\ $old\ -\>\ (0x[0-9a-f]+)\ \($kind,\ mapped\ $mapped\)($'\n'|$) ]] ||
        tm_fail "round $round, $area page $i: 'migrate $old' did not say '-> <new> ($kind, mapped $mapped)': '$out'"
      new=${BASH_REMATCH[2]}
      moves=$((moves + 1)) last_old=$old
      frame_of "$addr"
      [ "$pfn" = "$new" ] || tm_fail "$area page $i: pagemap shows $pfn after the move to $new"
      [ "$excl" = "$want_excl" ] || tm_fail "$area page $i: pagemap bits $excl after the move, want $want_excl"
      kpf "$new"
      if [ "$kind" = anon ]; then want="1 1 1"; else want="1 0 0"; fi
      [ "$(bit 11) $(bit 12) $(bit 14)" = "$want" ] ||
        tm_fail "$area page $i: kpageflags of the new frame $new: mmap/anon/swapbacked $(bit 11) $(bit 12) $(bit 14), want $want"
      kpf "$old"
      [ "$(bit 11)" = 0 ] || tm_fail "$area page $i: the old frame $old is still mapped"
    done
  done
  if [ $round = 1 ]; then
    # The frame just left: free now; poisoned, it is refused as such.
    tm_cmd "migrate $last_old"
    tm_out_has "^migrate: $last_old: free frame$" || tm_fail "migrate of the freed frame $last_old: '$out'"
    tm_cmd "hwpoison inject $last_old"
    tm_cmd "migrate $last_old"
    tm_out_has "^migrate: $last_old: poisoned frame$" || tm_fail "migrate of a poisoned frame: '$out'"
    tm_cmd "hwpoison unpoison $last_old"
  fi
done

# shellcheck disable=SC1090  # the board's QEMU settings name its nm
nm=$(. "$TM_TOP/board/$board/qemu.conf" && echo "${NM:-nm}")
start_pa=$("$nm" "$TM_TOP/build/$board/tinymm.elf" | awk '$3 == "_start_pa" { print $1 }')
[ -n "$start_pa" ] || tm_fail "no _start_pa in build/$board/tinymm.elf"
kern=$(printf '0x%x' $((16#$start_pa >> 12)))	# the kernel image's first frame: reserved
tm_cmd "migrate $kern"
tm_out_has "^migrate: $kern: reserved frame$" || tm_fail "migrate of the kernel's first frame $kern: '$out'"
tm_cmd "migrate 0x7fffffff"
tm_out_has "^migrate: pfn 0x7fffffff is not valid \\(hole or beyond memory\\)$" || tm_fail "migrate past the end: '$out'"
tm_cmd "migrate zz"
tm_out_has "^migrate: invalid number 'zz'$" || tm_fail "migrate zz: '$out'"

migtest_stop
tm_cmd "migrate"
[[ $out =~ ^migrate:\ moved\ ([0-9]+),\ failed\ 0\ \( ]] || tm_fail "migrate counters: '$out'"
[ "${BASH_REMATCH[1]}" -ge "$moves" ] || tm_fail "migrate counted ${BASH_REMATCH[1]} moves, the test made $moves"
tm_cmd "umount /mnt"
tm_cmd "buddycheck"
tm_out_has '^buddycheck: ok \(0 problems\)' || tm_fail "buddycheck: '$out'"
tm_cmd "slabcheck"
tm_out_has '^slabcheck: ok \(0 problems\)' || tm_fail "slabcheck: '$out'"
tm_console | grep -Eq 'BUG|WARNING|Oops|Kernel panic|unhandled signal' && tm_fail "the kernel complained: $(tm_console | grep -E 'BUG|WARNING|Oops|panic|unhandled signal' | head -n 3)"
tm_poweroff 0

# The host: the image is sound, and the shared pages hold generation $gens.
"$E2FSCK" -fn "$dir/mnt.img" >"$dir/fsck" 2>&1 || tm_fail "e2fsck -fn: $(cat "$dir/fsck")"
"$DEBUGFS" -R "dump /m $dir/m" "$dir/mnt.img" >/dev/null 2>&1 || tm_fail "debugfs dump /m"
python3 - "$dir/m" "$gens" <<'PY' || tm_fail "the file's shared pages do not hold generation $gens"
import struct, sys
data = open(sys.argv[1], "rb").read()
g = int(sys.argv[2])
assert len(data) == 8 * 4096, len(data)
for p in range(4):
    for i in range(1024):
        (w,) = struct.unpack_from("<I", data, (p * 1024 + i) * 4)
        assert w == (g * 0x10000 + p * 0x1000 + i) & 0xffffffff, (p, i, hex(w))
for p in range(4, 8):
    for i in range(1024):
        (w,) = struct.unpack_from("<I", data, (p * 1024 + i) * 4)
        assert w == 0xf11e0000 + p * 1024 + i, (p, i, hex(w))
PY
echo "migrate_test: PASS ($board: $moves moves, $gens generations)"
