#!/usr/bin/env bash
# ptdump_test.sh - RISC-V's `ptdump` at the shell, checked line by line against Linux v6.10's
# arch/riscv/mm/ptdump.c format (tests/qemu/mmu.cmake; docs/mmu.md, "Shell commands and ptdump").
#   ptdump_test.sh --dir DIR --board B [--qemu "EXTRA QEMU FLAGS"] [--break SED]
# One boot, typed at the console (the areas' addresses are only known at run time):
# `vmalloc 16` (area A, 4 pages), `vmalloc 8` (area B, 2 pages, after A's guard page), `ptdump`.
# Then, of what ptdump printed:
#   - every line is a `---[ name ]---` marker or a run in the exact column layout of the board
#     (RV64: 16-digit addresses, N, MT, RSW, D A G U X W R V; RV32: 8 digits, RSW and the
#     letters), the size 9 wide and equal to the run's length, runs ascending and disjoint;
#   - the output opens with a marker, and "vmalloc() end" is the marker after "vmalloc() area";
#   - A and B are tiled exactly by lines between those two markers, each a PTE run with the
#     kernel's columns (`D A G . . W R V`, every other column clear) on a page-aligned frame in
#     RAM, 16K and 8K in all; no line covers A's guard page;
#   - no line is both writable and executable.
# --break SED edits ptdump's output before the checks: the CTests that prove a check fails.
# DIR keeps console.txt.
. "$(dirname "$0")/lib.sh"
tm_init ptdump_test
dir="" board="" qemu="" brk=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --board) board=$2; shift 2 ;;
    --qemu) qemu=$2; shift 2 ;;
    --break) brk=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
[ -n "$dir" ] && [ -n "$board" ] || tm_usage "--dir and --board are needed"
case "$board" in
  *riscv64*) w=16 lvl=PMD mt=' ([.N]) (  \.\.  |MT\((NC|IO|\?\?)\))' kern=' .   ..     ..   D A G . . W R V' ;;
  *riscv32*) w=8 lvl=PGD mt='' kern='   ..   D A G . . W R V' ;;
  *) tm_usage "$board: not a RISC-V board" ;;
esac
tm_init "ptdump_test: $board"
tm_fresh_dir "$dir"
fail() { tm_fail "$@"; }
ram_lo=0000000080000000 ram_hi=0000000090000000	# QEMU virt's RAM, tools/run's 256M

