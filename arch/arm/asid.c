/*
 * asid.c - switch_mm() with ASIDs on ARMv7-A LPAE (include/tinymm/arch.h; docs/user-arm.md).
 *
 * TTBR0 is 64 bits with LPAE: the user root's physical address and, in bits 55:48, the 8-bit
 * ASID (TTBCR.A1 = 0: TTBR0's ASID is the current one).  User ptes are not global (nG), so the
 * TLB tags them with the ASID they were walked under and an mm's entries survive switches to
 * other mms: no TLB flush per switch.  One MCRR writes root and ASID together, so the
 * short-descriptor dance of a reserved ASID around two separate register writes is not needed.
 *
 * Allocation is v6.10's arch/arm/mm/context.c: mm->context_id holds a generation in its upper
 * bits and the ASID in its low 8; an mm whose generation is current keeps its ASID, any other
 * gets one from a bitmap (its old number if still free).  When all 255 are taken (ASID 0
 * belongs to init_mm, whose user half is empty) the generation moves on and the bitmap empties
 * (a rollover), except for the ASID each CPU is running (active_asids; reserved_asids when
 * that CPU has not switched since the previous rollover): a CPU may go on using it, so it is
 * never given to another mm, and the mm running there keeps it in the new generation.  Every
 * CPU then invalidates its own TLB and branch predictor the next time it allocates
 * (tlb_flush_pending), before it runs an ASID of the new generation: no broadcast, no IPI.
 * The fast path (an mm of the current generation, this CPU's active ASID not cleared by a
 * rollover) takes no lock: the xchg on active_asids orders it against flush_context(), which
 * reads every CPU's with an xchg under cpu_asid_lock (v6.10's argument).  A freed mm's ASID
 * stays taken until the rollover, so its stale TLB entries are never reached under another mm.
 * Flushes of user ranges stay by address for every ASID and inner shareable (asm/pgtable.h):
 * mm/'s zap passes no vma, and TLBIMVAAIS costs what TLBIMVAIS does.
 * Locking: switch_mm runs with interrupts masked (the scheduler, do_exit); cpu_asid_lock, a
 * bare arch_spinlock_t (the scheduler may hold its run-queue lock, under which no lock-order
 * checked lock is taken), guards asid_map, asid_generation's changes, cur_idx and
 * reserved_asids; active_asids[cpu] changes by xchg.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/pgtable.h"
#include "tinymm/smp.h"
#include "tinymm/spinlock.h"

#define ASID_BITS		8
#define ASID_MASK		((1UL << ASID_BITS) - 1)
#define ASID_FIRST_VERSION	(1UL << ASID_BITS)
#define NUM_USER_ASIDS		(1UL << ASID_BITS)

static arch_spinlock_t cpu_asid_lock = __ARCH_SPIN_LOCK_UNLOCKED;
static unsigned long asid_generation = ASID_FIRST_VERSION;
static uint32_t asid_map[NUM_USER_ASIDS / 32];
static unsigned long cur_idx = 1;
static DEFINE_PER_CPU(unsigned long, active_asids);
static DEFINE_PER_CPU(unsigned long, reserved_asids);
static struct cpumask tlb_flush_pending;
unsigned long arm_asid_rollovers;	/* for the tests */

static void set_ttbr0(phys_addr_t root, unsigned long asid)
{
	uint64_t ttbr0 = (uint64_t)root | ((uint64_t)asid << 48);

	__asm__ __volatile__(
		"mcrr	p15, 0, %[lo], %[hi], c2\n\t"	/* TTBR0: root and ASID at once */
		"isb"
		:: [lo] "r"((uint32_t)ttbr0), [hi] "r"((uint32_t)(ttbr0 >> 32)) : "memory");
}

static bool asid_taken(unsigned long a)
{
	return asid_map[a / 32] & (1u << (a % 32));
}

static void asid_take(unsigned long a)
{
	asid_map[a / 32] |= 1u << (a % 32);
}

static unsigned long find_free_asid(unsigned long from)
{
	for (unsigned long a = from; a < NUM_USER_ASIDS; a++)
		if (!asid_taken(a))
			return a;
	return NUM_USER_ASIDS;
}

