/*
 * crt0_arm.S - a program's first instruction (ARM, A32): sp points at argc (lib/start.c
 * describes the stack).  The outermost frame has fp = lr = 0 so a backtrace ends here; the
 * EABI wants sp 8-byte aligned at every call.
 */
	.syntax unified
	.arm
	.text
	.global _start
	.type _start, %function
_start:
	mov	fp, #0
	mov	lr, #0
	mov	r0, sp
	bic	sp, sp, #7
	bl	__tinymm_start
	udf	#0			/* __tinymm_start does not return */
	.size _start, . - _start
	.section .note.GNU-stack, "", %progbits
