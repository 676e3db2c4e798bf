/*
 * rmap_ktest.c - fork's copy-on-write and the anonymous reverse map (mm/fork_mm.c,
 * mm/rmap_anon.c, do_wp_page in mm/memory.c, docs/fork.md): suite `rmap`, every board.  Each
 * case builds a user mm with mm_alloc() (never loaded into the MMU: the cases call
 * handle_mm_fault() directly and read the ptes under the page-table lock), forks it with
 * dup_mm(), and checks at the end that every mm is gone with AnonPages, the page tables and the
 * free memory back where they were and no WARNING printed:
 *   - fork shares each anonymous page: the same pfn in parent and child, both ptes read-only,
 *     mapcount 2, two references, PG_anon_exclusive clear, one anon_vma for both areas; the
 *     parent's pagemap entry not exclusive;
 *   - rmap_walk_anon() finds every pte of a shared folio: parent and child, then a grandchild
 *     too (three), and after the child's copy-on-write only the ones still sharing it;
 *   - the child's write copies (a new exclusive folio, the old bytes), the parent keeps its
 *     page and bytes; the parent's next write then reuses its page without a copy and makes
 *     it exclusive again (PG_anon_exclusive, pagemap's exclusive bits);
 *   - after the child's mm is gone, the parent's page is mapped once but not yet exclusive
 *     (pagemap: exclusive 1, anon-exclusive 0); its next write makes it so with no copy;
 *   - out of memory at every point of a fork (all free memory held, then given back a page at
 *     a time until the fork works): each failure is -ENOMEM with the page tables, AnonPages,
 *     the free memory and the parent's pages (mapcount, references) as they were.
 */
#include <string.h>
#include "tinymm/anon_vma.h"
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/exec.h"
#include "tinymm/fork.h"
#include "tinymm/ktest.h"
#include "ktest_mm.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/user_task.h"
#include "tinymm/vmstat.h"

#define P(n)		((unsigned long)(n) << PAGE_SHIFT)
#define RW		(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE | VM_MAYEXEC)
#define KT_BASE		(256UL << 20)
#define KT_PAGES	4

static struct kt_mm_counts before;

static unsigned long free_and_slab(void)
{
	return kt_free_and_cached();
}

static void snapshot(void)
{
	kt_snapshot(&before);
}

static void all_back(struct ktest *t)
{
	kt_all_back(t, &before);
}

/* A parent mm with KT_PAGES anonymous pages at KT_BASE, written once (zeroed). */
static struct mm_struct *parent_mm(struct ktest *t)
{
	return kt_anon_mm(t, KT_BASE, KT_PAGES, RW, 0);
}

static unsigned char *bytes(struct folio *folio)
{
	return page_address(&folio->page);
}

/* A write fault, as the architecture's handler would take it. */
static vm_fault_t write_fault(struct mm_struct *mm, unsigned long addr)
{
	vm_fault_t ret;

	mutex_lock(&mm->mmap_lock);
	ret = handle_mm_fault(vma_lookup(mm, addr), addr, FAULT_FLAG_WRITE | FAULT_FLAG_USER);
	mutex_unlock(&mm->mmap_lock);
	return ret;
}

/* ---- the walk: every (mm, address) whose pte maps the folio ---- */
#define MAX_HITS	8
struct hits {
	int n;
	struct mm_struct *mm[MAX_HITS];
	unsigned long addr[MAX_HITS];
};

static bool record_pte(struct folio *folio, struct vm_area_struct *vma, unsigned long address,
		       void *arg)
{
	struct hits *h = arg;
	pte_t *ptep;

	spin_lock(&vma->vm_mm->page_table_lock);
	ptep = user_pte_lookup(vma->vm_mm, address);
	if (ptep && pte_present(ptep_get(ptep)) &&
	    pte_pfn(ptep_get(ptep)) == page_to_pfn(&folio->page) && h->n < MAX_HITS) {
		h->mm[h->n] = vma->vm_mm;
		h->addr[h->n++] = address;
	}
	spin_unlock(&vma->vm_mm->page_table_lock);
	return true;
}

static struct hits walk(struct folio *folio)
{
	struct hits h = { 0 };
	struct rmap_walk_control rwc = { .arg = &h, .rmap_one = record_pte };

	folio_lock(folio);
	rmap_walk_anon(folio, &rwc);
	folio_unlock(folio);
	return h;
}

static bool hit(const struct hits *h, struct mm_struct *mm, unsigned long addr)
{
	for (int i = 0; i < h->n; i++)
		if (h->mm[i] == mm && h->addr[i] == addr)
			return true;
	return false;
}

