/*
 * set_memory.c - set_memory_ro/rw/x/nx (v6.10: arch/arm/mm/pageattr.c, arch/riscv/mm/pageattr.c)
 * over the portable interface of include/tinymm/pgtable.h, and mark_rodata_ro().
 *
 * One call, under init_mm.page_table_lock:
 *   1. check the whole range first: every page mapped (a present pte, or a pmd leaf), and no page
 *      the change would leave writable and executable; count the pmd leaves the range covers only
 *      partly and whose protection the change alters (at most two: the first and the last);
 *   2. if that needs more pte tables than are in hand, drop the lock, pagetable_alloc() them (it
 *      may sleep) and go back to 1, since the tables may have changed meanwhile;
 *   3. split those leaves, change every pte of the range and, in place, every leaf the range
 *      covers whole (as v6.10's riscv pageattr_pmd_entry does), flush the TLB for the range.
 *      Tables not used go back to the allocator.
 * An error in 1 or 2 returns with nothing changed and no table kept, after one console line.
 *
 * The split.  A new pte table gets the leaf's pages, each with the leaf's protection
 * (pmd_pgprot), so every page the change does not touch keeps exactly what it had.  Then
 * break-before-make: the pmd cleared, the TLB flushed for the leaf's whole PMD_SIZE, the table
 * installed, with interrupts masked.  ARMv7 LPAE requires that when a block becomes a table (two
 * TLB entries of different sizes for one address may raise a TLB conflict abort: ARM ARM
 * B3.10.1); RISC-V does not, and there it costs one flush.  During the break the leaf's range is
 * unmapped, so the code doing it, its stack and the pmd entry it writes must lie outside it: a
 * split that would unmap one of them is refused (-EBUSY).  On ARM the image is in pages, so that
 * can only be a thread's stack (until stacks come from vmalloc) or a pmd table that sits in the
 * very leaf it maps.  Split tables are never merged back, as in v6.10.
 * With more than one CPU online the break is not made: another CPU may be using the leaf at
 * that moment (its task_struct, its stack, kernel data), and an unmapped window would fault
 * it.  The table replaces the leaf in place instead, then the TLB is flushed on every CPU;
 * both translations are right meanwhile.  RISC-V allows that; on ARMv7 it departs from the
 * break-before-make rule above, a risk of a TLB conflict abort that QEMU does not model; the
 * real ARM boards run one CPU today, where the break is kept (issue 38's follow-up for their
 * SMP: split with the other CPUs parked, or keep the linear map in pages where it may change).
 *
 * What v6.10 does.  ARM (arch/arm/mm/pageattr.c): set_memory_* accept only module and vmalloc
 * addresses (-EINVAL otherwise), which are page-mapped, and change them with
 * apply_to_page_range(); nothing is split, and the image's sections get their protection at
 * section (1 MiB) granularity in arch/arm/mm/init.c's mark_rodata_ro().  RISC-V
 * (arch/riscv/mm/pageattr.c): __set_memory() under mmap_write_lock(&init_mm) splits the linear
 * map's huge leaves the range (or a vmalloc range's linear alias) covers partly
 * (split_linear_mapping: a table from alloc_page(), not counted in NR_PAGETABLE, written over the
 * leaf with no break, which RISC-V allows), changes ptes and whole leaves with
 * walk_page_range_novma(), then flush_tlb_all(); a failed allocation leaves what was already
 * split.  Neither checks W+X; numpages 0 is a no-op.  tinymm differs: W+X is refused (a tinymm
 * rule), numpages <= 0 and a misaligned addr are -EINVAL, tables are PG_table and counted,
 * nothing changes on an error, and with no aliases in the kernel address space yet there is no
 * second mapping to change.
 *
 * Locking: init_mm.page_table_lock, as in mm/pagewalk.c (tables are populated under it).  The
 * ptes of a range belong to its owner, who must not change them concurrently.
 */
#include "tinymm/errno.h"
#include "tinymm/irqflags.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sections.h"
#include "tinymm/set_memory.h"

enum prot_change { CHANGE_RO, CHANGE_RW, CHANGE_X, CHANGE_NX };

static const char *const change_name[] = {
	[CHANGE_RO] = "set_memory_ro", [CHANGE_RW] = "set_memory_rw",
	[CHANGE_X] = "set_memory_x", [CHANGE_NX] = "set_memory_nx",
};

#define MAX_SPLITS	2	/* only the first and the last leaf can be covered partly */

struct change_ctl {
	enum prot_change change;
	unsigned long start, end;
	int nr_splits;		/* leaves to split (check_range) */
	unsigned long bad;	/* where a check failed, and why */
	const char *why;
};

static pte_t change_pte(pte_t pte, enum prot_change change)
{
	switch (change) {
	case CHANGE_RO:
		return pte_wrprotect(pte);
	case CHANGE_RW:
		return pte_mkwrite_novma(pte);
	case CHANGE_X:
		return pte_mkexec(pte);
	default:
		return pte_mknexec(pte);
	}
}

