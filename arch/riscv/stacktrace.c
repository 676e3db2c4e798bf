/*
 * stacktrace.c - one step of the RISC-V frame chain (gcc -fno-omit-frame-pointer).
 *
 * A non-leaf function's record sits just below its frame pointer s0: [s0 - 1 word] is the return
 * address, [s0 - 2 words] the caller's s0.  A leaf saves only s0, at [s0 - 1 word]: that slot then
 * holds a stack address rather than a code address, which tells the two apart (as Linux's
 * walk_stackframe does); the leaf's return address is still in ra (ra_hint, from a trap frame).
 */
#include "tinymm/stacktrace.h"

int arch_unwind_frame(struct stackframe *f, unsigned long lo, unsigned long hi)
{
	const unsigned long w = sizeof(long);
	unsigned long fp = f->fp;

	if (fp < lo + 2 * w || fp > hi || (fp & (w - 1)))
		return -1;
	unsigned long v = *(unsigned long *)(fp - w);
	if (v > fp && v <= hi && f->ra_hint) {		/* leaf frame: no saved ra */
		f->fp = v;
		f->pc = f->ra_hint;
		f->ra_hint = 0;
		return 0;
	}
	f->ra_hint = 0;
	unsigned long caller_fp = *(unsigned long *)(fp - 2 * w);
	if (!v || (caller_fp && caller_fp <= fp))
		return -1;
	f->pc = v;
	f->fp = caller_fp;
	return 0;
}