/* ---- the cases ---- */

static void fork_shares_pages(struct ktest *t)
{
	snapshot();
	struct mm_struct *parent = parent_mm(t), *child;
	int err = 0;

	KTEST_ASSERT_TRUE(t, parent != NULL);
	for (int i = 0; i < KT_PAGES; i++)
		memset(bytes(kt_folio_at(parent, KT_BASE + P(i))), 'a' + i, PAGE_SIZE);
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED);
	child = dup_mm(parent, &err);
	KTEST_EXPECT_EQ(t, err, 0);
	KTEST_ASSERT_TRUE(t, child != NULL);
	lru_add_drain();		/* the LRU batch's references are not the ptes' */
	for (int i = 0; i < KT_PAGES; i++) {
		unsigned long a = KT_BASE + P(i);
		pte_t pp = kt_pte_at(parent, a), cp = kt_pte_at(child, a);
		struct folio *f = kt_folio_at(parent, a);

		KTEST_EXPECT_TRUE(t, pte_present(cp));
		KTEST_EXPECT_EQ(t, pte_pfn(pp), pte_pfn(cp));
		KTEST_EXPECT_FALSE(t, pte_write(pp));
		KTEST_EXPECT_FALSE(t, pte_write(cp));
		KTEST_EXPECT_EQ(t, folio_mapcount(f), 2);
		KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 2);
		KTEST_EXPECT_FALSE(t, PageAnonExclusive(&f->page));
		KTEST_EXPECT_EQ(t, bytes(f)[PAGE_SIZE - 1], 'a' + i);
	}
	/* Counted once each: AnonPages counts folios, not mappings. */
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0);
	mutex_lock(&parent->mmap_lock);
	mutex_lock(&child->mmap_lock);
	struct vm_area_struct *pv = vma_lookup(parent, KT_BASE), *cv = vma_lookup(child, KT_BASE);
	KTEST_EXPECT_TRUE(t, pv && cv && pv != cv && pv->anon_vma && pv->anon_vma == cv->anon_vma);
	KTEST_EXPECT_TRUE(t, cv && folio_anon_vma(kt_folio_at(parent, KT_BASE)) == cv->anon_vma);
	KTEST_EXPECT_EQ(t, child->map_count, parent->map_count);
	KTEST_EXPECT_EQ(t, child->total_vm, parent->total_vm);
	mutex_unlock(&child->mmap_lock);
	mutex_unlock(&parent->mmap_lock);
	bool ax = true;
	uint64_t e = kt_pagemap(parent, KT_BASE, &ax);
	KTEST_EXPECT_TRUE(t, e & PM_PRESENT);
	KTEST_EXPECT_FALSE(t, e & PM_FILE);
	KTEST_EXPECT_FALSE(t, e & PM_MMAP_EXCLUSIVE);
	KTEST_EXPECT_FALSE(t, ax);
	mmput(child);
	mmput(parent);
	all_back(t);
}

static void walk_finds_every_pte(struct ktest *t)
{
	snapshot();
	struct mm_struct *parent = parent_mm(t), *child, *grandchild;
	int err;

	KTEST_ASSERT_TRUE(t, parent != NULL);
	child = dup_mm(parent, &err);
	KTEST_ASSERT_TRUE(t, child != NULL);
	struct folio *f = kt_folio_at(parent, KT_BASE + P(1));
	struct hits h = walk(f);
	KTEST_EXPECT_EQ(t, h.n, 2);
	KTEST_EXPECT_TRUE(t, hit(&h, parent, KT_BASE + P(1)));
	KTEST_EXPECT_TRUE(t, hit(&h, child, KT_BASE + P(1)));
	grandchild = dup_mm(child, &err);
	KTEST_ASSERT_TRUE(t, grandchild != NULL);
	h = walk(f);
	KTEST_EXPECT_EQ(t, h.n, 3);
	KTEST_EXPECT_TRUE(t, hit(&h, grandchild, KT_BASE + P(1)));
	KTEST_EXPECT_EQ(t, folio_mapcount(f), 3);
	/* The child copies its page: the walk of the old folio no longer finds the child, and
	 * the walk of the copy finds only the child. */
	KTEST_EXPECT_EQ(t, write_fault(child, KT_BASE + P(1)), 0U);
	struct folio *copy = kt_folio_at(child, KT_BASE + P(1));
	KTEST_EXPECT_TRUE(t, copy != f);
	h = walk(f);
	KTEST_EXPECT_EQ(t, h.n, 2);
	KTEST_EXPECT_FALSE(t, hit(&h, child, KT_BASE + P(1)));
	h = walk(copy);
	KTEST_EXPECT_EQ(t, h.n, 1);
	KTEST_EXPECT_TRUE(t, hit(&h, child, KT_BASE + P(1)));
	mmput(grandchild);
	h = walk(f);
	KTEST_EXPECT_EQ(t, h.n, 1);
	KTEST_EXPECT_TRUE(t, hit(&h, parent, KT_BASE + P(1)));
	mmput(child);
	mmput(parent);
	all_back(t);
}

