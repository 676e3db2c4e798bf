#!/usr/bin/env bash
# swapfile_test.sh BOARD CASE DIR - swap areas on virtio disks made by util-linux's mkswap
# (tests/qemu/swapfile.cmake, docs/swap.md).  One boot with three disks:
#   vda  mkswap -L tinyswap on 16 MiB          vdb  16 MiB of seeded random bytes (no header)
#   vdc  mkswap on 16 MiB, the file cut to 8 MiB (the header says more than the disk holds)
# `swapon vda` logs v6.10's "Adding 16380k swap on /dev/vda.  Priority:-2 ..." line, `swaps`
# prints /proc/swaps' two lines exactly, meminfo's SwapTotal and SwapFree are 16380 kB; a second
# `swapon vda`, `swapon vdb` and `swapon vdc` are each refused in one line with the reason;
# `swapoff vda` gives everything back (`swaps` the header alone, SwapTotal 0); a second swapoff
# is refused.  The shell's status is 1 (the refusals).
#   wrong_size  the same, expecting another size in /proc/swaps: must fail (the check can).
. "$(dirname "$0")/lib.sh"
tm_init swapfile_test
[ $# = 3 ] || tm_usage "usage: swapfile_test.sh BOARD ok|wrong_size DIR"
board=$1 case=$2 dir=$3
mkswap=${MKSWAP:-/sbin/mkswap}
tm_fresh_dir "$dir"
S='; '
LOG_RE='^\[ *[0-9]+\.[0-9]{6}\] '
size=16380	# (16 MiB / 4 KiB - 1 header page) * 4 KiB
[ "$case" = wrong_size ] && size=16384

truncate -s 16M "$dir/a.img" && "$mkswap" -q -L tinyswap -p 4096 "$dir/a.img" >/dev/null ||
  tm_fail "mkswap failed"
tm_mkimg "$dir/b.img" $((16 << 20)) 39
truncate -s 16M "$dir/c.img" && "$mkswap" -q -p 4096 "$dir/c.img" >/dev/null &&
  truncate -s 8M "$dir/c.img" || tm_fail "mkswap failed"

run="swapon vda${S}swaps${S}meminfo${S}swapon /dev/vda${S}swapon vdb${S}swapon vdc${S}"
run+="swapoff vda${S}swaps${S}meminfo${S}swapoff vda"
T=$'\t'
out=$("$TM_CHECK" --board "$board" --disk "$dir/a.img" --disk "$dir/b.img" --disk "$dir/c.img" \
  --append "tinymm.run=$run" --status 1 \
  --expect "${LOG_RE}Adding ${size}k swap on /dev/vda\.  Priority:-2 extents:1 across:${size}k $" \
  --expect "^Filename${T}${T}${T}${T}Type${T}${T}Size${T}${T}Used${T}${T}Priority$" \
  --expect "^/dev/vda {32}partition${T}${size}${T}${T}0${T}${T}-2$" \
  --expect "^SwapTotal: +${size} kB$" --expect "^SwapFree: +${size} kB$" \
  --expect "^swapon: vda: Device or resource busy$" \
  --expect "^swapon: vdb: Unable to find swap-space signature$" \
  --expect "^swapon: vdc: Swap area shorter than signature indicates$" \
  --expect "^SwapTotal: +0 kB$" \
  --expect "^swapoff: vda: Invalid argument \(not a swap area\)$")
rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || tm_fail "boot_check failed"
tm_no_complaints "$out"
# After swapoff, `swaps` is the header alone: the line after the second `swaps` is the header
# and the next one is the prompt of meminfo.
after=$(awk '/^tinymm> swaps/ { n++ } n == 2' <<<"$out" | tr -d '\r' | sed -n 3p)
[ "$after" = "tinymm> meminfo" ] || tm_fail "swaps after swapoff still lists an area: '$after'"
[ "$(grep -c '^swapon: ' <<<"$out")" = 3 ] || tm_fail "not exactly three swapon refusals"
echo "swapfile_test: PASS ($board)"
