/*
 * uaccess.S - raw_copy_from_user() / raw_copy_to_user() on ARMv7-A (include/tinymm/uaccess.h):
 * the bytes NOT copied, 0 when all were.
 *
 * Every access to the user buffer is an unprivileged load or store, LDRT/LDRBT/STRT/STRBT: the
 * MMU checks it with USR's permissions although the kernel runs it.  So a pointer the task
 * passed can only reach what the task itself could: a kernel address (no AP[1]) or a read-only
 * user page (AP[2]) faults as a permission fault instead of being written with the kernel's
 * rights.  This is tinymm's "documented means" for the issue: LPAE has no domains (v6.10's
 * CONFIG_CPU_SW_DOMAIN_PAN), and v6.10's LPAE kernels emulate PAN by setting TTBCR.EPD0 outside
 * uaccess (CONFIG_CPU_TTBR0_PAN) so that any user access from the kernel faults; tinymm keeps
 * TTBR0 walks on and relies on the T variants instead (docs/user-arm.md says why and what it
 * does not cover: a plain LDR/STR of a user address elsewhere in the kernel would still work).
 *
 * Each of those instructions has an exception-table entry (USER() below): a data abort on it
 * goes to entry-user.S's __dabt_uaccess, which resolves the fault as the task's (demand paging,
 * copy-on-write) and retries, or resumes at the entry's fixup, which returns the count of bytes
 * left: r2 always holds it, decremented only after a unit was stored.  Words when both pointers
 * are word aligned (an aligned word never crosses a page, so a fault leaves nothing half done),
 * bytes otherwise and for the tail.  Registers pushed in pairs: sp stays 8-byte aligned for
 * the abort's C call.
 */
	.syntax unified
	.arm
	.section .text, "ax"

.macro USER fixup, insn:vararg
9999:	\insn
	.pushsection __ex_table, "a"
	.balign 4
	.long	9999b, \fixup
	.popsection
.endm

/* unsigned long raw_copy_from_user(void *to, const void __user *from, unsigned long n) */
	.global raw_copy_from_user
	.type	raw_copy_from_user, %function
raw_copy_from_user:
	push	{r4, lr}
	orr	r3, r0, r1
	tst	r3, #3
	bne	2f
1:	cmp	r2, #4
	blo	2f
	USER	8f, ldrt r3, [r1], #4
	str	r3, [r0], #4
	sub	r2, r2, #4
	b	1b
2:	cmp	r2, #0
	beq	8f
	USER	8f, ldrbt r3, [r1], #1
	strb	r3, [r0], #1
	sub	r2, r2, #1
	b	2b
8:	mov	r0, r2
	pop	{r4, pc}
	.size	raw_copy_from_user, . - raw_copy_from_user

/* unsigned long raw_copy_to_user(void __user *to, const void *from, unsigned long n) */
	.global raw_copy_to_user
	.type	raw_copy_to_user, %function
raw_copy_to_user:
	push	{r4, lr}
	orr	r3, r0, r1
	tst	r3, #3
	bne	2f
1:	cmp	r2, #4
	blo	2f
	ldr	r3, [r1], #4
	USER	8f, strt r3, [r0], #4
	sub	r2, r2, #4
	b	1b
2:	cmp	r2, #0
	beq	8f
	ldrb	r3, [r1], #1
	USER	8f, strbt r3, [r0], #1
	sub	r2, r2, #1
	b	2b
8:	mov	r0, r2
	pop	{r4, pc}
	.size	raw_copy_to_user, . - raw_copy_to_user
