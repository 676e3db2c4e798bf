#!/usr/bin/env bash
# reclaim_test.sh - page reclaim under memory pressure and scan resistance, over a real virtio
# disk in 32 MiB of RAM, checked from the host (tests/qemu/reclaim.cmake).  The script is typed
# at the console (boot_check.sh --input: longer than tinymm.run= allows) and ends in `poweroff 0`.
#   reclaim_test.sh --dir DIR --board B --mode pressure|scan-seq|scan-random
# pressure: a seeded random 256 MiB disk (8x RAM) read whole through `blk sha256` in 16 MiB
#   pieces, then again in reverse order (the pieces evicted last come back first: refaults whose
#   shadow entries are surely still there); a quarter of it written by `blk write` (aligned,
#   unaligned, sector- but not page-aligned, up to the very end, one write overlapping another),
#   `sync`; the pieces no write touched (7 x 16 MiB) read a third time, then every written
#   range hashed again (mostly evicted by then: read back from the disk).  Every digest
#   must be the host's (the base image, or the image with the writes applied:
#   tests/qemu/reclaim_helper.py apply), no allocation failure / BUG / bad page / panic / error
#   line may appear, vmstat must show reclaim (pgsteal_kswapd + pgsteal_direct > 0) and, after
#   the second read, refaults (workingset_refault_file > 0); after power-off the image must
#   equal the expected one byte for byte.
# scan-seq, scan-random: a disk of 128 MiB of cold data (4x RAM) and an 8 MiB hot set (25% of
#   RAM) at its end (readahead cannot run past a hot read into cold blocks).  The hot set is
#   read twice (two touches: active), then 4 rounds of [a quarter of the cold data; hot read]:
#   32 MiB of cold data before each hot read is more than the page cache holds, so a plain LRU
#   hits nothing (the host simulates it on the same reads, prints its figure, and fails the test
#   if it would reach 50%: the plan must tell the two lists from one).  The cold data is read
#   once, in 1 MiB pieces: in disk order (scan-seq), or in a seeded random order (scan-random),
#   each piece then followed on the disk by 512 KiB that no command reads.  The gaps keep the
#   random scan a single pass: readahead runs up to 256 KiB past the end of a piece, and without
#   them it would read the start of the next piece, often read and evicted a little earlier:
#   refaults that v6.10 takes for a changing working set (it then ages the active list,
#   may_deactivate): 92-98% instead of 100%, run to run.  The hot reads' hit rate is
#   1 - (bytes the disk was asked for during the hot reads, from `blk stats` around each) /
#   (hot bytes x rounds); printed as `scan_resistance <board> seq|random hit_rate=XX.X%`; below
#   95% fails.  Every digest must be the host's, and something must have been reclaimed.
# The disk image is deleted when a test passes (it is big); a failing run keeps it in DIR.
# RECLAIM_MEM=512M (say) in the environment checks the test's own side on a kernel without
# reclaim: the digests and the image must still be right, only the vmstat/hit-rate checks fail.
. "$(dirname "$0")/lib.sh"
tm_init reclaim_test
check=$TM_CHECK dir="" board="" mode=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --board) board=$2; shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
here=$TM_QEMU
helper=$here/reclaim_helper.py
fail() { tm_fail "$@"; }
tm_fresh_dir "$dir"
img=$dir/disk.img
MiB=$((1024 * 1024))
# What must never reach the console, whatever the mode.
rejects=(--reject "page allocation failure" --reject "BUG" --reject "Bad page" --reject "panic"
  --reject "[Ee]rror([^s]|$)" --reject "out of memory" --reject "Unhandled")

