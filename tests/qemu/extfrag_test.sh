#!/usr/bin/env bash
# extfrag_test.sh BOARD [--skew] - the shell's `extfrag` against `buddyinfo` (tests/qemu/
# extfrag.cmake): a 64 MiB guest boots, prints both, then takes order-10 blocks until none is
# left (so the higher orders have positive fragmentation indices, not -1.000) and prints both
# again; tests/qemu/extfrag_check.py recomputes every index from the buddyinfo line before it.
# --skew: the checker is handed a wrong buddyinfo and must fail (CTest WILL_FAIL).
. "$(dirname "$0")/lib.sh"
tm_init extfrag_test
[ $# -ge 1 ] || tm_usage "usage: extfrag_test.sh BOARD [--skew]"
board=$1 skew=${2:-}
out=$("$TM_CHECK" --board "$board" --mem 64M --status 1 --timeout 60 \
  --append "tinymm.run=drain; buddyinfo; extfrag; alloc 10 1000; drain; buddyinfo; extfrag" \
  --expect '^unusable_index:$' --expect '^extfrag_index:$' --expect '^alloc: failed after')
rc=$?
[ $rc = 0 ] || { printf '%s\n' "$out"; tm_fail "boot"; }
res=$(printf '%s\n' "$out" | python3 "$TM_QEMU/extfrag_check.py" ${skew:+"$skew"}) || {
  printf '%s\n' "$res"; tm_fail "extfrag does not match buddyinfo"; }
printf '%s\n' "$res"
# After the order-10 blocks are gone the top order cannot be served: a real index there.
printf '%s\n' "$res" | grep -Eq '^ok extfrag_index .* [ 0]0\.[0-9]{3} $' ||
  tm_fail "no positive fragmentation index at the top order"
echo "extfrag_test: PASS"
