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
	 * and powers off, it never returns, so they cannot nest usefully. */
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

/* Vector table: each entry saves the interrupted registers and calls arm_trap(frame, kind). */
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
vec_irq:	trap_entry 6, 4
vec_fiq:	trap_entry 7, 4

	.section .bss
	.balign 16
	.space 8192		/* a trap report formats text and walks the stack here */
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
