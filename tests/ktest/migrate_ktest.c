/*
 * migrate_ktest.c - page migration (mm/migrate.c, mm/rmap_migrate.c, docs/migration.md):
 * suite `migrate`, every board.  User mms built with mm_alloc() (never loaded: faults are
 * taken by calling handle_mm_fault(), ptes read under the page-table lock), their folios
 * isolated and moved with migrate_pages(), and checked:
 *   - an anonymous page shared by fork: both ptes name the new frame, still read-only, the
 *     bytes exact, mapcount and references as before, PG_young and PG_idle carried, the old
 *     frame freed, AnonPages unchanged; the child's next write still copies;
 *   - an exclusive, written anonymous page: its pte comes back writable and the page
 *     PG_anon_exclusive (the migration entry carried it), pagemap says exclusive;
 *   - a page of a VM_LOCKED area: the new folio PG_mlocked (rebuilt from the area, not copied),
 *     Mlocked unchanged;
 *   - a dirty page of a MAP_SHARED file mapping: the page cache holds the new folio at its
 *     index, dirty, mapped writable where the old one was, Mapped and Dirty unchanged;
 *   - what cannot move stays as it was, counted under its reason: a folio someone else holds
 *     ("pinned"), one whose lock stays taken ("locked"), one with no frame to go to
 *     (-ENOMEM, "nomem"); each keeps its frame, pte, bytes, and goes back on the LRU;
 *   - a folio whose mm went while it was isolated is only released (counted as moved);
 *   - a driver's movable page (the suite's own movable_operations): isolate_movable_page()
 *     sets PG_isolated (and refuses a second isolation), migrate_pages() has the owner move
 *     it (the bytes, the owner's reference, PG_isolated cleared, the old frame freed); put
 *     back, it is the owner's again; an owner that refuses leaves it, counted "refused".
 * Each case checks the page tables, AnonPages, Mapped and free memory are back at the end.
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/exec.h"
#include "tinymm/fork.h"
#include "tinymm/ktest.h"
#include "tinymm/migrate.h"
#include "tinymm/mlock.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"
#include "tinymm/vmstat.h"
#include "ktest_mm.h"
#include "../../mm/internal.h"

#define P(n)		((unsigned long)(n) << PAGE_SHIFT)
#define RW		(VM_READ | VM_WRITE | VM_MAYREAD | VM_MAYWRITE)
#define MT_BASE		(256UL << 20)
#define MT_PAGES	4
#define MT_DIR		"/migrate_kt"

static struct kt_mm_counts before;

static void snapshot(void)
{
	kt_snapshot(&before);
}

static void all_back(struct ktest *t)
{
	kt_all_back(t, &before);
}

/* An mm with MT_PAGES anonymous pages at MT_BASE (@vm_flags), page i filled with 'a' + i. */
static struct mm_struct *anon_mm(struct ktest *t, unsigned long vm_flags)
{
	return kt_anon_mm(t, MT_BASE, MT_PAGES, vm_flags, 'a');
}

static bool all_bytes(struct folio *folio, int c)
{
	const unsigned char *p = page_address(&folio->page);

	for (unsigned long i = 0; i < PAGE_SIZE; i++)
		if (p[i] != (unsigned char)c)
			return false;
	return true;
}

/* @folio isolated onto @list as a caller of migrate_pages() must (LRU batches drained). */
static bool isolate(struct folio *folio, struct page_list *list)
{
	lru_add_drain();
	page_list_init(list);
	if (!folio_isolate_lru(folio))
		return false;
	page_list_add_tail(list, &folio->page);
	return true;
}

static struct folio *no_folio(struct folio *src, unsigned long private)
{
	(void)src;
	(void)private;
	return NULL;
}

/* One folio through migrate_pages(MIGRATE_SYNC): its return value, *moved set. */
static int move(struct page_list *list, new_folio_t get, unsigned int *moved)
{
	return migrate_pages(list, get, NULL, 0, MIGRATE_SYNC, MR_SYSCALL, moved);
}

/* ---- what moves ---- */