/* The pte of the page at @addr inside a leaf: its frame, the leaf's protection. */
static pte_t leaf_page(pmd_t pmd, unsigned long addr)
{
	return pfn_pte(pmd_pfn(pmd) + ((addr & ~PMD_MASK) >> PAGE_SHIFT), pmd_pgprot(pmd));
}

/* The pmd entry mapping @addr (a leaf or a pte table), or NULL. */
static pmd_t *kernel_pmd(unsigned long addr)
{
	pgd_t *pgd = pgd_offset_k(addr);
	pmd_t *pmd;

	if (pgd_none(*pgd) || pgd_bad(*pgd))
		return NULL;
	pmd = pmd_offset(pgd, addr);
	if (pmd_none(pmdp_get(pmd)) || pmd_bad(pmdp_get(pmd)))
		return NULL;
	return pmd;
}

static bool in_leaf(unsigned long a, unsigned long base)
{
	return a - base < PMD_SIZE;
}

static void split_leaf_locked(pmd_t *pmdp, unsigned long base, struct page *table);

/*
 * Would unmapping the leaf at @base for a moment take away what the split runs on?  The pmd
 * entry it writes, this stack around here, split_leaf_locked()'s code.
 */
static bool split_hazard(pmd_t *pmdp, unsigned long base)
{
	unsigned long sp = (unsigned long)(uintptr_t)__builtin_frame_address(0);
	unsigned long code = (unsigned long)(uintptr_t)&split_leaf_locked;

	return in_leaf((unsigned long)(uintptr_t)pmdp, base) || in_leaf(sp - SZ_1K, base) ||
	       in_leaf(sp + SZ_1K, base) || in_leaf(code, base) || in_leaf(code + SZ_1K, base);
}

static int refuse(struct change_ctl *c, unsigned long addr, const char *why, int err)
{
	c->bad = addr;
	c->why = why;
	return err;
}

static bool makes_w_and_x(pte_t pte)
{
	return pte_write(pte) && pte_exec(pte);
}

/* Step 1: may the whole range change, and how many leaves must be split for it? */
static int check_range_locked(struct change_ctl *c)
{
	lockdep_assert_held(&init_mm.page_table_lock);
	c->nr_splits = 0;
	for (unsigned long addr = c->start, next; addr != c->end; addr = next) {
		pmd_t *pmdp = kernel_pmd(addr);
		pmd_t pmd;

		next = pmd_addr_end(addr, c->end);
		if (!pmdp)
			return refuse(c, addr, "not mapped", -EINVAL);
		pmd = pmdp_get(pmdp);
		if (pmd_leaf(pmd)) {
			pte_t old = leaf_page(pmd, addr), new = change_pte(old, c->change);

			if (makes_w_and_x(new))
				return refuse(c, addr, "would be writable and executable (W^X)", -EINVAL);
			if (pte_val(new) == pte_val(old) || next - addr == PMD_SIZE)
				continue;		/* nothing to do, or the leaf changes whole */
			if (split_hazard(pmdp, addr & PMD_MASK))
				return refuse(c, addr & PMD_MASK,
					      "cannot split the leaf (it holds the split's code, stack or pmd)",
					      -EBUSY);
			c->nr_splits++;
			continue;
		}
		pte_t *pte = pte_offset_kernel(pmdp, addr);
		for (unsigned long a = addr; a != next; a += PAGE_SIZE, pte++) {
			pte_t old = ptep_get(pte);

			if (!pte_present(old))
				return refuse(c, a, "not mapped", -EINVAL);
			if (makes_w_and_x(change_pte(old, c->change)))
				return refuse(c, a, "would be writable and executable (W^X)", -EINVAL);
		}
	}
	return 0;
}

/*
 * Replace the leaf at @pmdp (mapping [@base, @base + PMD_SIZE)) by @table holding the same pages
 * with the same protection, break-before-make (the header says why and what may not be in the
 * leaf).  Nothing in the window touches memory but the pmd entry.
 */
static void split_leaf_locked(pmd_t *pmdp, unsigned long base, struct page *table)
{
	pmd_t pmd = pmdp_get(pmdp);
	pte_t *pte = page_address(table);
	unsigned long flags;

	lockdep_assert_held(&init_mm.page_table_lock);
	for (unsigned int i = 0; i < PTRS_PER_PTE; i++)
		set_pte(pte + i, pfn_pte(pmd_pfn(pmd) + i, pmd_pgprot(pmd)));
	local_irq_save(flags);
	if (num_online_cpus() > 1) {
		/* Other CPUs may be using the leaf right now (a task_struct, a stack, this code): a
		 * break would fault them.  The table maps the same frames with the same attributes,
		 * so the entry is replaced in place and either translation is right meanwhile, as
		 * v6.10 does on RISC-V. */
		pmd_populate_kernel(&init_mm, pmdp, pte);
		flush_tlb_kernel_range(base, base + PMD_SIZE);
	} else {
		pmd_clear(pmdp);
		flush_tlb_kernel_range(base, base + PMD_SIZE);
		pmd_populate_kernel(&init_mm, pmdp, pte);
	}
	local_irq_restore(flags);
}

