/*
 * entry.S - ARMv7-A start-up: QEMU (or a boot loader) enters here in SVC mode with the MMU
 * off.  Mask interrupts, give every exception mode a stack, clear .bss, call kmain(0, 0):
 * no register carries the DTB on this board family, the board says where it is.
 */
	.syntax unified
	.arm
	.section .text.entry, "ax"
	.global _start
_start:
	cpsid	aif
	/* Exception modes (abort, undefined, IRQ, FIQ) share one small stack: a trap there reports
	 * and powers off, it never returns, so they cannot nest usefully.  (IRQs switch to SVC mode
	 * and the interrupted thread's stack at once; IRQ mode's sp is set only to be safe.) */
	ldr	r0, =__exc_stack_top
	cps	#0x17			/* abort */
	mov	sp, r0
	cps	#0x1b			/* undefined */
	mov	sp, r0
	cps	#0x12			/* IRQ */
	mov	sp, r0
	cps	#0x11			/* FIQ */
	mov	sp, r0
	cps	#0x13			/* back to SVC */
	ldr	sp, =__boot_stack_top

	ldr	r0, =__bss_start
	ldr	r1, =__bss_end
	mov	r2, #0
1:	cmp	r0, r1
	strlo	r2, [r0], #4
	blo	1b

	ldr	r0, =arm_vectors
	mcr	p15, 0, r0, c12, c0, 0	/* VBAR */
	isb

	mov	fp, #0			/* end of the frame-pointer chain */
	mov	r0, #0			/* hart/cpu id */
	mov	r1, #0			/* DTB: taken from the board */
	bl	kmain
2:	wfi
	b	2b

/* Vector table: the IRQ entry runs the interrupt on the interrupted thread's stack (vec_irq
 * below); every other entry saves the interrupted registers and calls arm_trap(frame, kind). */
	.section .text, "ax"
	.balign 32
	.global arm_vectors
arm_vectors:
	b	.			/* reset: never taken here */
	b	vec_undef
	b	vec_svc
	b	vec_pabt
	b	vec_dabt
	b	.			/* reserved */
	b	vec_irq
	b	vec_fiq

.macro trap_entry kind, lr_adjust
	sub	lr, lr, #\lr_adjust
	push	{r0-r12, lr}		/* frame: r0..r12, then the faulting pc */
	mrs	r0, spsr
	push	{r0, r1}		/* spsr and a pad word: AAPCS wants sp 8-byte aligned at calls */
	mov	r0, sp
	mov	r1, #\kind
	bl	arm_trap
	b	.
.endm

vec_undef:	trap_entry 1, 4
vec_svc:	trap_entry 2, 4
vec_pabt:	trap_entry 3, 4
vec_dabt:	trap_entry 4, 8
vec_fiq:	trap_entry 7, 4

/*
 * IRQ: threads run in SVC mode, so the interrupt is handled in SVC mode on the interrupted
 * thread's own stack, never on the shared exception stack: arm_irq_handler() may end in
 * irq_exit() -> schedule(), which leaves this frame on this thread's stack and resumes it when
 * the thread is switched back to.  The IRQ-mode stack is never used.
 *
 * The frame, from the interrupted sp downwards (10 words, so sp keeps its 8-byte parity):
 *	spsr_irq, return pc			(SRSDB: the interrupted CPSR and pc)
 *	lr, r12, r5, r4, r3, r2, r1, r0		(the interrupted SVC lr and the caller-saved
 *						 registers; r4/r5 are pushed to be used here)
 * then, below it after aligning sp to 8 for the AAPCS call, a frame record {interrupted fp,
 * interrupted pc}: fp points at it, so a backtrace from inside a handler goes on through the
 * interrupted function (and its callers).  r4 keeps the frame's address across the call.
 * IRQs stay masked (the exception set CPSR.I; CPS changes the mode only).  The return clears
 * the exclusive monitor: an interrupted LDREX/STREX must retry if the handler stored to it.
 */
vec_irq:
	sub	lr, lr, #4		/* the instruction to resume */
	srsdb	sp!, #0x13		/* push lr_irq and spsr_irq onto the SVC stack */
	cps	#0x13			/* SVC, IRQs still masked */
	push	{r0-r5, r12, lr}
#ifdef CONFIG_IRQSOFF_TRACER
	/* The irqsoff tracer's clock (PMU counter 0, INST_RETIRED; arch/arm/pmu.c programmed it
	 * when the tracer started), kept in r5 for trace_irqsoff_trap_entry below. */
	mrc	p15, 0, r5, c9, c13, 2
#endif
	mov	r4, sp			/* the frame */
	ldr	r3, [sp, #32]		/* interrupted pc */
	mov	r2, fp			/* interrupted fp */
	and	r1, r4, #4
	sub	sp, sp, r1		/* 8-byte aligned */
	push	{r2, r3}		/* frame record: [fp - 4] caller's fp, [fp] pc */
	add	fp, sp, #4
#ifdef CONFIG_IRQSOFF_TRACER
	mov	r0, r5
	bl	trace_irqsoff_trap_entry
#endif
	bl	arm_irq_handler
#ifdef CONFIG_IRQSOFF_TRACER
	bl	trace_irqsoff_trap_exit	/* the rfeia below unmasks */
#endif
	ldr	fp, [fp, #-4]		/* the interrupted fp (the C code preserved ours) */
	mov	sp, r4
	clrex
	pop	{r0-r5, r12, lr}
	rfeia	sp!			/* pc and CPSR back: IRQs as they were */

	/* A trap report formats text and walks the stack here: never on the interrupted thread's
	 * stack, so a kernel stack overflow (a data abort in the guard page below a vmalloc stack)
	 * is reported from here too (traps.c: "Overflow stack"). */
	.section .bss
	.balign 16
	.global __exc_stack_bottom, __exc_stack_top
__exc_stack_bottom:
	.space 8192
__exc_stack_top:

/*
 * void arm_banked_sp_lr(unsigned mode, unsigned long out[2]): sp and lr of another mode (USR is
 * read through SYS, which shares its registers), for trap reports.  IRQ and FIQ stay masked.
 */
	.section .text, "ax"
	.global arm_banked_sp_lr
arm_banked_sp_lr:
	mrs	r2, cpsr
	and	r0, r0, #0x1f
	cmp	r0, #0x10
	moveq	r0, #0x1f
	orr	r0, r0, #0xc0
	msr	cpsr_c, r0
	str	sp, [r1]
	str	lr, [r1, #4]
	msr	cpsr_c, r2
	bx	lr

/* void arm_longjmp_svc(jmp_buf jb): leave the exception mode for SVC, then longjmp(jb, 1). */
	.global arm_longjmp_svc
arm_longjmp_svc:
	msr	cpsr_c, #0xd3		/* SVC, IRQ and FIQ masked */
	mov	r1, #1
	b	longjmp
