/*
 * filemap_lockless_ktest.c - suite "filemap_lockless": the page cache's lockless lookup
 * (mm/filemap.c: filemap_get_entry; include/tinymm/xarray.h: xa_load_lockless) against a
 * writer that keeps changing the file under it, one worker pinned to each online CPU.
 *
 * The writer (the worker on the first CPU) picks random indices of a 64-page file: an empty one
 * gets a new folio stamped with its index in its first two words; a present one leaves the
 * cache, half the time as truncation removes it (filemap_remove_folio: the caller's reference
 * keeps it alive) and half as invalidation does (mapping_evict_folio: the count frozen).  Each
 * frame freed that way is soon allocated again for another index, so a lookup that kept a stale
 * pointer would hand out a folio of another index.  The readers (every other CPU) look up random
 * indices without stopping: a folio returned must carry the index asked for, in struct folio and
 * in its stamp, and belong to the file (or have been truncated since: mapping NULL).  With one
 * CPU the worker alternates a write and a few reads.  Afterwards the file is truncated to
 * nothing and the page counts are back where they were.
 *
 * The third case runs the lookup's protocol with the window between walk and reference made
 * wide on purpose (a pause there): at -smp 2 and up, the second look must catch folios that
 * moved in the pause, and none may come back wrong.  Suite "filemap_lockless_broken" (explicit:
 * run only when named) is that without the second look: it must fail (at -smp 2), which shows
 * that the checks above catch what the second look prevents.
 */
#include "tinymm/err.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/smp.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "ktest_rand.h"

#define FL_PAGES	64
#define FL_WRITES	6000
#define FL_STAMP	0x10c4f1e5UL

static struct address_space fl_mapping;

enum fl_mode { FL_REAL, FL_PAUSE_CHECKED, FL_PAUSE_UNCHECKED };

struct fl_worker {
	unsigned int cpu;
	bool writer;
	enum fl_mode mode;
	unsigned long caught;		/* FL_PAUSE_CHECKED: folios the second look turned back */
	unsigned long seed;
	unsigned long lookups, hits, wrong_index, wrong_stamp, wrong_mapping;
	unsigned long adds, removes, evicts;
	int ran_on;
};

static struct fl_worker fl_workers[NR_CPUS];
static volatile bool fl_done;
/* Paused modes: races seen (turned back, or come back wrong); the writer goes on past
 * FL_WRITES, up to FL_WRITES_MAX, until the readers have seen one, so a slow reader CPU cannot
 * make the case pass or fail by luck. */
static atomic_long_t fl_races;
#define FL_WRITES_MAX	(20 * FL_WRITES)

/* filemap_get_entry()'s protocol with a pause between walk and reference, in which a writer
 * may free the frame found and reuse it elsewhere; the second look (@check) or not. */
static struct folio *fl_paused_get_folio(struct fl_worker *w, pgoff_t index, bool check)
{
	struct xarray *xa = &fl_mapping.i_pages;
	unsigned int seq = xa_read_begin(xa);
	void *entry = xa_load_lockless(xa, index);

	if (xa_read_retry(xa, seq) || !entry || xa_is_value(entry))
		return NULL;
	for (volatile unsigned int i = 0; i < 2000; i++)
		;
	if (!folio_try_get(entry))
		return NULL;
	if (check && xa_read_retry(xa, seq)) {
		w->caught++;
		atomic_long_inc(&fl_races);
		folio_put(entry);
		return NULL;
	}
	return entry;
}

static void fl_read_one(struct fl_worker *w)
{
	pgoff_t index = ktest_xorshift(&w->seed) % FL_PAGES;
	struct folio *folio;

	w->lookups++;
	if (w->mode != FL_REAL) {
		folio = fl_paused_get_folio(w, index, w->mode == FL_PAUSE_CHECKED);
	} else {
		folio = filemap_get_folio(&fl_mapping, index);
		if (IS_ERR(folio))
			folio = NULL;
	}
	if (!folio)
		return;
	w->hits++;
	const unsigned long *words = page_address(&folio->page);
	struct address_space *mapping = READ_ONCE(folio->mapping);
	unsigned long wrong = w->wrong_index + w->wrong_stamp + w->wrong_mapping;
	if (folio->index != index)
		w->wrong_index++;
	if (words[0] != index || words[1] != (FL_STAMP ^ index))
		w->wrong_stamp++;
	if (mapping && mapping != &fl_mapping)
		w->wrong_mapping++;
	if (w->wrong_index + w->wrong_stamp + w->wrong_mapping != wrong)
		atomic_long_inc(&fl_races);
	folio_put(folio);
}

