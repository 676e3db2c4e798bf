#!/usr/bin/env bash
# kpageflags_tools.sh - tools/kpageflags-extract and tools/pagemap.py on a captured console log
# (tests/host/data/kpageflags-rv32.log: an RV32 boot running `kpageflags 0x7fff8 16` and
# `kpageflags 0x80034 4`, CR LF line ends, timestamps and other commands around the frames).
# Checks the binary file byte for byte, every error exit, page-types' table text and the PNG.
. "$(dirname "$0")/lib.sh"
tm_init kpageflags_tools
set -e
top=$TM_TOP
extract=$top/tools/kpageflags-extract pagemap=$top/tools/pagemap.py
log=$top/tests/host/data/kpageflags-rv32.log
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { tm_fail "$@"; }

# 1. The file: one u64 per pfn from 0 to 0x80037; NOPAGE wherever no frame spoke.
"$extract" "$log" "$work/kpf.bin" || fail "extract exited $?"
size=$(stat -c %s "$work/kpf.bin")
[ "$size" = $(( 0x80038 * 8 )) ] || fail "file is $size bytes, want $(( 0x80038 * 8 ))"
python3 - "$work/kpf.bin" <<'EOF' || fail "file contents"
import array, sys
w = array.array("Q")
w.frombytes(open(sys.argv[1], "rb").read())
NOPAGE, RESERVED = 0x100000, 1 << 32
want = {}
for p in range(0x80000): want[p] = NOPAGE              # below RAM: given, then filled
for p in range(0x80000, 0x80008): want[p] = RESERVED   # the kernel image, first frame
for p in range(0x80008, 0x80034): want[p] = NOPAGE     # between the frames: not in the log
for p in (0x80034, 0x80035): want[p] = RESERVED        # the kernel's last two pages
for p in (0x80036, 0x80037): want[p] = 0               # usable
bad = [p for p in range(len(w)) if w[p] != want[p]]
if bad:
    sys.exit(f"{len(bad)} wrong words, first at pfn {bad[0]:#x}: {w[bad[0]]:#x} != {want[bad[0]]:#x}")
EOF
# Standard input works the same.
"$extract" - "$work/stdin.bin" <"$log" >/dev/null && cmp -s "$work/kpf.bin" "$work/stdin.bin" ||
  fail "'-' (standard input) gives another file"

# 2. Errors: exit 1, exactly one line on stderr, no output file.
expect_error() {   # name, regex for the message; the log on stdin
  local rc=0
  rm -f "$work/err.bin"
  "$extract" - "$work/err.bin" >"$work/out" 2>"$work/err" || rc=$?
  [ "$rc" = 1 ] || fail "$1: exit $rc, want 1"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "$1: stderr is not one line: $(cat "$work/err")"
  grep -Eq "$2" "$work/err" || fail "$1: message '$(cat "$work/err")' does not match $2"
  [ ! -e "$work/err.bin" ] || fail "$1: an output file was written"
}
grep -v 'kpageflags begin' "$log" | expect_error "no frame" \
  "^kpageflags-extract: no kpageflags frame \('--- kpageflags begin pfn=... count=... ---'\) in the log$"
sed 's/^0x80003 0x0000000100000000/0x80003 0x00000001000/' "$log" | expect_error "short word" \
  "^kpageflags-extract: line 28: malformed line inside the kpageflags frame from line 16: '0x80003 0x00000001000'$"
sed '20a [   1.000000] a log line in the middle' "$log" | expect_error "interleaved log line" \
  "^kpageflags-extract: line 21: malformed line inside the kpageflags frame from line 16: "
head -n 30 "$log" | expect_error "cut short" \
  "^kpageflags-extract: the kpageflags frame from line 16 has no end line \(log cut short after 14 of 16 pfns\?\)$"
