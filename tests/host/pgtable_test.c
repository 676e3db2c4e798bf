/*
 * pgtable_test.c - the portable page-table interface (include/tinymm/pgtable.h) and its walkers
 * (mm/pagewalk.c) over the host's fake architecture (tests/host/include/asm/pgtable.h), on the
 * host under ASan/UBSan, over an 8 MiB fake RAM booted afresh for every case.  Built twice:
 * host.pgtable with three levels (Sv39-like, 64-bit entries) and host.pgtable_2level with two
 * (Sv32-like, 32-bit entries, the pmd folded into the pgd), so folding is tested too.
 *
 * What it checks: the pte accessors and protections; apply_to_page_range() allocates exactly
 * the tables a range needs, each PG_table and counted in NR_PAGETABLE (and meminfo/vmstat);
 * apply_to_existing_page_range() allocates nothing; vmap_pages_range()/vunmap_range() map and
 * clear, flush the TLB, and free the emptied pte table where the rule allows (three levels;
 * with two the pgd points at it and it stays); walk_page_range_novma() reports holes at v6.10's
 * depth, every pte of a table, and a pmd leaf without descending into it; a leaf refuses apply
 * and vunmap with a WARNING; -ENOMEM leaves nothing behind; mapping over a present pte is a
 * WARNING and -EBUSY.
 */
#include "test.h"
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/kernel-page-flags.h"
#include "tinymm/memblock.h"
#include "tinymm/meminfo.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/ptdump.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "tinymm/time.h"
#include "tinymm/vmstat.h"
#include "fake_pgtable.h"
#include "fake_ram.h"

#define RAM_SIZE	(8 * SZ_1M)
#define THREE		(PGTABLE_LEVELS == 3)
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

/* Frames of the fake RAM typed PG_table. */
static unsigned long table_frames(void)
{
	unsigned long n = 0;

	for (unsigned long pfn = pfn0; pfn < pfn0 + RAM_SIZE / PAGE_SIZE; pfn++)
		n += PageTable(pfn_to_page(pfn));
	return n;
}

static unsigned long nr_pagetable(void)
{
	return global_node_page_state(NR_PAGETABLE);
}

static void assert_tables(unsigned long n)
{
	assert_int_equal(nr_pagetable(), n);
	assert_int_equal(table_frames(), n);
}

static void geometry(void **state)
{
	assert_int_equal(PAGE_SIZE, 4096);
	if (THREE) {
		assert_int_equal(sizeof(pte_t), 8);
		assert_int_equal(PTRS_PER_PTE, 512);
		assert_int_equal(PMD_SIZE, 2 * SZ_1M);
		assert_int_equal(PGDIR_SIZE, 1UL << 30);
	} else {
		/* folded: a pmd is the pgd slot itself */
		assert_int_equal(sizeof(pte_t), 4);
		assert_int_equal(sizeof(pmd_t), sizeof(pgd_t));
		assert_int_equal(PTRS_PER_PTE, 1024);
		assert_int_equal(PTRS_PER_PMD, 1);
		assert_int_equal(PMD_SIZE, PGDIR_SIZE);
		assert_int_equal(PMD_SIZE, 4 * SZ_1M);
		pgd_t *pgd = pgd_offset_k(VMALLOC_START);
		assert_ptr_equal(pmd_offset(pgd, VMALLOC_START), (pmd_t *)pgd);
		assert_false(pgd_none(*pgd));
	}
	assert_int_equal(PTRS_PER_PTE * sizeof(pte_t), PAGE_SIZE);
	assert_ptr_equal(init_mm.pgd, swapper_pg_dir);
	assert_int_equal(pgd_offset_k(VMALLOC_START) - swapper_pg_dir, pgd_index(VMALLOC_START));
	assert_int_equal(pmd_addr_end(VMALLOC_START + 5, VMALLOC_START + 3 * PMD_SIZE),
			 VMALLOC_START + PMD_SIZE);
	assert_int_equal(pmd_addr_end(VMALLOC_START, VMALLOC_START + 5), VMALLOC_START + 5);
	/* overflow-safe at the top of the address space */
	assert_int_equal(pmd_addr_end(0UL - PAGE_SIZE, 0), 0);
}

