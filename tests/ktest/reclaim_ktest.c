/*
 * reclaim_ktest.c - mm/vmscan.c's rules and mm/workingset.c's arithmetic (suites `reclaim` and
 * `workingset`, every board, and on the host under ASan/UBSan through tests/host/reclaim_test.c),
 * over a fake disk whose reads complete at once and whose writepage starts writeback and leaves
 * it running until the case ends it.  The expected values are worked out by hand from v6.10:
 *   - folio_check_references on an unmapped cache folio: PG_referenced -> RECLAIM_CLEAN (and the
 *     flag cleared), else RECLAIM;
 *   - a clean folio is evicted, leaving a shadow whose clock and workingset bit are the ones at
 *     eviction; a dirty one is never freed: direct reclaim marks it PG_reclaim and activates it,
 *     kswapd writes a PG_reclaim one out (when the tail is all dirty) and the end of writeback
 *     rotates it to the inactive tail, from where it goes; under writeback: PG_reclaim + active;
 *     a busy (extra reference) or locked folio stays; an unevictable mapping's is culled;
 *   - the active list is left alone while the inactive one is bigger and nothing refaulted, and
 *     shrunk (PG_active off, PG_workingset on) once the inactive list is the smaller;
 *   - refault distance = (clock now - clock at eviction) mod 2^(BITS_PER_LONG - 2); recent iff
 *     <= nr_active_file; a recent refault starts active, and restores PG_workingset only if the
 *     shadow had it; a write (__GFP_WRITE) is no refault;
 *   - kswapd's pageout that cannot start (writepage: -ENOMEM, folio redirtied) keeps the folio and
 *     records no error; the allocator's retry rounds (Linux's should_reclaim_retry) and the
 *     reserves a task inside reclaim may use;
 *   - shadow nodes: a leaf holding only shadows is counted in workingset_nodes, and the shrinker
 *     trims the excess over RAM pages / 8 by half, as Linux's seeks-0 shrinker.
 * After every case: lru_check() and the mapping emptied (shadows included).
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shrinker.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "tinymm/workingset.h"
#include "tinymm/writeback.h"
#include "tinymm/xarray.h"
#include "../../mm/internal.h"

#define RC_PAGES	256

static struct address_space rc_mapping;
static unsigned int rc_writepages;
static bool rc_writepage_enomem;	/* writepage cannot start: no memory for its bio */

static void rc_complete(struct folio *folio)
{
	memset(page_address(&folio->page), (int)folio->index, PAGE_SIZE);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
}

static int rc_read_folio(struct address_space *m, struct folio *folio)
{
	(void)m;
	rc_complete(folio);
	return 0;
}

static void rc_readahead(struct readahead_control *rac)
{
	struct folio *folio;

	while ((folio = readahead_folio(rac)))
		rc_complete(folio);
}

/* Reclaim's pageout: writeback starts and stays until the case calls folio_end_writeback. */
static int rc_writepage(struct folio *folio, struct writeback_control *wbc)
{
	rc_writepages++;
	if (rc_writepage_enomem) {		/* as blkdev_writepage when bio_alloc fails */
		folio_redirty_for_writepage(wbc, folio);
		folio_unlock(folio);
		return -ENOMEM;
	}
	folio_start_writeback(folio);
	folio_unlock(folio);
	return 0;
}

static const struct address_space_operations rc_aops = {
	.read_folio = rc_read_folio,
	.readahead = rc_readahead,
	.writepage = rc_writepage,
};

static void rc_setup(void)
{
	lru_add_drain();
	address_space_init(&rc_mapping, &rc_aops, (loff_t)RC_PAGES * PAGE_SIZE);
	rc_writepages = 0;
	rc_writepage_enomem = false;
}

static void rc_teardown(struct ktest *t)
{
	truncate_inode_pages(&rc_mapping, 0);	/* folios and shadows: no node outlives the case */
	/* Off the flusher's list (dirtied cases put it there) before rc_setup() reinitialises it:
	 * a reinitialised mapping still on b_dirty hung the flusher (docs/writeback.md). */
	inode_io_list_del(&rc_mapping);
	KTEST_EXPECT_EQ(t, rc_mapping.nrpages, 0UL);
	KTEST_EXPECT_TRUE(t, xa_empty(&rc_mapping.i_pages));
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
}