static void anon_shared_by_fork_moves(struct ktest *t)
{
	snapshot();
	struct mm_struct *parent = anon_mm(t, RW), *child;
	struct page_list list;
	unsigned int moved = 0;
	int err = 0;

	KTEST_ASSERT_TRUE(t, parent != NULL);
	child = dup_mm(parent, &err);
	KTEST_ASSERT_TRUE(t, child != NULL);
	unsigned long anon0 = global_node_page_state(NR_ANON_MAPPED);
	unsigned long ok0 = global_vm_event(PGMIGRATE_SUCCESS);
	struct folio *f = kt_folio_at(parent, MT_BASE + P(1));
	unsigned long old_pfn = page_to_pfn(&f->page);

	folio_set_young(f);
	folio_set_idle(f);
	KTEST_ASSERT_TRUE(t, isolate(f, &list));
	KTEST_EXPECT_EQ(t, move(&list, alloc_migration_target, &moved), 0);
	KTEST_EXPECT_EQ(t, moved, 1U);
	KTEST_EXPECT_TRUE(t, page_list_empty(&list));
	KTEST_EXPECT_EQ(t, global_vm_event(PGMIGRATE_SUCCESS), ok0 + 1);

	struct folio *g = kt_folio_at(parent, MT_BASE + P(1));
	KTEST_ASSERT_TRUE(t, g != NULL);
	KTEST_EXPECT_TRUE(t, page_to_pfn(&g->page) != old_pfn);
	KTEST_EXPECT_TRUE(t, kt_folio_at(child, MT_BASE + P(1)) == g);
	KTEST_EXPECT_FALSE(t, pte_write(kt_pte_at(parent, MT_BASE + P(1))));
	KTEST_EXPECT_FALSE(t, pte_write(kt_pte_at(child, MT_BASE + P(1))));
	KTEST_EXPECT_TRUE(t, all_bytes(g, 'b'));
	KTEST_EXPECT_EQ(t, folio_mapcount(g), 2);
	lru_add_drain();
	KTEST_EXPECT_EQ(t, page_ref_count(&g->page), 2);
	KTEST_EXPECT_TRUE(t, folio_test_lru(g));
	KTEST_EXPECT_TRUE(t, folio_test_anon(g) && folio_test_swapbacked(g));
	KTEST_EXPECT_FALSE(t, PageAnonExclusive(&g->page));
	KTEST_EXPECT_TRUE(t, folio_test_young(g));
	KTEST_EXPECT_TRUE(t, folio_test_idle(g));
	KTEST_EXPECT_EQ(t, page_ref_count(pfn_to_page(old_pfn)), 0);	/* freed */
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), anon0);
	bool ax = true;
	uint64_t e = kt_pagemap(parent, MT_BASE + P(1), &ax);
	KTEST_EXPECT_EQ(t, (unsigned long)(e & PM_PFRAME_MASK), page_to_pfn(&g->page));
	KTEST_EXPECT_FALSE(t, ax);
	/* Copy-on-write still works on the moved page. */
	KTEST_EXPECT_EQ(t, kt_fault(child, MT_BASE + P(1), FAULT_FLAG_WRITE), 0U);
	struct folio *c = kt_folio_at(child, MT_BASE + P(1));
	KTEST_EXPECT_TRUE(t, c != NULL && c != g && all_bytes(c, 'b'));
	mmput(child);
	mmput(parent);
	all_back(t);
}

