#!/usr/bin/env bash
# blk_test.sh - a virtio-blk boot test with disk images made on the host (tests/qemu/blk.cmake).
#   blk_test.sh --dir DIR [--img NAME:SIZE:LABEL]... [--hexcheck N:IMG:OFF:LEN]...
#               -- [boot_check.sh options...]
# --img makes DIR/NAME, SIZE bytes (suffix K or M): LABEL ("tinymm disk <LABEL>" and its offset
#   every 512 bytes, so each sector of each image is distinct) followed by bytes from a
#   generator seeded by NAME; "-" as LABEL: all random.
# @DIR@ in the boot_check options is replaced by DIR.
# --hexcheck: the output of the run's N-th `blk read` command (counting from 1) must be
#   exactly `hexdump -C -v -s OFF -n LEN DIR/IMG`.
. "$(dirname "$0")/lib.sh"
tm_init blk_test
check=$TM_CHECK dir="" imgs=() hex=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --img) imgs+=("$2"); shift 2 ;;
    --hexcheck) hex+=("$2"); shift 2 ;;
    --) shift; break ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
fail() { tm_fail "$@"; }
tm_fresh_dir "$dir"
for spec in "${imgs[@]}"; do
  IFS=: read -r name size label <<<"$spec"
  python3 - "$dir/$name" "$size" "$label" <<'PY' || fail "cannot make image $name"
import random, sys
path, size, label = sys.argv[1], sys.argv[2], sys.argv[3]
mult = {"K": 1 << 10, "M": 1 << 20}.get(size[-1], 1)
n = int(size.rstrip("KM")) * mult
rng = random.Random(path.rsplit("/", 1)[-1])
data = bytearray(rng.randbytes(n))
if label != "-":
    for off in range(0, n, 512):
        tag = ("tinymm disk %s @%08x" % (label, off)).encode()
        data[off:off + len(tag)] = tag
open(path, "wb").write(data)
PY
done
args=()
for a in "$@"; do args+=("${a//@DIR@/$dir}"); done
out=$("$check" "${args[@]}")
rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || fail "boot_check failed"
# Each `blk read` prompt's dump: the lines after it that look like hexdump's, up to the next prompt.
for spec in "${hex[@]}"; do
  IFS=: read -r i img off len <<<"$spec"
  got=$(printf '%s\n' "$out" | awk -v n="$i" '
    /^tinymm> / { k += ($0 ~ /^tinymm> blk read /); on = (k == n && $0 ~ /^tinymm> blk read /); next }
    on && /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]/ { print }')
  want=$(hexdump -C -v -s "$off" -n "$len" "$dir/$img")
  [ "$got" = "$want" ] || { diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | head -20
    fail "blk read number $i ($img at $off, $len bytes) differs from the host's hexdump -C"; }
  echo "blk_test: blk read number $i matches hexdump -C -v -s $off -n $len $img"
done
echo "blk_test: PASS"
