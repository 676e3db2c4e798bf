/*
 * uaccess.S - raw_copy_from_user / raw_copy_to_user on RISC-V (include/tinymm/uaccess.h):
 * copy @n bytes, returning the bytes NOT copied.  sstatus.SUM (S-mode may touch U pages) is set
 * only between the first and last instruction here; everywhere else S-mode faults on a user
 * page, so a stray kernel dereference of a user pointer is an oops, never a silent access.
 *
 * Every load and store may touch user memory (one routine serves both directions, as v6.10's
 * __asm_copy_{to,from}_user), so each has an __ex_table entry whose fixup is the common exit:
 * the trap handler (traps.c, riscv_uaccess_fault) first tries to resolve the fault as a user
 * one (demand paging) and retries; if it cannot, the copy resumes at the fixup with a2 still
 * the bytes not copied.  a2 is decremented only after the store of a word or byte, and a word
 * is copied only when both pointers are word-aligned (so it never straddles a page): the count
 * is exact.  t6 holds SR_SUM across a fault: the trap restores every register.
 * Word copies (XLEN) while both pointers are aligned and a word is left, then bytes.  v6.10
 * also aligns the destination and shifts misaligned sources; not needed yet (correctness first,
 * docs/arch-user-riscv.md).
 */
#include "asm.h"

#if __riscv_xlen == 64
#define PTR	.dword
#else
#define PTR	.word
#endif

/* One instruction that may fault on a user address, resuming at \fix if it cannot be fixed. */
	.macro	uaccess insn:req, reg:req, mem:req, fix:req
100:	\insn	\reg, \mem
	.pushsection __ex_table, "a"
	.balign	SZREG
	PTR	100b, \fix
	.popsection
	.endm

	.section .text.raw_copy_user, "ax"
	.balign 4
	.global raw_copy_from_user
	.type raw_copy_from_user, @function
	.global raw_copy_to_user
	.type raw_copy_to_user, @function
/* unsigned long raw_copy_{from,to}_user(void *to (a0), const void *from (a1), unsigned long n (a2)) */
raw_copy_from_user:
raw_copy_to_user:
	li	t6, SR_SUM
	csrs	sstatus, t6
	or	t0, a0, a1
	andi	t0, t0, SZREG - 1
	bnez	t0, 2f
	li	t1, SZREG
1:	bltu	a2, t1, 2f
	uaccess	REG_L, t2, 0(a1), 3f
	uaccess	REG_S, t2, 0(a0), 3f
	addi	a0, a0, SZREG
	addi	a1, a1, SZREG
	addi	a2, a2, -SZREG
	j	1b
2:	beqz	a2, 3f
	uaccess	lbu, t2, 0(a1), 3f
	uaccess	sb, t2, 0(a0), 3f
	addi	a0, a0, 1
	addi	a1, a1, 1
	addi	a2, a2, -1
	j	2b
3:	csrc	sstatus, t6
	mv	a0, a2
	ret
	.size raw_copy_from_user, . - raw_copy_from_user
	.size raw_copy_to_user, . - raw_copy_to_user