static void pte_accessors(void **state)
{
	unsigned long pfn = pfn0 + 77;
	pte_t pte = pfn_pte(pfn, PAGE_KERNEL);

	assert_int_equal(pte_pfn(pte), pfn);
	assert_true(pte_present(pte) && pte_write(pte) && !pte_exec(pte));
	assert_false(pte_none(pte));
	assert_true(pte_none(__pte(0)) && !pte_present(__pte(0)));
	pte_t ro = pfn_pte(pfn, PAGE_KERNEL_RO), x = pfn_pte(pfn, PAGE_KERNEL_EXEC);
	assert_true(pte_present(ro) && !pte_write(ro) && !pte_exec(ro));
	assert_true(pte_present(x) && !pte_write(x) && pte_exec(x));	/* no W+X */
	assert_false(pte_write(pte_wrprotect(pte)));
	assert_true(pte_write(pte_mkwrite(pte_wrprotect(pte), NULL)));
	assert_false(pte_young(pte_mkold(pte)));
	assert_true(pte_young(pte_mkyoung(pte_mkold(pte))));
	assert_false(pte_dirty(pte_mkclean(pte)));
	assert_true(pte_dirty(pte_mkdirty(pte_mkclean(pte))));
	assert_int_equal(pte_pfn(pte_mkold(pte_wrprotect(pte))), pfn);	/* bits stay apart */

	pte_t slot = pte;
	assert_int_equal(ptep_test_and_clear_young(NULL, 0, &slot), 1);
	assert_int_equal(ptep_test_and_clear_young(NULL, 0, &slot), 0);
	assert_false(pte_young(ptep_get(&slot)));
	set_pte_at(&init_mm, 0, &slot, pte);
	assert_int_equal(pte_val(ptep_get(&slot)), pte_val(pte));
	pte_clear(&init_mm, 0, &slot);
	assert_true(pte_none(ptep_get(&slot)));

	pte_t nc = pfn_pte(pfn, pgprot_writecombine(PAGE_KERNEL));
	pte_t io = pfn_pte(pfn, pgprot_noncached(PAGE_KERNEL));
	assert_int_equal(pte_pfn(nc), pfn);
	assert_int_equal(pte_pfn(io), pfn);
	assert_true(pte_write(nc) && pte_write(io));
	if (THREE) {	/* the PBMT-like field: three distinct memory types */
		assert_int_not_equal(pte_val(nc), pte_val(pte));
		assert_int_not_equal(pte_val(io), pte_val(pte));
		assert_int_not_equal(pte_val(nc), pte_val(io));
	} else {	/* no field, as Sv32: only the request, in a software bit, refused by vmap() */
		assert_int_equal(pte_val(nc), pte_val(pte) | _PAGE_MT_NC);
		assert_int_equal(pte_val(io), pte_val(pte) | _PAGE_MT_IO);
		assert_false(arch_noncached_supported());
	}
	assert_true(pgprot_noncacheable(pgprot_writecombine(PAGE_KERNEL)));
	assert_false(pgprot_noncacheable(PAGE_KERNEL));
}

struct count { unsigned long calls, first, last; };

static int count_pte(pte_t *pte, unsigned long addr, void *data)
{
	struct count *c = data;

	if (!c->calls++)
		c->first = addr;
	c->last = addr;
	return 0;
}

