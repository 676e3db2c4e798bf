#!/usr/bin/env bash
# tinymm_functions.sh LIB CC SRC OUT - every function tinymm defines, one per line, for
# tests/host/pageflags_doc_test.c (docs/page-flags.rst held to the code): nm of the portable
# objects in LIB (shim.c left out), the static inlines of include/tinymm/*.h after the
# preprocessor has generated the page-flag accessors, and every definition at column 0 in the C
# sources under SRC, arch/ included.
set -eo pipefail
[ $# = 4 ] || { echo "usage: tinymm_functions.sh LIB CC SRC OUT" >&2; exit 2; }
lib=$1 cc=$2 src=$3 out=$4
# shellcheck disable=SC2016  # the single-quoted programs are Perl's and awk's: their $1 is theirs
{
  nm -A --defined-only "$lib" | awk '$1 !~ /:shim\.c\.o:/ && $2 ~ /^[TtWi]$/ { print $3 }'
  for h in "$src"/include/tinymm/*.h; do printf '#include "%s"\n' "$h"; done |
    "$cc" -E -DTINYMM_HOST=1 -D_POSIX_C_SOURCE=200809L -I"$src/include" -I"$src/tests/host/include" -x c - |
    perl -ne 'BEGIN { $inc = shift } if (/^# \d+ "([^"]*)"/) { $keep = index($1, $inc) == 0; next } print if $keep' "$src/include/tinymm/" |
    perl -0777 -ne 'print "$1\n" while /\bstatic\s+inline\s+[^;{}()=]*?\b(\w+)\s*\([^;{}]*\)\s*\{/g'
  find "$src/arch" "$src/boot" "$src/kernel" "$src/mm" "$src/lib" "$src/block" "$src/drivers" "$src/include" -name '*.[ch]' |
    xargs perl -0777 -ne 'print "$1\n" while /^[A-Za-z_][\w \t*]*?[ \t*](\w+)\s*\([^;{}]*\)\s*\{/mg'
} | sort -u > "$out.tmp"
test -s "$out.tmp"
mv "$out.tmp" "$out"
