#!/usr/bin/env bash
# hwpoison_workload_test.sh - HWPoison under a read/write workload, checked from the host
# (tests/qemu/hwpoison_workload.cmake; docs/hwpoison.md, "Host-checked workload").
#   hwpoison_workload_test.sh --dir DIR --board B --mode run
#       --ops N --seed S --poisons P [--mem M] [--timeout T]
#   hwpoison_workload_test.sh --dir DIR --mode detects-corruption
# run: an 8 MiB disk image of seeded random bytes (tests/qemu/hwpoison_workload_helper.py image:
#   "op 0" of blk-stress's generator for S), booted with `tinymm.run=blk-stress vda N S P`: N
#   seeded reads and writes through the page cache while P memory_failure() calls poison random
#   frames (block/blk-stress.c).  After power-off the helper replays the ops over the image and
#   compares: every byte outside the ranges the kernel reported lost (`dirty data lost`) is the
#   replay's, every byte inside one a version it once had; every read mismatch the kernel saw lies
#   inside data reported lost; every sync error has its loss and every loss its sync error; no
#   BUG/panic/bad page/trap/warning.  The run's files (disk.img: the final image, console.txt,
#   params) are in a directory of its own, DIR.XXXXXX; a run that passes points the symlink DIR at
#   it (renamed into place: atomic), so runs of the same test at once (two people's ctest in one
#   build tree) never share files.  Passed runs' directories go after 10 minutes; a failed one
#   stays, and is named.
# detects-corruption: on the files DIR points at (the run is its CTest fixture), the helper must
#   pass on them untouched and fail on each of: one image byte flipped outside every lost range,
#   the wrong seed, a read mismatch line outside every lost range.
. "$(dirname "$0")/lib.sh"
tm_init hwpoison_workload_test
check=$TM_CHECK dir="" board="" mode="" ops="" seed="" poisons="" mem=32M timeout=120
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --board) board=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    --ops) ops=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --poisons) poisons=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
here=$TM_QEMU
helper=$here/hwpoison_workload_helper.py
fail() { tm_fail "$@"; }
size=$((8 * 1024 * 1024))

case "$mode" in
run)
  link=$dir
  mkdir -p "$(dirname "$link")" && dir=$(mktemp -d "$link.XXXXXX") || fail "cannot make $link.XXXXXX"
  img=$dir/disk.img
  python3 "$helper" image "$img" $size "$seed" || fail "cannot make the image"
  echo "ops=$ops seed=$seed poisons=$poisons" >"$dir/params"
  start=$SECONDS
  out=$("$check" --board "$board" --mem "$mem" --disk "$img" --timeout "$timeout" \
    --append "tinymm.run=blk-stress vda $ops $seed $poisons" \
    --expect "^blk-stress: $ops ops, [0-9]+ writes, [0-9]+ reads, [0-9]+ mismatches, [0-9]+ poisoned$")
  rc=$?
  took=$((SECONDS - start))
  printf '%s\n' "$out" >"$dir/console.txt"
  printf '%s\n' "$out" | grep -E "^blk-stress: |Memory failure: " | tail -n 60
  echo "hwpoison_workload_test: $board: the boot took $took s"
  [ $rc = 0 ] || { printf '%s\n' "$out" | tail -n 40; fail "boot failed (console: $dir/console.txt)"; }
  python3 "$helper" check "$img" "$dir/console.txt" "$ops" "$seed" "$poisons" ||
    fail "the host's check failed (kept: $dir)"
  [ -L "$link" ] || rm -rf "$link"	# a directory from before the symlink
  ln -sfn "$(basename "$dir")" "$dir.link" && mv -T "$dir.link" "$link" || fail "cannot point $link at $dir"
  find "$(dirname "$link")" -maxdepth 1 -name "$(basename "$link").??????" -type d -mmin +10 \
    -exec test -f {}/passed \; -exec rm -rf {} + 2>/dev/null
  touch "$dir/passed"
  ;;
detects-corruption)
  dir=$(readlink -f "$dir")		# this run's files, whatever later runs do
  [ -f "$dir/params" ] && [ -f "$dir/disk.img" ] && [ -f "$dir/console.txt" ] ||
    fail "no run in $dir (the run test is this test's fixture)"
  read -r ops seed poisons < <(sed -E 's/[a-z]+=//g' "$dir/params")
  t=$(mktemp -d "$dir/negative.XXXXXX") || fail "cannot make $dir/negative.XXXXXX"
  python3 "$helper" check "$dir/disk.img" "$dir/console.txt" "$ops" "$seed" "$poisons" >"$t/clean.txt" ||
    { cat "$t/clean.txt"; fail "the untouched run does not pass: nothing to corrupt"; }
  # expect_fail NAME PATTERN IMG LOG SEED: the helper must exit 1 and say PATTERN.
  expect_fail() {
    python3 "$helper" check "$3" "$4" "$ops" "$5" "$poisons" >"$t/$1.txt"
    local rc=$?
    [ $rc = 1 ] || { cat "$t/$1.txt"; fail "$1: the helper exited $rc, expected 1"; }
    grep -q -- "$2" "$t/$1.txt" || { cat "$t/$1.txt"; fail "$1: no line says '$2'"; }
    echo "hwpoison_workload_test: $1: caught: $(grep -m1 -- "$2" "$t/$1.txt")"
  }
  off=$(python3 "$helper" clean-offset "$dir/console.txt" $size "$seed") || fail "no clean offset"
  cp "$dir/disk.img" "$t/flipped.img" || fail "cannot copy the image"
  python3 -c "import sys
f = open(sys.argv[1], 'r+b'); f.seek(int(sys.argv[2])); b = f.read(1)[0]
f.seek(int(sys.argv[2])); f.write(bytes([b ^ 0x40]))" "$t/flipped.img" "$off" || fail "cannot flip a byte"
  expect_fail flipped_byte "image byte at offset $off " "$t/flipped.img" "$dir/console.txt" "$seed"
  expect_fail wrong_seed "FAIL: image byte at offset" "$dir/disk.img" "$dir/console.txt" $((seed + 1))
  moff=$(python3 "$helper" clean-offset "$dir/console.txt" $size $((seed + 7))) || fail "no clean offset"
  # The line goes just before the summary, whose mismatch count it then raises by one.
  awk -v l="blk-stress: read mismatch at $moff length 1" \
    '/^blk-stress: [0-9]+ ops, / && !d { print l; d = 1; $8 = $8 + 1 } { print }' \
    "$dir/console.txt" >"$t/console.txt"
  expect_fail stray_mismatch "read mismatch \[$moff, $((moff + 1))) is not inside" "$dir/disk.img" \
    "$t/console.txt" "$seed"
  rm -rf "$t"
  ;;
*) fail "unknown mode '$mode'" ;;
esac
echo "hwpoison_workload_test: PASS"