static void apply_allocates_tables(void **state)
{
	/* Four pages across a pmd boundary: two pte tables (+ one pmd table with three levels). */
	unsigned long addr = VMALLOC_START + PMD_SIZE - 2 * PAGE_SIZE;
	unsigned long free0 = nr_free_pages_and_pcp();
	struct count c = { 0 };

	assert_tables(0);
	assert_int_equal(apply_to_page_range(&init_mm, addr, 4 * PAGE_SIZE, count_pte, &c), 0);
	assert_int_equal(c.calls, 4);
	assert_int_equal(c.first, addr);
	assert_int_equal(c.last, addr + 3 * PAGE_SIZE);
	assert_tables(THREE ? 3 : 2);
	assert_int_equal(nr_free_pages_and_pcp(), free0 - (THREE ? 3 : 2));
	/* the same range again: nothing new */
	assert_int_equal(apply_to_page_range(&init_mm, addr, 4 * PAGE_SIZE, count_pte, &c), 0);
	assert_tables(THREE ? 3 : 2);
	/* every table frame is zeroed but for what points further down */
	pgd_t *pgd = pgd_offset_k(addr);
	pmd_t *pmd = pmd_offset(pgd, addr);
	assert_false(pmd_none(*pmd) || pmd_leaf(*pmd));
	assert_true(PageTable(virt_to_page((void *)pmd_page_vaddr(*pmd))));
	assert_int_equal(stable_page_flags(virt_to_page((void *)pmd_page_vaddr(*pmd))),
			 1ULL << KPF_PGTABLE);				/* /proc/kpageflags */
	shim_console_reset();
	dump_page(virt_to_page((void *)pmd_page_vaddr(*pmd)), "test");
	assert_console_has("page_type: 0xfffffdff(table)");
	assert_ptr_equal(virt_to_kpte(addr), pte_offset_kernel(pmd, addr));
	assert_true(pte_none(ptep_get(virt_to_kpte(addr))));
#if PGTABLE_LEVELS == 3
	assert_true(PageTable(virt_to_page((void *)pgd_page_vaddr(*pgd))));
#endif

	/* meminfo and vmstat say the same */
	char want[64];
	assert_int_equal(shim_run("meminfo"), 0);
	snprintf(want, sizeof(want), "PageTables:     %8lu kB\n", nr_pagetable() * 4);
	assert_console_has(want);
	assert_int_equal(shim_run("vmstat"), 0);
	snprintf(want, sizeof(want), "\nnr_page_table_pages %lu\n", nr_pagetable());
	assert_console_has(want);
}

static void apply_existing_allocates_nothing(void **state)
{
	struct count c = { 0 };

	assert_int_equal(apply_to_existing_page_range(&init_mm, VMALLOC_START, 8 * PMD_SIZE,
						      count_pte, &c), 0);
	assert_int_equal(c.calls, 0);
	assert_tables(0);
	/* with one pte present, that one alone */
	struct page *page = alloc_page(GFP_KERNEL);
	unsigned long addr = VMALLOC_START + PMD_SIZE + 5 * PAGE_SIZE;
	assert_int_equal(vmap_pages_range(addr, addr + PAGE_SIZE, PAGE_KERNEL, &page), 0);
	assert_int_equal(apply_to_existing_page_range(&init_mm, VMALLOC_START, 8 * PMD_SIZE,
						      count_pte, &c), 0);
	assert_int_equal(c.calls, 1);
	assert_int_equal(c.first, addr);
	vunmap_range(addr, addr + PAGE_SIZE);
	__free_page(page);
}

static void vmap_and_vunmap_range(void **state)
{
	struct page *pages[3];
	unsigned long addr = VMALLOC_START + 7 * PAGE_SIZE;
	unsigned long free0 = nr_free_pages_and_pcp(), flushes;

	for (int i = 0; i < 3; i++)
		assert_non_null(pages[i] = alloc_page(GFP_KERNEL));
	assert_int_equal(vmap_pages_range(addr, addr + 3 * PAGE_SIZE, PAGE_KERNEL, pages), 0);
	for (int i = 0; i < 3; i++) {
		pte_t pte = ptep_get(virt_to_kpte(addr + i * PAGE_SIZE));
		assert_true(pte_present(pte) && pte_write(pte) && !pte_exec(pte));
		assert_int_equal(pte_pfn(pte), page_to_pfn(pages[i]));
	}
	assert_true(pte_none(ptep_get(virt_to_kpte(addr + 3 * PAGE_SIZE))));
	assert_true(pte_none(ptep_get(virt_to_kpte(addr - PAGE_SIZE))));
	assert_tables(THREE ? 2 : 1);

	flushes = fake_tlb_flushes;
	vunmap_range(addr, addr + 3 * PAGE_SIZE);
	assert_true(fake_tlb_flushes > flushes);
	/* three levels: the pte table went (the pmd table stays: the pgd points at it);
	 * two: the pte table is what the pgd points at, so it stays */
	assert_tables(1);
	if (THREE)
		assert_null(virt_to_kpte(addr));
	else
		assert_true(pte_none(ptep_get(virt_to_kpte(addr))));
	for (int i = 0; i < 3; i++)
		__free_page(pages[i]);
	assert_int_equal(nr_free_pages_and_pcp(), free0 - 1);
	assert_int_equal(buddy_check(NULL), 0);
}

