/*
 * switch.S - ARMv7-A thread switch (kernel/sched.c through include/tinymm/arch.h).
 *
 * arch_context_switch(prev, next) is an ordinary AAPCS call: r0-r3, r12 and the flags are dead
 * across it, so only r4-r11, sp and the return address are saved into *prev and loaded from
 * *next (struct arch_context, <asm/context.h>: r4..r10, fp, sp, lr, in that order).  Everything
 * else an interrupted thread had is in the IRQ frame on its own stack (entry.S).  CPSR is not
 * switched: it is called with IRQs masked and every thread runs in SVC mode.
 *
 * TPIDRURO, the user thread pointer (asm/context.h tp_value), is the next task's: user mode
 * can read it but not write it, so it is never saved here, only loaded (set_tls, arch/arm/user.c,
 * writes both the field and the register).  A kernel thread's is 0.
 *
 * CLREX: a thread switched away from between LDREX and STREX must not have its STREX succeed
 * against a monitor another thread left open (ARM ARM A3.4.5: clear it on a context switch).
 */
	.syntax unified
	.arm
	.section .text, "ax"

	.global arch_context_switch
	.type	arch_context_switch, %function
arch_context_switch:
	stmia	r0, {r4-r11}
	str	sp, [r0, #32]
	str	lr, [r0, #36]
	clrex
	ldmia	r1, {r4-r11}
	ldr	sp, [r1, #32]
	ldr	lr, [r1, #36]
	ldr	r2, [r1, #40]
	mcr	p15, 0, r2, c13, c0, 3	/* TPIDRURO */
	bx	lr
	.size	arch_context_switch, . - arch_context_switch

/*
 * A new thread's first instructions: arch_context_init() left entry in r4.  fp = 0, so the
 * entry function's frame record ({fp 0, lr here}) ends the frame-pointer chain: a backtrace
 * ends in arm_thread_start.  IRQs are still masked from the switch.  entry() never returns; if
 * it did, trap on an undefined instruction rather than run into whatever follows.
 */
	.global arm_thread_start
	.type	arm_thread_start, %function
arm_thread_start:
	mov	fp, #0
	blx	r4
	udf	#0
	.size	arm_thread_start, . - arm_thread_start
