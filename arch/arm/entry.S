/*
 * entry.S - ARMv7-A start-up: QEMU (or a boot loader) enters _start in SVC mode with the MMU
 * off, at the image's physical address; the image is linked at its virtual one in the direct
 * map (linker/kernel.ld.in, docs/mmu.md).  Until the MMU is on only position-independent code
 * runs here: PC-relative addresses, and r8 = virtual - physical to turn a linked address into
 * the physical one.  Then:
 *   - clear .bss (the boot tables live there) at its physical address;
 *   - build the boot tables, LPAE (docs/mmu.md, "ARM"): boot_pgd (TTBR0, T0SZ 0, 4 x 1 GiB)
 *     with one identity 1 GiB block over the GiB the image runs in (for the instruction that
 *     turns the MMU on), and the kernel half [0x80000000, 4 GiB) through two pmd tables,
 *     boot_pmd: 2 MiB blocks of Normal write-back RAM from PAGE_OFFSET through _end (the device
 *     tree at the start of RAM included), and the fixmap's pte table (fixmap_pte) at FIXADDR_START;
 *   - invalidate the data caches (real cores may start with garbage lines), set MAIR, TTBCR,
 *     TTBR0, invalidate the TLB, I-cache and branch predictor, turn the MMU and caches on;
 *   - jump to the virtual address, give every exception mode a stack, set VBAR and call
 *     kmain(0, dtb): the DTB a boot loader passed in r2 (U-Boot's bootm), vetted and mapped,
 *     else 0 and the board says where it is (QEMU virt puts it at the start of RAM).
 * arch_mm_init() maps the rest of RAM in boot_pmd; paging_init() (mmu_lpae.c) builds the final
 * W^X tables and switches to them.  The identity block is never used after the jump.
 * Limits: the image must load below 2 GiB (its identity GiB then never collides with the kernel
 * half) and PAGE_OFFSET's physical address (PHYS_OFFSET) must be 2 MiB aligned; every ARM board
 * tinymm knows qualifies (RAM at 0 or 1 GiB).
 */
	.syntax unified
	.arm
	.arch_extension virt	/* eret, elr_hyp: the entry from HYP mode */

#define PAGE_OFFSET	0x80000000
#define EXC_STACK_SIZE	8192	/* arch/arm/smp.c: the same */
#define FIXADDR_START	0xffe00000
/* A 2 MiB or 1 GiB block: valid, Normal write-back (AttrIndx 0), inner shareable, AF.  Boot
 * mappings are RWX: the final tables (mmu_lpae.c) are W^X. */
#define BOOT_BLOCK	0x701
#define TTBCR_BOOT	0x80803500	/* EAE, EPD1, SH0 inner shareable, ORGN0/IRGN0 write-back WA */
#define MAIR0_VALUE	0x000444ff	/* asm/pgtable.h */

/*
 * Entered in HYP mode (r0 = CPSR): to SVC at label \to, every exception masked (below).
 * Clobbers r0, r1.
 */
.macro hyp_to_svc to
	mov	r1, #3
	mcr	p15, 4, r1, c14, c1, 0	/* CNTHCTL */
	mov	r1, #0
	mcrr	p15, 4, r1, r1, c14	/* CNTVOFF */
	mcr	p15, 4, r1, c1, c1, 0	/* HCR */
	mcr	p15, 4, r1, c1, c1, 3	/* HSTR */
	bic	r0, r0, #0x1f
	orr	r0, r0, #0x13		/* SVC */
	orr	r0, r0, #0x1c0		/* A, I, F masked */
	msr	spsr_cxsf, r0
	adr	r1, \to
	msr	elr_hyp, r1
	eret
.endm

	.section .text.entry, "ax"
	.global _start
_start:
	cpsid	aif
	mov	r11, r2			/* the DTB a boot loader passed (vetted below) */
	/*
	 * Entered in HYP mode (U-Boot's bootm on the Orange Pi PC, QEMU's virt with
	 * virtualization=on): leave PL1 the counter and timers (CNTHCTL.PL1PCEN/PL1PCTEN), make the
	 * virtual counter the physical one (CNTVOFF 0: tinymm's clock is the virtual timer), trap
	 * nothing to HYP (HCR, HSTR 0) and drop to SVC with every exception masked, as Linux's own
	 * HYP entry code does before it returns to SVC; no HYP vectors are installed, so nothing
	 * may enter HYP again (KVM-style use of HYP is not tinymm's).  `msr spsr_cxsf` in HYP writes
	 * SPSR_hyp (QEMU-FACTS: writing it by name hangs QEMU 7.2).
	 */
	mrs	r0, cpsr
	and	r10, r0, #0x1f		/* the entry mode, kept for arm_boot_mode below */
	cmp	r10, #0x1a
	bne	0f
	hyp_to_svc 0f
