#!/usr/bin/env bash
# fdt_fuzz.sh - CTest fuzz.fdt: run the device-tree fuzzer over a fresh copy of its seed corpus.
#   fdt_fuzz.sh FUZZER DTC CORPUS SEED-DIR... -- LIBFUZZER-OPTIONS...
# Every *.dtb in the seed dirs goes through `dtc -I dtb -O dtb` into CORPUS (emptied first):
# QEMU's ARM DTBs are padded to a 1 MiB totalsize, which would make each input 1 MiB; dtc
# writes the same tree compactly.  The run must end with libFuzzer's "Done N runs" for the
# -runs=N it was given, so a run that stopped early (or never started) fails.
set -euo pipefail
fuzzer=$1 dtc=$2 corpus=$3
shift 3
dirs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do dirs+=("$1"); shift; done
[ $# -gt 0 ] && shift
runs=$(printf '%s\n' "$@" | sed -n 's/^-runs=//p')
[ -n "$runs" ] || { echo "fdt_fuzz.sh: no -runs=N given" >&2; exit 2; }
rm -rf "$corpus"
mkdir -p "$corpus"
n=0
for d in "${dirs[@]}"; do
  for f in "$d"/*.dtb; do
    [ -e "$f" ] || continue
    "$dtc" -q -I dtb -O dtb -o "$corpus/$(basename "$d")-$(basename "$f")" "$f"
    n=$((n + 1))
  done
done
[ "$n" -gt 0 ] || { echo "fdt_fuzz.sh: no seed DTBs in ${dirs[*]}" >&2; exit 1; }
echo "fdt_fuzz.sh: $n seeds in $corpus"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
rc=0
"$fuzzer" "$@" "$corpus" >"$log" 2>&1 || rc=$?
grep -v '^#[0-9]*	\(NEW\|REDUCE\|pulse\)' "$log" || true	# the summary, not every new unit
echo "fdt_fuzz.sh: exit status $rc after $(( $(date +%s) - start )) s"
[ "$rc" = 0 ] || exit 1
grep -q "^Done $runs runs in " "$log" || { echo "fdt_fuzz.sh: libFuzzer did not report $runs runs" >&2; exit 1; }
