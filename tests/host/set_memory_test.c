/*
 * set_memory_test.c - set_memory_ro/rw/x/nx and mark_rodata_ro() (mm/set_memory.c) over the
 * host's fake architecture (tests/host/include/asm/pgtable.h), over an 8 MiB fake RAM booted
 * afresh for every case.  Built twice like pgtable_test.c: host.set_memory with three levels
 * (2 MiB leaves, 512 ptes a table) and host.set_memory_2level with two (4 MiB leaves in the
 * folded pgd, 1024 ptes a table).
 *
 * What it checks: a leaf split in its middle and at either edge, and a range over two leaves,
 * with every page of each new table checked (frame and exact protection: the untouched pages
 * keep the leaf's); the new table PG_table and counted; break-before-make seen in the flush log
 * (the leaf's whole range flushed, then the changed range); a leaf covered whole changed in place
 * and a change that alters nothing splitting nothing; the -EINVAL cases (misaligned, numpages
 * <= 0, past the top, unmapped pte, unmapped pmd, W+X both ways) with one line and nothing
 * changed; -EBUSY when the leaf holds its own pmd entry; -ENOMEM with RAM exhausted, for one and
 * for two splits, leaving every table frame back; ro/rw round trips with no new table and no
 * leak; mark_rodata_ro() with the tables live and not.
 */
#include "test.h"
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/meminfo.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sections.h"
#include "tinymm/set_memory.h"
#include "tinymm/slab.h"
#include "tinymm/time.h"
#include "tinymm/vmstat.h"
#include "fake_pgtable.h"
#include "fake_ram.h"

#define RAM_SIZE	(8 * SZ_1M)
#define THREE		(PGTABLE_LEVELS == 3)
#define NPTE		PTRS_PER_PTE
/* Where the tests put their "direct map" leaves: kernel addresses outside the vmalloc range. */
#define LEAF_VA		(THREE ? 0xffffffc000000000UL : 0x80000000UL)
static char *ram;
static unsigned long pfn0;

static int group_setup(void **state)
{
	ram = fake_ram_alloc(RAM_SIZE);
	return ram ? 0 : -1;
}

static int group_teardown(void **state)
{
	free(ram);
	return 0;
}

static int setup(void **state)
{
	assert_int_equal(fake_mmu_boot(ram, RAM_SIZE, 0, &pfn0), 0);
	time_init(1000000);
	console_loglevel = 7;
	shim_console_reset();
	return 0;
}

static unsigned long nr_pagetable(void)
{
	return global_node_page_state(NR_PAGETABLE);
}

/* Frames of the fake RAM typed PG_table: with nr_pagetable(), what a leak would change. */
static unsigned long table_frames(void)
{
	unsigned long n = 0;

	for (unsigned long pfn = pfn0; pfn < pfn0 + RAM_SIZE / PAGE_SIZE; pfn++)
		n += PageTable(pfn_to_page(pfn));
	return n;
}

/* The pmd entry for @va, making the pmd table above it with three levels. */
static pmd_t *pmd_for(unsigned long va)
{
	pgd_t *pgd = pgd_offset_k(va);

#if PGTABLE_LEVELS == 3
	if (pgd_none(*pgd)) {
		struct page *t = pagetable_alloc(GFP_KERNEL, 0);

		assert_non_null(t);
		pgd_populate(&init_mm, pgd, (pmd_t *)page_address(t));
	}
#endif
	return pmd_offset(pgd, va);
}

/* A direct-map leaf at @va over the frames from @pfn, as paging_init() makes them. */
static pmd_t *map_leaf(unsigned long va, unsigned long pfn, pgprot_t prot)
{
	pmd_t *pmd = pmd_for(va);

	set_pmd(pmd, pfn_pmd(pfn, prot));
	return pmd;
}

/* Every pte of the table @pmd points to: frame @pfn + i, protection @in for the pages
 * [first, first + n) and @out for the others. */
