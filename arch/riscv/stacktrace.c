/*
 * stacktrace.c - one step of the RISC-V frame chain (gcc -fno-omit-frame-pointer).
 *
 * A non-leaf function's record sits just below its frame pointer s0: [s0 - 1 word] is the return
 * address, [s0 - 2 words] the caller's s0.  A leaf saves only s0, at [s0 - 1 word]: that slot then
 * holds a stack address rather than a code address, which tells the two apart (as Linux's
 * walk_stackframe does); the leaf's return address is still in ra (ra_hint, from a trap frame).
 * A walk that started above a trap (a handler's own backtrace, smp_send_stop's record of an
 * interrupted CPU) steps from riscv_trap into the trap frame's record (entry.S, asm.h): when the
 * return address is riscv_trap_return, the frame's saved ra becomes the hint for the
 * interrupted function, which may be a leaf.
 */
#include "asm.h"
#include "tinymm/stacktrace.h"

extern char riscv_trap_return[];	/* entry.S */

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
	/* This record is a trap frame's ({s0, sepc} at its top): its ra is the hint for the
	 * interrupted function, the next step. */
	if (f->pc == (unsigned long)riscv_trap_return && fp >= lo + FRAME_WORDS * w)
		f->ra_hint = *(unsigned long *)(fp - FRAME_WORDS * w + w);
	f->pc = v;
	f->fp = caller_fp;
	return 0;
}
