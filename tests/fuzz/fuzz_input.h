/*
 * fuzz_input.h - what the memory-manager fuzzers (tests/fuzz/<what>_fuzz.c) share: the input,
 * read a byte at a time and round and round, and the two sinks their failure reports print
 * through (stderr for a checker's complaints, stderr for the kernel log).
 *
 * An input is read round and round because a boot costs as much as many operations: every
 * input then gives at least the fuzzer's OPS_PER_INPUT operations.  Where reading starts again
 * is the fuzzer's: past a leading configuration byte, or at 0 when there is none.
 *
 * Static inline, not a .c of its own: tests/fuzz/tests.cmake's add_mm_fuzzer builds each fuzzer
 * from one main file, and a header keeps that so.
 */
#ifndef TINYMM_FUZZ_INPUT_H
#define TINYMM_FUZZ_INPUT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct input {
	const uint8_t *data;
	size_t size, pos;
	size_t restart;		/* where reading starts again after the last byte */
};

static inline unsigned int byte(struct input *in)
{
	unsigned int b = in->data[in->pos++];

	if (in->pos == in->size)
		in->pos = in->restart;
	return b;
}

/* The <WHAT>_FUZZ_BREAK=<n> self-test mode, 0 when the variable is unset. */
static inline int fuzz_break_mode(const char *var)
{
	const char *b = getenv(var);

	return b ? atoi(b) : 0;
}

/* A checker's printf (buddy_check, slab_check, xa_check...): to stderr. */
static inline int eprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = vfprintf(stderr, fmt, ap);
	va_end(ap);
	return n;
}

/* log_buf_dump()'s sink: the kernel log to stderr. */
static inline void log_out(const char *s, size_t n)
{
	fwrite(s, 1, n, stderr);
}
#endif