static void assert_table(pmd_t *pmd, unsigned long pfn, unsigned int first, unsigned int n,
			 pgprot_t in, pgprot_t out)
{
	assert_false(pmd_none(*pmd) || pmd_leaf(*pmd));
	assert_true(PageTable(virt_to_page((void *)pmd_page_vaddr(*pmd))));
	pte_t *pte = (pte_t *)pmd_page_vaddr(*pmd);
	for (unsigned int i = 0; i < NPTE; i++) {
		pgprot_t want = i >= first && i < first + n ? in : out;

		if (pte_val(pte[i]) != pte_val(pfn_pte(pfn + i, want)))
			fail_msg("pte %u of %u: %#llx, want %#llx", i, (unsigned int)NPTE,
				 (unsigned long long)pte_val(pte[i]),
				 (unsigned long long)pte_val(pfn_pte(pfn + i, want)));
	}
}

/* Was [@start, @end) flushed by one of the last @back calls? */
static bool flushed(unsigned long start, unsigned long end, unsigned long back)
{
	for (unsigned long n = fake_tlb_flushes; n && back--; n--)
		if (fake_tlb_log[(n - 1) % FAKE_TLB_LOG][0] == start &&
		    fake_tlb_log[(n - 1) % FAKE_TLB_LOG][1] == end)
			return true;
	return false;
}

static unsigned long last_flush(int i)
{
	return fake_tlb_log[(fake_tlb_flushes - 1) % FAKE_TLB_LOG][i];
}

/* A leaf's protection no kernel default has (non-cacheable where the fake has the field, old,
 * clean), so a split that rebuilt the ptes from PAGE_KERNEL instead of the leaf would show. */
static pgprot_t odd_prot(void)
{
	return pte_pgprot(pte_mkclean(pte_mkold(pfn_pte(0, pgprot_writecombine(PAGE_KERNEL)))));
}

static pgprot_t wrprotected(pgprot_t prot)
{
	return pte_pgprot(pte_wrprotect(pfn_pte(0, prot)));
}

static void split_in_the_middle(void **state)
{
	pgprot_t prot = odd_prot();
	pmd_t *pmd = map_leaf(LEAF_VA, pfn0, prot);
	unsigned long tables = nr_pagetable(), flushes = fake_tlb_flushes;
	unsigned long addr = LEAF_VA + 100 * PAGE_SIZE;

	assert_int_not_equal(pgprot_val(prot), pgprot_val(PAGE_KERNEL));
	assert_int_equal(set_memory_ro(addr, 3), 0);
	assert_table(pmd, pfn0, 100, 3, wrprotected(prot), prot);
	assert_int_equal(nr_pagetable(), tables + 1);
	assert_int_equal(table_frames(), nr_pagetable());
	/* break-before-make: the leaf's whole range, then the range changed */
	assert_int_equal(fake_tlb_flushes, flushes + 2);
	assert_true(flushed(LEAF_VA, LEAF_VA + PMD_SIZE, 2));
	assert_int_equal(last_flush(0), addr);
	assert_int_equal(last_flush(1), addr + 3 * PAGE_SIZE);
	assert_ptr_equal(virt_to_kpte(addr), (pte_t *)pmd_page_vaddr(*pmd) + 100);

	/* Now in pages: back to RW in the same table, no second split. */
	assert_int_equal(set_memory_rw(addr, 3), 0);
	assert_table(pmd, pfn0, 0, 0, prot, prot);
	assert_int_equal(nr_pagetable(), tables + 1);
}