/* A new uptodate, unlocked, listed cache folio at @index; the caller holds a reference. */
static struct folio *rc_new(struct ktest *t, pgoff_t index)
{
	struct folio *folio = __filemap_get_folio(&rc_mapping, index, FGP_CREAT | FGP_LOCK, GFP_KERNEL);

	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "no folio");
		return NULL;
	}
	rc_complete(folio);
	lru_add_drain();
	return folio;
}

static bool rc_is_shadow(pgoff_t index)
{
	return xa_is_value(xa_load(&rc_mapping.i_pages, index));
}

#define RC_CASE(fn)						\
static void fn##_case(struct ktest *t)				\
{								\
	rc_setup();						\
	fn(t);							\
	rc_teardown(t);						\
}

/* ---- reclaim ---- */

static void check_references_rules(struct ktest *t)
{
	struct folio *f = rc_new(t, 1);

	KTEST_ASSERT_TRUE(t, f);
	folio_set_referenced(f);
	KTEST_EXPECT_EQ(t, folio_check_references(f), FOLIOREF_RECLAIM_CLEAN);
	KTEST_EXPECT_FALSE(t, folio_test_referenced(f));
	KTEST_EXPECT_EQ(t, folio_check_references(f), FOLIOREF_RECLAIM);
	folio_put(f);
}

/* Clean, referenced or not: evicted, a shadow left, pgsteal_direct counted. */
static void clean_folio_evicted_with_shadow(struct ktest *t)
{
	unsigned long steal = global_vm_event(PGSTEAL_DIRECT);
	unsigned long age = (unsigned long)atomic_long_read(&node_lruvec.nonresident_age);
	struct folio *a = rc_new(t, 2), *b = rc_new(t, 3);

	KTEST_ASSERT_TRUE(t, a && b);
	folio_set_referenced(b);		/* RECLAIM_CLEAN: clean, so it goes as well */
	folio_put(a);
	folio_put(b);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(a, false, false), 1UL);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(b, false, false), 1UL);
	KTEST_EXPECT_EQ(t, rc_mapping.nrpages, 0UL);
	KTEST_EXPECT_TRUE(t, rc_is_shadow(2));
	KTEST_EXPECT_TRUE(t, rc_is_shadow(3));
	KTEST_EXPECT_EQ(t, global_vm_event(PGSTEAL_DIRECT), steal + 2);
	/* The shadows hold the clock at each eviction (age, then age + 1), workingset bit 0. */
	unsigned long ev;
	bool ws;
	workingset_unpack_shadow(xa_load(&rc_mapping.i_pages, 2), &ev, &ws);
	KTEST_EXPECT_EQ(t, ev, age >> workingset_bucket_order);
	KTEST_EXPECT_FALSE(t, ws);
	workingset_unpack_shadow(xa_load(&rc_mapping.i_pages, 3), &ev, &ws);
	KTEST_EXPECT_EQ(t, ev, (age + 1) >> workingset_bucket_order);
}

/* Direct reclaim never writes: a dirty folio gets PG_reclaim and the active list. */
static void dirty_folio_marked_by_direct_reclaim(struct ktest *t)
{
	unsigned long immediate = global_node_page_state(NR_VMSCAN_IMMEDIATE);
	struct folio *f = rc_new(t, 4);

	KTEST_ASSERT_TRUE(t, f);
	folio_lock(f);
	folio_mark_dirty(f);
	folio_unlock(f);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, false, true), 0UL);
	KTEST_EXPECT_TRUE(t, folio_test_dirty(f));
	KTEST_EXPECT_TRUE(t, folio_test_reclaim(f));
	KTEST_EXPECT_TRUE(t, folio_test_active(f));
	KTEST_EXPECT_EQ(t, folio_lru_list(f), LRU_ACTIVE_FILE);
	KTEST_EXPECT_EQ(t, rc_writepages, 0U);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_VMSCAN_IMMEDIATE), immediate + 1);
	folio_lock(f);				/* clean it for teardown */
	folio_cancel_dirty(f);
	folio_unlock(f);
	inode_io_list_del(&rc_mapping);
	folio_put(f);
}