static void fl_write_one(struct fl_worker *w)
{
	pgoff_t index = ktest_xorshift(&w->seed) % FL_PAGES;
	struct folio *folio = __filemap_get_folio(&fl_mapping, index, FGP_LOCK, 0);

	if (IS_ERR(folio)) {
		folio = folio_alloc(GFP_KERNEL, 0);
		if (!folio)
			return;
		unsigned long *words = page_address(&folio->page);
		words[0] = index;
		words[1] = FL_STAMP ^ index;
		if (!filemap_add_folio(&fl_mapping, folio, index, GFP_KERNEL)) {
			folio_mark_uptodate(folio);
			folio_unlock(folio);
			w->adds++;
		}
		folio_put(folio);
		return;
	}
	if (ktest_xorshift(&w->seed) & 1) {
		filemap_remove_folio(folio);
		w->removes++;
	} else {
		lru_add_drain();	/* a folio in this CPU's batch holds a reference */
		w->evicts += mapping_evict_folio(&fl_mapping, folio) > 0;
	}
	folio_unlock(folio);
	folio_put(folio);
}

static int fl_worker_fn(void *arg)
{
	struct fl_worker *w = arg;

	w->ran_on = (int)raw_smp_processor_id();
	if (w->writer) {
		bool alone = num_online_cpus() == 1;

		bool paused = w->mode != FL_REAL && !alone;

		for (int i = 0; i < FL_WRITES ||
				(paused && i < FL_WRITES_MAX && !atomic_long_read(&fl_races)); i++) {
			fl_write_one(w);
			for (int r = 0; alone && r < 4; r++)
				fl_read_one(w);
		}
		WRITE_ONCE(fl_done, true);
	} else {
		while (!READ_ONCE(fl_done))
			fl_read_one(w);
	}
	return 0;
}

static void fl_run(struct ktest *t, enum fl_mode mode)
{
	struct task_struct *k[NR_CPUS];
	unsigned long file_before = global_node_page_state(NR_FILE_PAGES);
	unsigned int n = 0, cpu;

	address_space_init(&fl_mapping, NULL, (loff_t)FL_PAGES << PAGE_SHIFT);
	fl_done = false;
	atomic_long_set(&fl_races, 0);
	for_each_online_cpu(cpu) {
		struct cpumask m = { 1UL << cpu };
		struct fl_worker *w = &fl_workers[n];

		*w = (struct fl_worker){ .cpu = cpu, .writer = n == 0, .mode = mode,
					 .seed = 0x9e3779b9UL * (cpu + 1) | 1, .ran_on = -1 };
		k[n] = kthread_create(fl_worker_fn, w, "fl/%u", cpu);
		KTEST_ASSERT_TRUE(t, k[n] != NULL);
		KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(k[n], &m), 0);
		n++;
	}
	for (unsigned int i = 0; i < n; i++)
		wake_up_process(k[i]);
	unsigned long lookups = 0, hits = 0, wrong = 0, caught = 0;
	for (unsigned int i = 0; i < n; i++) {
		struct fl_worker *w = &fl_workers[i];

		KTEST_EXPECT_EQ(t, kthread_join(k[i]), 0);
		KTEST_EXPECT_EQ(t, w->ran_on, (int)w->cpu);
		KTEST_EXPECT_EQ(t, w->wrong_index, 0UL);
		KTEST_EXPECT_EQ(t, w->wrong_stamp, 0UL);
		KTEST_EXPECT_EQ(t, w->wrong_mapping, 0UL);
		lookups += w->lookups;
		hits += w->hits;
		wrong += w->wrong_index + w->wrong_stamp + w->wrong_mapping;
		caught += w->caught;
	}
	struct fl_worker *wr = &fl_workers[0];
	kprintf("    # %u CPU(s): %lu lookups, %lu hits, %lu wrong, writer %lu added, %lu truncated, %lu evicted\n",
		n, lookups, hits, wrong, wr->adds, wr->removes, wr->evicts);
	if (mode == FL_PAUSE_CHECKED) {
		kprintf("    # the second look turned back %lu folios that moved in the pause\n", caught);
		if (n > 1)
			KTEST_EXPECT_GT(t, caught, 0UL);
	}
	/* The file really changed under the readers, both ways out of it were taken, and the
	 * readers found folios (with one CPU: the writer's own reads; not asked of the paused
	 * lookups, whose every find may move in the pause). */
	KTEST_EXPECT_GT(t, wr->adds, FL_WRITES / 4UL);
	KTEST_EXPECT_GT(t, wr->removes, 0UL);
	KTEST_EXPECT_GT(t, wr->evicts, 0UL);
	if (mode == FL_REAL)
		KTEST_EXPECT_GT(t, hits, 0UL);

	truncate_inode_pages(&fl_mapping, 0);
	KTEST_EXPECT_EQ(t, fl_mapping.nrpages, 0UL);
	KTEST_EXPECT_TRUE(t, xa_empty(&fl_mapping.i_pages));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), file_before);
}