static void cow_copies_then_reuses(struct ktest *t)
{
	snapshot();
	struct mm_struct *parent = parent_mm(t), *child;
	int err;

	KTEST_ASSERT_TRUE(t, parent != NULL);
	struct folio *f = kt_folio_at(parent, KT_BASE);
	memset(bytes(f), 'p', PAGE_SIZE);
	child = dup_mm(parent, &err);
	KTEST_ASSERT_TRUE(t, child != NULL);
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED);

	/* The child's write: a copy with the old bytes, exclusive, writable. */
	KTEST_EXPECT_EQ(t, write_fault(child, KT_BASE + 8), 0U);
	struct folio *c = kt_folio_at(child, KT_BASE);
	KTEST_ASSERT_TRUE(t, c != NULL && c != f);
	KTEST_EXPECT_TRUE(t, pte_write(kt_pte_at(child, KT_BASE)));
	KTEST_EXPECT_TRUE(t, PageAnonExclusive(&c->page));
	KTEST_EXPECT_EQ(t, folio_mapcount(c), 1);
	KTEST_EXPECT_EQ(t, bytes(c)[100], 'p');
	memset(bytes(c), 'c', PAGE_SIZE);
	KTEST_EXPECT_EQ(t, bytes(f)[100], 'p');
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 + 1);
	/* The parent's page is its alone now, but not yet marked so. */
	KTEST_EXPECT_EQ(t, folio_mapcount(f), 1);
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 1);
	KTEST_EXPECT_FALSE(t, PageAnonExclusive(&f->page));
	KTEST_EXPECT_FALSE(t, pte_write(kt_pte_at(parent, KT_BASE)));

	/* The parent's write: the same page, no copy, exclusive again (v6.10's reuse). */
	unsigned long pfn = pte_pfn(kt_pte_at(parent, KT_BASE));
	KTEST_EXPECT_EQ(t, write_fault(parent, KT_BASE), 0U);
	KTEST_EXPECT_EQ(t, pte_pfn(kt_pte_at(parent, KT_BASE)), pfn);
	KTEST_EXPECT_TRUE(t, pte_write(kt_pte_at(parent, KT_BASE)));
	KTEST_EXPECT_TRUE(t, PageAnonExclusive(&f->page));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0 + 1);
	bool ax = false;
	uint64_t e = kt_pagemap(parent, KT_BASE, &ax);
	KTEST_EXPECT_TRUE(t, e & PM_MMAP_EXCLUSIVE);
	KTEST_EXPECT_TRUE(t, ax);
	KTEST_EXPECT_EQ(t, bytes(f)[100], 'p');
	mmput(child);
	mmput(parent);
	all_back(t);
}

static void exclusive_again_after_child_exit(struct ktest *t)
{
	snapshot();
	struct mm_struct *parent = parent_mm(t), *child;
	int err;
	bool ax;
	uint64_t e;

	KTEST_ASSERT_TRUE(t, parent != NULL);
	child = dup_mm(parent, &err);
	KTEST_ASSERT_TRUE(t, child != NULL);
	e = kt_pagemap(child, KT_BASE + P(2), &ax);
	KTEST_EXPECT_TRUE(t, (e & PM_PRESENT) && !(e & PM_MMAP_EXCLUSIVE) && !ax);
	mmput(child);			/* the child exits */
	struct folio *f = kt_folio_at(parent, KT_BASE + P(2));
	KTEST_EXPECT_EQ(t, folio_mapcount(f), 1);
	e = kt_pagemap(parent, KT_BASE + P(2), &ax);
	KTEST_EXPECT_TRUE(t, e & PM_MMAP_EXCLUSIVE);	/* mapped once */
	KTEST_EXPECT_FALSE(t, ax);			/* but not yet marked exclusive */
	unsigned long free0 = nr_free_pages_and_pcp();
	KTEST_EXPECT_EQ(t, write_fault(parent, KT_BASE + P(2)), 0U);
	KTEST_EXPECT_TRUE(t, kt_folio_at(parent, KT_BASE + P(2)) == f);	/* no copy */
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0);
	e = kt_pagemap(parent, KT_BASE + P(2), &ax);
	KTEST_EXPECT_TRUE(t, (e & PM_MMAP_EXCLUSIVE) && ax);
	KTEST_EXPECT_EQ(t, (unsigned long)(e & PM_PFRAME_MASK), page_to_pfn(&f->page));
	mmput(parent);
	all_back(t);
}

