/*
 * pgtable_ktest.c - suite `riscv_pgtable` (RISC-V only): asm/pgtable.h's encodings proved by the
 * hardware walker on the live tables: satp points at swapper_pg_dir, a vmalloc area is read and
 * written through its ptes (the walker sets A and D), every table frame is PG_table and counted,
 * and write-combining maps PBMT NC where the CPU has Svpbmt and is refused where it has not.
 */
#include <string.h>
#include "riscv.h"
#include "tinymm/kernel-page-flags.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/vmalloc.h"
#include "tinymm/vmstat.h"

#define NPAGES	4

static unsigned long csr_satp(void)
{
	unsigned long v;

	__asm__ __volatile__("csrr %0, satp" : "=r"(v));
	return v;
}

/* paging_init() refused the range (Sv32 with RAM reaching into it): nothing to map. */
static bool no_vmalloc(struct ktest *t)
{
	if (vmalloc_total)
		return false;
	ktest_skip(t, "no vmalloc range: RAM overlaps it");
	return true;
}

static void encodings(struct ktest *t)
{
	pteval_t k = pgprot_val(PAGE_KERNEL), ro = pgprot_val(PAGE_KERNEL_RO);
	pteval_t x = pgprot_val(PAGE_KERNEL_EXEC);
	pte_t pte = pfn_pte(0x80123, PAGE_KERNEL);

	KTEST_EXPECT_EQ(t, k & 0xff, 0xe7);		/* D A G - - W R V */
	KTEST_EXPECT_EQ(t, ro & 0xff, 0xe3);		/* D A G - - - R V */
	KTEST_EXPECT_EQ(t, x & 0xff, 0xeb);		/* D A G - X - R V */
	KTEST_EXPECT_EQ(t, pte_val(pte) >> _PAGE_PFN_SHIFT, 0x80123);
	KTEST_EXPECT_EQ(t, pte_pfn(pte), 0x80123);
	KTEST_EXPECT_TRUE(t, pte_write(pte) && !pte_exec(pte) && pte_young(pte) && pte_dirty(pte));
	KTEST_EXPECT_FALSE(t, pte_young(pte_mkold(pte)) || pte_dirty(pte_mkclean(pte)));
	KTEST_EXPECT_FALSE(t, pte_write(pte_wrprotect(pte)));
	KTEST_EXPECT_EQ(t, pgprot_val(pte_pgprot(pte)), k);
#if PGTABLE_LEVELS == 3
	KTEST_EXPECT_EQ(t, pgprot_val(pgprot_noncached(PAGE_KERNEL)) >> 61, 2);	/* PBMT IO */
	KTEST_EXPECT_EQ(t, pgprot_val(pgprot_writecombine(PAGE_KERNEL)) >> 61, 1);	/* NC */
	KTEST_EXPECT_EQ(t, riscv_satp_for((pgd_t *)__va(0x80400000UL)), (8UL << 60) | 0x80400);
	KTEST_EXPECT_EQ(t, pfn_pte(1UL << 43, PAGE_KERNEL_RO).pte >> 53, 1);	/* PPN to bit 53 */
#else
	/* No PBMT: only the request, in a software bit that no pte ever holds (refused). */
	KTEST_EXPECT_EQ(t, pgprot_val(pgprot_noncached(PAGE_KERNEL)), k | _PAGE_NC_REQUEST);
	KTEST_EXPECT_EQ(t, pgprot_val(pgprot_writecombine(PAGE_KERNEL)), k | _PAGE_NC_REQUEST);
	KTEST_EXPECT_TRUE(t, pgprot_noncacheable(pgprot_writecombine(PAGE_KERNEL)));
	KTEST_EXPECT_FALSE(t, pgprot_noncacheable(PAGE_KERNEL));
	KTEST_EXPECT_FALSE(t, riscv_pbmt_supported());
	KTEST_EXPECT_EQ(t, riscv_satp_for((pgd_t *)__va(0x80400000UL)), (1UL << 31) | 0x80400);
	KTEST_EXPECT_EQ(t, pte_val(pfn_pte(0x3fffff, PAGE_KERNEL_RO)) >> 10, 0x3fffff);
#endif
}

struct window {
	unsigned char *va;		/* the vmalloc area */
	unsigned char seen[NPAGES];	/* first byte of each page, read through va */
	pteval_t pte_after_read, pte_after_write;
	pte_t *pte0;
};

static void touch(void *arg)
{
	struct window *w = arg;

	for (int i = 0; i < NPAGES; i++)
		w->seen[i] = READ_ONCE(w->va[i * PAGE_SIZE + 7]);
	w->pte_after_read = pte_val(ptep_get(w->pte0));
	for (int i = 0; i < NPAGES; i++)
		WRITE_ONCE(w->va[i * PAGE_SIZE + 9], (unsigned char)(0xa0 + i));
	w->pte_after_write = pte_val(ptep_get(w->pte0));
}

