/*
 * stacktrace.c - one step of the ARM (A32, gcc -fno-omit-frame-pointer) frame chain.
 *
 * gcc's frame record: a non-leaf function does "push {fp, lr}; add fp, sp, #4", so [fp] is the
 * return address and [fp - 4] the caller's fp.  A leaf saves only fp ("str fp, [sp, #-4]!;
 * add fp, sp, #0"): [fp] is then the caller's fp, a stack address, never a code address, which
 * tells the two apart; the leaf's return address is still in lr (ra_hint, from a trap frame).
 */
#include "tinymm/stacktrace.h"

int arch_unwind_frame(struct stackframe *f, unsigned long lo, unsigned long hi)
{
	unsigned long fp = f->fp;

	if (fp < lo + 4 || fp + 4 > hi || (fp & 3))
		return -1;
	unsigned long v = *(unsigned long *)fp;
	if (v > fp && v < hi && f->ra_hint) {		/* leaf frame: no saved lr */
		f->fp = v;
		f->pc = f->ra_hint;
		f->ra_hint = 0;
		return 0;
	}
	f->ra_hint = 0;
	unsigned long caller_fp = *(unsigned long *)(fp - 4);
	if (!v || (caller_fp && caller_fp <= fp))
		return -1;				/* the chain must climb the stack */
	f->pc = v;
	f->fp = caller_fp;
	return 0;
}