/*
 * Every free page held, as blocks linked through their own first two words.  The big blocks
 * first, without reclaim (one allocation per 4 MiB, not 1024: at 8 GiB the order-0 loop alone
 * took 50 s under -icount), then order 0 with reclaim, which also empties the caches.  The
 * list is last-in first-out, so the order-0 pages are released first, one at a time.
 */
struct hog_block {
	struct hog_block *next;
	unsigned int order;
};

static struct hog_block *hog_push(struct hog_block *head, struct page *page, unsigned int order)
{
	struct hog_block *b = page_address(page);

	b->next = head;
	b->order = order;
	return b;
}

static void *hog_all(void)
{
	struct hog_block *head = NULL;
	struct page *page;

	for (unsigned int order = MAX_PAGE_ORDER; order > 0; order--)
		while ((page = alloc_pages(__GFP_NOWARN, order)))
			head = hog_push(head, page, order);
	while ((page = alloc_page(GFP_KERNEL | __GFP_NOWARN)))
		head = hog_push(head, page, 0);
	return head;
}

static void *hog_release_one(void *head)
{
	struct hog_block *b = head, *next = b->next;

	free_pages((unsigned long)b, b->order);
	return next;
}

/* Three areas, each in its own pte table: a fork needs an area, a table and more for each. */
#define OOM_STRIDE	(8UL << 20)

static void fork_out_of_memory_undone(struct ktest *t)
{
	snapshot();
	struct mm_struct *parent = mm_alloc(), *child = NULL;
	int failures = 0, err = 0;

	KTEST_ASSERT_TRUE(t, parent != NULL);
	mutex_lock(&parent->mmap_lock);
	for (int i = 0; i < 3; i++) {
		unsigned long a = KT_BASE + i * OOM_STRIDE;

		KTEST_EXPECT_EQ(t, mmap_region(parent, a, P(2), RW, NULL, 0), (long)a);
		KTEST_EXPECT_EQ(t, handle_mm_fault(vma_lookup(parent, a), a, FAULT_FLAG_WRITE), 0U);
	}
	mutex_unlock(&parent->mmap_lock);
	lru_add_drain();
	unsigned long tables = global_node_page_state(NR_PAGETABLE);
	unsigned long anon = global_node_page_state(NR_ANON_MAPPED);
	void *hog = hog_all();

	for (int tries = 0; hog && tries < 8192; tries++) {
		unsigned long mem = free_and_slab();

		child = dup_mm(parent, &err);
		if (child)
			break;
		failures++;
		KTEST_EXPECT_EQ(t, err, -ENOMEM);
		KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), tables);
		KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon);
		KTEST_EXPECT_LE(t, free_and_slab(), mem);	/* a slab may keep a new page */
		KTEST_EXPECT_GE(t, free_and_slab() + 2, mem);
		for (int i = 0; i < 3; i++) {
			struct folio *f = kt_folio_at(parent, KT_BASE + i * OOM_STRIDE);

			KTEST_EXPECT_EQ(t, folio_mapcount(f), 1);
			KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 1);
		}
		hog = hog_release_one(hog);
	}
	while (hog)
		hog = hog_release_one(hog);
	kprintf("    # a fork failed %d times for want of memory, then worked\n", failures);
	KTEST_EXPECT_GT(t, failures, 0);
	KTEST_EXPECT_TRUE(t, child != NULL);
	if (child) {
		lru_add_drain();
		KTEST_EXPECT_EQ(t, folio_mapcount(kt_folio_at(parent, KT_BASE + 2 * OOM_STRIDE)), 2);
		mmput(child);
	}
	mmput(parent);
	all_back(t);
}

static const struct ktest_case rmap_cases[] = {
	KTEST_CASE(fork_shares_pages),
	KTEST_CASE(walk_finds_every_pte),
	KTEST_CASE(cow_copies_then_reuses),
	KTEST_CASE(exclusive_again_after_child_exit),
	KTEST_CASE(fork_out_of_memory_undone),
	{}
};
KTEST_SUITE(rmap, rmap_cases);
