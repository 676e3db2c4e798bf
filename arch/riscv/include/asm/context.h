/*
 * asm/context.h - what arch_context_switch() (arch/riscv/switch.S) saves for a thread that is
 * not on the CPU: ra, sp and the callee-saved s0-s11.  The caller-saved registers are dead
 * across the call; an interrupted thread's full frame (with sepc and sstatus) is on its own
 * stack, pushed by the trap entry.  stack_lo is the thread's stack bottom, which the trap entry
 * (entry.S) compares the stack pointer with: the switch keeps it in riscv_stack_lo.
 */
#ifndef ASM_RISCV_CONTEXT_H
#define ASM_RISCV_CONTEXT_H

struct arch_context {
	unsigned long ra, sp;
	unsigned long s[12];		/* s0 (the frame pointer) .. s11 */
	unsigned long stack_lo;		/* the stack's lowest address: riscv_stack_lo while running */
};

#endif
