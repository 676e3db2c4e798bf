/*
 * crash null|write-text|exec-data|stack|illegal - do one thing a program must not, so the
 * kernel kills it with the signal Linux sends, and goes on:
 *   null        store to address 0 (page 0 is never mapped)            SIGSEGV
 *   write-text  store to this program's own code (mapped read-only)     SIGSEGV
 *   exec-data   jump to an instruction in .data (mapped non-executable) SIGSEGV
 *   stack       recurse without bound until the stack runs out          SIGSEGV
 *   illegal     execute an undefined instruction                        SIGILL
 * Each prints what it is about to do first.  Surviving it is the failure: the program says
 * which protection did not hold and exits 1.  A wrong argument: usage, exit 2.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* An instruction that returns, in writable data: if the data segment were executable, the
 * call below would come back. */
#if defined(__arm__)
static uint32_t data_insn[] = { 0xe12fff1e };		/* bx lr (A32) */
#else
static uint32_t data_insn[] = { 0x00008067 };		/* jalr x0, 0(ra): ret */
#endif

/* Read through a volatile so the compiler cannot prove the pointer's value and turn the
 * access into something else (GCC turns a store to a known NULL into a trap instruction). */
static void *opaque(void *p)
{
	void *volatile v = p;

	return v;
}

static volatile int depth_limit;	/* never set: the recursion has no bound the compiler sees */

static int recurse(int depth)
{
	volatile char frame[256];

	frame[0] = (char)depth;
	if (depth_limit && depth >= depth_limit)
		return depth;
	return recurse(depth + 1) + frame[0];	/* not a tail call: every level keeps its frame */
}

static int usage(void)
{
	fprintf(stderr, "usage: crash null|write-text|exec-data|stack|illegal\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *what = argc == 2 ? argv[1] : "";

	if (!strcmp(what, "null")) {
		printf("crash: writing to address 0\n");
		*(volatile int *)opaque(NULL) = 1;
		fprintf(stderr, "crash: null: the store to address 0 did not fault\n");
	} else if (!strcmp(what, "write-text")) {
		volatile unsigned char *text = opaque((void *)(uintptr_t)&main);

		printf("crash: writing to the program's text at %p\n", (void *)text);
		*text = 0;
		fprintf(stderr, "crash: write-text: the store to text did not fault\n");
	} else if (!strcmp(what, "exec-data")) {
		void (*fn)(void) = (void (*)(void))(uintptr_t)opaque(data_insn);

		printf("crash: jumping to data at %p\n", (void *)data_insn);
		fn();
		fprintf(stderr, "crash: exec-data: an instruction in .data ran\n");
	} else if (!strcmp(what, "stack")) {
		printf("crash: recursing without bound\n");
		recurse(0);
		fprintf(stderr, "crash: stack: the recursion returned\n");
	} else if (!strcmp(what, "illegal")) {
		printf("crash: executing an undefined instruction\n");
#if defined(__arm__)
		__asm__ volatile("udf #0");
#else
		__asm__ volatile("unimp");
#endif
		fprintf(stderr, "crash: illegal: the undefined instruction did not trap\n");
	} else {
		return usage();
	}
	return 1;
}
