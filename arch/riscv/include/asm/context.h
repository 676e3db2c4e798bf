/*
 * asm/context.h - what arch_context_switch() (arch/riscv/switch.S) saves for a thread that is
 * not on the CPU: ra, sp and the callee-saved s0-s11.  The caller-saved registers are dead
 * across the call; an interrupted thread's full frame (with sepc and sstatus) is on its own
 * stack, pushed by the trap entry.  (The stack bottom the trap entry checks sp against is in
 * thread_info, found through tp: nothing to switch.)
 */
#ifndef ASM_RISCV_CONTEXT_H
#define ASM_RISCV_CONTEXT_H

struct arch_context {
	unsigned long ra, sp;
	unsigned long s[12];		/* s0 (the frame pointer) .. s11 */
};

#endif