static void vmalloc_area_through_the_walker(struct ktest *t)
{
	struct window w = { 0 };
	struct page *pages[NPAGES];

	if (no_vmalloc(t))
		return;
	KTEST_ASSERT_EQ(t, csr_satp(), riscv_satp_for(swapper_pg_dir));	/* the final tables */
	w.va = vmalloc(NPAGES * PAGE_SIZE);
	KTEST_ASSERT_TRUE(t, w.va != NULL);
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(w.va));
	for (int i = 0; i < NPAGES; i++) {
		pages[i] = vmalloc_to_page(w.va + i * PAGE_SIZE);
		KTEST_ASSERT_TRUE(t, pages[i] != NULL);
		memset(page_address(pages[i]), 0x30 + i, PAGE_SIZE);	/* through the direct map */
	}
	/* Old and clean: the walker must set A on the read and D on the write. */
	w.pte0 = virt_to_kpte((unsigned long)w.va);
	KTEST_ASSERT_TRUE(t, w.pte0 != NULL);
	set_pte(w.pte0, pte_mkclean(pte_mkold(ptep_get(w.pte0))));
	flush_tlb_page(NULL, (unsigned long)w.va);

	touch(&w);

	for (int i = 0; i < NPAGES; i++) {
		unsigned char *p = page_address(pages[i]);

		KTEST_EXPECT_EQ(t, w.seen[i], 0x30 + i);	/* read the backing page */
		KTEST_EXPECT_EQ(t, p[9], 0xa0 + i);		/* wrote the backing page */
		KTEST_EXPECT_EQ(t, p[8], 0x30 + i);		/* and nothing else */
	}
	KTEST_EXPECT_TRUE(t, pte_young(__pte(w.pte_after_read)));
	KTEST_EXPECT_FALSE(t, pte_dirty(__pte(w.pte_after_read)));
	KTEST_EXPECT_TRUE(t, pte_dirty(__pte(w.pte_after_write)));
	KTEST_EXPECT_EQ(t, ptep_test_and_clear_young(NULL, (unsigned long)w.va, w.pte0), 1);
	KTEST_EXPECT_EQ(t, ptep_test_and_clear_young(NULL, (unsigned long)w.va, w.pte0), 0);
	KTEST_EXPECT_TRUE(t, pte_dirty(ptep_get(w.pte0)));	/* the AND kept D */
	set_pte(w.pte0, pte_mkyoung(ptep_get(w.pte0)));

	/* The guard page after the area has no present pte; the area's pages all do. */
	pte_t *guard = virt_to_kpte((unsigned long)w.va + NPAGES * PAGE_SIZE);
	KTEST_EXPECT_TRUE(t, !guard || !pte_present(ptep_get(guard)));
	KTEST_EXPECT_EQ(t, vmalloc_check(NULL), 0);
	vfree(w.va);
}

struct table_count {
	unsigned long tables, untyped;
};

static int count_pmd(pmd_t *pmd, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct table_count *c = walk->private;
	pmd_t v = pmdp_get(pmd);

	if (pmd_leaf(v))
		return 0;
	/* The walk visits each pmd once (one chunk each), folded (Sv32) or not. */
	c->tables++;
	c->untyped += !PageTable(virt_to_page((void *)pmd_page_vaddr(v)));
	return 0;
}

/*
 * Every table frame under swapper_pg_dir is PG_table, and NR_PAGETABLE counts exactly them; the
 * fixmap's pte table is in the image (shared with entry.S's boot table) and is neither.
 */
static unsigned long count_tables(struct ktest *t)
{
	static const struct mm_walk_ops ops = { .pmd_entry = count_pmd };
	struct table_count c = { 0 };
	unsigned long fix = (unsigned long)fixmap_pte;

#if PGTABLE_LEVELS == 3
	for (unsigned long i = 0; i < PTRS_PER_PGD; i++)
		if (!pgd_none(swapper_pg_dir[i])) {
			c.tables++;
			c.untyped += !PageTable(virt_to_page((void *)pgd_page_vaddr(swapper_pg_dir[i])));
		}
#endif
	KTEST_EXPECT_EQ(t, walk_page_range_novma(&init_mm, min(PAGE_OFFSET, VMALLOC_START), FIXADDR_START, &ops,
						 NULL, &c), 0);
	KTEST_EXPECT_EQ(t, c.untyped, 0);
	KTEST_EXPECT_TRUE(t, pmd_page_vaddr(pmdp_get(pmd_offset(pgd_offset_k(FIXADDR_START),
								 FIXADDR_START))) == fix);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), c.tables);
	return c.tables;
}