static void split_at_the_edges(void **state)
{
	pmd_t *pmd = map_leaf(LEAF_VA, pfn0, PAGE_KERNEL);
	pmd_t *pmd2 = map_leaf(LEAF_VA + PMD_SIZE, pfn0, PAGE_KERNEL);
	pmd_t *pmd3 = map_leaf(LEAF_VA + 2 * PMD_SIZE, pfn0, PAGE_KERNEL);
	unsigned long tables = nr_pagetable();

	/* first page of one leaf, last page of the next */
	assert_int_equal(set_memory_nx(LEAF_VA, 1), 0);		/* NX already: nothing split */
	assert_true(pmd_leaf(*pmd));
	assert_int_equal(nr_pagetable(), tables);
	assert_int_equal(set_memory_ro(LEAF_VA, 1), 0);
	assert_table(pmd, pfn0, 0, 1, PAGE_KERNEL_RO, PAGE_KERNEL);
	assert_int_equal(set_memory_ro(LEAF_VA + 2 * PMD_SIZE - PAGE_SIZE, 1), 0);
	assert_table(pmd2, pfn0, NPTE - 1, 1, PAGE_KERNEL_RO, PAGE_KERNEL);
	assert_int_equal(nr_pagetable(), tables + 2);
	assert_true(pmd_leaf(*pmd3));

	/* Over a boundary: the last two pages of the second leaf (now a table) and the first two
	 * of the third, which is split; then a fourth leaf whole (in place), a fifth partly. */
	assert_int_equal(set_memory_ro(LEAF_VA + 2 * PMD_SIZE - 2 * PAGE_SIZE, 4), 0);
	assert_table(pmd2, pfn0, NPTE - 2, 2, PAGE_KERNEL_RO, PAGE_KERNEL);
	assert_table(pmd3, pfn0, 0, 2, PAGE_KERNEL_RO, PAGE_KERNEL);
	assert_int_equal(nr_pagetable(), tables + 3);

	pmd_t *pmd4 = map_leaf(LEAF_VA + 3 * PMD_SIZE, pfn0 + NPTE, PAGE_KERNEL);
	pmd_t *pmd5 = map_leaf(LEAF_VA + 4 * PMD_SIZE, pfn0, PAGE_KERNEL);
	unsigned long flushes = fake_tlb_flushes;
	assert_int_equal(set_memory_ro(LEAF_VA + 3 * PMD_SIZE, NPTE + 1), 0);
	assert_true(pmd_leaf(*pmd4));				/* whole: in place */
	assert_int_equal(pmd_val(*pmd4), pmd_val(pfn_pmd(pfn0 + NPTE, PAGE_KERNEL_RO)));
	assert_table(pmd5, pfn0, 0, 1, PAGE_KERNEL_RO, PAGE_KERNEL);
	assert_int_equal(nr_pagetable(), tables + 4);
	assert_int_equal(fake_tlb_flushes, flushes + 2);	/* pmd5's break, the range */
	assert_int_equal(last_flush(0), LEAF_VA + 3 * PMD_SIZE);
	assert_int_equal(last_flush(1), LEAF_VA + 4 * PMD_SIZE + PAGE_SIZE);
}

/* A range over two leaves covered partly: both split in one call (two spare tables). */
static void two_splits_in_one_call(void **state)
{
	pgprot_t prot = odd_prot();
	pmd_t *a = map_leaf(LEAF_VA, pfn0, PAGE_KERNEL);
	pmd_t *b = map_leaf(LEAF_VA + PMD_SIZE, pfn0 + NPTE, prot);
	unsigned long tables = nr_pagetable();

	assert_int_equal(set_memory_ro(LEAF_VA + PMD_SIZE - 3 * PAGE_SIZE, 5), 0);
	assert_table(a, pfn0, NPTE - 3, 3, PAGE_KERNEL_RO, PAGE_KERNEL);
	assert_table(b, pfn0 + NPTE, 0, 2, wrprotected(prot), prot);
	assert_int_equal(nr_pagetable(), tables + 2);
	assert_int_equal(table_frames(), nr_pagetable());
}

static void bad_input_changes_nothing(void **state)
{
	pmd_t *pmd = map_leaf(LEAF_VA, pfn0, PAGE_KERNEL);
	struct page *pages[3] = { alloc_page(GFP_KERNEL), alloc_page(GFP_KERNEL), alloc_page(GFP_KERNEL) };
	unsigned long va = VMALLOC_START, tables, flushes;
	pmd_t leaf = *pmd;

	/* vmalloc-style ptes with a hole at the second page */
	assert_int_equal(vmap_pages_range(va, va + PAGE_SIZE, PAGE_KERNEL, &pages[0]), 0);
	assert_int_equal(vmap_pages_range(va + 2 * PAGE_SIZE, va + 3 * PAGE_SIZE, PAGE_KERNEL,
					  &pages[2]), 0);
	tables = nr_pagetable();
	flushes = fake_tlb_flushes;

	shim_console_reset();
	assert_int_equal(set_memory_ro(LEAF_VA + 1, 1), -EINVAL);
	assert_console_has("set_memory_ro: 0x");
	assert_console_has(" is not page-aligned: nothing changed\n");
	assert_int_equal(set_memory_ro(LEAF_VA, 0), -EINVAL);
	assert_int_equal(set_memory_rw(LEAF_VA, -1), -EINVAL);
	assert_console_has("set_memory_rw: -1 pages at 0x");
	assert_int_equal(set_memory_nx(0UL - 2 * PAGE_SIZE, 3), -EINVAL);	/* past the top */
	/* the hole between two present ptes: the first is not changed either */
	shim_console_reset();
	assert_int_equal(set_memory_ro(va, 3), -EINVAL);
	char want[120];
	snprintf(want, sizeof(want), "set_memory_ro: [%#lx-%#lx): %#lx not mapped: nothing changed\n",
		 va, va + 3 * PAGE_SIZE, va + PAGE_SIZE);
	assert_console_has(want);
	assert_true(pte_write(ptep_get(virt_to_kpte(va))));
	/* a leaf that would be split, then no pmd entry: no split, no table */
	assert_int_equal(set_memory_ro(LEAF_VA + PMD_SIZE - PAGE_SIZE, 2), -EINVAL);
	assert_int_equal(pmd_val(*pmd), pmd_val(leaf));
	/* nothing mapped there at all (three levels: no pmd table either) */
	assert_int_equal(set_memory_x(LEAF_VA + 64 * PMD_SIZE, 1), -EINVAL);
	assert_int_equal(nr_pagetable(), tables);
	assert_int_equal(fake_tlb_flushes, flushes);		/* nothing changed, nothing flushed */

	vunmap_range(va, va + 3 * PAGE_SIZE);
	for (int i = 0; i < 3; i++)
		__free_page(pages[i]);
}

