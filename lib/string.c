/*
 * string.c - memcpy, memmove and memset a word at a time, for the boards.
 *
 * picolibc as Debian builds it for arm-none-eabi and riscv64-unknown-elf is built for size:
 * its memcpy, memmove and memset move one byte per loop iteration, four or five instructions
 * a byte.  Copying a page-cache folio to a reader, or clearing a new block, then costs more
 * than everything else on the path (docs/benchmarks.md).  These versions copy or fill
 * unsigned longs, four per iteration, whenever source and destination share their alignment
 * within a word, and fall back to bytes otherwise.  No misaligned word access: some cores trap
 * on them (the HiFive's U54 emulates them in M-mode, slowly).  v6.10 has per-architecture
 * assembly (arch/riscv/lib/memcpy.S, arch/arm/lib/memcpy.S); this is plain C for every board.
 *
 * Linked before picolibc, so these definitions are the ones used.  Built with
 * -fno-tree-loop-distribute-patterns (cmake/kernel.cmake): GCC would otherwise turn the loops
 * below back into calls to memcpy and memset.  tests/host/string_test.c checks them against
 * the host's C library over every small size, alignment and overlap.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define WSIZE	sizeof(unsigned long)
#define WMASK	(WSIZE - 1)

/* Word accesses through a type that may alias anything, as the C library's own do. */
typedef unsigned long __attribute__((__may_alias__)) word_t;

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (n >= 4 * WSIZE && !(((uintptr_t)d ^ (uintptr_t)s) & WMASK)) {
		while ((uintptr_t)d & WMASK) {
			*d++ = *s++;
			n--;
		}
		word_t *dw = (word_t *)d;
		const word_t *sw = (const word_t *)s;
		for (; n >= 4 * WSIZE; n -= 4 * WSIZE, dw += 4, sw += 4) {
			word_t a = sw[0], b = sw[1], c = sw[2], e = sw[3];

			dw[0] = a;
			dw[1] = b;
			dw[2] = c;
			dw[3] = e;
		}
		for (; n >= WSIZE; n -= WSIZE)
			*dw++ = *sw++;
		d = (unsigned char *)dw;
		s = (const unsigned char *)sw;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

/* Backwards, for an overlap with the destination above the source. */
static void copy_backward(unsigned char *d, const unsigned char *s, size_t n)
{
	d += n;
	s += n;
	if (n >= 4 * WSIZE && !(((uintptr_t)d ^ (uintptr_t)s) & WMASK)) {
		while ((uintptr_t)d & WMASK) {
			*--d = *--s;
			n--;
		}
		word_t *dw = (word_t *)d;
		const word_t *sw = (const word_t *)s;
		for (; n >= WSIZE; n -= WSIZE)
			*--dw = *--sw;
		d = (unsigned char *)dw;
		s = (const unsigned char *)sw;
	}
	while (n--)
		*--d = *--s;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d == s || !n)
		return dst;
	if ((uintptr_t)d - (uintptr_t)s >= n) {
		/* d below s, or no overlap: forwards never reads a byte it already wrote. */
		while (n && (((uintptr_t)d ^ (uintptr_t)s) & WMASK) == 0 && ((uintptr_t)d & WMASK)) {
			*d++ = *s++;
			n--;
		}
		if (!(((uintptr_t)d ^ (uintptr_t)s) & WMASK)) {
			word_t *dw = (word_t *)d;
			const word_t *sw = (const word_t *)s;

			for (; n >= WSIZE; n -= WSIZE)
				*dw++ = *sw++;
			d = (unsigned char *)dw;
			s = (const unsigned char *)sw;
		}
		while (n--)
			*d++ = *s++;
	} else {
		copy_backward(d, s, n);
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	if (n >= 4 * WSIZE) {
		word_t w = (unsigned char)c;

		w |= w << 8;
		w |= w << 16;
		if (WSIZE > 4)
			w |= w << 16 << 16;
		while ((uintptr_t)d & WMASK) {
			*d++ = (unsigned char)c;
			n--;
		}
		word_t *dw = (word_t *)d;
		for (; n >= 4 * WSIZE; n -= 4 * WSIZE, dw += 4) {
			dw[0] = w;
			dw[1] = w;
			dw[2] = w;
			dw[3] = w;
		}
		for (; n >= WSIZE; n -= WSIZE)
			*dw++ = w;
		d = (unsigned char *)dw;
	}
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
