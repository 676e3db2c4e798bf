/*
 * pagewalk.c - the portable page-table walkers and the kernel's map/unmap helpers, over the
 * interface of include/tinymm/pgtable.h: the frames tables live in (pagetable_alloc/free),
 * apply_to_page_range() (v6.10: mm/memory.c), walk_page_range_novma() (v6.10: mm/pagewalk.c),
 * and vmap_pages_range()/vunmap_range() for vmalloc (v6.10: mm/vmalloc.c).
 *
 * Invariants:
 *   - every frame a table lives in came from pagetable_alloc(): PG_table, counted once in
 *     NR_PAGETABLE, until pagetable_free().  The root (swapper_pg_dir) is the architecture's,
 *     in the kernel image, and neither typed nor counted, as in v6.10.
 *   - a table hangs from exactly one entry, and the walkers never descend into a pmd leaf.
 *   - vunmap_range() frees a pte table that became empty, unless the pgd itself points to it
 *     (two levels, pmd folded); a pmd table (three levels) is never freed.  Why: the tables a
 *     pgd entry points to will be shared by every address space, whose pgds copy the kernel's
 *     entries (as v6.10's riscv pgd_alloc does), so such an entry must never change once set.
 *     v6.10 frees no kernel page table at all; tinymm frees the lower ones because its boards
 *     have little RAM and because it lets the tests show that nothing leaks.
 *
 * Locking: init_mm.page_table_lock (any mm's) is held while a table is populated or freed and
 * while the walkers read the tables, one pmd-sized chunk at a time, so no table is freed under a
 * walker; tables are allocated with the lock dropped (they may sleep), and a chunk is retried
 * once one is in hand.  The ptes themselves belong to whoever owns the virtual range.  The
 * callbacks run under the lock and must not sleep.  TLB: vunmap_range() flushes the range after
 * clearing it and before any emptied table goes back to the allocator; mapping needs no flush
 * (a non-present entry is never cached).
 *
 * Differences from v6.10: one walker core instead of v6.10's separate vmap_*_range,
 * vunmap_*_range and apply_to_*_range families (tinymm has three levels at most and no huge
 * vmap, so they would be the same loop three times); no split page-table locks (no ptdesc:
 * tables are struct pages); pagetable_alloc() includes the ctor's work.
 */
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/lockdep.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/vmstat.h"

struct mm_struct init_mm = {
	.pgd = swapper_pg_dir,
	.page_table_lock = __SPIN_LOCK_UNLOCKED(init_mm.page_table_lock),
};

/* Linux's GFP_PGTABLE_KERNEL. */
#define GFP_PGTABLE_KERNEL	(GFP_KERNEL | __GFP_ZERO)

/* A larger table (an arch's 16 KiB root, say) is a compound page: the type sits on its head. */
struct page *pagetable_alloc(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp | __GFP_ZERO | (order ? __GFP_COMP : 0), order);

	if (!page)
		return NULL;
	__SetPageTable(page);
	mod_node_page_state(NR_PAGETABLE, 1L << order);
	return page;
}

void pagetable_free(struct page *page)
{
	unsigned int order = folio_order(page_folio(page));

	__ClearPageTable(page);
	mod_node_page_state(NR_PAGETABLE, -(1L << order));
	__free_pages(page, order);
}

/* The frame a table entry points to. */
static struct page *table_page(unsigned long vaddr)
{
	return virt_to_page((void *)vaddr);
}

/* ---- the core: one pmd-sized chunk under the lock ---- */
struct walk_ctl {
	struct mm_struct *mm;
	pgd_t *pgd;			/* the root to walk (mm->pgd unless walk_page_range_novma's) */
	bool create;			/* allocate missing tables */
	bool existing;			/* apply: only ptes that are not none */
	pte_fn_t fn;			/* apply's */
	void *data;
	struct mm_walk *walk;		/* walk_page_range_novma's */
	struct page *spare;		/* a table allocated with the lock dropped, not yet used */
	bool need_table;		/* the chunk stopped for want of a spare */
};