static void w_and_x_refused(void **state)
{
	struct page *pages[4];
	unsigned long va = VMALLOC_START;
	pmd_t *pmd = map_leaf(LEAF_VA, pfn0, PAGE_KERNEL);
	unsigned long tables;

	for (int i = 0; i < 4; i++)
		assert_non_null(pages[i] = alloc_page(GFP_KERNEL));
	assert_int_equal(vmap_pages_range(va, va + 4 * PAGE_SIZE, PAGE_KERNEL_RO, pages), 0);
	tables = nr_pagetable();

	/* RO -> X -> RW refused -> NX -> RW: each step's pte exactly */
	assert_int_equal(set_memory_x(va, 1), 0);
	assert_int_equal(pte_val(ptep_get(virt_to_kpte(va))),
			 pte_val(pfn_pte(page_to_pfn(pages[0]), PAGE_KERNEL_EXEC)));
	shim_console_reset();
	assert_int_equal(set_memory_rw(va, 1), -EINVAL);
	assert_console_has("would be writable and executable (W^X): nothing changed\n");
	assert_true(pte_exec(ptep_get(virt_to_kpte(va))) && !pte_write(ptep_get(virt_to_kpte(va))));
	assert_int_equal(set_memory_nx(va, 1), 0);
	assert_int_equal(set_memory_rw(va, 1), 0);
	assert_int_equal(pte_val(ptep_get(virt_to_kpte(va))),
			 pte_val(pfn_pte(page_to_pfn(pages[0]), PAGE_KERNEL)));

	/* X over a range with one writable page (the first): refused, none made X */
	shim_console_reset();
	assert_int_equal(set_memory_x(va, 4), -EINVAL);
	assert_console_has("set_memory_x: [");
	for (int i = 0; i < 4; i++)
		assert_false(pte_exec(ptep_get(virt_to_kpte(va + i * PAGE_SIZE))));
	/* RW over a range with an executable page at its end: none made writable */
	assert_int_equal(set_memory_x(va + 3 * PAGE_SIZE, 1), 0);
	assert_int_equal(set_memory_rw(va + PAGE_SIZE, 3), -EINVAL);
	for (int i = 1; i < 4; i++)
		assert_false(pte_write(ptep_get(virt_to_kpte(va + i * PAGE_SIZE))));

	/* a writable leaf: X refused before any split */
	assert_int_equal(set_memory_x(LEAF_VA + 5 * PAGE_SIZE, 1), -EINVAL);
	assert_true(pmd_leaf(*pmd));
	assert_int_equal(nr_pagetable(), tables);

	vunmap_range(va, va + 4 * PAGE_SIZE);
	for (int i = 0; i < 4; i++)
		__free_page(pages[i]);
}