static void anon_exclusive_stays_writable(struct ktest *t)
{
	snapshot();
	struct mm_struct *mm = anon_mm(t, RW);
	struct page_list list;
	unsigned int moved = 0;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	struct folio *f = kt_folio_at(mm, MT_BASE + P(2));
	KTEST_EXPECT_TRUE(t, pte_write(kt_pte_at(mm, MT_BASE + P(2))));
	KTEST_EXPECT_TRUE(t, PageAnonExclusive(&f->page));
	KTEST_ASSERT_TRUE(t, isolate(f, &list));
	KTEST_EXPECT_EQ(t, move(&list, alloc_migration_target, &moved), 0);
	struct folio *g = kt_folio_at(mm, MT_BASE + P(2));
	KTEST_ASSERT_TRUE(t, g != NULL && g != f);
	KTEST_EXPECT_TRUE(t, pte_write(kt_pte_at(mm, MT_BASE + P(2))));
	KTEST_EXPECT_TRUE(t, PageAnonExclusive(&g->page));
	KTEST_EXPECT_TRUE(t, all_bytes(g, 'c'));
	KTEST_EXPECT_EQ(t, folio_mapcount(g), 1);
	bool ax = false;
	uint64_t e = kt_pagemap(mm, MT_BASE + P(2), &ax);
	KTEST_EXPECT_TRUE(t, (e & PM_PRESENT) && (e & PM_MMAP_EXCLUSIVE) && ax);
	/* A write now needs no fault: nothing was copied, nothing to copy on write. */
	unsigned long faults = global_vm_event(PGFAULT);
	KTEST_EXPECT_EQ(t, kt_fault(mm, MT_BASE + P(2), FAULT_FLAG_WRITE), 0U);
	KTEST_EXPECT_TRUE(t, kt_folio_at(mm, MT_BASE + P(2)) == g);
	KTEST_EXPECT_EQ(t, global_vm_event(PGFAULT), faults + 1);
	mmput(mm);
	all_back(t);
}

static void mlocked_page_is_mlocked_again(struct ktest *t)
{
	snapshot();
	struct mm_struct *mm = anon_mm(t, RW | VM_LOCKED);
	struct page_list list;
	unsigned int moved = 0;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	mlock_drain_local();
	lru_add_drain();
	struct folio *f = kt_folio_at(mm, MT_BASE);
	unsigned long mlock0 = global_node_page_state(NR_MLOCK);
	KTEST_EXPECT_TRUE(t, folio_test_mlocked(f));
	KTEST_ASSERT_TRUE(t, isolate(f, &list));
	KTEST_EXPECT_EQ(t, move(&list, alloc_migration_target, &moved), 0);
	mlock_drain_local();
	lru_add_drain();
	struct folio *g = kt_folio_at(mm, MT_BASE);
	KTEST_ASSERT_TRUE(t, g != NULL && g != f);
	KTEST_EXPECT_TRUE(t, folio_test_mlocked(g));
	KTEST_EXPECT_TRUE(t, folio_test_unevictable(g));
	KTEST_EXPECT_TRUE(t, all_bytes(g, 'a'));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), mlock0);
	mmput(mm);
	all_back(t);
}

/* A ramfs file of 3 pages ('x', 'y', 'z') mapped MAP_SHARED at MT_BASE of a fresh mm. */
static struct mm_struct *file_mm(struct ktest *t, struct file **filp)
{
	static unsigned char buf[3 * PAGE_SIZE];
	int err = vfs_mkdir(MT_DIR, 0755);
	struct mm_struct *mm;

	KTEST_EXPECT_TRUE(t, err == 0 || err == -EEXIST);
	KTEST_EXPECT_EQ(t, do_mount("none", MT_DIR, "ramfs", 0), 0);
	for (unsigned long i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)('x' + i / PAGE_SIZE);
	KTEST_EXPECT_EQ(t, vfs_open(MT_DIR "/f", O_RDWR | O_CREAT, 0644, filp), 0);
	if (!*filp)
		return NULL;
	KTEST_EXPECT_EQ(t, vfs_write(*filp, buf, sizeof(buf)), (long)sizeof(buf));
	mm = mm_alloc();
	if (!mm)
		return NULL;
	mutex_lock(&mm->mmap_lock);
	KTEST_EXPECT_EQ(t, mmap_region(mm, MT_BASE, P(3), RW | VM_SHARED, *filp, 0), (long)MT_BASE);
	mutex_unlock(&mm->mmap_lock);
	return mm;
}

static void file_done(struct ktest *t, struct file *filp)
{
	KTEST_EXPECT_EQ(t, vfs_close(filp), 0);
	KTEST_EXPECT_EQ(t, vfs_unlink(MT_DIR "/f"), 0);
	KTEST_EXPECT_EQ(t, do_umount(MT_DIR), 0);
	KTEST_EXPECT_EQ(t, vfs_rmdir(MT_DIR), 0);
}