/*
 * kswapd, tail all dirty (PGDAT_DIRTY), folio already PG_reclaim: pageout.  The write ends with
 * the folio rotated to the inactive tail (PG_active off), and the next pass frees it.
 */
static void kswapd_pageout_then_rotate_then_free(struct ktest *t)
{
	unsigned long wrote = global_node_page_state(NR_VMSCAN_WRITE);
	struct folio *f = rc_new(t, 5), *g = rc_new(t, 6);

	KTEST_ASSERT_TRUE(t, f && g);
	folio_lock(f);
	folio_mark_dirty(f);
	folio_unlock(f);
	folio_set_reclaim(f);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, true, false), 0UL);	/* no PGDAT_DIRTY */
	KTEST_EXPECT_EQ(t, rc_writepages, 0U);
	KTEST_EXPECT_TRUE(t, folio_test_active(f));
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, true, true), 0UL);	/* written out */
	KTEST_EXPECT_EQ(t, rc_writepages, 1U);
	KTEST_EXPECT_TRUE(t, folio_test_writeback(f));
	KTEST_EXPECT_TRUE(t, folio_test_reclaim(f));
	KTEST_EXPECT_FALSE(t, folio_test_dirty(f));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_VMSCAN_WRITE), wrote + 1);
	folio_end_writeback(f);			/* PG_reclaim: rotated to the tail at the next drain */
	lru_add_drain();
	KTEST_EXPECT_FALSE(t, folio_test_reclaim(f));
	KTEST_EXPECT_FALSE(t, folio_test_active(f));
	KTEST_EXPECT_TRUE(t, link_to_page(node_lruvec.lists[LRU_INACTIVE_FILE].last) == &f->page);
	folio_put(f);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, true, false), 1UL);
	KTEST_EXPECT_TRUE(t, rc_is_shadow(5));
	folio_put(g);
}

static void writeback_folio_marked(struct ktest *t)
{
	struct folio *f = rc_new(t, 7);

	KTEST_ASSERT_TRUE(t, f);
	folio_lock(f);
	folio_mark_dirty(f);
	folio_clear_dirty_for_io(f);
	folio_start_writeback(f);
	folio_unlock(f);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, false, false), 0UL);
	KTEST_EXPECT_TRUE(t, folio_test_reclaim(f));
	KTEST_EXPECT_TRUE(t, folio_test_active(f));
	folio_end_writeback(f);
	lru_add_drain();
	KTEST_EXPECT_FALSE(t, folio_test_active(f));	/* rotated: inactive tail */
	folio_put(f);
}

/* kswapd's pageout cannot start the write (no bio): the folio stays, dirty, in the cache, and
 * no error is recorded on the mapping (the data is safe); nr_vmscan_write does not count it. */
static void pageout_without_memory_keeps_folio(struct ktest *t)
{
	unsigned long wrote = global_node_page_state(NR_VMSCAN_WRITE);
	struct folio *f = rc_new(t, 8);

	KTEST_ASSERT_TRUE(t, f);
	folio_lock(f);
	folio_mark_dirty(f);
	folio_unlock(f);
	folio_set_reclaim(f);
	rc_writepage_enomem = true;
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, true, true), 0UL);
	KTEST_EXPECT_EQ(t, rc_writepages, 1U);
	KTEST_EXPECT_TRUE(t, folio_test_dirty(f));
	KTEST_EXPECT_FALSE(t, folio_test_writeback(f));
	KTEST_EXPECT_FALSE(t, folio_test_reclaim(f));
	KTEST_EXPECT_TRUE(t, folio_test_lru(f));
	KTEST_EXPECT_FALSE(t, folio_test_locked(f));
	KTEST_EXPECT_TRUE(t, filemap_get_folio(&rc_mapping, 8) == f);
	folio_put(f);				/* the lookup's */
	KTEST_EXPECT_EQ(t, errseq_check(&rc_mapping.wb_err, 0), 0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_VMSCAN_WRITE), wrote);
	folio_lock(f);				/* clean it for teardown */
	folio_cancel_dirty(f);
	folio_unlock(f);
	inode_io_list_del(&rc_mapping);
	folio_put(f);
}

