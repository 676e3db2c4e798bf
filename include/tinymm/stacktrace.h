/*
 * stacktrace.h - frame-pointer backtraces (kernel/stacktrace.c walks, arch/ knows the frame).
 *
 * Every image is built with -fno-omit-frame-pointer.  A non-leaf function's frame record holds
 * the caller's frame pointer and return address; a leaf function saves only the frame pointer,
 * so the first step from a trap may need the interrupted link register (ra_hint).
 */
#ifndef TINYMM_STACKTRACE_H
#define TINYMM_STACKTRACE_H
#include "kernel.h"

struct stackframe {
	unsigned long fp;	/* frame pointer (ARM r11, RISC-V s0) */
	unsigned long pc;	/* where this frame is executing */
	unsigned long ra_hint;	/* link register at a trap, for a leaf frame; 0 otherwise */
};

/* arch: the caller's frame, 0; or -1 when the chain ends or leaves [lo, hi). */
int arch_unwind_frame(struct stackframe *f, unsigned long lo, unsigned long hi);
/* The stack that holds @fp: [*lo, *hi); false if @fp is on no known stack. */
bool stack_bounds(unsigned long fp, unsigned long *lo, unsigned long *hi);
/* Print "Call trace:" and one line per frame, starting at @f (at most 32 frames). */
void show_stack(const struct stackframe *f);
#endif