static void shared_file_page_moves(struct ktest *t)
{
	struct file *filp = NULL;

	snapshot();
	struct mm_struct *mm = file_mm(t, &filp);
	struct page_list list;
	unsigned int moved = 0;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	KTEST_EXPECT_EQ(t, kt_fault(mm, MT_BASE + P(1), FAULT_FLAG_WRITE), 0U);
	struct folio *f = kt_folio_at(mm, MT_BASE + P(1));
	KTEST_ASSERT_TRUE(t, f != NULL);
	struct address_space *mapping = filp->f_inode->i_mapping;
	unsigned long mapped0 = global_node_page_state(NR_FILE_MAPPED);
	unsigned long dirty0 = global_node_page_state(NR_FILE_DIRTY);
	KTEST_EXPECT_TRUE(t, folio_test_dirty(f));
	KTEST_ASSERT_TRUE(t, isolate(f, &list));
	KTEST_EXPECT_EQ(t, move(&list, alloc_migration_target, &moved), 0);
	KTEST_EXPECT_EQ(t, moved, 1U);
	struct folio *g = kt_folio_at(mm, MT_BASE + P(1));
	KTEST_ASSERT_TRUE(t, g != NULL && g != f);
	struct folio *cached = filemap_get_folio(mapping, 1);
	KTEST_EXPECT_TRUE(t, cached == g);
	if (!IS_ERR(cached))
		folio_put(cached);
	KTEST_EXPECT_TRUE(t, g->mapping == mapping && g->index == 1);
	KTEST_EXPECT_TRUE(t, folio_test_dirty(g) && folio_test_uptodate(g));
	KTEST_EXPECT_TRUE(t, pte_write(kt_pte_at(mm, MT_BASE + P(1))));
	KTEST_EXPECT_TRUE(t, all_bytes(g, 'y'));
	KTEST_EXPECT_EQ(t, folio_mapcount(g), 1);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_MAPPED), mapped0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_DIRTY), dirty0);
	mmput(mm);
	file_done(t, filp);
	all_back(t);
}

/* ---- what does not move ---- */

/* The folio where it was, its pte as before, back on the LRU after the put-back. */
static void left_in_place(struct ktest *t, struct mm_struct *mm, unsigned long addr,
			  struct folio *f, pte_t pte, struct page_list *list)
{
	KTEST_EXPECT_FALSE(t, page_list_empty(list));
	putback_movable_pages(list);
	KTEST_EXPECT_TRUE(t, kt_folio_at(mm, addr) == f);
	KTEST_EXPECT_EQ(t, pte_val(kt_pte_at(mm, addr)), pte_val(pte));
	KTEST_EXPECT_TRUE(t, PageAnonExclusive(&f->page));
	KTEST_EXPECT_EQ(t, folio_mapcount(f), 1);
	lru_add_drain();
	KTEST_EXPECT_TRUE(t, folio_test_lru(f));
}

static void pinned_folio_stays(struct ktest *t)
{
	snapshot();
	struct mm_struct *mm = anon_mm(t, RW);
	struct page_list list;
	unsigned int moved = 7;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	struct folio *f = kt_folio_at(mm, MT_BASE + P(3));
	pte_t pte = kt_pte_at(mm, MT_BASE + P(3));
	unsigned long pinned0 = migrate_fail_count(MIGRATE_FAIL_REFS);
	unsigned long fail0 = global_vm_event(PGMIGRATE_FAIL);

	folio_get(f);		/* a pin, as GUP would hold */
	KTEST_ASSERT_TRUE(t, isolate(f, &list));
	KTEST_EXPECT_EQ(t, move(&list, alloc_migration_target, &moved), 1);
	KTEST_EXPECT_EQ(t, moved, 0U);
	KTEST_EXPECT_EQ(t, migrate_fail_count(MIGRATE_FAIL_REFS), pinned0 + 1);
	KTEST_EXPECT_EQ(t, global_vm_event(PGMIGRATE_FAIL), fail0 + 1);
	KTEST_EXPECT_TRUE(t, all_bytes(f, 'd'));
	left_in_place(t, mm, MT_BASE + P(3), f, pte, &list);
	folio_put(f);
	mmput(mm);
	all_back(t);
}