static void vmap_over_present_pte_warns(void **state)
{
	struct page *page = alloc_page(GFP_KERNEL);
	unsigned long addr = VMALLOC_START, warnings = nr_warnings();

	assert_int_equal(vmap_pages_range(addr, addr + PAGE_SIZE, PAGE_KERNEL, &page), 0);
	assert_int_equal(vmap_pages_range(addr, addr + PAGE_SIZE, PAGE_KERNEL_RO, &page), -EBUSY);
	assert_int_equal(nr_warnings(), warnings + 1);
	assert_console_has("WARN_ON(!pte_none(ptep_get(pte))) in vmap_pte");
	assert_true(pte_write(ptep_get(virt_to_kpte(addr))));	/* the first mapping stands */
	vunmap_range(addr, addr + PAGE_SIZE);
	__free_page(page);
}

/* ---- walk_page_range_novma ---- */
struct seen { unsigned long ptes, present, leaves, tables, holes, hole_bytes; int depth; };

static int w_pmd(pmd_t *pmd, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct seen *s = walk->private;

	if (pmd_leaf(*pmd))
		s->leaves++;
	else
		s->tables++;
	return 0;
}

static int w_pte(pte_t *pte, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct seen *s = walk->private;

	s->ptes++;
	s->present += pte_present(ptep_get(pte));
	return 0;
}

static int w_hole(unsigned long addr, unsigned long next, int depth, struct mm_walk *walk)
{
	struct seen *s = walk->private;

	s->holes++;
	s->hole_bytes += next - addr;
	s->depth = depth;
	return 0;
}

static const struct mm_walk_ops seen_ops = { .pmd_entry = w_pmd, .pte_entry = w_pte,
					     .pte_hole = w_hole };