sed '/^0x80005 /d' "$log" | expect_error "missing line" \
  "^kpageflags-extract: line 30: pfn 0x80006 out of order in the frame from line 16 \(expected 0x80005\)$"
sed 's/end count=16/end count=15/' "$log" | expect_error "end count" \
  "^kpageflags-extract: line 33: frame from line 16 announced 16 pfns, has 16, its end line says 15$"
rc=0; "$extract" "$log" 2>/dev/null || rc=$?
[ "$rc" = 2 ] || fail "usage error: exit $rc, want 2"

# A prefix before the markers and entries (a capture tool's timestamps) is allowed.
sed 's/^/12:00:01 /' "$log" | "$extract" - "$work/prefixed.bin" >/dev/null &&
  cmp -s "$work/kpf.bin" "$work/prefixed.bin" || fail "timestamp-prefixed log"

# 3. pagemap.py prints page-types' table: the default hides reserved (a kernel-hacker bit)...
"$pagemap" "$work/kpf.bin" >"$work/table"
printf '%s\n' \
  "             flags	page-count       MB  symbolic-flags			long-symbolic-flags" \
  "0x0000000000000000	        12        0  _____________________________________________	" \
  "0x0000000000100000	    524332     2048  ____________________n________________________	nopage" \
  "             total	    524344     2048" >"$work/want"
diff -u "$work/want" "$work/table" || fail "default table"
# ...-r shows it.  Rows come in page-types' hash-slot order: flags 0 has slot 0, any other word
# the first free slot from flags & 0x1fff (1 if that is 0) on, in order of first appearance.
"$pagemap" -r "$work/kpf.bin" >"$work/table"
printf '%s\n' \
  "             flags	page-count       MB  symbolic-flags			long-symbolic-flags" \
  "0x0000000000000000	         2        0  _____________________________________________	" \
  "0x0000000000100000	    524332     2048  ____________________n________________________	nopage" \
  "0x0000000100000000	        10        0  ___________________________r_________________	reserved" \
  "             total	    524344     2048" >"$work/want"
diff -u "$work/want" "$work/table" || fail "raw table"
"$pagemap" -r -l -a 0x7fffe+12 -a 0x80035,0x80038 "$work/kpf.bin" >"$work/table"
printf '%s\n' "offset	len	flags" \
  "7fffe	2	____________________n________________________" \
  "80000	8	___________________________r_________________" \
  "80008	2	____________________n________________________" \
  "80035	1	___________________________r_________________" \
  "80036	2	_____________________________________________" "" "" \
  "             flags	page-count       MB  symbolic-flags			long-symbolic-flags" \
  "0x0000000000000000	         2        0  _____________________________________________	" \
  "0x0000000000100000	         4        0  ____________________n________________________	nopage" \
  "0x0000000100000000	         9        0  ___________________________r_________________	reserved" \
  "             total	        15        0" >"$work/want"
diff -u "$work/want" "$work/table" || fail "listing with address ranges"
printf 'x' >>"$work/stdin.bin"
rc=0; "$pagemap" "$work/stdin.bin" >/dev/null 2>"$work/err" || rc=$?
[ "$rc" = 1 ] && grep -q "^pagemap.py: partial read: 1 bytes$" "$work/err" || fail "partial file accepted"

# 4. The PNG: one 256-frame row from pfn 0x80000, 4-pixel cells, the legend's height.
"$pagemap" "$work/kpf.bin" -N --png "$work/map.png" 2>"$work/err" || fail "pagemap --png: $(cat "$work/err")"
grep -q "^pagemap.py: wrote .*map.png: 1384x260 pixels, 256 frames (pfn 0x80000-0x800ff)" "$work/err" ||
  fail "PNG message: $(cat "$work/err")"