/* Someone else holds it, or it is locked: it stays in the cache, back on its list. */
static void busy_or_locked_folio_kept(struct ktest *t)
{
	struct folio *f = rc_new(t, 8), *g = rc_new(t, 9);

	KTEST_ASSERT_TRUE(t, f && g);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, false, false), 0UL);	/* our reference */
	KTEST_EXPECT_TRUE(t, folio_test_lru(f));
	KTEST_EXPECT_EQ(t, rc_mapping.nrpages, 2UL);
	folio_lock(g);
	folio_put(g);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(g, false, false), 0UL);
	KTEST_EXPECT_TRUE(t, folio_test_lru(g));
	folio_unlock(g);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(g, false, false), 1UL);	/* now it goes */
	folio_put(f);
}

static void unevictable_folio_culled(struct ktest *t)
{
	unsigned long culled = global_vm_event(UNEVICTABLE_PGCULLED);
	struct folio *f = rc_new(t, 10);

	KTEST_ASSERT_TRUE(t, f);
	mapping_set_unevictable(&rc_mapping);
	folio_put(f);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, false, false), 0UL);
	KTEST_EXPECT_TRUE(t, folio_test_unevictable(f));
	KTEST_EXPECT_FALSE(t, folio_test_active(f));
	KTEST_EXPECT_EQ(t, folio_lru_list(f), LRU_UNEVICTABLE);
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGCULLED), culled + 1);
	mapping_release_unevictable(&rc_mapping);
	KTEST_EXPECT_EQ(t, folio_lru_list(f), LRU_INACTIVE_FILE);
}

/*
 * The whole scanner, with only this case's folios on the lists: 8 active and 40 inactive, and
 * no refault since the last run: reclaim takes inactive folios only.  Then 40 active and 4
 * inactive (inactive is low): the active list is shrunk, its folios get PG_workingset.
 */
static void active_list_protected_until_inactive_low(struct ktest *t)
{
	struct folio *act[40];
	unsigned long deact = global_vm_event(PGDEACTIVATE);

	KTEST_ASSERT_EQ(t, node_lruvec.nr_pages[LRU_INACTIVE_FILE] + node_lruvec.nr_pages[LRU_ACTIVE_FILE], 0UL);
	for (int i = 0; i < 8; i++) {
		act[i] = rc_new(t, (pgoff_t)(100 + i));
		KTEST_ASSERT_TRUE(t, act[i]);
		folio_mark_accessed(act[i]);
		folio_mark_accessed(act[i]);
		KTEST_ASSERT_TRUE(t, folio_test_active(act[i]));
		folio_put(act[i]);
	}
	for (int i = 0; i < 40; i++) {
		struct folio *f = rc_new(t, (pgoff_t)(20 + i));
		KTEST_ASSERT_TRUE(t, f);
		folio_put(f);
	}
	node_lruvec.refaults_file = global_node_page_state(WORKINGSET_ACTIVATE_FILE);
	KTEST_EXPECT_FALSE(t, inactive_file_is_low(&node_lruvec));
	KTEST_EXPECT_GE(t, try_to_free_pages(GFP_KERNEL, 0), 1UL);
	KTEST_EXPECT_EQ(t, global_vm_event(PGDEACTIVATE), deact);
	KTEST_EXPECT_EQ(t, node_lruvec.nr_pages[LRU_ACTIVE_FILE], 8UL);
	KTEST_EXPECT_LT(t, node_lruvec.nr_pages[LRU_INACTIVE_FILE], 40UL);

	truncate_inode_pages(&rc_mapping, 0);
	for (int i = 0; i < 40; i++) {
		act[i] = rc_new(t, (pgoff_t)(100 + i));
		KTEST_ASSERT_TRUE(t, act[i]);
		folio_mark_accessed(act[i]);
		folio_mark_accessed(act[i]);
	}
	for (int i = 0; i < 4; i++) {
		struct folio *f = rc_new(t, (pgoff_t)(20 + i));
		KTEST_ASSERT_TRUE(t, f);
		folio_put(f);
	}
	node_lruvec.refaults_file = global_node_page_state(WORKINGSET_ACTIVATE_FILE);
	KTEST_EXPECT_TRUE(t, inactive_file_is_low(&node_lruvec));
	try_to_free_pages(GFP_KERNEL, 0);
	KTEST_EXPECT_GT(t, global_vm_event(PGDEACTIVATE), deact);
	unsigned int workingset = 0;
	for (int i = 0; i < 40; i++) {
		if (!folio_test_active(act[i]))
			workingset += folio_test_workingset(act[i]);
		folio_put(act[i]);
	}
	KTEST_EXPECT_EQ(t, workingset, (unsigned int)(global_vm_event(PGDEACTIVATE) - deact));
}