static int walk_ptes(struct walk_ctl *c, pmd_t *pmd, unsigned long addr, unsigned long end)
{
	pte_t *pte = pte_offset_kernel(pmd, addr);
	int err = 0;

	for (; addr != end && !err; addr += PAGE_SIZE, pte++) {
		if (c->walk) {
			if (c->walk->ops->pte_entry)
				err = c->walk->ops->pte_entry(pte, addr, addr + PAGE_SIZE, c->walk);
		} else if (!c->existing || !pte_none(ptep_get(pte))) {
			err = c->fn(pte, addr, c->data);
		}
	}
	return err;
}

static int hole(struct walk_ctl *c, unsigned long addr, unsigned long end, int depth)
{
	if (c->walk && c->walk->ops->pte_hole)
		return c->walk->ops->pte_hole(addr, end, depth, c->walk);
	return 0;
}

/* [@addr, @end) lies in one pmd entry's range. */
static int walk_chunk(struct walk_ctl *c, unsigned long addr, unsigned long end)
{
	pgd_t *pgd = c->pgd + pgd_index(addr);
	pmd_t *pmd;
	int err;

	lockdep_assert_held(&c->mm->page_table_lock);
	if (pgd_none(*pgd)) {
		if (!c->create)
			return hole(c, addr, pgd_addr_end(addr, end), 0);
		if (!c->spare) {
			c->need_table = true;
			return 0;
		}
		pgd_populate(c->mm, pgd, (pmd_t *)page_address(c->spare));
		c->spare = NULL;
	}
	if (WARN_ON(pgd_bad(*pgd)))
		return -EINVAL;
	pmd = pmd_offset(pgd, addr);
	if (pmd_none(pmdp_get(pmd))) {
		if (!c->create)
			return hole(c, addr, end, 3);
		if (!c->spare) {
			c->need_table = true;
			return 0;
		}
		pmd_populate_kernel(c->mm, pmd, (pte_t *)page_address(c->spare));
		c->spare = NULL;
	}
	if (c->walk && c->walk->ops->pmd_entry) {
		err = c->walk->ops->pmd_entry(pmd, addr, end, c->walk);
		if (err)
			return err;
	}
	if (pmd_leaf(pmdp_get(pmd)) || pmd_bad(pmdp_get(pmd))) {
		if (c->walk)
			return 0;			/* reported by pmd_entry; nothing below */
		/* Linux's apply_to_page_range says the same: a leaf cannot be split here. */
		WARN_ON(1);
		return -EINVAL;
	}
	return walk_ptes(c, pmd, addr, end);
}

/* Walk [@addr, @end) chunk by chunk, allocating tables with the lock dropped when asked to. */
static int walk_range(struct walk_ctl *c, unsigned long addr, unsigned long end)
{
	int err = 0;

	while (addr != end && !err) {
		unsigned long next = pmd_addr_end(addr, end);

		c->need_table = false;
		spin_lock(&c->mm->page_table_lock);
		err = walk_chunk(c, addr, next);
		spin_unlock(&c->mm->page_table_lock);
		if (!err && c->need_table) {
			c->spare = pagetable_alloc(GFP_PGTABLE_KERNEL, 0);
			if (!c->spare)
				err = -ENOMEM;
			continue;			/* the same chunk again, with a table */
		}
		addr = next;
	}
	if (c->spare)
		pagetable_free(c->spare);
	c->spare = NULL;
	return err;
}

static int apply(struct mm_struct *mm, unsigned long addr, unsigned long size, pte_fn_t fn,
		 void *data, bool create)
{
	struct walk_ctl c = { .mm = mm, .pgd = mm->pgd, .create = create, .existing = !create,
			      .fn = fn, .data = data };

	if (WARN_ON(addr + size <= addr && addr + size != 0))
		return -EINVAL;
	if (!size)
		return 0;
	return walk_range(&c, addr, addr + size);
}

int apply_to_page_range(struct mm_struct *mm, unsigned long addr, unsigned long size,
			pte_fn_t fn, void *data)
{
	return apply(mm, addr, size, fn, data, true);
}

int apply_to_existing_page_range(struct mm_struct *mm, unsigned long addr, unsigned long size,
				 pte_fn_t fn, void *data)
{
	return apply(mm, addr, size, fn, data, false);
}