static void walk_reports_holes_ptes(void **state)
{
	struct seen s = { 0 };
	unsigned long start = VMALLOC_START, end = VMALLOC_START + 2 * PMD_SIZE;

	assert_int_equal(walk_page_range_novma(&init_mm, start, end, &seen_ops, NULL, &s), 0);
	assert_int_equal(s.ptes + s.tables + s.leaves, 0);
	assert_int_equal(s.hole_bytes, end - start);
	assert_int_equal(s.depth, THREE ? 0 : 3);	/* pgd none / folded: the pmd */
	assert_tables(0);				/* a walk allocates nothing */

	struct page *pages[2] = { alloc_page(GFP_KERNEL), alloc_page(GFP_KERNEL) };
	assert_int_equal(vmap_pages_range(start + PAGE_SIZE, start + 3 * PAGE_SIZE, PAGE_KERNEL,
					  pages), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(walk_page_range_novma(&init_mm, start, end, &seen_ops, NULL, &s), 0);
	assert_int_equal(s.tables, 1);
	assert_int_equal(s.ptes, PMD_SIZE / PAGE_SIZE);	/* every pte of the one table */
	assert_int_equal(s.present, 2);
	assert_int_equal(s.holes, 1);
	assert_int_equal(s.hole_bytes, PMD_SIZE);
	assert_int_equal(s.depth, 3);
	vunmap_range(start + PAGE_SIZE, start + 3 * PAGE_SIZE);
	__free_page(pages[0]);
	__free_page(pages[1]);
}

static void pmd_leaf_is_understood(void **state)
{
	/* A direct-map-style leaf one pmd above a mapped page: get the tables, then make the
	 * next pmd slot a leaf by hand, as the direct map will. */
	unsigned long addr = VMALLOC_START, leaf = VMALLOC_START + PMD_SIZE;
	unsigned long warnings = nr_warnings(), pfn = ALIGN(pfn0, PMD_SIZE / PAGE_SIZE);
	struct page *page = alloc_page(GFP_KERNEL);
	struct count c = { 0 };
	struct seen s = { 0 };

	assert_int_equal(vmap_pages_range(addr, addr + PAGE_SIZE, PAGE_KERNEL, &page), 0);
	if (!THREE)	/* the folded level: the leaf sits in the pgd itself */
		assert_int_equal(pgd_index(leaf), pgd_index(addr) + 1);
	pmd_t *pmd = pmd_offset(pgd_offset_k(leaf), leaf);
	assert_true(pmd_none(*pmd));
	set_pmd(pmd, pfn_pmd(pfn, PAGE_KERNEL));
	assert_true(pmd_leaf(*pmd) && pmd_present(*pmd) && !pmd_bad(*pmd));
	assert_int_equal(pmd_pfn(*pmd), pfn);

	assert_int_equal(walk_page_range_novma(&init_mm, addr, leaf + PMD_SIZE, &seen_ops, NULL, &s), 0);
	assert_int_equal(s.leaves, 1);
	assert_int_equal(s.tables, 1);
	assert_int_equal(s.ptes, PTRS_PER_PTE);		/* the table's, none of the leaf's */
	assert_null(virt_to_kpte(leaf + 3 * PAGE_SIZE));
	unsigned long tables = nr_pagetable();
	assert_int_equal(apply_to_page_range(&init_mm, leaf, PAGE_SIZE, count_pte, &c), -EINVAL);
	assert_int_equal(c.calls, 0);
	assert_int_equal(nr_warnings(), warnings + 1);
	vunmap_range(leaf, leaf + PAGE_SIZE);		/* not vmalloc's to clear */
	assert_int_equal(nr_warnings(), warnings + 2);
	assert_true(pmd_leaf(*pmd));
	assert_int_equal(nr_pagetable(), tables);
	pmd_clear(pmd);
	vunmap_range(addr, addr + PAGE_SIZE);
	__free_page(page);
}

/* ptdump (mm/ptdump.c over the fake arch's format): contiguous frames with equal attributes
 * merge into one run, a frame out of sequence, a hole or other attributes start a new one, a
 * pmd leaf is its own run at level 3, and the region markers come in address order (the fake
 * architecture lists them the other way round), each run under its region's. */
static void ptdump_merges_runs(void **state)
{
	unsigned long va = VMALLOC_START, leaf = VMALLOC_START + PMD_SIZE;
	unsigned long pfn = ALIGN(pfn0, PMD_SIZE / PAGE_SIZE);
	struct page *blk = alloc_pages(GFP_KERNEL, 1), *ro = alloc_page(GFP_KERNEL);
	struct page *two[2] = { blk, blk + 1 };
	char want[200];

	assert_non_null(blk);
	assert_int_equal(vmap_pages_range(va, va + 2 * PAGE_SIZE, PAGE_KERNEL, two), 0);
	/* The first frame again: out of sequence whatever the allocator handed out next. */
	assert_int_equal(vmap_pages_range(va + 2 * PAGE_SIZE, va + 3 * PAGE_SIZE, PAGE_KERNEL,
					  &blk), 0);
	assert_int_equal(vmap_pages_range(va + 4 * PAGE_SIZE, va + 5 * PAGE_SIZE, PAGE_KERNEL_RO,
					  &ro), 0);
	pmd_t *pmd = pmd_offset(pgd_offset_k(leaf), leaf);
	set_pmd(pmd, pfn_pmd(pfn, PAGE_KERNEL));

	shim_console_reset();
	assert_int_equal(ptdump_walk_kernel(kprintf), 4);
	const char *m0 = strstr(shim_console, "---[ vmalloc() area ]---\n");
	const char *m1 = strstr(shim_console, "---[ vmalloc() end ]---\n");
	assert_true(m0 == shim_console && m1 > m0);
	snprintf(want, sizeof(want), "0x%016lx-0x%016lx   0x%016llx        8K PTE   ", va,
		 va + 2 * PAGE_SIZE, (unsigned long long)page_to_pfn(blk) << PAGE_SHIFT);
	assert_console_has(want);
	snprintf(want, sizeof(want), "0x%016lx-0x%016lx   0x%016llx        4K PTE   ",
		 va + 2 * PAGE_SIZE, va + 3 * PAGE_SIZE,
		 (unsigned long long)page_to_pfn(blk) << PAGE_SHIFT);
	assert_console_has(want);
	snprintf(want, sizeof(want), "0x%016lx-0x%016lx   0x%016llx        4K PTE   D A G . . . R V\n",
		 va + 4 * PAGE_SIZE, va + 5 * PAGE_SIZE,
		 (unsigned long long)page_to_pfn(ro) << PAGE_SHIFT);
	assert_console_has(want);
	snprintf(want, sizeof(want), "0x%016lx-0x%016lx   0x%016llx %8luK PMD   D A G . . W R V\n",
		 leaf, leaf + PMD_SIZE, (unsigned long long)pfn << PAGE_SHIFT, PMD_SIZE >> 10);
	assert_console_has(want);
	assert_true(strstr(shim_console, want) < m1);	/* the last run, before the end marker */

	shim_console_reset();
	assert_int_equal(shim_run("ptdump"), 0);
	assert_console_has("---[ vmalloc() end ]---\n");
	assert_int_equal(shim_run("ptdump extra"), 2);

	pmd_clear(pmd);
	vunmap_range(va, va + 5 * PAGE_SIZE);
	__free_pages(blk, 1);
	__free_page(ro);
}

static void no_memory_leaves_nothing(void **state)
{
	struct page *held[RAM_SIZE / PAGE_SIZE];
	unsigned long n = 0;
	struct count c = { 0 };

	while ((held[n] = alloc_page(GFP_KERNEL | __GFP_NOWARN)))
		n++;
	shim_console_reset();
	assert_int_equal(apply_to_page_range(&init_mm, VMALLOC_START, PAGE_SIZE, count_pte, &c), -ENOMEM);
	assert_int_equal(c.calls, 0);
	assert_console_has("page allocation failure: order:0");
	assert_tables(0);
	/* Frames back one at a time until the walk succeeds: every failure on the way leaves
	 * only tables that are in use (three levels: the pmd table may be made and kept, the
	 * pgd pointing at it, before the pte table fails), never a spare. */
	int err;
	do {
		__free_page(held[--n]);
		err = apply_to_page_range(&init_mm, VMALLOC_START, PAGE_SIZE, count_pte, &c);
		assert_true(err == 0 || err == -ENOMEM);
		assert_int_equal(table_frames(), nr_pagetable());
		assert_true(nr_pagetable() <= (err ? 1UL : THREE ? 2UL : 1UL));
	} while (err && n);
	assert_int_equal(err, 0);
	assert_int_equal(c.calls, 1);
	assert_tables(THREE ? 2 : 1);
	while (n)
		__free_page(held[--n]);
	assert_int_equal(buddy_check(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(geometry, setup),
		cmocka_unit_test_setup(pte_accessors, setup),
		cmocka_unit_test_setup(apply_allocates_tables, setup),
		cmocka_unit_test_setup(apply_existing_allocates_nothing, setup),
		cmocka_unit_test_setup(vmap_and_vunmap_range, setup),
		cmocka_unit_test_setup(vmap_over_present_pte_warns, setup),
		cmocka_unit_test_setup(walk_reports_holes_ptes, setup),
		cmocka_unit_test_setup(pmd_leaf_is_understood, setup),
		cmocka_unit_test_setup(no_memory_leaves_nothing, setup),
		cmocka_unit_test_setup(ptdump_merges_runs, setup),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