/* A rollover (cpu_asid_lock): only the ASIDs CPUs run stay taken; every CPU flushes later. */
static void flush_context(void)
{
	unsigned int cpu;

	memset(asid_map, 0, sizeof(asid_map));
	asid_take(0);				/* init_mm's */
	for_each_possible_cpu(cpu) {
		unsigned long asid = xchg(per_cpu_ptr(&active_asids, cpu), 0UL);

		/* 0: no switch since the last rollover, its reserved one is still in use. */
		if (!asid)
			asid = per_cpu(reserved_asids, cpu);
		asid_take(asid & ASID_MASK);
		per_cpu(reserved_asids, cpu) = asid;
	}
	tlb_flush_pending.bits = READ_ONCE(cpu_possible_mask->bits);
	arm_asid_rollovers++;
}

/* @asid is some CPU's reserved one: it moves to the new generation as @newasid there. */
static bool check_update_reserved_asid(unsigned long asid, unsigned long newasid)
{
	unsigned int cpu;
	bool hit = false;

	for_each_possible_cpu(cpu) {
		if (per_cpu(reserved_asids, cpu) == asid) {
			hit = true;
			per_cpu(reserved_asids, cpu) = newasid;
		}
	}
	return hit;
}

/* cpu_asid_lock held. */
static unsigned long new_context(struct mm_struct *mm)
{
	unsigned long asid = mm->context_id;

	if (asid) {
		unsigned long newasid = asid_generation | (asid & ASID_MASK);

		/* Running somewhere through a rollover: it keeps its number. */
		if (check_update_reserved_asid(asid, newasid))
			return newasid;
		/* Its old number is free in this generation: take it again. */
		if ((asid & ASID_MASK) && !asid_taken(asid & ASID_MASK)) {
			asid_take(asid & ASID_MASK);
			return newasid;
		}
	}
	asid = find_free_asid(cur_idx);
	if (asid == NUM_USER_ASIDS) {
		asid_generation += ASID_FIRST_VERSION;
		if (!asid_generation)		/* after 2^24 rollovers: 0 means "never had one" */
			asid_generation = ASID_FIRST_VERSION;
		flush_context();
		asid = find_free_asid(1);
	}
	asid_take(asid);
	cur_idx = asid;
	return asid_generation | asid;
}

void switch_mm(struct mm_struct *prev, struct mm_struct *next)
{
	unsigned int cpu = smp_processor_id();
	unsigned long asid;

	(void)prev;
	if (next == &init_mm) {
		set_ttbr0(__pa(swapper_pg_dir), 0);
		return;
	}
	asid = READ_ONCE(next->context_id);
	if ((asid ^ READ_ONCE(asid_generation)) >> ASID_BITS ||
	    !xchg(per_cpu_ptr(&active_asids, cpu), asid)) {
		arch_spin_lock(&cpu_asid_lock);
		asid = next->context_id;
		if ((asid ^ asid_generation) >> ASID_BITS) {
			asid = new_context(next);
			WRITE_ONCE(next->context_id, asid);
		}
		if (cpumask_test_cpu(cpu, &tlb_flush_pending)) {
			cpumask_clear_cpu(cpu, &tlb_flush_pending);
			/* This CPU's TLB and predictor, before any ASID of the new generation runs. */
			__asm__ __volatile__(
				"mcr	p15, 0, %0, c8, c7, 0\n\t"	/* TLBIALL */
				"mcr	p15, 0, %0, c7, c5, 6\n\t"	/* BPIALL */
				"dsb	nsh\n\t"
				"isb" :: "r"(0) : "memory");
		}
		WRITE_ONCE(per_cpu(active_asids, cpu), asid);
		arch_spin_unlock(&cpu_asid_lock);
	}
	set_ttbr0(__pa(next->pgd), asid & ASID_MASK);
	/* Branch predictor entries are not ASID-tagged on every core: drop them (cheap). */
	__asm__ __volatile__("mcr p15, 0, %0, c7, c5, 6\n\tisb" :: "r"(0) : "memory");
}

/* The ASID @mm runs under now, or -1 if it has none in this generation (tests). */
long arm_mm_asid(const struct mm_struct *mm);
long arm_mm_asid(const struct mm_struct *mm)
{
	if (mm == &init_mm)
		return 0;
	if ((mm->context_id ^ asid_generation) >> ASID_BITS)
		return -1;
	return (long)(mm->context_id & ASID_MASK);
}
