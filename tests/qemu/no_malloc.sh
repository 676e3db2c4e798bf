#!/usr/bin/env bash
# no_malloc.sh NM IMAGE - "the kernel links no malloc": fail if IMAGE's symbol table (read with the
# board toolchain's NM) defines or references the C library's heap (tests/qemu/vmstat.cmake).
# tinymm has no function called free (the `free` command's table entry is __shell_cmd_free, its
# handler cmd_free), so exact names are matched.
set -uo pipefail
[ $# = 2 ] || { echo "usage: no_malloc.sh NM IMAGE" >&2; exit 2; }
nm=$1 img=$2
heap_re='_*(malloc|calloc|realloc|reallocf|reallocarray|free|cfree|memalign|aligned_alloc|posix_memalign|valloc|pvalloc|malloc_usable_size|mallinfo|mallinfo2|malloc_trim|malloc_stats|mallopt|sbrk|brk|nano_malloc|nano_free|nano_calloc|nano_realloc|nano_memalign)(_r)?|__malloc_[A-Za-z0-9_]+|__libc_(malloc|calloc|realloc|free)'
[ -s "$img" ] || { echo "no_malloc: $img is missing (build the board first)"; exit 1; }
syms=$("$nm" "$img" | awk 'NF { print $NF }') || { echo "no_malloc: $nm $img failed"; exit 1; }
# A symbol table without the allocator's entry point is not one to trust.
grep -qx alloc_pages <<<"$syms" || { echo "no_malloc: no alloc_pages in $img's symbols"; exit 1; }
bad=$(printf '%s\n' "$syms" | grep -Ex "$heap_re" | sort -u | tr '\n' ' ')
if [ -n "$bad" ]; then
  echo "no_malloc: $img links the C library's heap: $bad"
  exit 1
fi
echo "no_malloc: $img: $(printf '%s\n' "$syms" | wc -l) symbols, none of malloc/calloc/realloc/free/sbrk or their _r forms"