int walk_page_range_novma(struct mm_struct *mm, unsigned long start, unsigned long end,
			  const struct mm_walk_ops *ops, pgd_t *pgd, void *private)
{
	struct mm_walk walk = { .ops = ops, .mm = mm, .pgd = pgd ? pgd : mm->pgd, .private = private };
	struct walk_ctl c = { .mm = mm, .pgd = walk.pgd, .walk = &walk };

	if (start >= end && end != 0)
		return -EINVAL;
	return walk_range(&c, start, end);
}

/* ---- vmalloc's mappings ---- */
static inline pte_t mk_pte(struct page *page, pgprot_t prot)
{
	return pfn_pte(page_to_pfn(page), prot);
}

struct vmap_ctl {
	unsigned long start;
	struct page **pages;
	pgprot_t prot;
};

static int vmap_pte(pte_t *pte, unsigned long addr, void *data)
{
	struct vmap_ctl *v = data;
	struct page *page = v->pages[(addr - v->start) >> PAGE_SHIFT];

	/* Linux's vmap_pages_pte_range(): both are the caller's bugs. */
	if (WARN_ON(!pte_none(ptep_get(pte))))
		return -EBUSY;
	if (WARN_ON(!page))
		return -ENOMEM;
	set_pte_at(&init_mm, addr, pte, mk_pte(page, v->prot));
	return 0;
}

int vmap_pages_range(unsigned long addr, unsigned long end, pgprot_t prot, struct page **pages)
{
	struct vmap_ctl v = { addr, pages, prot };

	return apply_to_page_range(&init_mm, addr, end - addr, vmap_pte, &v);
}

/* Is the pte table at @pte (a whole table) empty? */
static bool pte_table_empty(pte_t *pte)
{
	for (unsigned int i = 0; i < PTRS_PER_PTE; i++)
		if (!pte_none(ptep_get(pte + i)))
			return false;
	return true;
}

/* Clear [@addr, @end), one chunk; an emptied pte table goes on @freed (chained by ->private). */
static void vunmap_chunk(unsigned long addr, unsigned long end, struct page **freed)
{
	pgd_t *pgd = pgd_offset_k(addr);
	pmd_t *pmd;
	pte_t *pte;

	lockdep_assert_held(&init_mm.page_table_lock);
	if (pgd_none(*pgd))
		return;
	pmd = pmd_offset(pgd, addr);
	if (pmd_none(pmdp_get(pmd)))
		return;
	if (WARN_ON(pmd_leaf(pmdp_get(pmd)) || pmd_bad(pmdp_get(pmd))))
		return;				/* not vmalloc's: the direct map's, or garbage */
	pte = pte_offset_kernel(pmd, addr);
	for (unsigned long a = addr; a != end; a += PAGE_SIZE, pte++)
		pte_clear(&init_mm, a, pte);
	/* The pgd's own tables stay (the header says why): with two levels that is this one. */
	if (PTRS_PER_PMD > 1 && pte_table_empty(pte_offset_kernel(pmd, 0))) {
		struct page *page = table_page(pmd_page_vaddr(pmdp_get(pmd)));

		pmd_clear(pmd);
		page->private = (unsigned long)*freed;
		*freed = page;
	}
}

void vunmap_range(unsigned long addr, unsigned long end)
{
	struct page *freed = NULL;

	for (unsigned long a = addr, next; a != end; a = next) {
		next = pmd_addr_end(a, end);
		spin_lock(&init_mm.page_table_lock);
		vunmap_chunk(a, next, &freed);
		spin_unlock(&init_mm.page_table_lock);
	}
	/* The TLB (and a walk cache holding a cleared table pointer) before the tables go. */
	flush_tlb_kernel_range(addr, end);
	while (freed) {
		struct page *next = (struct page *)freed->private;

		freed->private = 0;
		pagetable_free(freed);
		freed = next;
	}
}

__fastpath pte_t *pte_lookup(pgd_t *pgd, unsigned long addr)
{
	pmd_t pmd;

	if (pgd_none(*pgd) || pgd_bad(*pgd))
		return NULL;
	pmd = pmdp_get(pmd_offset(pgd, addr));	/* one read: every check on the same value */
	if (pmd_none(pmd) || pmd_leaf(pmd) || pmd_bad(pmd))
		return NULL;
	return (pte_t *)pmd_page_vaddr(pmd) + pte_index(addr);
}

pte_t *virt_to_kpte(unsigned long addr)
{
	return pte_lookup(pgd_offset_k(addr), addr);
}