0:	/*
	 * Entered somewhere else than _start_pa: move the image there first.  QEMU's raspi2b loads
	 * kernel7.img at 0x10000, the Pi's firmware at 0x8000 (where it is linked), and the same
	 * file boots both, so the image moves itself as Linux's zImage does.  Every loaded byte
	 * moves (_start .. _image_end: .bss is zeros in the file, .kallsyms comes after it).
	 * Downwards (the destination below the source) the copy runs ascending, and would
	 * overwrite its own loop once the two overlap: so the head of the image (up to
	 * reloc_head_end, nothing but this code) is copied first and the copy loop runs from the
	 * destination, where the bytes it stores over itself are its own.  Upwards it runs
	 * descending from the source, whose code the copy reaches last.  Word copies: loaders put
	 * images at least 4 KiB apart from where they are linked (one page of distance is
	 * required, so that the head copy never overlaps itself).  The I-cache and branch
	 * predictor may hold the old bytes (caches are on as the firmware left them on a real
	 * core): invalidated before the jump to the moved image's label 0 (mode and r11 kept).
	 */
	adr	r4, _start		/* where we run */
	ldr	r5, =_start_pa		/* where the image is linked to run */
	cmp	r4, r5
	beq	8f
	ldr	r7, =_image_end
	ldr	r3, =_start
	sub	r7, r7, r3		/* bytes to move */
	subs	r1, r4, r5		/* distance, source - destination */
	rsblo	r1, r1, #0
	cmp	r1, #4096
	blo	.			/* under a page apart: see above (no console yet) */
	cmp	r4, r5
	blo	reloc_down
	ldr	r1, =reloc_head_end
	sub	r1, r1, r3		/* the head's length */
	mov	r0, #0
1:	ldr	r3, [r4, r0]
	str	r3, [r5, r0]
	add	r0, r0, #4
	cmp	r0, r1
	blo	1b
	bl	reloc_sync_icache
	adr	r0, reloc_up
	sub	r0, r0, r4
	add	r0, r0, r5
	bx	r0			/* into the head's copy: it reads no literal past the head */
reloc_up:
	mov	r0, #0
2:	ldr	r3, [r4, r0]
	str	r3, [r5, r0]
	add	r0, r0, #4
	cmp	r0, r7
	blo	2b
	b	reloc_enter
reloc_down:
	mov	r0, r7
3:	subs	r0, r0, #4
	ldr	r3, [r4, r0]
	str	r3, [r5, r0]
	bne	3b
reloc_enter:
	bl	reloc_sync_icache
	adr	r0, 0b			/* in whichever copy runs this ... */
	adr	r1, _start
	sub	r0, r0, r1
	add	r0, r0, r5
	bx	r0			/* ... to label 0 of the moved image: r4 == r5 there */
reloc_sync_icache:
	mov	r0, #0
	dsb	sy
	mcr	p15, 0, r0, c7, c5, 0	/* ICIALLU */
	mcr	p15, 0, r0, c7, c5, 6	/* BPIALL */
	dsb	sy
	isb
	bx	lr
reloc_head_end:

8:	adr	r4, _start		/* where we run: physical */
	ldr	r5, =_start		/* where we are linked: virtual */
	sub	r8, r5, r4

	ldr	r0, =__bss_start
	ldr	r1, =__bss_end
	sub	r0, r0, r8
	sub	r1, r1, r8
	mov	r2, #0