RC_CASE(check_references_rules)
RC_CASE(clean_folio_evicted_with_shadow)
RC_CASE(dirty_folio_marked_by_direct_reclaim)
RC_CASE(kswapd_pageout_then_rotate_then_free)
RC_CASE(writeback_folio_marked)
RC_CASE(busy_or_locked_folio_kept)
RC_CASE(pageout_without_memory_keeps_folio)
RC_CASE(unevictable_folio_culled)
RC_CASE(active_list_protected_until_inactive_low)

/*
 * The allocator's direct-reclaim loop (mm/page_alloc.c, Linux's should_reclaim_retry): with
 * memory taken down to the min watermark and a counting hook in place of reclaim, how many
 * rounds each kind of request gets; then the real hook inside reclaim (PF_MEMALLOC) allocates
 * below the watermark, unless __GFP_NOMEMALLOC.  The hog uses no reclaim flags (kswapd stays
 * asleep) and neither do the probes' kswapd bits, so nothing else reclaims meanwhile.
 */
static unsigned int hook_calls;
static long hook_progress;

static long counting_hook(gfp_t gfp, unsigned int order)
{
	(void)order;
	if (!(gfp & __GFP_DIRECT_RECLAIM))
		return -1;
	hook_calls++;
	return hook_progress;
}

static unsigned int rounds_for(gfp_t gfp, unsigned int order, long progress)
{
	struct page *page;

	hook_calls = 0;
	hook_progress = progress;
	page = alloc_pages(gfp | __GFP_NOWARN, order);
	if (page)
		__free_pages(page, order);
	return page ? ~0u : hook_calls;
}

static void allocation_retry_rules(struct ktest *t)
{
	const gfp_t direct = __GFP_DIRECT_RECLAIM | __GFP_IO | __GFP_FS;	/* no kswapd */
	long (*saved_hook)(gfp_t, unsigned int) = direct_reclaim_hook;
	struct page *held = NULL, *page;
	unsigned int saved_flags = current->flags;

	lru_add_drain();
	for (int o = MAX_PAGE_ORDER; o >= 0; o--)	/* down to the min watermark */
		while ((page = alloc_pages(__GFP_NOWARN, (unsigned int)o))) {
			page->private = (unsigned long)held;
			page->index = (pgoff_t)o;
			held = page;
		}
	KTEST_ASSERT_TRUE(t, held != NULL);
	direct_reclaim_hook = counting_hook;
	KTEST_EXPECT_EQ(t, rounds_for(direct | __GFP_NORETRY, 0, 0), 1U);
	KTEST_EXPECT_EQ(t, rounds_for(direct | __GFP_NORETRY, 0, 5), 1U);
	KTEST_EXPECT_EQ(t, rounds_for(direct, PAGE_ALLOC_COSTLY_ORDER + 1, 5), 1U);
	/* No progress: MAX_RECLAIM_RETRIES rounds in a row, then one more that ends it. */
	KTEST_EXPECT_EQ(t, rounds_for(direct, 0, 0), (unsigned int)MAX_RECLAIM_RETRIES + 1);
	/* A costly order may retry, but its progress does not count. */
	KTEST_EXPECT_EQ(t, rounds_for(direct | __GFP_RETRY_MAYFAIL, PAGE_ALLOC_COSTLY_ORDER + 1, 5),
			(unsigned int)MAX_RECLAIM_RETRIES + 1);
	/* Progress that never turns into a page: tinymm's cap of 4 x MAX_RECLAIM_RETRIES rounds. */
	KTEST_EXPECT_EQ(t, rounds_for(direct, 0, 5), 4U * MAX_RECLAIM_RETRIES);
	KTEST_EXPECT_EQ(t, rounds_for(0, 0, 5), 0U);		/* no direct reclaim: no round */
	direct_reclaim_hook = saved_hook;
	if (saved_hook) {					/* the kernel's hook: reserves */
		current->flags |= PF_MEMALLOC;
		/* __GFP_NOMEMALLOC first: the other one's page would come back to the per-CPU
		 * list on its free, where the next allocation finds it without any reserve. */
		page = alloc_pages(direct | __GFP_NOMEMALLOC | __GFP_NOWARN, 0);
		KTEST_EXPECT_TRUE(t, page == NULL);
		if (page)
			__free_pages(page, 0);
		page = alloc_pages(direct | __GFP_NOWARN, 0);
		KTEST_EXPECT_TRUE(t, page != NULL);
		if (page)
			__free_pages(page, 0);
		current->flags = saved_flags;
	}
	while (held) {
		page = held;
		held = (struct page *)page->private;
		unsigned int o = (unsigned int)page->index;
		page->private = 0;
		page->index = 0;
		__free_pages(page, o);
	}
	KTEST_EXPECT_EQ(t, buddy_check(NULL), 0);
}