static void locked_folio_stays(struct ktest *t)
{
	snapshot();
	struct mm_struct *mm = anon_mm(t, RW);
	struct page_list list;
	unsigned int moved = 7;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	struct folio *f = kt_folio_at(mm, MT_BASE);
	pte_t pte = kt_pte_at(mm, MT_BASE);
	unsigned long locked0 = migrate_fail_count(MIGRATE_FAIL_LOCKED);

	KTEST_ASSERT_TRUE(t, isolate(f, &list));
	folio_lock(f);		/* held through every pass: "locked too long" */
	KTEST_EXPECT_EQ(t, move(&list, alloc_migration_target, &moved), 1);
	folio_unlock(f);
	KTEST_EXPECT_EQ(t, moved, 0U);
	KTEST_EXPECT_EQ(t, migrate_fail_count(MIGRATE_FAIL_LOCKED), locked0 + 1);
	left_in_place(t, mm, MT_BASE, f, pte, &list);
	mmput(mm);
	all_back(t);
}

static void no_memory_leaves_folio(struct ktest *t)
{
	snapshot();
	struct mm_struct *mm = anon_mm(t, RW);
	struct page_list list;
	unsigned int moved = 7;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	struct folio *f = kt_folio_at(mm, MT_BASE + P(1));
	pte_t pte = kt_pte_at(mm, MT_BASE + P(1));
	unsigned long nomem0 = migrate_fail_count(MIGRATE_FAIL_NOMEM);

	KTEST_ASSERT_TRUE(t, isolate(f, &list));
	KTEST_EXPECT_EQ(t, move(&list, no_folio, &moved), -ENOMEM);
	KTEST_EXPECT_EQ(t, moved, 0U);
	KTEST_EXPECT_EQ(t, migrate_fail_count(MIGRATE_FAIL_NOMEM), nomem0 + 1);
	KTEST_EXPECT_TRUE(t, all_bytes(f, 'b'));
	left_in_place(t, mm, MT_BASE + P(1), f, pte, &list);
	mmput(mm);
	all_back(t);
}

static void freed_while_isolated(struct ktest *t)
{
	snapshot();
	struct mm_struct *mm = anon_mm(t, RW);
	struct page_list list;
	unsigned int moved = 0;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	struct folio *f = kt_folio_at(mm, MT_BASE);
	KTEST_ASSERT_TRUE(t, isolate(f, &list));
	mmput(mm);		/* its pte goes: our isolation reference is the last */
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 1);
	KTEST_EXPECT_EQ(t, move(&list, alloc_migration_target, &moved), 0);
	KTEST_EXPECT_EQ(t, moved, 1U);
	KTEST_EXPECT_TRUE(t, page_list_empty(&list));
	all_back(t);
}

/* ---- a driver's movable page: the suite is the owner ---- */

static struct page *mt_owned;		/* the page the "driver" owns now */
static bool mt_refuse;
static const struct movable_operations mt_mops;

static bool mt_isolate(struct page *page, isolate_mode_t mode)
{
	(void)mode;
	return page == mt_owned;
}

/* As a balloon's migratepage: the new page becomes the owner's, the old one is let go. */
static int mt_migrate(struct page *dst, struct page *src, enum migrate_mode mode)
{
	(void)mode;
	if (mt_refuse)
		return -EBUSY;
	memcpy(page_address(dst), page_address(src), PAGE_SIZE);
	get_page(dst);			/* the owner's reference */
	__SetPageMovable(dst, &mt_mops);
	__ClearPageMovable(src);
	mt_owned = dst;
	put_page(src);			/* the owner's reference on the old page */
	return MIGRATEPAGE_SUCCESS;
}

static void mt_putback(struct page *page)
{
	(void)page;
}

static const struct movable_operations mt_mops = {
	.isolate_page = mt_isolate, .migrate_page = mt_migrate, .putback_page = mt_putback,
};

static struct page *mt_new_movable(struct ktest *t)
{
	struct page *page = alloc_page(GFP_HIGHUSER_MOVABLE);

	KTEST_EXPECT_TRUE(t, page != NULL);
	if (!page)
		return NULL;
	memset(page_address(page), 'm', PAGE_SIZE);
	folio_lock(page_folio(page));
	__SetPageMovable(page, &mt_mops);
	folio_unlock(page_folio(page));
	mt_owned = page;
	mt_refuse = false;
	return page;
}

