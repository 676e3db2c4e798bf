/*
 * crt0_riscv.S - a program's first instruction (RISC-V, RV32 and RV64): sp points at argc
 * (lib/start.c describes the stack).  gp is set before anything the linker relaxed against it
 * runs (without relaxation, as the psABI requires for this one load); the outermost frame has
 * fp = ra = 0 so a backtrace ends here; the psABI wants sp 16-byte aligned at every call.
 */
	.text
	.global _start
	.type _start, @function
_start:
	.option push
	.option norelax
	lla	gp, __global_pointer$
	.option pop
	li	s0, 0
	li	ra, 0
	mv	a0, sp
	andi	sp, sp, -16
	call	__tinymm_start
	unimp				/* __tinymm_start does not return */
	.size _start, . - _start
	.section .note.GNU-stack, "", @progbits
