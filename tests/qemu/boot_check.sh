#!/usr/bin/env bash
# boot_check.sh - boot one tinymm image under QEMU and check what it printed and how it exited.
#   boot_check.sh --board B [--mem M] [--append ARGS] [--dtb F] [--status N|nonzero]
#                 [--expect REGEX]... [--reject REGEX]... [--memcheck [--ram R]] [--ktap] [--ktap-skip N]
#                 [--timeout S]
#                 [--input PRINTF-STRING] [--qemu "EXTRA QEMU FLAGS"] [--disk IMG]... [--rootfs] [--irqsoff] [--sdimg F] [--keep-sdimg F]
# --input is typed at the console (printf escapes: \r, \x7f, \x03...) once the first prompt shows;
# QEMU holds it back until the UART can take it, so none of it is lost.
# --expect/--reject are extended regexes matched against whole lines (\r stripped).
# --irqsoff: the irqsoff-tracer build, tracer on, under -icount (tools/run --irqsoff).
# --rootfs: a private copy of build/<board>/rootfs.img as vda, tinymm.root=vda (tools/run --rootfs).
# --sdimg F: the card to boot from or put in the slot (tools/run --sdimg: a private copy).
# --keep-sdimg F: the SD-card board's private card copy made at F and kept (tools/run --keep-sdimg).
# --sdimg F: the card image (tools/run --sdimg: the Orange Pi PC boots it, the HiFive
# Unleashed's slot holds it as a data disk).
# --memcheck: the `memmap` regions must add up to exactly --mem, and `meminfo`'s MemTotal must
# equal the sum of the usable regions and the summary line's "available" figure.  --ram R: the
# RAM the board's tree gives the CPU when it is less than QEMU's (the Raspberry Pi's GPU keeps
# 64 MiB of its 1 GiB); the regions must add up to R instead.
# --ktap: the console holds a KTAP run that passed (tests/qemu/lib.sh, tm_ktap): the header, no
# "not ok" case, "# totals: pass:N fail:0 skip:0" with N > 0; --ktap-skip N: exactly N skipped.
. "$(dirname "$0")/lib.sh"
tm_init boot_check
top=$TM_TOP
board="" mem=256M ram="" append="" dtb="" status=0 timeout=20 memcheck=0 input="" qemu="" ktap=0 ktap_skip=0
expect=() reject=() disks=() irqsoff=() rootfs=() keep=() sdimg=()
while [ $# -gt 0 ]; do
  case "$1" in
    --board) board=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --append) append=$2; shift 2 ;;
    --dtb) dtb=$2; shift 2 ;;
    --status) status=$2; shift 2 ;;
    --expect) expect+=("$2"); shift 2 ;;
    --reject) reject+=("$2"); shift 2 ;;
    --memcheck) memcheck=1; shift ;;
    --ram) ram=$2; shift 2 ;;
    --ktap) ktap=1; shift ;;
    --ktap-skip) ktap=1; ktap_skip=$2; shift 2 ;;
    --input) input=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --qemu) qemu=$2; shift 2 ;;
    --disk) disks+=(--disk "$2"); shift 2 ;;
    --irqsoff) irqsoff=(--irqsoff); shift ;;
    --rootfs) rootfs=(--rootfs); shift ;;
    --keep-sdimg) keep=(--keep-sdimg "$2"); shift 2 ;;
    --sdimg) sdimg=(--sdimg "$2"); shift 2 ;;
    *) tm_usage "unknown option $1" ;;
  esac
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
args=(--board "$board" --mem "$mem" --append "$append")
[ -n "$dtb" ] && args+=(--dtb "$dtb")
[ ${#disks[@]} -gt 0 ] && args+=("${disks[@]}")
[ ${#irqsoff[@]} -gt 0 ] && args+=("${irqsoff[@]}")
[ ${#rootfs[@]} -gt 0 ] && args+=("${rootfs[@]}")
[ ${#keep[@]} -gt 0 ] && args+=("${keep[@]}")
[ ${#sdimg[@]} -gt 0 ] && args+=("${sdimg[@]}")
# shellcheck disable=SC2206
[ -n "$qemu" ] && args+=(-- $qemu)
raw=$(mktemp)
trap 'rm -f "$out" "$raw"' EXIT
# Typed input waits for the first prompt: firmware (OpenSBI) resets the UART's FIFOs at start-up,
# so bytes sent before it ran would be lost, as they would be for a person typing that early.
feed() {
  [ -n "$input" ] || return 0
  for _ in $(seq 1 200); do
    grep -q 'tinymm> ' "$raw" 2>/dev/null && break
    sleep 0.05
  done
  # shellcheck disable=SC2059
  printf "$input"
}
feed | timeout --foreground -k 2 "$timeout" "$top/tools/run" "${args[@]}" >"$raw" 2>&1
rc=${PIPESTATUS[1]}
tr -d '\r' <"$raw" >"$out"
cat "$out"
fail() { tm_fail "$@"; }

[ "$rc" = 124 ] && fail "no power-off within ${timeout}s (hang)"
if [ "$status" = nonzero ]; then
  [ "$rc" != 0 ] || fail "exit status 0, expected non-zero"
else
  [ "$rc" = "$status" ] || fail "exit status $rc, expected $status"
fi
for re in "${expect[@]}"; do
  grep -Eq -- "$re" "$out" || fail "no line matches: $re"
done
for re in "${reject[@]}"; do
  ! grep -Eq -- "$re" "$out" || fail "a line matches what must not appear: $re"
done
[ "$ktap" = 1 ] && tm_ktap "$(cat "$out")" "$ktap_skip"
if [ "$memcheck" = 1 ]; then
  want=$(tm_bytes "${ram:-$mem}")
  total=0 usable=0
  while read -r lo hi type; do
    size=$(( 16#$hi - 16#$lo + 1 ))
    total=$(( total + size ))
    [ "$type" = usable ] && usable=$(( usable + size ))
  done < <(sed -nE 's/^\[mem 0x([0-9a-f]{16})-0x([0-9a-f]{16})\] ([a-z-]+)$/\1 \2 \3/p' "$out")
  memtotal=$(sed -nE 's/^MemTotal: +([0-9]+) kB$/\1/p' "$out")
  avail=$(sed -nE 's/^Memory: ([0-9]+)K\/([0-9]+)K available .*/\1 \2/p' "$out" | head -n1)
  if [ -n "$ram" ]; then
    [ "$total" = "$want" ] || fail "memmap covers $total bytes, the board's tree gives the CPU $want"
  else
    [ "$total" = "$want" ] || fail "memmap covers $total bytes, QEMU was given $want"
  fi
  [ -n "$memtotal" ] || fail "no MemTotal line"
  [ "$memtotal" = $(( usable >> 10 )) ] || fail "MemTotal $memtotal kB != usable regions $(( usable >> 10 )) kB"
  [ "${avail% *}" = "$memtotal" ] && [ "${avail#* }" = $(( want >> 10 )) ] ||
    fail "summary line '$avail' disagrees with MemTotal $memtotal kB / $(( want >> 10 ))K"
  echo "boot_check: memory: $total bytes in memmap, MemTotal $memtotal kB ($(( (want >> 10) - memtotal )) kB reserved)"
fi
echo "boot_check: PASS (exit status $rc)"