# shellcheck disable=SC2086  # the extra QEMU flags, split as the shell would
tm_boot "$dir" --board "$board" ${qemu:+-- $qemu}
area() {	# area KIB PAGES: `vmalloc KIB`, its start and end (hex, no 0x) in $s, $e
  tm_cmd "vmalloc $1"
  [[ $out =~ vmalloc:\ 0x([0-9a-f]+)-0x([0-9a-f]+)\ pages=$2 ]] || fail "vmalloc $1: no area of $2 pages"
  s=$(printf "%0${w}x" $((16#${BASH_REMATCH[1]}))) e=$(printf "%0${w}x" $((16#${BASH_REMATCH[2]})))
}
area 16 4
a_s=$s a_e=$e
area 8 2
b_s=$s b_e=$e
[ $((16#$b_s - 16#$a_e)) = 4096 ] || fail "B at $b_s is not right after A's guard page ($a_e)"
tm_cmd ptdump
dump=$out
[ -n "$brk" ] && dump=$(sed -E "$brk" <<<"$dump")
tm_poweroff 0

# Unsigned order of two hex strings of one width; an end of 0 is the top of the address space.
lt() { [[ $1 < $2 ]]; }
top=$(printf "%0${w}x" 0) units=KMGTPE mask=$(( (1 << 62) - 1 ))
re="^0x([0-9a-f]{$w})-0x([0-9a-f]{$w})    0x([0-9a-f]{$w,}) ([ 0-9]{9})([KMGTPE]) (PTE|$lvl)($mt (  \.\.  |RSW\([123]\)) ([D.]) ([A.]) ([G.]) ([U.]) ([X.]) ([W.]) ([R.]) ([V.]))$"
markers=() prev_end="" region="" n=0
declare -A from=([A]=$a_s [B]=$b_s) to=([A]=$a_e [B]=$b_e) at=() sum=([A]=0 [B]=0)
while IFS= read -r l; do
  n=$((n + 1))
  if [[ $l =~ ^---\[\ (.+)\ \]---$ ]]; then
    markers+=("${BASH_REMATCH[1]}")
    region=${BASH_REMATCH[1]}
    continue
  fi
  [ $n -gt 1 ] || fail "ptdump does not open with a marker: '$l'"
  [[ $l =~ $re ]] || fail "not a ptdump line in the board's column layout: '$l'"
  ls=${BASH_REMATCH[1]} le=${BASH_REMATCH[2]} pa=${BASH_REMATCH[3]} size=${BASH_REMATCH[4]}
  unit=${BASH_REMATCH[5]} level=${BASH_REMATCH[6]} cols=${BASH_REMATCH[7]}
  below=${units%%"$unit"*}
  # Lengths modulo 2^62: an end of 0 (the top) wraps, and bash's integers are signed 64-bit.
  [ $(( (16#$le - 16#$ls) & mask )) = $(( (${size// /} << (10 * (${#below} + 1))) & mask )) ] ||
    fail "size $size$unit is not the run's length: '$l'"
  [ -z "$prev_end" ] || [ "$prev_end" = "$ls" ] || lt "$prev_end" "$ls" ||
    fail "runs out of order or overlapping at '$l'"
  [ "$le" = "$top" ] || lt "$ls" "$le" || fail "a run that ends before it starts: '$l'"
  prev_end=$le
  [[ $cols =~ \ X\ W\  ]] && fail "writable and executable: '$l'"
  { [ "$ls" = "$a_e" ] || lt "$ls" "$a_e"; } && { [ "$le" = "$top" ] || lt "$a_e" "$le"; } &&
    fail "A's guard page ($a_e) is mapped: '$l'"
  for x in A B; do
    { [ "$ls" = "${from[$x]}" ] || lt "${from[$x]}" "$ls"; } && lt "$ls" "${to[$x]}" || continue
    [ "$ls" = "${at[$x]:-${from[$x]}}" ] ||
      fail "area $x is not tiled: a line starts at $ls, expected ${at[$x]:-${from[$x]}}"
    [ "$region" = "vmalloc() area" ] || fail "area $x's line is under '$region', not 'vmalloc() area'"
    [ "$level" = PTE ] && [ "$cols" = "$kern" ] ||
      fail "area $x: want 'PTE$kern', got '$level$cols': '$l'"
    pa16=$(printf '%016x' $((16#$pa)))
    [ $((16#$pa & 4095)) = 0 ] && ! lt "$pa16" "$ram_lo" && lt "$pa16" "$ram_hi" ||
      fail "area $x: frame 0x$pa is not a page of RAM: '$l'"
    at[$x]=$le
    sum[$x]=$(( sum[$x] + 16#$le - 16#$ls ))
  done
done <<<"$dump"
a_at=${at[A]:-} b_at=${at[B]:-} a_sum=${sum[A]} b_sum=${sum[B]}
[ "$a_at" = "$a_e" ] || fail "area A (${a_s}-${a_e}) is not covered to its end (${a_at:-no line})"
[ "$b_at" = "$b_e" ] || fail "area B (${b_s}-${b_e}) is not covered to its end (${b_at:-no line})"
[ "$a_sum" = 16384 ] && [ "$b_sum" = 8192 ] || fail "areas print $a_sum and $b_sum bytes, not 16K and 8K"
found=0
for i in "${!markers[@]}"; do
  [ "${markers[$i]}" = "vmalloc() area" ] && [ "${markers[$((i + 1))]:-}" = "vmalloc() end" ] && found=1
done
[ $found = 1 ] || fail "markers '${markers[*]}': no 'vmalloc() area' followed by 'vmalloc() end'"
echo "ptdump_test: PASS ($board: ${#markers[@]} markers, A $a_s-$a_e and B $b_s-$b_e as PTE runs, guard unmapped, no W+X)"