static const struct ktest_case reclaim_cases[] = {
	{ "check_references_rules", check_references_rules_case },
	{ "clean_folio_evicted_with_shadow", clean_folio_evicted_with_shadow_case },
	{ "dirty_folio_marked_by_direct_reclaim", dirty_folio_marked_by_direct_reclaim_case },
	{ "kswapd_pageout_then_rotate_then_free", kswapd_pageout_then_rotate_then_free_case },
	{ "writeback_folio_marked", writeback_folio_marked_case },
	{ "busy_or_locked_folio_kept", busy_or_locked_folio_kept_case },
	{ "pageout_without_memory_keeps_folio", pageout_without_memory_keeps_folio_case },
	{ "unevictable_folio_culled", unevictable_folio_culled_case },
	{ "allocation_retry_rules", allocation_retry_rules },
	{ "active_list_protected_until_inactive_low", active_list_protected_until_inactive_low_case },
	{}
};
KTEST_SUITE(reclaim, reclaim_cases);

/* ---- workingset ---- */

#define EVICTION_MASK	(~0UL >> 2)	/* value-entry tag + workingset bit (no memcg, no node id) */

static void shadow_pack_unpack(struct ktest *t)
{
	unsigned long ev;
	bool ws;
	void *s = workingset_pack_shadow(12345, true);

	KTEST_EXPECT_TRUE(t, xa_is_value(s));
	KTEST_EXPECT_EQ(t, xa_to_value(s), 12345UL * 2 + 1);
	workingset_unpack_shadow(s, &ev, &ws);
	KTEST_EXPECT_EQ(t, ev, 12345UL);
	KTEST_EXPECT_TRUE(t, ws);
	workingset_unpack_shadow(workingset_pack_shadow(EVICTION_MASK + 8, false), &ev, &ws);
	KTEST_EXPECT_EQ(t, ev, 7UL);		/* the clock keeps BITS_PER_LONG - 2 bits */
	KTEST_EXPECT_FALSE(t, ws);
}

/* Run @fn with the clock at @age and nr_active_file at @active, then put both back. */
static bool recent_at(unsigned long age, unsigned long active, unsigned long eviction, bool *ws_out)
{
	long saved_age = atomic_long_read(&node_lruvec.nonresident_age);
	long d = (long)active - (long)global_node_page_state(NR_ACTIVE_FILE);
	bool ws, recent;

	atomic_long_set(&node_lruvec.nonresident_age, (long)age);
	mod_node_page_state(NR_ACTIVE_FILE, d);
	recent = workingset_test_recent(workingset_pack_shadow(eviction, true), true, &ws);
	mod_node_page_state(NR_ACTIVE_FILE, -d);
	atomic_long_set(&node_lruvec.nonresident_age, saved_age);
	if (ws_out)
		*ws_out = ws;
	return recent;
}