/* Step 3: the change itself, on a range check_range_locked() passed; @spare holds its tables. */
static void change_range_locked(struct change_ctl *c, struct page **spare, int *nr_spare)
{
	lockdep_assert_held(&init_mm.page_table_lock);
	for (unsigned long addr = c->start, next; addr != c->end; addr = next) {
		pmd_t *pmdp = kernel_pmd(addr);
		pmd_t pmd = pmdp_get(pmdp);

		next = pmd_addr_end(addr, c->end);
		if (pmd_leaf(pmd)) {
			pte_t old = leaf_page(pmd, addr & PMD_MASK), new = change_pte(old, c->change);

			if (pte_val(new) == pte_val(old))
				continue;
			if (next - addr == PMD_SIZE) {
				set_pmd(pmdp, pfn_pmd(pmd_pfn(pmd), pte_pgprot(new)));
				continue;
			}
			split_leaf_locked(pmdp, addr & PMD_MASK, spare[--*nr_spare]);
		}
		pte_t *pte = pte_offset_kernel(pmdp, addr);
		for (unsigned long a = addr; a != next; a += PAGE_SIZE, pte++) {
			pte_t old = ptep_get(pte), new = change_pte(old, c->change);

			if (pte_val(new) != pte_val(old))
				set_pte_at(&init_mm, a, pte, new);
		}
	}
	flush_tlb_kernel_range(c->start, c->end);
}

static int change_memory(unsigned long addr, int numpages, enum prot_change change)
{
	struct change_ctl c = { .change = change, .start = addr };
	struct page *spare[MAX_SPLITS];
	int nr_spare = 0, err;
	unsigned long room = addr ? (0UL - addr) >> PAGE_SHIFT : ~0UL >> PAGE_SHIFT;

	if (addr & ~PAGE_MASK) {
		pr_err("%s: %#lx is not page-aligned: nothing changed\n", change_name[change], addr);
		return -EINVAL;
	}
	if (numpages <= 0 || (unsigned long)numpages > room) {
		pr_err("%s: %d pages at %#lx: not a range: nothing changed\n", change_name[change],
		       numpages, addr);
		return -EINVAL;
	}
	c.end = addr + ((unsigned long)numpages << PAGE_SHIFT);	/* 0: the top of the space */
	for (;;) {
		spin_lock(&init_mm.page_table_lock);
		err = check_range_locked(&c);
		if (err || c.nr_splits <= nr_spare)
			break;
		spin_unlock(&init_mm.page_table_lock);
		while (nr_spare < c.nr_splits) {
			spare[nr_spare] = pagetable_alloc(GFP_KERNEL, 0);
			if (!spare[nr_spare]) {
				err = refuse(&c, addr, "no memory for a page table to split a leaf", -ENOMEM);
				goto out;
			}
			nr_spare++;
		}
	}
	if (!err)
		change_range_locked(&c, spare, &nr_spare);
	spin_unlock(&init_mm.page_table_lock);
out:
	while (nr_spare)
		pagetable_free(spare[--nr_spare]);
	if (err)
		pr_err("%s: [%#lx-%#lx): %#lx %s: nothing changed\n", change_name[change], c.start,
		       c.end, c.bad, c.why);
	return err;
}

int set_memory_ro(unsigned long addr, int numpages)
{
	return change_memory(addr, numpages, CHANGE_RO);
}

int set_memory_rw(unsigned long addr, int numpages)
{
	return change_memory(addr, numpages, CHANGE_RW);
}

int set_memory_x(unsigned long addr, int numpages)
{
	return change_memory(addr, numpages, CHANGE_X);
}

int set_memory_nx(unsigned long addr, int numpages)
{
	return change_memory(addr, numpages, CHANGE_NX);
}

/*
 * The end of boot, before the first thread runs anything (boot/main.c's kernel_init, where
 * v6.10's mark_readonly() is): __ro_after_init read-only.  Only where the CPU translates through
 * the kernel's tables (arch_has_live_kernel_tables(): not RISC-V while satp is Bare, where the
 * range is not even mapped); elsewhere one line says the data stays writable.
 */
void mark_rodata_ro(void)
{
	unsigned long start = (unsigned long)(uintptr_t)__start_ro_after_init;
	unsigned long end = (unsigned long)(uintptr_t)__end_ro_after_init;

	if (!arch_has_live_kernel_tables()) {
		pr_info("mark_rodata_ro: the MMU is not on the kernel's page tables: __ro_after_init stays writable\n");
		return;
	}
	if (end == start)
		return;
	if (!set_memory_ro(start, (int)((end - start) >> PAGE_SHIFT)))
		pr_info("Write protecting __ro_after_init: [%#lx-%#lx), %luk\n", start, end,
			(end - start) >> 10);
}