/* The leaf holds the pmd entry that maps it: the break would unmap the entry to be written. */
static void leaf_holding_its_own_pmd_refused(void **state)
{
	pmd_t *pmd;
	unsigned long base;

#if PGTABLE_LEVELS == 3
	struct page *t = pagetable_alloc(GFP_KERNEL, 0);

	assert_non_null(t);
	base = (unsigned long)page_address(t) & PMD_MASK;
	assert_true(pgd_none(*pgd_offset_k(base)));
	pgd_populate(&init_mm, pgd_offset_k(base), (pmd_t *)page_address(t));
#else
	base = (unsigned long)&swapper_pg_dir[0] & PMD_MASK;
	if (((unsigned long)&swapper_pg_dir[PTRS_PER_PGD] & PMD_MASK) != base)
		skip();		/* the root straddles a 4 MiB boundary in this build */
#endif
	pmd = pmd_offset(pgd_offset_k(base), base);
	assert_true(((unsigned long)pmd & PMD_MASK) == base);
	set_pmd(pmd, pfn_pmd(pfn0, PAGE_KERNEL));
	unsigned long tables = nr_pagetable();

	shim_console_reset();
	assert_int_equal(set_memory_ro(base + 7 * PAGE_SIZE, 1), -EBUSY);
	assert_console_has("cannot split the leaf");
	assert_true(pmd_leaf(*pmd));
	assert_int_equal(nr_pagetable(), tables);
	/* the whole leaf needs no split: allowed */
	assert_int_equal(set_memory_ro(base, NPTE), 0);
	assert_int_equal(pmd_val(*pmd), pmd_val(pfn_pmd(pfn0, PAGE_KERNEL_RO)));
	pmd_clear(pmd);
#if PGTABLE_LEVELS == 3
	pgd_clear(pgd_offset_k(base));
	pagetable_free(t);
#endif
}

static void no_memory_changes_nothing(void **state)
{
	static struct page *held[RAM_SIZE / PAGE_SIZE];
	pmd_t *a = map_leaf(LEAF_VA, pfn0, PAGE_KERNEL);
	pmd_t *b = map_leaf(LEAF_VA + PMD_SIZE, pfn0 + NPTE, PAGE_KERNEL);
	pmd_t la = *a, lb = *b;
	unsigned long n = 0, tables = nr_pagetable(), flushes = fake_tlb_flushes;

	while ((held[n] = alloc_page(GFP_KERNEL | __GFP_NOWARN)))
		n++;
	unsigned long free0 = nr_free_pages_and_pcp();
	shim_console_reset();
	assert_int_equal(set_memory_ro(LEAF_VA + 9 * PAGE_SIZE, 1), -ENOMEM);
	assert_console_has("page allocation failure: order:0");
	assert_console_has("no memory for a page table to split a leaf: nothing changed\n");
	assert_int_equal(pmd_val(*a), pmd_val(la));
	assert_int_equal(nr_pagetable(), tables);
	assert_int_equal(table_frames(), tables);
	/* one frame back: enough for one split, not for the two this range needs */
	__free_page(held[--n]);
	assert_int_equal(set_memory_ro(LEAF_VA + PMD_SIZE - PAGE_SIZE, 2), -ENOMEM);
	assert_int_equal(pmd_val(*a), pmd_val(la));
	assert_int_equal(pmd_val(*b), pmd_val(lb));
	assert_int_equal(nr_pagetable(), tables);
	assert_int_equal(table_frames(), tables);
	assert_int_equal(nr_free_pages_and_pcp(), free0 + 1);	/* the frame tried is back */
	assert_int_equal(fake_tlb_flushes, flushes);
	/* with a second one it works */
	__free_page(held[--n]);
	assert_int_equal(set_memory_ro(LEAF_VA + PMD_SIZE - PAGE_SIZE, 2), 0);
	assert_table(a, pfn0, NPTE - 1, 1, PAGE_KERNEL_RO, PAGE_KERNEL);
	assert_table(b, pfn0 + NPTE, 0, 1, PAGE_KERNEL_RO, PAGE_KERNEL);
	assert_int_equal(nr_pagetable(), tables + 2);
	while (n)
		__free_page(held[--n]);
	assert_int_equal(buddy_check(NULL), 0);
}