static void refault_distance_against_active(struct ktest *t)
{
	bool ws = false;

	KTEST_ASSERT_EQ(t, workingset_bucket_order, 0U);	/* small RAM: one eviction per tick */
	KTEST_EXPECT_TRUE(t, recent_at(1000, 100, 900, &ws));	/* distance 100 <= 100 */
	KTEST_EXPECT_TRUE(t, ws);
	KTEST_EXPECT_FALSE(t, recent_at(1000, 99, 900, NULL));	/* 100 > 99 */
	KTEST_EXPECT_TRUE(t, recent_at(1000, 0, 1000, NULL));	/* 0 <= 0 */
	/* Across the clock's wrap: (5 - (MASK - 4)) mod 2^(bits-2) = 10. */
	KTEST_EXPECT_TRUE(t, recent_at(5, 10, EVICTION_MASK - 4, NULL));
	KTEST_EXPECT_FALSE(t, recent_at(5, 9, EVICTION_MASK - 4, NULL));
}

/* Evict the folio at @index with PG_workingset as @ws; its shadow stays. */
static void rc_evict(struct ktest *t, pgoff_t index, bool ws)
{
	struct folio *f = rc_new(t, index);

	if (!f)
		return;
	if (ws)
		folio_set_workingset(f);
	folio_put(f);
	KTEST_EXPECT_EQ(t, reclaim_folio_for_test(f, false, false), 1UL);
	KTEST_EXPECT_TRUE(t, rc_is_shadow(index));
}

static void refault_activates_and_restores(struct ktest *t)
{
	unsigned long refault = global_node_page_state(WORKINGSET_REFAULT_FILE);
	unsigned long activate = global_node_page_state(WORKINGSET_ACTIVATE_FILE);
	unsigned long restore = global_node_page_state(WORKINGSET_RESTORE_FILE);
	struct folio *f;

	/* Recent (pretend a big active list), in the workingset: active + workingset restored. */
	mod_node_page_state(NR_ACTIVE_FILE, 1000);
	rc_evict(t, 30, true);
	rc_evict(t, 31, false);
	long age = atomic_long_read(&node_lruvec.nonresident_age);
	f = rc_new(t, 30);
	KTEST_EXPECT_EQ(t, atomic_long_read(&node_lruvec.nonresident_age), age + 1);	/* activation ticks */
	mod_node_page_state(NR_ACTIVE_FILE, -1000);
	KTEST_ASSERT_TRUE(t, f);
	KTEST_EXPECT_TRUE(t, folio_test_active(f));
	KTEST_EXPECT_TRUE(t, folio_test_workingset(f));
	KTEST_EXPECT_EQ(t, global_node_page_state(WORKINGSET_REFAULT_FILE), refault + 1);
	KTEST_EXPECT_EQ(t, global_node_page_state(WORKINGSET_ACTIVATE_FILE), activate + 1);
	KTEST_EXPECT_EQ(t, global_node_page_state(WORKINGSET_RESTORE_FILE), restore + 1);
	folio_put(f);
	/* Not recent: the active list is (almost) empty, the distance is >= 2. */
	KTEST_ASSERT_LE(t, global_node_page_state(NR_ACTIVE_FILE), 1UL);
	rc_evict(t, 32, true);
	rc_evict(t, 33, true);
	rc_evict(t, 34, true);
	f = rc_new(t, 32);
	KTEST_ASSERT_TRUE(t, f);
	KTEST_EXPECT_FALSE(t, folio_test_active(f));
	KTEST_EXPECT_FALSE(t, folio_test_workingset(f));
	KTEST_EXPECT_EQ(t, global_node_page_state(WORKINGSET_REFAULT_FILE), refault + 2);
	KTEST_EXPECT_EQ(t, global_node_page_state(WORKINGSET_ACTIVATE_FILE), activate + 1);
	folio_put(f);
	/* Written, not read: no refault at all. */
	f = __filemap_get_folio(&rc_mapping, 33, FGP_CREAT | FGP_LOCK | FGP_WRITE, GFP_KERNEL);
	KTEST_ASSERT_FALSE(t, IS_ERR(f));
	rc_complete(f);
	KTEST_EXPECT_EQ(t, global_node_page_state(WORKINGSET_REFAULT_FILE), refault + 2);
	folio_put(f);
}