1:	cmp	r0, r1
	strlo	r2, [r0], #4
	blo	1b

	/* Identity: the 1 GiB block the image runs in (index 0 or 1 of boot_pgd). */
	ldr	r0, =boot_pgd
	sub	r0, r0, r8
	mov	r2, r4, lsr #30
	cmp	r2, #2
	bhs	.			/* loaded at or above 2 GiB: see Limits above */
	mov	r3, r2, lsl #30
	orr	r3, r3, #(BOOT_BLOCK & 0xff)
	orr	r3, r3, #(BOOT_BLOCK & 0xf00)
	str	r3, [r0, r2, lsl #3]	/* the high word stays 0 (.bss) */
	/* The kernel half: boot_pgd[2], [3] -> boot_pmd's two tables. */
	ldr	r1, =boot_pmd
	sub	r1, r1, r8
	orr	r3, r1, #3
	str	r3, [r0, #16]
	add	r3, r3, #4096
	str	r3, [r0, #24]
	/* 2 MiB blocks from PAGE_OFFSET through _end: boot_pmd[(va - PAGE_OFFSET) >> 21]. */
	mov	r2, #PAGE_OFFSET
	ldr	r6, =_end
2:	sub	r3, r2, r8		/* physical */
	orr	r3, r3, #(BOOT_BLOCK & 0xff)
	orr	r3, r3, #(BOOT_BLOCK & 0xf00)
	sub	r7, r2, #PAGE_OFFSET
	add	r7, r1, r7, lsr #18	/* 8-byte entries: (va - PAGE_OFFSET) >> 21 << 3 */
	str	r3, [r7]
	add	r2, r2, #0x200000
	cmp	r2, r6
	blo	2b
	/*
	 * The DTB a boot loader passed in r2 (U-Boot's bootm relocates it high in RAM, e.g.
	 * 0x49ff7000 on the Orange Pi PC), vetted as Linux's __vet_atags does: word aligned, inside
	 * the kernel half's direct map below the fixmap, FDT magic at its first word (read at its
	 * physical address: the MMU is off).  Then the two 2 MiB blocks from the one holding it
	 * (DT_MAX_SIZE is 1 MiB) join the boot tables; RAM it sits in is mapped here anyway.  r11 =
	 * 0 if not vetted: kmain falls back to the board's BOARD_DTB_ADDR (QEMU virt passes none).
	 */
	tst	r11, #3
	bne	4f
	add	r7, r11, r8		/* its virtual address in the direct map */
	sub	r7, r7, #PAGE_OFFSET
	ldr	r3, =(FIXADDR_START - PAGE_OFFSET - 0x200000)
	cmp	r7, r3
	bhs	4f
	ldr	r3, [r11]
	ldr	r6, =0xedfe0dd0		/* 0xd00dfeed, big-endian */
	cmp	r3, r6
	bne	4f
	mov	r7, r7, lsr #21
	mov	r7, r7, lsl #21		/* the block's offset in the direct map */
	add	r3, r7, #PAGE_OFFSET
	sub	r3, r3, r8		/* the block's physical address */
	orr	r3, r3, #(BOOT_BLOCK & 0xff)
	orr	r3, r3, #(BOOT_BLOCK & 0xf00)
	add	r7, r1, r7, lsr #18
	str	r3, [r7]
	add	r3, r3, #0x200000
	str	r3, [r7, #8]
	b	5f
4:	mov	r11, #0
5:
	/* The fixmap's pte table, shared with the final tables. */
	ldr	r3, =fixmap_pte
	sub	r3, r3, r8
	orr	r3, r3, #3
	ldr	r7, =((FIXADDR_START - PAGE_OFFSET) >> 18)
	str	r3, [r1, r7]

	/* A stack at its physical address for arm_dcache_all (position independent, no globals). */
	ldr	sp, =__boot_stack_top
	sub	sp, sp, r8
	mov	r0, #0
	bl	arm_dcache_all		/* invalidate, by set/way */
	ldr	r0, =MAIR0_VALUE
	mcr	p15, 0, r0, c10, c2, 0	/* MAIR0 */
	mov	r0, #0
	mcr	p15, 0, r0, c10, c2, 1	/* MAIR1 */
	ldr	r0, =TTBCR_BOOT
	mcr	p15, 0, r0, c2, c0, 2	/* TTBCR */
	ldr	r0, =boot_pgd
	sub	r0, r0, r8
	mov	r1, #0
	mcrr	p15, 0, r0, r1, c2	/* TTBR0, ASID 0 */
	isb
	mov	r0, #0
	mcr	p15, 0, r0, c8, c7, 0	/* TLBIALL */
	mcr	p15, 0, r0, c7, c5, 0	/* ICIALLU */
	mcr	p15, 0, r0, c7, c5, 6	/* BPIALL */
	dsb	sy
	isb
	mrc	p15, 0, r0, c1, c0, 0	/* SCTLR */
	bic	r0, r0, #(1 << 1)	/* A: no alignment faults */
	bic	r0, r0, #(1 << 28)	/* TRE: (ignored with LPAE) */
	orr	r0, r0, #(1 << 0)	/* M */
	orr	r0, r0, #(1 << 2)	/* C */
	orr	r0, r0, #(1 << 11)	/* Z: branch prediction */
	orr	r0, r0, #(1 << 12)	/* I */
	orr	r0, r0, #(1 << 29)	/* AFE */
	mcr	p15, 0, r0, c1, c0, 0
	isb
	ldr	pc, =virtual_start	/* up to the linked address */

virtual_start:
	ldr	r0, =arm_boot_mode
	str	r10, [r0]
	/* Exception modes (abort, undefined, IRQ, FIQ) share one small stack per CPU (CPU 0's is
	 * the first): a trap there reports and powers off, it never returns, so they cannot nest
	 * usefully.  (IRQs switch to SVC mode and the interrupted thread's stack at once; IRQ
	 * mode's sp is set only to be safe.) */
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

	ldr	r0, =arm_vectors
	mcr	p15, 0, r0, c12, c0, 0	/* VBAR */
	ldr	r0, =init_task		/* current: the boot CPU's idle task (asm/current.h) */
	mcr	p15, 0, r0, c13, c0, 4	/* TPIDRPRW */
	isb

	mov	r1, r11			/* the vetted DTB, or 0: taken from the board */
	mov	fp, #0			/* end of the frame-pointer chain */
	/* The boot CPU's id as the tree's cpu nodes give it: MPIDR's affinity fields (Linux's
	 * MPIDR_HWID_BITMASK): 0 on QEMU virt and the H3, 0xf00 on the BCM2836. */
	mrc	p15, 0, r0, c0, c0, 5	/* MPIDR */
	bic	r0, r0, #0xff000000
	bl	kmain
3:	wfi
	b	3b

	/* The boot tables (.bss: cleared above before they are written). */
	.section .bss
	.balign 4096
	.global boot_pmd
boot_pmd:
	.space	2 * 4096
	.global boot_pgd
	.balign 32
boot_pgd:
	.space	32

/* Vector table: an exception taken in USR mode goes to entry-user.S (from_user below); from the
 * kernel, the IRQ entry runs the interrupt on the interrupted thread's stack (vec_irq below),
 * every other entry saves the interrupted registers and calls arm_trap(frame, kind). */
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
	/* arm_trap returned: the fault was resolved (an Access flag fault), retry the access. */
	pop	{r0, r1}
	msr	spsr_cxsf, r0
	ldm	sp!, {r0-r12, pc}^	/* pc and CPSR (from SPSR) back together */
.endm

/* Taken in USR mode (SPSR.M): to entry-user.S.  r0 is borrowed on the mode's own stack (from
 * USR that is the empty top of the task's SVC stack for a system call, the exception stack
 * otherwise) and given back before the branch; POP leaves the flags alone. */
.macro from_user label
	push	{r0}
	mrs	r0, spsr
	and	r0, r0, #0x1f
	cmp	r0, #0x10
	pop	{r0}
	beq	\label
.endm

vec_undef:
	from_user __und_usr
	trap_entry 1, 4
vec_svc:
	from_user __svc_usr
	trap_entry 2, 4
vec_pabt:
	from_user __pabt_usr
	trap_entry 3, 4
/*
 * A data abort from SVC mode whose instruction is in the exception table (uaccess.S's LDRT and
 * STRT on a user address) is a user-memory fault the kernel resolves or fixes up: to
 * entry-user.S's __dabt_uaccess, on the thread's own stack.  Only those instructions: a kernel
 * stack overflow (a push into the guard page) never matches and is reported from the
 * exception stack as before.  The table is a few dozen entries, searched linearly here.
 */
vec_dabt:
	from_user __dabt_usr
	sub	lr, lr, #8
	push	{r0-r2}
	mrs	r0, spsr
	and	r0, r0, #0x1f
	cmp	r0, #0x13
	bne	2f
	ldr	r0, =__start___ex_table
	ldr	r1, =__stop___ex_table
1:	cmp	r0, r1
	bhs	2f
	ldr	r2, [r0], #8
	cmp	r2, lr
	bne	1b
	pop	{r0-r2}
	b	__dabt_uaccess
2:	pop	{r0-r2}
	trap_entry 4, 0
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
	from_user __irq_usr
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
	.global __exc_stack_bottom, __exc_stack_top, __exc_stacks_end
__exc_stack_bottom:
	.space EXC_STACK_SIZE
__exc_stack_top:			/* CPU 0's; CPU n's is EXC_STACK_SIZE * n above it */
	.space EXC_STACK_SIZE * (CONFIG_NR_CPUS - 1)
__exc_stacks_end:

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

/*
 * Secondary CPUs (arch/arm/smp.c, docs/smp.md): PSCI CPU_ON enters secondary_entry at its
 * physical address, MMU and caches off, in SVC mode (HYP if the firmware runs us there: left
 * as _start does), r0 = the physical address of this CPU's struct arm_secondary_data:
 *	[0] SCTLR as the boot CPU has it	[4] the CPU's exception stack top
 *	[8] its idle task's stack top		[12] the idle task
 * Its own L1 data cache is invalidated by set/way (v6.10's v7_invalidate_l1: only L1, the
 * shared L2 holds the running CPUs' data), then the MMU goes on with the boot tables (their
 * identity GiB still maps this code; their kernel half maps all RAM RWX, arch_mm_init), so the
 * jump to the linked address works as on the boot CPU.  C (arm_secondary_paging) then moves it
 * to swapper_pg_dir as paging_switch did for the boot CPU, on the exception stack (the idle
 * stack may be in vmalloc space, which only the final tables map); then the idle stack and
 * arm_secondary_start(data), which never returns.
 */
	.section .text, "ax"
	.global secondary_entry
secondary_entry:
	cpsid	aif
	mov	r11, r0
	mrs	r0, cpsr
	and	r1, r0, #0x1f
	cmp	r1, #0x1a
	bne	1f
	hyp_to_svc 1f
1:	adr	r4, secondary_entry	/* physical */
	ldr	r5, =secondary_entry	/* virtual */
	sub	r8, r5, r4
	/* This CPU's L1 data cache, by set/way: CCSIDR of level 1 (CSSELR 0). */
	mov	r0, #0
	mcr	p15, 2, r0, c0, c0, 0	/* CSSELR */
	isb
	mrc	p15, 1, r0, c0, c0, 0	/* CCSIDR */
	ubfx	r1, r0, #13, #15	/* sets - 1 */
	ubfx	r2, r0, #3, #10		/* ways - 1 */
	and	r3, r0, #7
	add	r3, r3, #4		/* log2 of the line's bytes */
	clz	r4, r2			/* way shift (32 with one way: a shift by 32 gives 0) */
2:	mov	r5, r2
3:	mov	r6, r5, lsl r4
	orr	r6, r6, r1, lsl r3
	mcr	p15, 0, r6, c7, c6, 2	/* DCISW */
	subs	r5, r5, #1
	bge	3b
	subs	r1, r1, #1
	bge	2b
	dsb	sy
	ldr	r0, =MAIR0_VALUE
	mcr	p15, 0, r0, c10, c2, 0	/* MAIR0 */
	mov	r0, #0
	mcr	p15, 0, r0, c10, c2, 1	/* MAIR1 */
	ldr	r0, =TTBCR_BOOT
	mcr	p15, 0, r0, c2, c0, 2	/* TTBCR */
	ldr	r0, =boot_pgd
	sub	r0, r0, r8
	mov	r1, #0
	mcrr	p15, 0, r0, r1, c2	/* TTBR0, ASID 0 */
	isb
	mov	r0, #0
	mcr	p15, 0, r0, c8, c7, 0	/* TLBIALL: this CPU's */
	mcr	p15, 0, r0, c7, c5, 0	/* ICIALLU */
	mcr	p15, 0, r0, c7, c5, 6	/* BPIALL */
	dsb	sy
	isb
	ldr	r0, [r11]		/* SCTLR: M, C, I, Z, AFE as the boot CPU has them */
	mcr	p15, 0, r0, c1, c0, 0
	isb
	ldr	pc, =secondary_virtual
secondary_virtual:
	add	r4, r11, r8		/* the data, through the direct map (r4: kept by C) */
	ldr	r0, [r4, #4]
	cps	#0x17			/* abort */
	mov	sp, r0
	cps	#0x1b			/* undefined */
	mov	sp, r0
	cps	#0x12			/* IRQ */
	mov	sp, r0
	cps	#0x11			/* FIQ */
	mov	sp, r0
	cps	#0x13			/* back to SVC, on the exception stack for the switch */
	mov	sp, r0
	ldr	r0, =arm_vectors
	mcr	p15, 0, r0, c12, c0, 0	/* VBAR */
	isb
	mov	fp, #0
	bl	arm_secondary_paging
	ldr	sp, [r4, #8]
	mov	r0, r4
	mov	fp, #0			/* end of the frame-pointer chain */
	bl	arm_secondary_start
4:	wfi
	b	4b

/* A CPU that must never answer (tinymm.smp_lost_cpu, arch/arm/smp.c): PSCI starts it here,
 * MMU off, and it waits for interrupts it never takes. */
	.global arm_secondary_lost
arm_secondary_lost:
	cpsid	aif
5:	wfi
	b	5b
	.ltorg
