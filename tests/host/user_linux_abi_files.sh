#!/usr/bin/env bash
# user_linux_abi_files.sh BOARD arm|rv32|rv64 [--damage] - run BOARD's /bin/filetest under
# qemu-user (Linux's own system-call ABI) in a temporary directory and check what it leaves,
# byte for byte (docs/syscalls.md): the runtime's flag, structure and call translations
# (user/lib/syscalls_*.c) hold against a real Linux before tinymm's kernel is judged with them.
#   data     66659 bytes, byte i = (i * 131 + 7) & 0xff
#   log      "line 0\n" ... "line 9\n"
#   renamed  8192 bytes: (i * 7 + 1) & 0xff for i < 3000, then zeros
# --damage flips a byte of data before the check, which must then fail (the check can fail).
. "$(dirname "$0")/../qemu/lib.sh"
tm_init user_linux_abi_files
[ $# -ge 2 ] || tm_usage "usage: user_linux_abi_files.sh BOARD arm|rv32|rv64 [--damage]"
board=$1
case "$2" in
arm) q=qemu-arm ;; rv32) q=qemu-riscv32 ;; rv64) q=qemu-riscv64 ;;
*) tm_usage "arch is arm, rv32 or rv64, not '$2'" ;;
esac
damage=${3:-}
command -v "$q" >/dev/null || tm_fail "$q is not installed (Debian's qemu-user; tools/install-deps)"
bin=$TM_TOP/build/$board/user/bin
[ -x "$bin/filetest" ] || tm_fail "no $bin/filetest (build it: make all)"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

out=$("$q" "$bin/filetest" "$tmp" 2>&1)
rc=$?
[ "$rc" = 0 ] || tm_fail "filetest: exit status $rc, output: $out"
echo "$out" | grep -q '^filetest: all ok' || tm_fail "filetest: no 'all ok' line: $out"
[ "$damage" = --damage ] && printf '\377' | dd of="$tmp/filetest/data" bs=1 seek=4096 conv=notrunc status=none
# The expected bytes, made independently of the program.
python3 - "$tmp" <<'PY' || tm_fail "the files filetest left differ from docs/syscalls.md's list"
import os, sys
d = os.path.join(sys.argv[1], "filetest")
want = {
    "data": bytes((i * 131 + 7) & 0xff for i in range(66659)),
    "log": b"".join(b"line %d\n" % i for i in range(10)),
    "renamed": bytes((i * 7 + 1) & 0xff for i in range(3000)) + bytes(8192 - 3000),
}
ok = sorted(os.listdir(d)) == sorted(want)
for name, w in want.items():
    got = open(os.path.join(d, name), "rb").read() if os.path.exists(os.path.join(d, name)) else None
    if got != w:
        print("user_linux_abi_files: %s: %s bytes, want %d" % (name, None if got is None else len(got), len(w)))
        ok = False
sys.exit(0 if ok else 1)
PY
echo "user_linux_abi_files: PASS ($board under $q: filetest, data/log/renamed byte for byte)"