static void round_trips_keep_everything(void **state)
{
	pmd_t *pmd = map_leaf(LEAF_VA, pfn0, PAGE_KERNEL);
	struct page *pages[2] = { alloc_page(GFP_KERNEL), alloc_page(GFP_KERNEL) };
	unsigned long va = VMALLOC_START, tables, free0;

	assert_int_equal(vmap_pages_range(va, va + 2 * PAGE_SIZE, PAGE_KERNEL, pages), 0);
	assert_int_equal(set_memory_ro(LEAF_VA + 17 * PAGE_SIZE, 2), 0);	/* the one split */
	tables = nr_pagetable();
	free0 = nr_free_pages_and_pcp();
	for (int round = 0; round < 50; round++) {
		unsigned long flushes = fake_tlb_flushes;

		assert_int_equal(set_memory_rw(LEAF_VA + 17 * PAGE_SIZE, 2), 0);
		assert_int_equal(set_memory_ro(va, 2), 0);
		assert_table(pmd, pfn0, 0, 0, PAGE_KERNEL, PAGE_KERNEL);
		assert_false(pte_write(ptep_get(virt_to_kpte(va + PAGE_SIZE))));
		assert_int_equal(set_memory_ro(LEAF_VA + 17 * PAGE_SIZE, 2), 0);
		assert_int_equal(set_memory_rw(va, 2), 0);
		assert_table(pmd, pfn0, 17, 2, PAGE_KERNEL_RO, PAGE_KERNEL);
		for (int i = 0; i < 2; i++)
			assert_int_equal(pte_val(ptep_get(virt_to_kpte(va + i * PAGE_SIZE))),
					 pte_val(pfn_pte(page_to_pfn(pages[i]), PAGE_KERNEL)));
		assert_int_equal(fake_tlb_flushes, flushes + 4);	/* one per call */
		assert_int_equal(last_flush(0), va);
		assert_int_equal(last_flush(1), va + 2 * PAGE_SIZE);
	}
	assert_int_equal(nr_pagetable(), tables);
	assert_int_equal(nr_free_pages_and_pcp(), free0);
	vunmap_range(va, va + 2 * PAGE_SIZE);
	__free_page(pages[0]);
	__free_page(pages[1]);
}

static void mark_rodata_ro_protects_the_range(void **state)
{
	unsigned long start = (unsigned long)__start_ro_after_init;
	unsigned long end = (unsigned long)__end_ro_after_init;
	unsigned long n = (end - start) >> PAGE_SHIFT;
	struct page *pages[2];

	assert_int_equal(start & ~PAGE_MASK, 0);
	assert_int_equal(n, 2);					/* fake_pgtable.c's */
	for (unsigned long i = 0; i < n; i++)
		assert_non_null(pages[i] = alloc_page(GFP_KERNEL));
	assert_int_equal(vmap_pages_range(start, end, PAGE_KERNEL, pages), 0);

	fake_kernel_tables_live = false;			/* RISC-V with satp Bare */
	shim_console_reset();
	mark_rodata_ro();
	assert_console_has("mark_rodata_ro: the MMU is not on the kernel's page tables: __ro_after_init stays writable\n");
	for (unsigned long i = 0; i < n; i++)
		assert_true(pte_write(ptep_get(virt_to_kpte(start + i * PAGE_SIZE))));

	fake_kernel_tables_live = true;
	shim_console_reset();
	mark_rodata_ro();
	assert_console_has("Write protecting __ro_after_init: [0x");
	assert_console_has("), 8k\n");
	for (unsigned long i = 0; i < n; i++)
		assert_int_equal(pte_val(ptep_get(virt_to_kpte(start + i * PAGE_SIZE))),
				 pte_val(pfn_pte(page_to_pfn(pages[i]), PAGE_KERNEL_RO)));
	assert_int_equal(last_flush(0), start);
	assert_int_equal(last_flush(1), end);
	vunmap_range(start, end);
	for (unsigned long i = 0; i < n; i++)
		__free_page(pages[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(split_in_the_middle, setup),
		cmocka_unit_test_setup(split_at_the_edges, setup),
		cmocka_unit_test_setup(two_splits_in_one_call, setup),
		cmocka_unit_test_setup(bad_input_changes_nothing, setup),
		cmocka_unit_test_setup(w_and_x_refused, setup),
		cmocka_unit_test_setup(leaf_holding_its_own_pmd_refused, setup),
		cmocka_unit_test_setup(no_memory_changes_nothing, setup),
		cmocka_unit_test_setup(round_trips_keep_everything, setup),
		cmocka_unit_test_setup(mark_rodata_ro_protects_the_range, setup),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
