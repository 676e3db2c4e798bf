# shellcheck shell=bash
# lib.sh - what the QEMU test scripts share: boot a board, type at its shell and wait for the
# prompt, collect KTAP, make seeded disk images, and fail with the console's tail.  Sourced by
# the scripts beside it, never run:
#     . "$(dirname "$0")/lib.sh"
#     tm_init hwpoison_test
# Messages start with the name given to tm_init.  tm_fail prints the last $TM_TAIL (40) lines of
# the console, then "NAME: FAIL: why", and exits 1; every check in a script goes through it, so a
# failure always shows what the kernel was doing.
#
# Two ways to boot:
#   - one shot: boot_check.sh ($TM_CHECK) boots with tinymm.run=... or typed --input, waits for
#     the power-off and matches the console against --expect/--reject/--ktap;
#   - interactive: tm_boot starts QEMU in the background with its console on a FIFO, and
#     tm_cmd types one command at a time, waiting for the next prompt, so a script can choose
#     what to type from what the kernel printed (a frame number, a counter).
# Either way only the QEMU this script started is ever stopped (by its pid), on every exit.
set -uo pipefail
# e2fsprogs (mke2fs, e2fsck, debugfs) live in /sbin, outside an ordinary user's PATH.
PATH=$PATH:/sbin:/usr/sbin

TM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TM_QEMU=$TM_TOP/tests/qemu
# shellcheck disable=SC2034  # for the scripts that source this file
TM_CHECK=$TM_QEMU/boot_check.sh
TM_TAIL=${TM_TAIL:-40}
TM_LOG=""		# the interactive console, raw (CR LF); set by tm_boot
TM_PID=""		# the QEMU tm_boot started
TM_TIMEOUT=${TM_TIMEOUT:-60}	# seconds tm_cmd waits for a prompt, tm_poweroff for the exit
tm_name=${0##*/}
out=""			# what the last tm_cmd printed, its echo left out

tm_init() { tm_name=$1; }

# tm_pfn BOARD VADDR: the frame number of a kernel direct-map address (what `kmalloc` prints),
# from the image's own link: virtual - physical is _start - _start_pa (docs/mmu.md).
tm_pfn() {
  local nm syms start start_pa
  # shellcheck disable=SC1090  # the board's QEMU settings name its nm
  nm=$(. "$TM_TOP/board/$1/qemu.conf" && echo "${NM:-nm}")
  syms=$("$nm" "$TM_TOP/build/$1/tinymm.elf") || tm_fail "no symbols in build/$1/tinymm.elf"
  start=$(awk '$3 == "_start" { print $1 }' <<<"$syms")
  start_pa=$(awk '$3 == "_start_pa" { print $1 }' <<<"$syms")
  printf '0x%x' $(( ($2 - 16#$start + 16#$start_pa) >> 12 ))
}

tm_fail() {
  if [ -n "$TM_LOG" ] && [ -f "$TM_LOG" ]; then
    echo "--- last $TM_TAIL console lines ---"
    tr -d '\r' <"$TM_LOG" | tail -n "$TM_TAIL"
  fi
  echo "$tm_name: FAIL: $*"
  exit 1
}

# tm_usage MESSAGE: a wrong command line (exit status 2, as the scripts' option parsers use).
tm_usage() {
  echo "$tm_name: $*" >&2
  exit 2
}

# tm_fresh_dir DIR: DIR emptied and made again (each test keeps its own files for a post-mortem).
tm_fresh_dir() {
  [ -n "$1" ] || tm_usage "no directory given"
  rm -rf "$1" && mkdir -p "$1" || tm_fail "cannot make $1"
}

# tm_bytes SIZE: 256M, 1G or a plain number of MiB, in bytes (QEMU's -m units).
tm_bytes() {
  case "$1" in
  *G) echo $(( ${1%G} << 30 )) ;;
  *M) echo $(( ${1%M} << 20 )) ;;
  *) echo $(( $1 << 20 )) ;;
  esac
}

# tm_mkimg FILE BYTES SEED: seeded random bytes, the same on every run and every machine.
tm_mkimg() {
  python3 -c 'import random, sys
open(sys.argv[1], "wb").write(random.Random(int(sys.argv[3])).randbytes(int(sys.argv[2])))' \
    "$1" "$2" "$3" || tm_fail "cannot make the image $1"
}

# tm_sha FILE OFFSET LENGTH: the host's SHA-256 of those bytes of FILE (what `blk sha256` prints).
tm_sha() {
  python3 -c 'import hashlib, sys
f = open(sys.argv[1], "rb"); f.seek(int(sys.argv[2], 0))
print(hashlib.sha256(f.read(int(sys.argv[3], 0))).hexdigest())' "$1" "$2" "$3"
}

# tm_console: the interactive console so far, CRs stripped.
tm_console() { tr -d '\r' <"$TM_LOG"; }

# tm_no_complaints TEXT: none of the kernel's complaint lines in TEXT (a console).
tm_no_complaints() {
  ! grep -Eq -- 'BUG|Bad page|WARNING:|panic|Unhandled' <<<"$1" || tm_fail "the kernel complained"
}

# tm_ktap TEXT [SKIPS]: TEXT holds a KTAP run that passed: a "KTAP version 1" header, no "not ok"
# line and "# totals: pass:N fail:0 skip:SKIPS" with N > 0 (SKIPS: 0 unless given, for a board
# that lacks what a case needs).  On failure the failing cases are named.
tm_ktap() {
  local failed totals skips=${2:-0}
  grep -q '^KTAP version 1$' <<<"$1" || tm_fail "no KTAP output (no 'KTAP version 1' line)"
  failed=$(grep -E '^ *not ok ' <<<"$1")
  [ -z "$failed" ] || tm_fail "KTAP cases failed:"$'\n'"$failed"
  totals=$(grep -E '^# totals: ' <<<"$1" | tail -n1)
  [ -n "$totals" ] || tm_fail "no KTAP totals line: the run did not finish"
  grep -Eq "^# totals: pass:[1-9][0-9]* fail:0 skip:$skips\$" <<<"$totals" ||
    tm_fail "KTAP totals '$totals': want pass > 0, fail 0, skip $skips"
}

# tm_boot DIR TOOLS-RUN-ARGS...: boot in the background, the console's input a FIFO (DIR/in)
# held open read-write here, so opening it never blocks and QEMU never sees end-of-file; what is
# typed goes in through fd 3.  The console goes to DIR/raw; on exit DIR/console.txt keeps it
# without CRs.  Returns once the first prompt shows (or fails).
tm_boot() {
  local dir=$1
  shift
  TM_LOG=$dir/raw
  : >"$TM_LOG"
  mkfifo "$dir/in" || tm_fail "cannot make a FIFO in $dir"
  exec 3<>"$dir/in"
  trap 'tm_stop "'"$dir"'"' EXIT
  "$TM_TOP/tools/run" "$@" <&3 >"$TM_LOG" 2>&1 &
  TM_PID=$!
  tm_wait 'tinymm> ' 1 20
}

# tm_stop DIR: the exit trap: QEMU stopped if still running, the console kept as console.txt;
# DIR itself removed if the script set TM_RMDIR=1 (a temporary directory).
tm_stop() {
  [ -n "$TM_PID" ] && kill "$TM_PID" 2>/dev/null
  exec 3>&- 2>/dev/null
  tr -d '\r' <"$TM_LOG" >"$1/console.txt" 2>/dev/null
  [ "${TM_RMDIR:-0}" = 1 ] && rm -rf "$1"
}

# tm_qemu_pid: the qemu-system process (tools/run execs QEMU, so normally $TM_PID itself; if a
# wrapper ever stays in between, its qemu-system-* child).
tm_qemu_pid() {
  local p
  for _ in $(seq 1 100); do
    kill -0 "$TM_PID" 2>/dev/null || tm_fail "QEMU exited at start-up"
    for p in "$TM_PID" $(ps -o pid= --ppid "$TM_PID" 2>/dev/null); do
      case "$(cat "/proc/$p/comm" 2>/dev/null)" in
      qemu-system*) echo "$p"; return 0 ;;
      esac
    done
    sleep 0.1
  done
  tm_fail "no qemu-system process under pid $TM_PID"
}

