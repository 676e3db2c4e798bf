/*
 * raspi2b_armstub.S - what the Raspberry Pi 2's firmware does before kernel7.img runs, for
 * raspi2b.boots_as_the_firmware_does: QEMU's -kernel path enters at 0x10000 in non-secure SVC,
 * the board's start.elf + armstub7 enter at 0x8000 in non-secure HYP.  This stub runs from 0
 * in QEMU's reset state (secure SVC): CPUs 1-3 park in wfe (as the firmware's spin on their
 * mailboxes), CPU0 goes through the monitor (smc) to non-secure HYP, then jumps to 0x8000 with
 * r0 = 0, r1 = 0xffffffff (no machine type: a device tree boot) and r2 = the DTB, which the
 * test loads at 0x01000000 with the memory node and bootargs the firmware would have written.
 */
	.syntax unified
	.arm
	.arch armv7-a
	.arch_extension sec
	.text
	.global _start
_start:
	mrc	p15, 0, r0, c0, c0, 5	/* MPIDR */
	ands	r0, r0, #3
	bne	park
	adr	r0, mon_vectors
	mcr	p15, 0, r0, c12, c0, 1	/* MVBAR */
	isb
	smc	#0			/* back here in non-secure HYP */
	mov	r0, #0
	mvn	r1, #0
	ldr	r2, =0x01000000
	ldr	pc, =0x8000
park:	wfe
	b	park

	.balign 32
mon_vectors:
	b	.			/* reset */
	b	.			/* undefined */
	b	mon_smc
	b	.
	b	.
	b	.
	b	.
	b	.
mon_smc:
	mrc	p15, 0, r1, c1, c1, 0	/* SCR */
	orr	r1, r1, #0x1		/* NS */
	orr	r1, r1, #0x100		/* HCE: hvc allowed, HYP exists for the non-secure side */
	mcr	p15, 0, r1, c1, c1, 0
	isb
	mov	r1, #0x1da		/* HYP, A I F masked */
	msr	spsr_cxsf, r1
	movs	pc, lr			/* to the instruction after smc, in non-secure HYP */
	.ltorg