static void mt_release(struct page *page)
{
	folio_lock(page_folio(page));
	__ClearPageMovable(page);
	folio_unlock(page_folio(page));
	mt_owned = NULL;
	put_page(page);			/* the owner's: the page is freed */
}

static void movable_page_moves(struct ktest *t)
{
	snapshot();
	struct page *page = mt_new_movable(t);
	struct page_list list;
	unsigned int moved = 0;

	KTEST_ASSERT_TRUE(t, page != NULL);
	unsigned long pfn = page_to_pfn(page);
	KTEST_EXPECT_TRUE(t, PageMovable(page));
	KTEST_EXPECT_FALSE(t, PageIsolated(page));
	KTEST_ASSERT_TRUE(t, isolate_movable_page(page, 0));
	KTEST_EXPECT_TRUE(t, PageIsolated(page));
	KTEST_EXPECT_EQ(t, page_ref_count(page), 2);	/* the owner's and the isolation's */
	KTEST_EXPECT_FALSE(t, isolate_movable_page(page, 0));	/* once is enough */
	KTEST_EXPECT_EQ(t, page_ref_count(page), 2);
	page_list_init(&list);
	page_list_add_tail(&list, page);
	KTEST_EXPECT_EQ(t, move(&list, alloc_migration_target, &moved), 0);
	KTEST_EXPECT_EQ(t, moved, 1U);
	KTEST_ASSERT_TRUE(t, mt_owned != NULL && mt_owned != page);
	KTEST_EXPECT_TRUE(t, PageMovable(mt_owned));
	KTEST_EXPECT_FALSE(t, PageIsolated(mt_owned));
	KTEST_EXPECT_FALSE(t, PageLocked(mt_owned));
	KTEST_EXPECT_EQ(t, page_ref_count(mt_owned), 1);	/* the owner's alone */
	KTEST_EXPECT_TRUE(t, all_bytes(page_folio(mt_owned), 'm'));
	KTEST_EXPECT_EQ(t, page_ref_count(pfn_to_page(pfn)), 0);	/* the old page freed */
	mt_release(mt_owned);
	all_back(t);
}

static void movable_page_put_back(struct ktest *t)
{
	snapshot();
	struct page *page = mt_new_movable(t);
	struct page_list list;
	unsigned int moved = 7;

	KTEST_ASSERT_TRUE(t, page != NULL);
	unsigned long refused0 = migrate_fail_count(MIGRATE_FAIL_REFUSED);
	KTEST_ASSERT_TRUE(t, isolate_movable_page(page, 0));
	page_list_init(&list);
	page_list_add_tail(&list, page);
	mt_refuse = true;
	KTEST_EXPECT_EQ(t, move(&list, alloc_migration_target, &moved), 1);
	KTEST_EXPECT_EQ(t, moved, 0U);
	KTEST_EXPECT_EQ(t, migrate_fail_count(MIGRATE_FAIL_REFUSED), refused0 + 1);
	KTEST_EXPECT_TRUE(t, mt_owned == page && PageIsolated(page));
	putback_movable_pages(&list);
	KTEST_EXPECT_TRUE(t, page_list_empty(&list));
	KTEST_EXPECT_FALSE(t, PageIsolated(page));
	KTEST_EXPECT_TRUE(t, PageMovable(page));
	KTEST_EXPECT_EQ(t, page_ref_count(page), 1);
	KTEST_EXPECT_TRUE(t, all_bytes(page_folio(page), 'm'));
	mt_release(page);
	all_back(t);
}

static const struct ktest_case migrate_cases[] = {
	KTEST_CASE(anon_shared_by_fork_moves),
	KTEST_CASE(anon_exclusive_stays_writable),
	KTEST_CASE(mlocked_page_is_mlocked_again),
	KTEST_CASE(shared_file_page_moves),
	KTEST_CASE(pinned_folio_stays),
	KTEST_CASE(locked_folio_stays),
	KTEST_CASE(no_memory_leaves_folio),
	KTEST_CASE(freed_while_isolated),
	KTEST_CASE(movable_page_moves),
	KTEST_CASE(movable_page_put_back),
	{}
};
KTEST_SUITE(migrate, migrate_cases);
