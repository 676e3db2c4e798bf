# forkcow_hold.sh - sourced by user_sys.sh and user_ram.sh (their forkcow cases): the exclusive
# bit of a forked page as the shell's `pagemap` shows it (docs/fork.md).  `/bin/forkcow hold`
# runs in the background: its page at 0x30000000 is shared with a child for 2 s (anon-exclusive
# 0), then written again after the child's exit (anon-exclusive 1, the same pfn: reused, not
# copied).  The sleeps leave at least 1.3 s on each side of the child's exit, and 2.3 s for the
# parent's own end before the checks that follow.
# shellcheck shell=bash
# shellcheck disable=SC2034  # used by the scripts that source this one
forkcow_hold='exec -b /bin/forkcow hold; sleep 700; pagemap $! 0x30000000; sleep 3000; pagemap $! 0x30000000; sleep 4000'

# forkcow_hold_check CONSOLE: both pagemap lines as above, or tm_fail.
forkcow_hold_check() {
  local lines first second re
  lines=$(grep '^0x30000000: ' <<<"$1")
  [ "$(wc -l <<<"$lines")" = 2 ] || tm_fail "forkcow hold: want 2 pagemap lines for 0x30000000, got: '$lines'"
  first=$(sed -n 1p <<<"$lines") second=$(sed -n 2p <<<"$lines")
  re='present 1 swapped 0 file 0 exclusive ([01]) soft-dirty 0 pfn (0x[0-9a-f]+) anon-exclusive ([01])$'
  [[ $first =~ $re ]] && [ "${BASH_REMATCH[1]}${BASH_REMATCH[3]}" = 00 ] ||
    tm_fail "forkcow hold: while the child lives the page must be shared (exclusive 0, anon-exclusive 0): '$first'"
  local pfn=${BASH_REMATCH[2]}
  [[ $second =~ $re ]] && [ "${BASH_REMATCH[1]}${BASH_REMATCH[3]}" = 11 ] ||
    tm_fail "forkcow hold: after the child's exit and a write the page must be the parent's alone (exclusive 1, anon-exclusive 1): '$second'"
  [ "${BASH_REMATCH[2]}" = "$pfn" ] || tm_fail "forkcow hold: the write copied the page ($pfn -> ${BASH_REMATCH[2]}) instead of reusing it"
  grep -q '^forkcow: hold: own again$' <<<"$1" || tm_fail "forkcow hold: the parent did not get to its second write"
}
