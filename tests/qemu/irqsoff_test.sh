#!/usr/bin/env bash
# irqsoff_test.sh - the irqsoff tracer under a real workload, checked from the host
# (tests/qemu/irqsoff.cmake; docs/irqsoff.md).
#   irqsoff_test.sh --dir DIR --board B
# Boots build/<board>-irqsoff with the tracer on (tools/run --irqsoff: -icount shift=0) and runs
# `make bench`'s scenario (the `bench` command) and a page-cache read of a seeded 4 MiB disk
# (`blk sha256`, compared with the host's digest), then checks:
#  - `irqsoff` prints exactly "irqsoff: max <n> instructions, from <func>+0x<off> to
#    <func>+0x<off>" with n > 0, and `irqsoff top` agrees with it (its first row);
#  - every site printed is inside a real function of the image: nm -S lists the name as a text
#    symbol and the offset is below its size;
#  - `irqsoff top` has a section begun by the hardware's mask at interrupt entry (the arch hook:
#    riscv_trap_entry / vec_irq), one of the page allocator's and one of the page cache's;
#  - after `irqsoff reset`, `irqsoff` prints a max below the first one: the reset forgot it.
. "$(dirname "$0")/lib.sh"
tm_init irqsoff_test
top=$TM_TOP
check=$TM_CHECK dir="" board=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --board) board=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
fail() { tm_fail "$@"; }
tm_fresh_dir "$dir"
img=$dir/disk.img
elf=$top/build/$board-irqsoff/tinymm.elf
[ -f "$elf" ] || fail "no tracer build at $elf (cmake --build --preset $board-irqsoff)"
# shellcheck source=/dev/null
. "$top/board/$board/qemu.conf"

tm_mkimg "$img" $((4 << 20)) 28
want=$(sha256sum "$img" | cut -d' ' -f1)
run="bench; blk sha256 vda 0 4194304; irqsoff; irqsoff top 64; irqsoff reset; irqsoff"
out=$("$check" --board "$board" --irqsoff --disk "$img" --append "tinymm.run=$run" --timeout 120) ||
  { printf '%s\n' "$out" | grep -v '^bench	' | tail -40; fail "boot failed"; }
printf '%s\n' "$out" | grep -v '^bench	'

grep -qx "$want" <<<"$out" || fail "the page-cache read's digest differs from the host's ($want)"
sym='([A-Za-z_.$][A-Za-z0-9_.$]*)\+0x([0-9a-f]+)'
line_re="^irqsoff: max ([0-9]+) instructions, from $sym to $sym\$"
mapfile -t maxes < <(printf '%s\n' "$out" | grep '^irqsoff: max ')
[ ${#maxes[@]} = 2 ] || fail "${#maxes[@]} 'irqsoff: max' lines, expected 2"
for l in "${maxes[@]}"; do
  [[ $l =~ $line_re ]] || fail "not the irqsoff format: '$l'"
done
[[ ${maxes[0]} =~ $line_re ]]
max1=${BASH_REMATCH[1]}
[[ ${maxes[1]} =~ $line_re ]]
max2=${BASH_REMATCH[1]}
[ "$max1" -gt 0 ] || fail "max is 0 after the workload"
[ "$max2" -lt "$max1" ] || fail "after irqsoff reset the max is $max2, not below the $max1 before it"
echo "irqsoff_test: max $max1 after the workload, $max2 after the reset"

# `irqsoff top 64`: the rows between its header and the next command.
rows=$(printf '%s\n' "$out" | awk '/^tinymm> irqsoff top/ { t = 1; next } /^tinymm> / { t = 0 } t && /^ *[0-9]+ +[0-9]+  /')
[ -n "$rows" ] || fail "irqsoff top printed no rows"
first=$(printf '%s\n' "$rows" | head -1 | awk '{ print $1 }')
[ "$first" = "$max1" ] || fail "irqsoff top's longest is $first, irqsoff's max $max1"
grep -Eq '  (riscv_trap_entry|vec_irq)\+0x' <<<"$rows" ||
  fail "no section begun at interrupt entry (the arch's trap hook)"
grep -Eq '  (rmqueue[a-z_]*|free_unref_page|free_pcppages_bulk|drain_[a-z_]*pages|__free_page[0-9a-z_]*)\+0x' <<<"$rows" ||
  fail "no section of the page allocator"
grep -Eq '  (filemap_[a-z_]*|folio_add_lru|readahead_[a-z_]*)\+0x' <<<"$rows" ||
  fail "no section of the page cache"

# Every site printed is inside a function of this image.
syms=$dir/nm.txt
"$NM" -S --defined-only "$elf" | awk 'NF == 4 && $3 ~ /^[tTW]$/ { print $4, $2 } NF == 3 && $2 ~ /^[tTW]$/ { print $3, "0" }' >"$syms"
n=0
while read -r name off; do
  size=$(awk -v n="$name" '$1 == n { print $2; exit }' "$syms")
  [ -n "$size" ] || fail "$name+0x$off: $name is no function of $elf"
  # Assembly symbols have no size (kallsyms extends them to the next symbol).
  [ "$size" = 0 ] || [ $((16#$off)) -lt $((16#$size)) ] || fail "$name+0x$off: past the end of $name (0x$size bytes)"
  n=$((n + 1))
done < <(printf '%s\n' "${maxes[@]}" "$rows" | grep -oE "$sym" | sed -E 's/\+0x/ /' | sort -u)
[ "$n" -ge 4 ] || fail "only $n sites checked"
echo "irqsoff_test: $n sites, each inside a function of the image"
