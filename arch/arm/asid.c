/*
 * asid.c - switch_mm() with ASIDs on ARMv7-A LPAE (include/tinymm/arch.h; docs/user-arm.md).
 *
 * TTBR0 is 64 bits with LPAE: the user root's physical address and, in bits 55:48, the 8-bit
 * ASID (TTBCR.A1 = 0: TTBR0's ASID is the current one).  User ptes are not global (nG), so the
 * TLB tags them with the ASID they were walked under and an mm's entries survive switches to
 * other mms: no TLB flush per switch.  One MCRR writes root and ASID together, so the
 * short-descriptor dance of a reserved ASID around two separate register writes is not needed.
 *
 * Allocation is v6.10's arch/arm/mm/context.c idea reduced to one CPU: mm->context_id holds a
 * generation in its upper bits and the ASID in its low 8; an mm whose generation is current
 * keeps its ASID, any other gets the next free one from a bitmap.  When all 255 are taken
 * (ASID 0 belongs to init_mm, whose user half is empty) the generation moves on, the bitmap
 * empties and the whole TLB is invalidated once (a rollover): every mm then gets a new ASID on
 * its next switch.  A freed mm's ASID stays taken until the rollover, so its stale TLB entries
 * are never reached under another mm.  The rollover first parks TTBR0 on swapper_pg_dir with
 * ASID 0, so no walk under an ASID of the old generation can refill the TLB after the flush.
 * Flushes of user ranges stay by address for every ASID (asm/pgtable.h): mm/'s zap passes no
 * vma, and TLBIMVAA costs what TLBIMVA does.
 * Locking: switch_mm runs with interrupts masked (the scheduler, do_exit); one CPU.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/pgtable.h"

#define ASID_BITS		8
#define ASID_MASK		((1UL << ASID_BITS) - 1)
#define ASID_FIRST_VERSION	(1UL << ASID_BITS)
#define NUM_USER_ASIDS		(1UL << ASID_BITS)

static unsigned long asid_generation = ASID_FIRST_VERSION;
static uint32_t asid_map[NUM_USER_ASIDS / 32];
static unsigned long cur_idx = 1;
unsigned long arm_asid_rollovers;	/* for the tests */

static void set_ttbr0(phys_addr_t root, unsigned long asid)
{
	uint64_t ttbr0 = (uint64_t)root | ((uint64_t)asid << 48);

	__asm__ __volatile__(
		"mcrr	p15, 0, %[lo], %[hi], c2\n\t"	/* TTBR0: root and ASID at once */
		"isb"
		:: [lo] "r"((uint32_t)ttbr0), [hi] "r"((uint32_t)(ttbr0 >> 32)) : "memory");
}

static unsigned long find_free_asid(unsigned long from)
{
	for (unsigned long a = from; a < NUM_USER_ASIDS; a++)
		if (!(asid_map[a / 32] & (1u << (a % 32))))
			return a;
	return NUM_USER_ASIDS;
}

static unsigned long new_context(void)
{
	unsigned long asid = find_free_asid(cur_idx);

	if (asid == NUM_USER_ASIDS) {
		asid_generation += ASID_FIRST_VERSION;
		if (!asid_generation)		/* after 2^24 rollovers: 0 means "never had one" */
			asid_generation = ASID_FIRST_VERSION;
		memset(asid_map, 0, sizeof(asid_map));
		arm_asid_rollovers++;
		set_ttbr0(__pa(swapper_pg_dir), 0);
		__asm__ __volatile__(
			"mcr	p15, 0, %0, c8, c3, 0\n\t"	/* TLBIALLIS */
			"mcr	p15, 0, %0, c7, c1, 6\n\t"	/* BPIALLIS */
			"dsb	sy\n\t"
			"isb" :: "r"(0) : "memory");
		asid = find_free_asid(1);
	}
	asid_map[asid / 32] |= 1u << (asid % 32);
	cur_idx = asid + 1;
	return asid_generation | asid;
}

void switch_mm(struct mm_struct *prev, struct mm_struct *next)
{
	(void)prev;
	if (next == &init_mm) {
		set_ttbr0(__pa(swapper_pg_dir), 0);
		return;
	}
	if ((next->context_id ^ asid_generation) >> ASID_BITS)
		next->context_id = new_context();
	set_ttbr0(__pa(next->pgd), next->context_id & ASID_MASK);
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