/* A leaf of only shadows is counted; a folio stored in it takes it off; erasing all frees it. */
static void shadow_nodes_tracked(struct ktest *t)
{
	static struct xarray xa;
	static unsigned long word __attribute__((aligned(8)));
	unsigned long base = workingset_shadow_nodes();

	xa_init(&xa);
	xa_set_update(&xa, workingset_update_node);
	xa_lock_irq(&xa);
	for (unsigned long i = 64; i < 128; i++)
		xa_store(&xa, i, workingset_pack_shadow(i, false), GFP_ATOMIC);
	xa_unlock_irq(&xa);
	KTEST_EXPECT_EQ(t, workingset_shadow_nodes(), base + 1);
	xa_lock_irq(&xa);
	xa_store(&xa, 70, &word, GFP_ATOMIC);
	xa_unlock_irq(&xa);
	KTEST_EXPECT_EQ(t, workingset_shadow_nodes(), base);
	xa_lock_irq(&xa);
	xa_erase(&xa, 70);
	xa_unlock_irq(&xa);
	KTEST_EXPECT_EQ(t, workingset_shadow_nodes(), base + 1);
	xa_lock_irq(&xa);
	for (unsigned long i = 64; i < 128; i++)
		xa_erase(&xa, i);
	xa_unlock_irq(&xa);
	KTEST_EXPECT_EQ(t, workingset_shadow_nodes(), base);
	KTEST_EXPECT_TRUE(t, xa_empty(&xa));
}

/* More shadow nodes than RAM pages / 8: shrink_slab trims half the excess (rounded up). */
static void shadow_nodes_bounded(struct ktest *t)
{
	static struct xarray xa;
	unsigned long max = workingset_max_shadow_nodes(), extra = 20, n = max + extra;
	unsigned long reclaimed = global_node_page_state(WORKINGSET_NODERECLAIM);

	xa_init(&xa);
	xa_set_update(&xa, workingset_update_node);
	xa_lock_irq(&xa);
	for (unsigned long i = 0; i < n; i++)
		if (xa_is_err(xa_store(&xa, i << XA_CHUNK_SHIFT, workingset_pack_shadow(i, false),
				       GFP_ATOMIC | __GFP_NOWARN)))
			break;
	xa_unlock_irq(&xa);
	unsigned long nodes = workingset_shadow_nodes();
	KTEST_ASSERT_GT(t, nodes, max);
	unsigned long want = (nodes - max + 1) / 2;
	shrink_slab(GFP_KERNEL, 0, NULL, DEF_PRIORITY);
	KTEST_EXPECT_EQ(t, global_node_page_state(WORKINGSET_NODERECLAIM), reclaimed + want);
	KTEST_EXPECT_EQ(t, workingset_shadow_nodes(), nodes - want);
	KTEST_EXPECT_EQ(t, xa_check(&xa, kprintf), 0);
	xa_lock_irq(&xa);
	for (unsigned long i = 0; i < n; i++)
		xa_erase(&xa, i << XA_CHUNK_SHIFT);
	xa_unlock_irq(&xa);
	KTEST_EXPECT_TRUE(t, xa_empty(&xa));
}

RC_CASE(shadow_pack_unpack)
RC_CASE(refault_distance_against_active)
RC_CASE(refault_activates_and_restores)
RC_CASE(shadow_nodes_tracked)
RC_CASE(shadow_nodes_bounded)

static const struct ktest_case workingset_cases[] = {
	{ "shadow_pack_unpack", shadow_pack_unpack_case },
	{ "refault_distance_against_active", refault_distance_against_active_case },
	{ "refault_activates_and_restores", refault_activates_and_restores_case },
	{ "shadow_nodes_tracked", shadow_nodes_tracked_case },
	{ "shadow_nodes_bounded", shadow_nodes_bounded_case },
	{}
};
KTEST_SUITE(workingset, workingset_cases);