static void table_frames_typed_and_counted(struct ktest *t)
{
	unsigned long before;
	void *a, *b;

	if (no_vmalloc(t))
		return;
	before = count_tables(t);
	/* Two areas, one of them spanning a pte-table boundary (Sv39 2 MiB, Sv32 4 MiB). */
	a = vmalloc(PAGE_SIZE);
	b = vmalloc(PMD_SIZE + PAGE_SIZE);

	KTEST_EXPECT_TRUE(t, a && b);
	if (a && b) {
		/* Sv39 makes pte tables on demand; Sv32's are all made at boot (paging_init's
		 * preallocate_vmalloc_tables: the root's kernel half never changes, for the
		 * user mms that copy it; docs/arch-user-riscv.md): none is added. */
		if (PGTABLE_LEVELS == 3)
			KTEST_EXPECT_GE(t, count_tables(t), before + 1);
		else
			KTEST_EXPECT_EQ(t, count_tables(t), before);
		KTEST_EXPECT_GE(t, global_node_page_state(NR_PAGETABLE), 1);
	}
	vfree(b);
	vfree(a);
	count_tables(t);
}

struct wc_window {
	unsigned char *va;
	unsigned char seen;
};

static void touch_wc(void *arg)
{
	struct wc_window *w = arg;

	WRITE_ONCE(w->va[PAGE_SIZE + 5], 0x5a);
	w->seen = READ_ONCE(w->va[3]);
}

/* Without Svpbmt (every Sv32 CPU) there is no uncached mapping: refused, never cacheable. */
static void writecombine_refused(struct ktest *t, struct page **pages)
{
	KTEST_EXPECT_TRUE(t, vmap(pages, 2, VM_MAP, pgprot_writecombine(PAGE_KERNEL)) == NULL);
	KTEST_EXPECT_FALSE(t, PageUncached(pages[0]) || PageUncached(pages[1]));
	KTEST_EXPECT_EQ(t, vmalloc_check(NULL), 0);
}

/* With Svpbmt: PBMT NC in both ptes, and the walker accepts them (it faults on PBMT without). */
static void writecombine_mapped_nc(struct ktest *t, struct page **pages)
{
	struct wc_window w = { 0 };

	((unsigned char *)page_address(pages[0]))[3] = 0xc3;
	w.va = vmap(pages, 2, VM_MAP, pgprot_writecombine(PAGE_KERNEL));
	KTEST_ASSERT_TRUE(t, w.va != NULL);
	for (int i = 0; i < 2; i++) {
		pte_t pte = ptep_get(virt_to_kpte((unsigned long)w.va + i * PAGE_SIZE));

		KTEST_EXPECT_EQ(t, pte_val(pte) & _PAGE_MTMASK_SVPBMT, _PAGE_NOCACHE_SVPBMT);
		KTEST_EXPECT_EQ(t, pte_pfn(pte), page_to_pfn(pages[i]));
	}
	/* PG_uncached while mapped so (tinymm's use of the bit: docs/page-flags.rst), and
	 * kpageflags' KPF_UNCACHED with it. */
	KTEST_EXPECT_TRUE(t, PageUncached(pages[0]) && PageUncached(pages[1]));
	KTEST_EXPECT_NE(t, stable_page_flags(pages[0]) & (1ULL << KPF_UNCACHED), 0);
	touch_wc(&w);
	KTEST_EXPECT_EQ(t, w.seen, 0xc3);
	KTEST_EXPECT_EQ(t, ((unsigned char *)page_address(pages[1]))[5], 0x5a);
	printk(KERN_INFO "riscv_pgtable: write-combining vmap at %p is PBMT NC, read and written\n",
	       w.va);
	vunmap(w.va);
	KTEST_EXPECT_FALSE(t, PageUncached(pages[0]) || PageUncached(pages[1]));
	KTEST_EXPECT_EQ(t, stable_page_flags(pages[0]) & (1ULL << KPF_UNCACHED), 0);
}

static void writecombine(struct ktest *t)
{
	struct page *pages[2];

	if (no_vmalloc(t))
		return;
	pages[0] = alloc_page(GFP_KERNEL | __GFP_ZERO);
	pages[1] = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (pages[0] && pages[1]) {
		if (riscv_pbmt_supported())
			writecombine_mapped_nc(t, pages);
		else
			writecombine_refused(t, pages);
	}
	KTEST_EXPECT_TRUE(t, pages[0] && pages[1]);
	for (int i = 0; i < 2; i++)
		if (pages[i])
			__free_page(pages[i]);
}

static const struct ktest_case riscv_pgtable_cases[] = {
	KTEST_CASE(encodings),
	KTEST_CASE(vmalloc_area_through_the_walker),
	KTEST_CASE(table_frames_typed_and_counted),
	KTEST_CASE(writecombine),
	{ 0 },
};
KTEST_SUITE(riscv_pgtable, riscv_pgtable_cases);
