#!/usr/bin/env bash
# kpageflags_boot.sh - dump every frame of a board's RAM with `kpageflags` and check it through
# the host tools, as a person would use them:
#   kpageflags_boot.sh --board B --pfn FIRST [--mem 256M] [--out DIR] [--timeout S]
# Boots `tinymm.run=memmap; kpageflags FIRST <RAM/4K>`, pipes the console (CR LF and all) through
# tools/kpageflags-extract, then checks: the file has one word per pfn up to the end of RAM; every
# frame of a non-usable memblock region (the kernel image above all) is KPF_RESERVED and no usable
# one is; pagemap.py's totals count RAM/4K pages in RAM and FIRST NOPAGE holes below it; the PNG
# map is made, is a PNG of the size its layout gives, and shows the kernel's first frame reserved.
# DIR (default: a temporary one) keeps <board>.log, <board>.bin, <board>.txt and <board>.png.
. "$(dirname "$0")/lib.sh"
tm_init kpageflags_boot
top=$TM_TOP
board="" pfn="" mem=256M out="" timeout=50
while [ $# -gt 0 ]; do
  case "$1" in
    --board) board=$2; shift 2 ;;
    --pfn) pfn=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
fail() { tm_fail "$@"; }
[ -n "$board" ] && [ -n "$pfn" ] || { echo "usage: kpageflags_boot.sh --board B --pfn FIRST [--mem M] [--out DIR]" >&2; exit 2; }
if [ -z "$out" ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
bytes=$(tm_bytes "$mem")
pages=$(( bytes >> 12 )) first=$(( pfn ))
log=$out/$board.log bin=$out/$board.bin

timeout --foreground -k 2 "$timeout" "$top/tools/run" --board "$board" --mem "$mem" \
  --append "tinymm.run=memmap; kpageflags $pfn $pages" | tee "$log" |
  "$top/tools/kpageflags-extract" - "$bin"
rc=("${PIPESTATUS[@]}")
[ "${rc[0]}" = 124 ] && fail "no power-off within ${timeout}s (hang)"
[ "${rc[0]}" = 0 ] || fail "the boot exited ${rc[0]}"
[ "${rc[2]}" = 0 ] || fail "kpageflags-extract exited ${rc[2]}"
grep -q $'\r$' "$log" || fail "the log has no CR LF line ends: the extractor was not tested on them"

size=$(stat -c %s "$bin")
[ "$size" = $(( (first + pages) * 8 )) ] || fail "$bin is $size bytes, want $(( (first + pages) * 8 ))"

# Every frame of each memmap region (whole frames only) against its type.
facts=$(python3 - "$bin" "$log" "$first" "$pages" <<'EOF'
import array, re, sys
w = array.array("Q")
w.frombytes(open(sys.argv[1], "rb").read())
log = open(sys.argv[2], encoding="latin-1").read().replace("\r", "")
first, pages = int(sys.argv[3]), int(sys.argv[4])
RESERVED, NOPAGE = 1 << 32, 1 << 20
regions = re.findall(r"^\[mem 0x([0-9a-f]{16})-0x([0-9a-f]{16})\] ([a-z-]+)$", log, re.M)
assert regions, "no memmap lines in the log"
assert any(t == "kernel" for _, _, t in regions), "no kernel region"
assert all(w[p] == NOPAGE for p in range(first)), "a pfn below RAM is not NOPAGE"
checked = reserved = 0
for lo, hi, t in regions:
    lo, hi = int(lo, 16), int(hi, 16) + 1
    for p in range(-(-lo // 4096), hi // 4096):
        bit = bool(w[p] & RESERVED)
        if bit != (t != "usable") or w[p] & NOPAGE:
            sys.exit(f"pfn {p:#x} in a {t} region reads {w[p]:#018x}")
        checked += 1
        reserved += bit
assert checked >= pages - len(regions), (checked, pages)
kernel = [int(lo, 16) // 4096 for lo, _, t in regions if t == "kernel"][0]
print(checked, reserved, kernel)
EOF
) || fail "KPF words do not match the memory map"
read -r checked reserved kernel <<<"$facts"
echo "kpageflags_boot: $checked frames match the memory map, $reserved reserved, kernel at pfn $kernel"

# page-types' table: all of RAM, then the whole file as page-types -F would walk it.
"$top/tools/pagemap.py" -r -a "$pfn+$pages" "$bin" >"$out/$board.txt" || fail "pagemap.py exited $?"
cat "$out/$board.txt"
total=$(awk -F'\t' '$1 ~ /total$/ { print $2 + 0 }' "$out/$board.txt")
[ "$total" = "$pages" ] || fail "pagemap.py counts $total pages in RAM, want $pages (${mem}/4K)"
! grep -q "nopage" "$out/$board.txt" || fail "a hole inside RAM"
resv=$(awk -F'\t' '$1 ~ /^0x/ && $NF ~ /(^|,)reserved(,|$)/ { n += $2 } END { print n + 0 }' "$out/$board.txt")
[ "$resv" -ge "$reserved" ] && [ "$resv" -gt 0 ] || fail "the table has $resv reserved pages, the map $reserved"
"$top/tools/pagemap.py" "$bin" >"$out/$board-all.txt" || fail "pagemap.py exited $?"
grep -Eq "^             total	 *$(( first + pages )) " "$out/$board-all.txt" || fail "whole-file total"
grep -Eq "^0x0000000000100000	 *$first .*	nopage$" "$out/$board-all.txt" || fail "holes below RAM"

# The PNG, sized as its layout says: 256 frames per row, cells fitting 1024 pixels.
png=$out/$board.png
"$top/tools/pagemap.py" -N "$bin" --png "$png" || fail "pagemap.py --png exited $?"
rows=$(( pages / 256 )); big=$(( rows > 256 ? rows : 256 )); cell=$(( 1024 / big ))
[ "$cell" -gt 8 ] && cell=8
[ "$cell" -lt 1 ] && cell=1
width=$(( 100 + 256 * cell + 20 + 240 )) height=$(( 30 + rows * cell + 10 ))
[ "$height" -lt 260 ] && height=260
/usr/bin/python3 - "$png" "$width" "$height" "$(( kernel - first + first % 256 ))" "$cell" <<'EOF' || fail "PNG"
import sys
from PIL import Image
png, (width, height, i, cell) = sys.argv[1], map(int, sys.argv[2:])
im = Image.open(png)
assert im.format == "PNG", im.format
assert im.size == (width, height), (im.size, width, height)
px = im.getpixel((100 + (i % 256) * cell, 30 + (i // 256) * cell))
assert px == (230, 140, 30), f"the kernel's first frame is drawn {px}, not reserved orange"
EOF
echo "kpageflags_boot: PASS ($pages pages from pfn $pfn; ${width}x${height} $png)"
