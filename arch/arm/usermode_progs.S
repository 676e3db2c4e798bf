/*
 * usermode_progs.S - the tiny user programs of the `usermode` suite (usermode_ktest.c) and the
 * syscall-getpid bench (bench_user.c): ARM code assembled into the kernel's rodata as bytes, never run where
 * it lies (rodata is execute-never); the suite copies each with copy_to_user() to 0x10000 of a
 * fresh mm and enters it in USR mode.  Position independent, no literal pools: movw/movt and
 * immediates only.  Each program ends with exit_group (EABI 248); one that survives what
 * should have killed it exits with a code the suite rejects.  Table: usermode_progs.h.
 */
	.syntax unified
	.arm
	.section .rodata, "a"
	.balign 4

#define NR_exit_group	248
#define NR_getpid	20
#define NR_sched_yield	158

.macro prog name
	.global \name, \name\()_end
\name:
.endm
.macro endprog name
\name\()_end:
.endm
.macro exit_with reg
	.ifnc \reg, r0
	mov	r0, \reg
	.endif
	mov	r7, #NR_exit_group
	svc	#0
	udf	#1			/* exit_group returned: SIGILL, never status 0 */
.endm

/* exit_group(getpid() & 0xff) */
prog um_getpid_exit
	mov	r7, #NR_getpid
	svc	#0
	and	r0, r0, #0xff
	exit_with r0
endprog um_getpid_exit

/* A store to 0x1000: below every area (the first one is at 0x10000). */
prog um_store_unmapped
	mov	r1, #0x1000
	str	r0, [r1]
	mov	r0, #0
	exit_with r0
endprog um_store_unmapped

prog um_udf
	udf	#0
	mov	r0, #0
	exit_with r0
endprog um_udf

/* A load from the kernel half (PAGE_OFFSET + 1 MiB: the kernel image, present, no AP[1]). */
prog um_load_kernel
	mov	r1, #0x80000000
	add	r1, r1, #0x100000
	ldr	r0, [r1]
	mov	r0, #0
	exit_with r0
endprog um_load_kernel

/*
 * Thread pointer and address space per task (two of these run at once): tls = pid << 16 |
 * 0x5678; set_tls(tls) must return 0; the pid is stored at 0x11000; eight sched_yield calls
 * (the other task runs: switch.S loads its TPIDRURO, switch_mm its TTBR0 and ASID); then
 * TPIDRURO read from USR mode must still be tls and 0x11000 must still hold our pid (another
 * mm's TLB entry for the same address would show the other pid); an unknown ARM-private call
 * (0x0f0099) and an unknown number (0xfff) must return -ENOSYS (-38).  Exit 42 when all held,
 * else 1-5 naming the first that did not.
 */
prog um_tls
	mov	r7, #NR_getpid
	svc	#0
	mov	r6, r0
	movw	r4, #0x5678
	orr	r4, r4, r6, lsl #16
	mov	r0, r4
	movw	r7, #5
	movt	r7, #0xf		/* __ARM_NR_set_tls */
	svc	#0
	cmp	r0, #0
	movne	r0, #1
	bne	9f
	mov	r8, #0x11000
	str	r6, [r8]
	mov	r10, #8
1:	mov	r7, #NR_sched_yield
	svc	#0
	subs	r10, r10, #1
	bne	1b
	mrc	p15, 0, r5, c13, c0, 3	/* TPIDRURO */
	cmp	r5, r4
	movne	r0, #2
	bne	9f
	ldr	r5, [r8]
	cmp	r5, r6
	movne	r0, #5
	bne	9f
	movw	r7, #0x99
	movt	r7, #0xf
	svc	#0
	cmn	r0, #38
	movne	r0, #3
	bne	9f
	movw	r7, #0xfff
	svc	#0
	cmn	r0, #38
	movne	r0, #4
	bne	9f
	mov	r0, #42
9:	exit_with r0
endprog um_tls

/*
 * Spin until the word at 0x11000 is not 0 and exit with it: only another thread can write it
 * (through the kernel's alias of the page), and it runs only if the timer preempts this loop.
 * 2^24 rounds at most, then exit 99 (not preempted).
 */
prog um_spin_flag
	mov	r1, #0x11000
	mov	r2, #0x1000000
1:	ldr	r0, [r1]
	cmp	r0, #0
	bne	2f
	subs	r2, r2, #1
	bne	1b
	mov	r0, #99
2:	exit_with r0
endprog um_spin_flag

/*
 * The same loop without the bound (docs/young.md's case): it must still be running whenever
 * the test looks, however late the timer lets the test thread back; the test always ends it.
 */
prog um_spin_flag_unbounded
	mov	r1, #0x11000
1:	ldr	r0, [r1]
	cmp	r0, #0
	beq	1b
	exit_with r0
endprog um_spin_flag_unbounded

/*
 * The syscall-getpid bench's program (include/tinymm/bench.h, kernel/bench_user.c; copied to
 * BENCH_USER_BASE, 0x10000): the count at BENCH_USER_COUNT (0x10400), that many getpid calls,
 * then exit_group(0).  Three instructions an iteration besides the svc: mov, subs, bne.
 */
prog um_bench_getpid
	movw	r1, #0x0400
	movt	r1, #0x1		/* BENCH_USER_COUNT */
	ldr	r6, [r1]
	cmp	r6, #0
	beq	2f
1:	mov	r7, #NR_getpid
	svc	#0
	subs	r6, r6, #1
	bne	1b
2:	mov	r0, #0
	exit_with r0
endprog um_bench_getpid