static void filemap_lockless_lookups_see_their_index(struct ktest *t)
{
	fl_run(t, FL_REAL);
}

static void filemap_lockless_second_look_catches_moves(struct ktest *t)
{
	fl_run(t, FL_PAUSE_CHECKED);
}

/* Alone on an idle file: a hit takes a reference, a miss and a shadow are NULL (-ENOENT), and
 * the array's count is even and moves by two per store or erase, not per mark. */
static void filemap_lockless_basics(struct ktest *t)
{
	struct xarray *xa = &fl_mapping.i_pages;

	address_space_init(&fl_mapping, NULL, (loff_t)FL_PAGES << PAGE_SHIFT);
	unsigned int seq = READ_ONCE(xa->xa_seq);
	struct folio *folio = folio_alloc(GFP_KERNEL, 0);
	KTEST_ASSERT_TRUE(t, folio != NULL);
	KTEST_ASSERT_EQ(t, filemap_add_folio(&fl_mapping, folio, 5, GFP_KERNEL), 0);
	folio_unlock(folio);
	lru_add_drain();	/* the batch's reference must not drop while the count is frozen */
	KTEST_EXPECT_EQ(t, READ_ONCE(xa->xa_seq), seq + 2);
	int count = page_ref_count(&folio->page);
	struct folio *found = filemap_get_folio(&fl_mapping, 5);
	KTEST_EXPECT_TRUE(t, found == folio);
	KTEST_EXPECT_EQ(t, page_ref_count(&folio->page), count + 1);
	folio_put(found);
	KTEST_EXPECT_TRUE(t, IS_ERR(filemap_get_folio(&fl_mapping, 6)));
	xa_lock_irq(xa);
	xa_set_mark(xa, 5, XA_MARK_0);
	xa_clear_mark(xa, 5, XA_MARK_0);
	KTEST_EXPECT_EQ(t, READ_ONCE(xa->xa_seq), seq + 2);
	KTEST_EXPECT_TRUE(t, xa_store(xa, 7, xa_mk_value(1), GFP_ATOMIC) == NULL);
	xa_unlock_irq(xa);
	KTEST_EXPECT_EQ(t, READ_ONCE(xa->xa_seq), seq + 4);
	KTEST_EXPECT_TRUE(t, IS_ERR(filemap_get_folio(&fl_mapping, 7)));	/* a shadow */
	/* A frozen folio cannot be taken: the lookup's folio_try_get() fails on it. */
	KTEST_EXPECT_TRUE(t, folio_ref_freeze(folio, count));
	KTEST_EXPECT_FALSE(t, folio_try_get(folio));
	folio_ref_unfreeze(folio, count);
	KTEST_EXPECT_TRUE(t, folio_try_get(folio));
	folio_put(folio);
	truncate_inode_pages(&fl_mapping, 0);
	KTEST_EXPECT_EQ(t, page_ref_count(&folio->page), 1);	/* ours alone: the cache's went */
	folio_put(folio);
	KTEST_EXPECT_TRUE(t, xa_empty(xa));
	KTEST_EXPECT_EQ(t, READ_ONCE(xa->xa_seq) & 1, 0U);
}

static const struct ktest_case filemap_lockless_cases[] = {
	KTEST_CASE(filemap_lockless_basics),
	KTEST_CASE(filemap_lockless_lookups_see_their_index),
	KTEST_CASE(filemap_lockless_second_look_catches_moves),
	{}
};
KTEST_SUITE_SMP(filemap_lockless, filemap_lockless_cases);

static void filemap_lockless_without_second_look(struct ktest *t)
{
	fl_run(t, FL_PAUSE_UNCHECKED);
}

static const struct ktest_case filemap_lockless_broken_cases[] = {
	KTEST_CASE(filemap_lockless_without_second_look),
	{}
};
__KTEST_SUITE(filemap_lockless_broken, filemap_lockless_broken_cases, true, true);