# tm_count REGEX: how many console lines match.
tm_count() { tm_console | grep -Ec -- "$1"; }

# tm_wait REGEX COUNT SECONDS: until COUNT console lines match, QEMU still running.
tm_wait() {
  local end=$((SECONDS + $3))
  while [ "$(tm_count "$1")" -lt "$2" ]; do
    kill -0 "$TM_PID" 2>/dev/null || tm_fail "QEMU exited while waiting for '$1'"
    [ $SECONDS -lt $end ] || tm_fail "no '$1' within $3 s"
    sleep 0.05
  done
}

# tm_type TEXT: typed at the console, Enter included; nothing waited for.
tm_type() { printf '%s\r' "$1" >&3; }

tm_prompts() { tm_console | grep -o 'tinymm> ' | wc -l; }

# tm_cmd COMMAND: typed, then wait (TM_TIMEOUT) for the next prompt; $out is what the command
# printed, log lines included, its echo left out.  The exchange goes to stderr as a transcript.
tm_cmd() {
  local before end
  before=$(tm_prompts)
  tm_type "$1"
  end=$((SECONDS + TM_TIMEOUT))
  while [ "$(tm_prompts)" -le "$before" ]; do
    kill -0 "$TM_PID" 2>/dev/null || tm_fail "QEMU exited during '$1'"
    [ $SECONDS -lt $end ] || tm_fail "no prompt after '$1' within ${TM_TIMEOUT}s"
    sleep 0.05
  done
  out=$(tm_console | awk -v RS='tinymm> ' -v k=$((before + 1)) 'NR == k { print; exit }' | sed 1d)
  printf '%s: > %s\n%s\n' "$tm_name" "$1" "$out" >&2
}

# tm_out_has REGEX: a line of the last command's output matches.
# (A here-string, not a pipe: with pipefail, grep -q leaving early would fail the printf.)
tm_out_has() { grep -Eq -- "$1" <<<"$out"; }

# tm_poweroff [STATUS]: `poweroff STATUS` typed (default 0); QEMU must exit with it in TM_TIMEOUT.
tm_poweroff() {
  local want=${1:-0} end rc
  tm_type "poweroff $want"
  end=$((SECONDS + TM_TIMEOUT))
  while kill -0 "$TM_PID" 2>/dev/null; do
    [ $SECONDS -lt $end ] || tm_fail "no power-off within ${TM_TIMEOUT}s"
    sleep 0.05
  done
  wait "$TM_PID"
  rc=$?
  TM_PID=""
  [ "$rc" = "$want" ] || tm_fail "exit status $rc, expected $want"
}
