#!/usr/bin/env bash
# user_maps.sh BOARD - `maps <pid>` and `pagemap <pid> <addr>` of a live task, under QEMU, on any
# board booted with the root filesystem (vda, or ram1 where there is no disk: fs/task_mmu.c,
# docs/user.md).  Interactive: the script
# reads the pid `exec -b /bin/sleep` prints and the areas `maps` shows, then asks `pagemap`
# about addresses taken from them:
#   maps <pid>    every line in /proc/PID/maps form (start-end perms offset 00:00 inode, the
#                 name padded to column 25 + 6 * sizeof(void *)), sorted, no overlap; the text
#                 at 0x10000 r-xp offset 0 and the data rw-p at offset start - 0x10000, both
#                 /bin/sleep with the inode `stat /bin/sleep` gives; [stack] last, rw-p, inode 0;
#                 `maps $!` (sh's last background pid) prints the same lines
#   pagemap       the text page: present, file, exclusive (one mapper), not anon-exclusive, its
#                 pfn in a usable memblock region (`memmap`), the 64-bit entry agreeing with the
#                 decoded fields; the stack's top page: present, anonymous, exclusive,
#                 anon-exclusive (PG_anon_exclusive: never forked), pfn in RAM; the stack's
#                 untouched bottom page and an address in no area: entry 0, present 0
#   bad input     a pid nobody has, a kernel thread's pid, a pid that is not a number, an address
#                 that is not one: one line each, and the command fails
# Then ps still lists the task, and buddycheck and slabcheck pass.
. "$(dirname "$0")/lib.sh"
tm_init user_maps
[ $# = 1 ] || tm_usage "usage: user_maps.sh BOARD"
board=$1
case $board in
  qemu-virt-riscv64|hifive-unleashed) ptr=8 ;;
  *) ptr=4 ;;
esac
dir=$(mktemp -d) TM_RMDIR=1
tm_boot "$dir" --board "$board" --rootfs