# prepare BUILDER: $cache holds what BUILDER made there (the base image, the expected digests...),
# made once for all boards (under a lock: the boards' tests run in parallel) and again only when
# this script or the helper changes; each test copies the image it boots.  $cache stays (one per
# mode, in DIR's parent: up to 512 MiB for pressure), so the next run skips the making.
prepare() {
  local key
  key=$(cat "$0" "$helper" | sha256sum | cut -c1-16)
  cache=$(dirname "$dir")/cache-$mode-$key
  exec 9>"$(dirname "$dir")/cache-$mode.lock" && flock 9 || fail "cannot lock the cache"
  if [ ! -f "$cache/done" ]; then
    rm -rf "$(dirname "$dir")/cache-$mode-"* && mkdir -p "$cache" || fail "cannot make $cache"
    "$1" || { rm -rf "$cache"; fail "cannot prepare $cache"; }
    touch "$cache/done"
  fi
  exec 9>&-
  cp "$cache/base.img" "$img" || fail "cannot copy the image"
}
boot() {	# boot TIMEOUT SCRIPT-LINES...: type the lines, then `poweroff 0`; sets $out
  local t=$1 input="" l
  shift
  for l in "$@" "poweroff 0"; do input="$input$l\\r"; done
  printf '%s\n' "$@" >"$dir/script.txt"
  out=$("$check" --board "$board" --mem "${RECLAIM_MEM:-32M}" --disk "$img" --timeout "$t" --input "$input" \
    "${rejects[@]}" --expect "^tinymm> poweroff 0$")
  local rc=$?
  printf '%s\n' "$out" >"$dir/console.txt"
  printf '%s\n' "$out"
  [ $rc = 0 ] || fail "boot failed (script: $dir/script.txt)"
}
# block N CMD: the output of the N-th run of CMD (the lines after its echo, up to the next one)
block() { printf '%s\n' "$out" | awk -v n="$1" -v c="tinymm> $2" '/^tinymm> / { k += ($0 == c); on = ($0 == c && k == n); next } on'; }
# val N NAME: NAME's value in the N-th vmstat output
val() { block "$1" vmstat | awk -v k="$2" '$1 == k { print $2; exit }'; }
# read_bytes N: the N-th `blk stats` output's vda read_bytes
read_bytes() { block "$1" "blk stats" | awk '$1 == "vda" { print $3; exit }'; }
digests() {	# digests WANT-FILE: the console's digests, in order, against the host's
  local -a got want
  mapfile -t got < <(printf '%s\n' "$out" | grep -E '^[0-9a-f]{64}$')
  mapfile -t want <"$1"
  mapfile -t what < <(grep '^blk sha256 ' "$dir/script.txt")
  [ ${#got[@]} = ${#want[@]} ] || fail "${#got[@]} digests printed, expected ${#want[@]}"
  for i in "${!want[@]}"; do
    [ "${got[$i]}" = "${want[$i]}" ] || fail "digest $((i + 1)) (${what[$i]}): ${got[$i]}, the host says ${want[$i]}"
  done
  echo "reclaim_test: all ${#want[@]} digests match the host's"
}

case "$mode" in
pressure)
  size=$((256 * MiB)) piece=$((16 * MiB))
  fwd=() rev=()
  for ((o = 0; o < size; o += piece)); do fwd+=("$o:$piece"); rev=("$o:$piece" "${rev[@]}"); done
  # A quarter of the disk (64 MiB) in five writes, then one overlapping the first two.
  ws=(4095:8388608:101 33554432:16777216:102 100000001:20000000:103 180000256:12000000:104
      $((size - 9943040)):9943040:105 33550000:10000:106)
  wr=()
  for w in "${ws[@]}"; do wr+=("${w%:*}"); done
  lines=()
  for r in "${fwd[@]}"; do lines+=("blk sha256 vda ${r%:*} ${r#*:}"); done
  lines+=(vmstat)
  for r in "${rev[@]}"; do lines+=("blk sha256 vda ${r%:*} ${r#*:}"); done
  lines+=(vmstat)
  for w in "${ws[@]}"; do IFS=: read -r o l s <<<"$w"; lines+=("blk write vda $o $l $s"); done
  lines+=(sync vmstat meminfo)
  # More pressure: the pieces no write touched (112 MiB), then every written range again.
  untouched=()
  for r in "${fwd[@]}"; do
    o=${r%:*} hit=0
    for w in "${wr[@]}"; do
      [ "${w%:*}" -lt $((o + piece)) ] && [ $((${w%:*} + ${w#*:})) -gt "$o" ] && hit=1
    done
    [ $hit = 1 ] || untouched+=("$r")
  done
  for r in "${untouched[@]}" "${wr[@]}"; do lines+=("blk sha256 vda ${r%:*} ${r#*:}"); done
  lines+=(vmstat "blk stats")
  build() {	# the base image, its digests, the expected image (writes applied) and its digests
    python3 "$helper" image "$cache/base.img" "$size" 23 &&
      python3 "$helper" sha "$cache/base.img" "${fwd[@]}" >"$cache/want.txt" &&
      tac "$cache/want.txt" >"$cache/want-rev.txt" && cat "$cache/want-rev.txt" >>"$cache/want.txt" &&
      cp "$cache/base.img" "$cache/expected.img" &&
      python3 "$helper" apply "$cache/expected.img" "${ws[@]}" &&
      python3 "$helper" sha "$cache/expected.img" "${untouched[@]}" "${wr[@]}" >>"$cache/want.txt"
  }
  prepare build
  start=$SECONDS
  boot 240 "${lines[@]}"
  echo "reclaim_test: the boot took $((SECONDS - start)) s"
  digests "$cache/want.txt"
  for n in 1 2 3 4; do
    echo "reclaim_test: vmstat $n: $(for k in nr_free_pages nr_inactive_file nr_active_file pgscan_kswapd \
      pgscan_direct pgsteal_kswapd pgsteal_direct workingset_refault_file workingset_activate_file \
      workingset_restore_file workingset_nodereclaim pgpgin pgpgout; do printf '%s=%s ' $k "$(val $n $k)"; done)"
  done
  steal=$(( $(val 4 pgsteal_kswapd) + $(val 4 pgsteal_direct) ))
  [ "$steal" -gt 0 ] || fail "no page reclaimed (pgsteal_kswapd + pgsteal_direct = 0)"
  refault=$(val 2 workingset_refault_file)
  [ "$refault" -gt 0 ] || fail "the second read of the disk refaulted nothing (workingset_refault_file = 0)"
  written=$(block 1 "blk stats" | awk '$1 == "vda" { print $8; exit }')
  [ "$written" -ge $((64 * MiB)) ] || fail "only $written bytes reached the disk, the writes were 64 MiB"
  cmp "$img" "$cache/expected.img" || fail "the image on the host is not the expected one (kept in $dir)"
  echo "reclaim_test: the image matches the expected bytes (${#ws[@]} writes); $steal pages reclaimed, $refault refaults in the second read"
  ;;
scan-seq|scan-random)
  order=${mode#scan-} cold=$((128 * MiB)) hot=$((8 * MiB)) rounds=4 chunk=$MiB stride=$MiB
  [ "$order" = random ] && stride=$((MiB + 512 * 1024))
  # shellcheck disable=SC2017  # whole pieces first, then their stride: the division must truncate
  hot_off=$((cold / chunk * stride))
  args=("$order" 31 "$cold" "$hot" "$hot_off" "$rounds" "$chunk" "$stride")
  mapfile -t lines < <(python3 "$helper" plan "${args[@]}")
  [ ${#lines[@]} -gt 0 ] || fail "no plan"
  lines+=(vmstat meminfo)
  mapfile -t ranges < <(printf '%s\n' "${lines[@]}" | awk '$1 == "blk" && $2 == "sha256" { print $4 ":" $5 }')
  build() {
    python3 "$helper" image "$cache/base.img" $((hot_off + hot)) 29 &&
      python3 "$helper" sha "$cache/base.img" "${ranges[@]}" >"$cache/want.txt"
  }
  prepare build
  start=$SECONDS
  boot 120 "${lines[@]}"
  echo "reclaim_test: the boot took $((SECONDS - start)) s"
  digests "$cache/want.txt"
  missed=0 per=""
  for ((r = 1; r <= rounds; r++)); do
    b=$(read_bytes $((2 * r - 1))) a=$(read_bytes $((2 * r)))
    [ -n "$b" ] && [ -n "$a" ] || fail "round $r: no blk stats"
    missed=$((missed + a - b))
    per="$per $(awk -v m=$((a - b)) -v h=$hot 'BEGIN { printf "%.1f%%", 100 * (1 - m / h) }')"
  done
  pages=$(( $(block 1 meminfo | awk '$1 == "MemTotal:" { print $2 }') / 4 ))
  lru=$(python3 "$helper" lru "${args[@]}" $pages)
  rate=$(awk -v m=$missed -v t=$((hot * rounds)) 'BEGIN { printf "%.1f", 100 * (1 - m / t) }')
  echo "reclaim_test: vmstat: $(for k in nr_inactive_file nr_active_file pgsteal_kswapd pgsteal_direct \
    pgactivate pgdeactivate workingset_refault_file workingset_activate_file; do printf '%s=%s ' $k "$(val 1 $k)"; done)"
  echo "reclaim_test: hot reads per round:$per; a plain LRU of MemTotal ($pages pages) would hit $lru%"
  echo "scan_resistance $board $order hit_rate=$rate%"
  awk -v r="$lru" 'BEGIN { exit !(r < 50) }' || fail "a plain LRU would hit $lru%: this plan does not tell the lists from it"
  steal=$(( $(val 1 pgsteal_kswapd) + $(val 1 pgsteal_direct) ))
  [ "$steal" -gt 0 ] || fail "no page reclaimed (pgsteal_kswapd + pgsteal_direct = 0): nothing was measured"
  awk -v r="$rate" 'BEGIN { exit !(r >= 95) }' || fail "hot set hit rate $rate% < 95%"
  ;;
*) fail "unknown mode '$mode'" ;;
esac
rm -f "$img"
echo "reclaim_test: PASS"