"$pagemap" "$work/kpf.bin" -N --png "$work/small.png" --columns 16 --cell 2 2>/dev/null
/usr/bin/python3 - "$work/map.png" "$work/small.png" <<'EOF' || fail "PNG contents"
import sys
from PIL import Image
im = Image.open(sys.argv[1])
assert im.format == "PNG" and im.size == (1384, 260), (im.format, im.size)
cell = lambda i: im.getpixel((100 + 4 * i + 1, 30 + 1))     # frame 0x80000 + i
assert cell(0) == (230, 140, 30), cell(0)        # reserved (kernel)
assert cell(0x10) == (64, 64, 64), cell(0x10)    # nopage: not in the log
assert cell(0x35) == (230, 140, 30), cell(0x35)
assert cell(0x36) == (245, 245, 245), cell(0x36)  # usable, no flags
assert cell(0xff) == (64, 64, 64), cell(0xff)    # past the file's end: a hole
small = Image.open(sys.argv[2])
assert small.size == (100 + 16 * 2 + 20 + 240, 260), small.size
assert small.getpixel((100 + 2 * 6 + 1, 30 + 2 * 3 + 1)) == (245, 245, 245)   # frame 0x36
EOF
# 5. --png under a python3 without PIL (a pyenv or venv one first on PATH, while Debian's
# python3-pil serves /usr/bin/python3 only): one line saying what to install, exit 1, nothing on
# stdout and no file; the tool itself (#!/usr/bin/python3) still draws with that PATH.
mkdir -p "$work/nopil/PIL" "$work/bin"
echo 'raise ModuleNotFoundError("No module named PIL", name="PIL")' >"$work/nopil/PIL/__init__.py"
printf '#!/bin/sh\nPYTHONPATH=%s exec /usr/bin/python3 "$@"\n' "$work/nopil" >"$work/bin/python3"
chmod +x "$work/bin/python3"
rm -f "$work/nopil.png"
rc=0; PATH=$work/bin:$PATH python3 "$pagemap" "$work/kpf.bin" --png "$work/nopil.png" \
  >"$work/out" 2>"$work/err" || rc=$?
[ "$rc" = 1 ] || fail "--png without PIL: exit $rc, want 1: $(cat "$work/err")"
[ "$(wc -l <"$work/err")" = 1 ] || fail "--png without PIL: stderr is not one line: $(cat "$work/err")"
grep -Eq "^pagemap.py: --png needs PIL, which .+ cannot import: install python3-pil \(tools/install-deps\) and run tools/pagemap.py itself \(#!/usr/bin/python3\)$" \
  "$work/err" || fail "--png without PIL: message '$(cat "$work/err")'"
[ ! -s "$work/out" ] && [ ! -e "$work/nopil.png" ] || fail "--png without PIL printed a table or wrote a file"
PATH=$work/bin:$PATH "$pagemap" "$work/kpf.bin" -N --png "$work/nopil.png" 2>/dev/null &&
  [ -s "$work/nopil.png" ] || fail "tools/pagemap.py --png with a PIL-less python3 first on PATH"

# 6. KPF_ARCH_3 (42) is a bit page-types (v6.10) names: "H:arch_3", shown with -r only.
python3 -c 'import struct, sys; sys.stdout.buffer.write(struct.pack("=3Q", 0x100000, 1 << 42, 1 << 41 | 1 << 42))' >"$work/arch3.bin"
"$pagemap" -r "$work/arch3.bin" >"$work/table" || fail "pagemap.py -r on KPF_ARCH_3 exited $?"
printf '%s\n' \
  "             flags	page-count       MB  symbolic-flags			long-symbolic-flags" \
  "0x0000000000100000	         1        0  ____________________n________________________	nopage" \
  "0x0000040000000000	         1        0  _____________________________________H_______	arch_3" \
  "0x0000060000000000	         1        0  ____________________________________HH_______	arch_2,arch_3" \
  "             total	         3        0" >"$work/want"
diff -u "$work/want" "$work/table" || fail "KPF_ARCH_3 in pagemap.py's table"

echo "kpageflags_tools: PASS"