# The frames RAM gives the page allocator: memblock's usable ranges.
tm_cmd "memmap"
usable=$(sed -n 's/^\[mem 0x\([0-9a-f]*\)-0x\([0-9a-f]*\)\] usable$/\1 \2/p' <<<"$out")
[ -n "$usable" ] || tm_fail "memmap listed no usable range"
in_ram() {	# in_ram PFN: the frame lies in a usable range
  local a b
  while read -r a b; do
    (( ($1 << 12) >= 16#$a && ($1 << 12) <= 16#$b )) && return 0
  done <<<"$usable"
  return 1
}

tm_cmd "stat /bin/sleep"
ino=$(sed -n 's/.*Inode: \([0-9][0-9]*\).*/\1/p' <<<"$out")
[ -n "$ino" ] || tm_fail "stat /bin/sleep printed no inode"

tm_cmd "exec -b /bin/sleep 20000"
pid=$(sed -n 's|^/bin/sleep: pid \([1-9][0-9]*\)$|\1|p' <<<"$out")
[ -n "$pid" ] || tm_fail "exec -b printed no '/bin/sleep: pid <n>' line"
tm_cmd "sleep 300"		# the task runs to its nanosleep meanwhile

# --- maps ---
tm_cmd "maps $pid"
maps=$out
[ "$(wc -l <<<"$maps")" -ge 3 ] || tm_fail "maps printed fewer than 3 areas"
col=$((25 + 6 * ptr))
prev_end=0
while IFS= read -r line; do
  [[ $line =~ ^([0-9a-f]{8,16})-([0-9a-f]{8,16})\ ([r-][w-][x-][ps])\ ([0-9a-f]{8,16})\ 00:00\ ([0-9]+)\ (.*)$ ]] ||
    tm_fail "not a /proc/PID/maps line: '$line'"
  start=$((16#${BASH_REMATCH[1]})) end=$((16#${BASH_REMATCH[2]}))
  (( start < end && start >= prev_end && start % 4096 == 0 && end % 4096 == 0 )) ||
    tm_fail "areas out of order, overlapping or unaligned at '$line'"
  prev_end=$end
  rest=${BASH_REMATCH[6]}
  if [ -n "${rest// /}" ]; then
    name=${rest##* }
    [ "${line:$col}" = "$name" ] && [ "${line:$((col - 1)):1}" = " " ] ||
      tm_fail "the name of '$line' does not start at column $col (seq_pad's)"
  fi
done <<<"$maps"
first=$(head -n1 <<<"$maps") last=$(tail -n1 <<<"$maps")
[[ $first =~ ^0*10000-[0-9a-f]+\ r-xp\ 0+\ 00:00\ $ino\ +/bin/sleep$ ]] ||
  tm_fail "the first area is not /bin/sleep's text at 0x10000, r-xp, offset 0, inode $ino: '$first'"
data=$(grep -E " rw-p [0-9a-f]+ 00:00 $ino +/bin/sleep$" <<<"$maps" | head -n1)
[ -n "$data" ] || tm_fail "no rw-p area of /bin/sleep (its data)"
dstart=$((16#${data%%-*})) doff=$((16#$(awk '{print $3}' <<<"$data")))
[ $((dstart - 0x10000)) = "$doff" ] || tm_fail "the data area's offset is not its address - 0x10000: '$data'"
[[ $last =~ ^([0-9a-f]+)-([0-9a-f]+)\ rw-p\ 0+\ 00:00\ 0\ +\[stack\]$ ]] ||
  tm_fail "the last area is not the [stack], rw-p, offset 0, inode 0: '$last'"
sstart=$((16#${BASH_REMATCH[1]})) send=$((16#${BASH_REMATCH[2]}))
tm_cmd 'maps $!'
[ "$out" = "$maps" ] || tm_fail "'maps \$!' differs from 'maps $pid'"

# --- pagemap ---
# pagemap_at ADDR: the command's one line parsed into present, file, excl, pfn; the entry checked
# against the decoded fields (bit 63 present, 61 file, 56 exclusive, 0-54 the pfn).
pagemap_at() {
  tm_cmd "$(printf 'pagemap %s 0x%x' "$pid" "$1")"
  [[ $out =~ ^0x([0-9a-f]+):\ 0x([0-9a-f]{16})\ present\ ([01])\ swapped\ 0\ file\ ([01])\ exclusive\ ([01])\ soft-dirty\ 0\ pfn\ 0x([0-9a-f]+)\ anon-exclusive\ ([01])$ ]] ||
    tm_fail "not a pagemap line: '$out'"
  [ $((16#${BASH_REMATCH[1]})) = $(($1 & ~4095)) ] || tm_fail "pagemap names another page: '$out'"
  local e=${BASH_REMATCH[2]}
  present=${BASH_REMATCH[3]} file=${BASH_REMATCH[4]} excl=${BASH_REMATCH[5]} pfn=$((16#${BASH_REMATCH[6]}))
  aexcl=${BASH_REMATCH[7]}
  [ $((16#${e:0:1} >> 3)) = "$present" ] && [ $(((16#${e:0:1} >> 1) & 1)) = "$file" ] &&
    [ $((16#${e:1:1} & 1)) = "$excl" ] && [ $((16#${e:2:14} & ((1 << 53) - 1))) = $((pfn & ((1 << 53) - 1))) ] ||
    tm_fail "the entry 0x$e disagrees with its decoded fields: '$out'"
}
# The text page is mapped by the task's first instruction: on a loaded host QEMU's clock may
# have ended `sleep 300` before the task ran, so ask again a few times.
for _ in 1 2 3 4 5 6 7 8 9 10; do
  pagemap_at 0x10000
  [ "$present" = 1 ] && break
  tm_cmd "sleep 200"
done
[ "$present$file$excl$aexcl" = 1110 ] ||
  tm_fail "the text page: want present 1 file 1 exclusive 1 anon-exclusive 0: '$out'"
in_ram "$pfn" || tm_fail "the text page's pfn $(printf 0x%x "$pfn") is in no usable range"
pagemap_at $((send - 4096 + 16))
[ "$present$file$excl$aexcl" = 1011 ] ||
  tm_fail "the stack's top page: want present 1 file 0 exclusive 1 anon-exclusive 1: '$out'"
in_ram "$pfn" || tm_fail "the stack page's pfn $(printf 0x%x "$pfn") is in no usable range"
pagemap_at $sstart
[ "$present$file$excl$pfn" = 0000 ] || tm_fail "the stack's untouched bottom page is not empty: '$out'"
[ "${out#*: }" = "0x0000000000000000 present 0 swapped 0 file 0 exclusive 0 soft-dirty 0 pfn 0x0 anon-exclusive 0" ] ||
  tm_fail "an empty entry printed as '$out'"
hole=$((sstart - 4096)) inside=0
while IFS=' -' read -r a b _; do
  (( 16#$a <= hole && hole < 16#$b )) && inside=1
done <<<"$maps"
[ $inside = 0 ] || tm_fail "no hole below the stack to ask about"
pagemap_at $hole
[ "$present$pfn" = 00 ] || tm_fail "an address in no area has a present entry: '$out'"

# --- bad input: one line each, the command fails (tinymm.run would end with status 1) ---
bad() {	# bad COMMAND LINE-REGEX
  tm_cmd "$1"
  [ "$(wc -l <<<"$out")" = 1 ] && [[ $out =~ $2 ]] || tm_fail "'$1' printed '$out', want one line matching '$2'"
}
bad "maps 99999" '^maps: no task with pid 99999$'
bad "pagemap 99999 0x10000" '^pagemap: no task with pid 99999$'
bad "maps 1" '^maps: pid 1 \([a-z/0-9]+\) is a kernel thread: no user address space$'
bad "maps abc" "^maps: invalid pid 'abc'$"
bad "pagemap $pid xyz" "^pagemap: invalid user address 'xyz'$"
bad "maps" '^maps: usage: maps \[-v\] <pid>$'

tm_cmd "ps"
grep -Eq "^ *$pid .* sleep$" <<<"$out" || tm_fail "ps does not list the sleeping task $pid"
tm_cmd "buddycheck"
tm_out_has '^buddycheck: ok \(0 problems\)' || tm_fail "buddycheck did not pass"
tm_cmd "slabcheck"
tm_out_has '^slabcheck: ok \(0 problems\)' || tm_fail "slabcheck did not pass"
tm_no_complaints "$(tm_console)"
tm_poweroff 0
echo "user_maps: $board: pid $pid, $(wc -l <<<"$maps") areas, pagemap and bad input as expected"
