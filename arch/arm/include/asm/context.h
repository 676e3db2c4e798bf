/*
 * asm/context.h - what arch_context_switch() (arch/arm/switch.S) saves for a thread that is not
 * on the CPU: the AAPCS callee-saved registers r4-r11, sp and the return address (lr).  The
 * caller-saved ones are dead across the call, and an interrupted thread's full register frame
 * is on its own stack (the IRQ entry pushed it there).  tp_value is the task's TPIDRURO, the user
 * thread pointer only the kernel can write (ARM's set_tls call, arch/arm/user.c): switch.S
 * loads it into the register for the task it switches to.
 */
#ifndef ASM_ARM_CONTEXT_H
#define ASM_ARM_CONTEXT_H

struct arch_context {
	unsigned long r4, r5, r6, r7, r8, r9, r10, fp;	/* fp is r11 */
	unsigned long sp;
	unsigned long lr;
	unsigned long tp_value;		/* TPIDRURO; offset 40, switch.S */
};

#endif
