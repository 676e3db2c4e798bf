#!/usr/bin/env bash
# user_linux_abi.sh BOARD arm|rv32|rv64 - run BOARD's user programs (build/BOARD/user/bin) under
# qemu-user, which implements Linux's system-call ABI (the numbers, registers, initial stack and
# signals tinymm's kernel is to implement): the runtime in user/lib must start them, print
# through picolibc's stdio, pass argv and exit as on Linux before tinymm runs them itself.
#   hello a 'b c'       prints exactly "hello from <path> a b c", exit status 0
#   crash null|write-text|exec-data|stack   its announcing line, then killed by SIGSEGV (139)
#   crash illegal       killed by SIGILL (132)
#   crash (no argument) the usage line on stderr, exit status 2
#   forkcow 8           fork, copy-on-write and waitpid as Linux does them (clone's argument
#                       order, wait4's status, RV32's waitid siginfo): `forkcow: all ok`, status 0
. "$(dirname "$0")/../qemu/lib.sh"
tm_init user_linux_abi
ulimit -c 0		# qemu-user would dump a core for each crash
[ $# = 2 ] || tm_usage "usage: user_linux_abi.sh BOARD arm|rv32|rv64"
board=$1
case "$2" in
arm) q=qemu-arm ;; rv32) q=qemu-riscv32 ;; rv64) q=qemu-riscv64 ;;
*) tm_usage "arch is arm, rv32 or rv64, not '$2'" ;;
esac
command -v "$q" >/dev/null || tm_fail "$q is not installed (Debian's qemu-user; tools/install-deps)"
bin=$TM_TOP/build/$board/user/bin
[ -x "$bin/hello" ] && [ -x "$bin/crash" ] || tm_fail "no programs in $bin (build them: make all)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

out=$("$q" "$bin/hello" a 'b c' 2>&1)
rc=$?
[ "$rc" = 0 ] || tm_fail "hello: exit status $rc, output '$out'"
[ "$out" = "hello from $bin/hello a b c" ] || tm_fail "hello printed '$out'"

# A crash under a shell, so its death by a signal is the shell's 128 + signal number.
crash() {
  sh -c '"$@" >"'"$tmp"'/out" 2>&1' sh "$q" "$bin/crash" "$@" 2>/dev/null
}
for m in null write-text exec-data stack illegal; do
  crash "$m"
  rc=$?
  want=139
  [ "$m" = illegal ] && want=132
  [ "$rc" = "$want" ] || tm_fail "crash $m: status $rc, want $want (killed by signal $((want - 128))); output: $(cat "$tmp/out")"
  grep -q '^crash: ' "$tmp/out" || tm_fail "crash $m: no announcing line before the crash"
  ! grep -q 'did not\|ran$\|returned' "$tmp/out" || tm_fail "crash $m survived: $(cat "$tmp/out")"
done
crash
rc=$?
[ "$rc" = 2 ] && grep -q '^usage: crash ' "$tmp/out" || tm_fail "crash without an argument: status $rc, output '$(cat "$tmp/out")'"
out=$("$q" "$bin/forkcow" 8 2>&1)
rc=$?
[ "$rc" = 0 ] && [ "$(tail -n 1 <<<"$out")" = "forkcow: all ok" ] ||
  tm_fail "forkcow 8: exit status $rc, output '$out'"
echo "user_linux_abi: PASS ($board under $q: hello, crash null/write-text/exec-data/stack (SIGSEGV), illegal (SIGILL), usage, forkcow)"
