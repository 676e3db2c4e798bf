#!/usr/bin/env bash
# ext2_pageflags.sh BOARD - ext2's three page flags, observed from outside through `kpageflags`
# (Linux's /proc/kpageflags words, tools/kpageflags-extract): after `ls` of a two-page
# directory and `sha256sum` of a 300 KiB file on an ext2 root, the directory's folios carry
# PG_checked (KPF_OWNER_PRIVATE, the bit PG_checked aliases), the file's folios PG_private
# (buffer heads) and PG_mappedtodisk (every block mapped); and before any ext2 use none does.
. "$(dirname "$0")/lib.sh"
tm_init ext2_pageflags
[ $# = 1 ] || tm_usage "ext2_pageflags.sh BOARD"
board=$1
top=$TM_TOP
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$TM_QEMU/ext2_image.sh" "$tmp/e.img" 1024 32M >/dev/null || tm_fail "ext2_image.sh failed"
# shellcheck source=/dev/null
. "$top/board/$board/qemu.conf"
pfn=$(( QEMU_RAM_BASE >> 12 )) pages=$(( (256 << 20) >> 12 ))
count() {	# count FILE: pages with KPF_OWNER_PRIVATE, KPF_PRIVATE, KPF_MAPPEDTODISK
  python3 - "$1" <<'PY'
import array, sys
w = array.array("Q"); w.frombytes(open(sys.argv[1], "rb").read())
print(*(sum(1 for x in w if x >> b & 1) for b in (37, 35, 34)))
PY
}
for when in before after; do
  cmds="tinymm.root=vda tinymm.run=kpageflags $pfn $pages"
  [ $when = after ] && cmds="tinymm.root=vda tinymm.run=ls /manydir; sha256sum /big.bin; kpageflags $pfn $pages"
  timeout 60 "$top/tools/run" --board "$board" --mem 256M --disk "$tmp/e.img" --append "$cmds" |
    "$top/tools/kpageflags-extract" - "$tmp/$when.bin" >/dev/null || tm_fail "kpageflags $when"
  read -r checked private mapped < <(count "$tmp/$when.bin")
  echo "ext2_pageflags: $when: PG_checked $checked, PG_private $private, PG_mappedtodisk $mapped"
  eval "${when}_checked=$checked ${when}_private=$private ${when}_mapped=$mapped"
done
# shellcheck disable=SC2154  # set by the eval above
{
  [ "$after_checked" -ge $((before_checked + 2)) ] || tm_fail "PG_checked on $after_checked pages, want >= $((before_checked + 2))"
  [ "$after_private" -ge $((before_private + 75)) ] || tm_fail "PG_private on $after_private pages, want >= $((before_private + 75))"
  [ "$after_mapped" -ge $((before_mapped + 75)) ] || tm_fail "PG_mappedtodisk on $after_mapped pages, want >= $((before_mapped + 75))"
}
echo "ext2_pageflags: PASS"
