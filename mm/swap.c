/*
 * swap.c - the LRU lists of page-cache folios, as Linux v6.10's mm/swap.c (and the lruvec
 * helpers of include/linux/mm_inline.h): per-CPU folio batches in front of the lists,
 * two-touch activation at access time, rotation after writeback, the unevictable list, and
 * taking a folio off its list when its last reference goes.  Reclaim (the scanning of these
 * lists) is mm/vmscan.c; docs/pagecache.md's "LRU" section describes the whole.
 *
 * Why batches: a folio enters the cache with the mapping's lock held and one CPU's view of it;
 * taking the global lru_lock for each would serialise every reader on it.  v6.10 collects
 * PAGEVEC_SIZE folios per CPU and moves them under one lock hold.  A batched folio is not on a
 * list and has no PG_lru, so nothing else may move it; the batch's reference keeps it alive.
 *
 * Invariants and locking: include/tinymm/swap.h.  One node: one lruvec under lru_lock.  Each
 * CPU has its batches (cpu_fbatches), touched only by that CPU with interrupts masked (v6.10:
 * local_lock, which on !PREEMPT_RT masks too for lru_move_tail, because writeback ends in
 * interrupts); lru_add_drain_all() has every CPU with a pending batch drain its own by a
 * cross-CPU call, where v6.10 queues work on each.
 *
 * Where tinymm differs from v6.10, and why: activation is immediate (no activate batch, as
 * v6.10 on !CONFIG_SMP: the move takes lru_lock once per activation, which is enough here); a
 * folio in another CPU's lru_add batch is not found by folio_mark_accessed() (as v6.10).  The
 * classic LRU only, no MGLRU.  mapping_lock_unevictable() moves the mapping's cached folios to the
 * unevictable list at once (v6.10's SHM_LOCK only sets the bit and lets reclaim cull them when
 * it meets them), so `lru` shows the state the command asked for; reclaim would cull them
 * anyway.
 */
#include "tinymm/irqflags.h"
#include "tinymm/mlock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/preempt.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "tinymm/workingset.h"
#include "internal.h"

struct lruvec node_lruvec = {
#define EMPTY_LIST	{ PAGE_LINK_NONE, PAGE_LINK_NONE }
	.lists = { EMPTY_LIST, EMPTY_LIST, EMPTY_LIST, EMPTY_LIST, EMPTY_LIST },
#undef EMPTY_LIST
	.lru_lock = __SPIN_LOCK_UNLOCKED(node_lruvec.lru_lock),
};

/* struct cpu_fbatches, the batches tinymm uses (no activate batch: the header), per CPU. */
struct cpu_fbatches {
	struct folio_batch lru_add;
	struct folio_batch lru_move_tail;
};
static DEFINE_PER_CPU(struct cpu_fbatches, cpu_fbatches);

_Static_assert(NR_ACTIVE_ANON - NR_INACTIVE_ANON == LRU_ACTIVE_ANON &&
	       NR_INACTIVE_FILE - NR_INACTIVE_ANON == LRU_INACTIVE_FILE &&
	       NR_ACTIVE_FILE - NR_INACTIVE_ANON == LRU_ACTIVE_FILE &&
	       NR_UNEVICTABLE - NR_INACTIVE_ANON == LRU_UNEVICTABLE,
	       "node stats follow enum lru_list");

/* ---- the lists (Linux: include/linux/mm_inline.h); lru_lock held ---- */

/* Which list a folio belongs on by its flags (v6.10's folio_lru_list): PG_swapbacked, set on
 * anonymous folios (mm/memory.c), means the anon lists. */
enum lru_list folio_lru_list(const struct folio *folio)
{
	enum lru_list lru;

	VM_BUG_ON_PAGE(folio_test_active(folio) && folio_test_unevictable(folio), &folio->page);
	if (folio_test_unevictable(folio))
		return LRU_UNEVICTABLE;
	lru = folio_test_swapbacked(folio) ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE;
	return folio_test_active(folio) ? (enum lru_list)(lru + LRU_ACTIVE) : lru;
}

/* The list's count and the node stat move together. */
static void update_lru_size(struct lruvec *lruvec, enum lru_list lru, long nr_pages)
{
	lruvec->nr_pages[lru] += (unsigned long)nr_pages;
	mod_node_page_state((enum node_stat_item)(NR_INACTIVE_ANON + lru), nr_pages);
}

void lruvec_add_folio(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru = folio_lru_list(folio);

	lockdep_assert_held(&lruvec->lru_lock);
	update_lru_size(lruvec, lru, (long)folio_nr_pages(folio));
	page_list_add(&lruvec->lists[lru], &folio->page);
}

void lruvec_add_folio_tail(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru = folio_lru_list(folio);

	lockdep_assert_held(&lruvec->lru_lock);
	update_lru_size(lruvec, lru, (long)folio_nr_pages(folio));
	page_list_add_tail(&lruvec->lists[lru], &folio->page);
}

void lruvec_del_folio(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru = folio_lru_list(folio);

	lockdep_assert_held(&lruvec->lru_lock);
	page_list_del(&lruvec->lists[lru], &folio->page);
	update_lru_size(lruvec, lru, -(long)folio_nr_pages(folio));
}

/* ---- evictability ---- */

/* Evictable unless its mapping is unevictable or it is mlocked (MMU issue); an anonymous
 * folio's mapping is no address_space (folio_mapping()). */
bool folio_evictable(const struct folio *folio)
{
	return !mapping_unevictable(folio_mapping(folio)) && !folio_test_mlocked(folio);
}

/* ---- batches ---- */

typedef void (*move_fn_t)(struct lruvec *lruvec, struct folio *folio);

/* The last put of each batched folio; a folio freed here leaves its list first (folio_put). */
static void folios_put(struct folio_batch *fbatch)
{
	for (unsigned int i = 0; i < fbatch->nr; i++)
		folio_put(fbatch->folios[i]);
	folio_batch_init(fbatch);
}

/* The list is chosen now, at drain time, so an activation or an
 * unevictable mapping seen while the folio waited in the batch decides where it lands. */
static void lru_add_fn(struct lruvec *lruvec, struct folio *folio)
{
	bool was_unevictable = folio_test_clear_unevictable(folio);

	VM_BUG_ON_PAGE(folio_test_lru(folio), &folio->page);
	if (folio_evictable(folio)) {
		if (was_unevictable)
			count_vm_events(UNEVICTABLE_PGRESCUED, (long)folio_nr_pages(folio));
	} else {
		folio_clear_active(folio);
		folio_set_unevictable(folio);
		if (!was_unevictable)
			count_vm_events(UNEVICTABLE_PGCULLED, (long)folio_nr_pages(folio));
	}
	lruvec_add_folio(lruvec, folio);
}

/* Clears PG_active too, so an active folio lands on the inactive tail. */
static void lru_move_tail_fn(struct lruvec *lruvec, struct folio *folio)
{
	if (!folio_test_unevictable(folio)) {
		lruvec_del_folio(lruvec, folio);
		folio_clear_active(folio);
		lruvec_add_folio_tail(lruvec, folio);
		count_vm_events(PGROTATED, (long)folio_nr_pages(folio));
	}
}

/*
 * One lru_lock hold for the whole batch.  Folios of batches other
 * than lru_add had PG_lru cleared when batched (so nobody else moved them meanwhile); they get
 * it back here.  Then the batch's references go, outside the lock.  Interrupts are masked by
 * the caller (the batch is per-CPU).  Never inlined: once per batch, and inlined it made
 * folio_add_lru() save every callee-saved register on each call.
 */
static __attribute__((noinline)) void folio_batch_move_lru(struct folio_batch *fbatch,
							   move_fn_t move_fn)
{
	struct lruvec *lruvec = &node_lruvec;
	unsigned long flags;

	spin_lock_irqsave(&lruvec->lru_lock, flags);
	for (unsigned int i = 0; i < fbatch->nr; i++) {
		struct folio *folio = fbatch->folios[i];
		move_fn(lruvec, folio);
		folio_set_lru(folio);
	}
	spin_unlock_irqrestore(&lruvec->lru_lock, flags);
	folios_put(fbatch);
}

static void folio_batch_add_and_move(struct folio_batch *fbatch, struct folio *folio, move_fn_t move_fn)
{
	if (folio_batch_add(fbatch, folio) && !folio_test_large(folio))
		return;
	folio_batch_move_lru(fbatch, move_fn);
}

void folio_add_lru(struct folio *folio)
{
	unsigned long flags;

	VM_BUG_ON_PAGE(folio_test_active(folio) && folio_test_unevictable(folio), &folio->page);
	VM_BUG_ON_PAGE(folio_test_lru(folio), &folio->page);
	folio_get(folio);			/* the batch's reference */
	local_irq_save(flags);
	folio_batch_add_and_move(&this_cpu_ptr(&cpu_fbatches)->lru_add, folio, lru_add_fn);
	local_irq_restore(flags);
}

/* This CPU's batches onto the lists; interrupts masked. */
static void lru_add_drain_cpu(void)
{
	struct cpu_fbatches *fbatches = this_cpu_ptr(&cpu_fbatches);

	if (folio_batch_count(&fbatches->lru_add))
		folio_batch_move_lru(&fbatches->lru_add, lru_add_fn);
	if (folio_batch_count(&fbatches->lru_move_tail))
		folio_batch_move_lru(&fbatches->lru_move_tail, lru_move_tail_fn);
}

void lru_add_drain(void)
{
	unsigned long flags;

	local_irq_save(flags);
	lru_add_drain_cpu();
	local_irq_restore(flags);
	mlock_drain_local();		/* v6.10's lru_add_drain_cpu drains the mlock batch too */
}

/* Does @cpu hold folios in a batch?  Read racily, as v6.10's cpu_needs_drain(): a batch
 * filled after the look is that CPU's newer work, not what the caller waits for. */
static bool cpu_needs_drain(unsigned int cpu)
{
	const struct cpu_fbatches *fbatches = &per_cpu(cpu_fbatches, cpu);

	return READ_ONCE(fbatches->lru_add.nr) || READ_ONCE(fbatches->lru_move_tail.nr);
}

/* A cross-CPU call: this CPU's batches, interrupts masked (the IPI handler's). */
static void lru_add_drain_per_cpu(void *unused)
{
	lru_add_drain_cpu();
	mlock_drain_local();
}

/*
 * Every CPU's batches onto the lists (v6.10's lru_add_drain_all(): work queued on each CPU that
 * needs it, waited for).  Here the CPUs with a pending batch (or mlock batch) are asked by
 * smp_call_function_many() and waited for; this CPU drains its own.  Interrupts on.
 */
void lru_add_drain_all(void)
{
	struct cpumask mask = { 0 };
	unsigned int cpu;

	if (num_online_cpus() > 1) {
		preempt_disable();
		for_each_online_cpu(cpu)
			if (cpu != (unsigned int)smp_processor_id() &&
			    (cpu_needs_drain(cpu) || mlock_cpu_needs_drain(cpu)))
				cpumask_set_cpu(cpu, &mask);
		if (mask.bits)
			smp_call_function_many(&mask, lru_add_drain_per_cpu, NULL, true);
		preempt_enable();
	}
	lru_add_drain();
}

/* Every CPU's, read racily (a count for reports). */
unsigned int lru_batched_folios(void)
{
	unsigned int n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		n += READ_ONCE(per_cpu(cpu_fbatches, cpu).lru_add.nr) +
		     READ_ONCE(per_cpu(cpu_fbatches, cpu).lru_move_tail.nr);
	return n;
}

/*
 * Reclaim set PG_reclaim and started writeback; now that it
 * ended, put the folio where reclaim looks first instead of waiting a whole list cycle.  Only a
 * clean, unlocked, evictable folio on a list: anything else someone is still working on.  The
 * reference and the cleared PG_lru keep it ours until the batch drains.  Interrupt-safe.
 */
void folio_rotate_reclaimable(struct folio *folio)
{
	unsigned long flags;

	if (folio_test_locked(folio) || folio_test_dirty(folio) || folio_test_unevictable(folio) ||
	    !folio_test_lru(folio))
		return;
	folio_get(folio);
	if (!folio_test_clear_lru(folio)) {
		folio_put(folio);
		return;
	}
	local_irq_save(flags);
	folio_batch_add_and_move(&this_cpu_ptr(&cpu_fbatches)->lru_move_tail, folio, lru_move_tail_fn);
	local_irq_restore(flags);
}

/* ---- activation ---- */

static void folio_activate_fn(struct lruvec *lruvec, struct folio *folio)
{
	if (!folio_test_active(folio) && !folio_test_unevictable(folio)) {
		lruvec_del_folio(lruvec, folio);
		folio_set_active(folio);
		lruvec_add_folio(lruvec, folio);
		count_vm_events(PGACTIVATE, (long)folio_nr_pages(folio));
	}
}

/*
 * !CONFIG_SMP's folio_activate: the move happens now.  Clearing PG_lru first claims the
 * folio against anyone else moving it; the caller's reference keeps it alive meanwhile.
 */
void folio_activate(struct folio *folio)
{
	unsigned long flags;

	if (folio_test_clear_lru(folio)) {
		spin_lock_irqsave(&node_lruvec.lru_lock, flags);
		folio_activate_fn(&node_lruvec, folio);
		spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
		folio_set_lru(folio);
	}
}

/*
 * The folio is not on a list yet, probably still in this
 * CPU's lru_add batch (newest last, so searched from the end): PG_active there makes lru_add_fn
 * put it on the active list at drain.  Not found (another CPU's batch, in Linux): nothing.
 */
static void __lru_cache_activate_folio(struct folio *folio)
{
	struct folio_batch *fbatch;
	unsigned long flags;

	local_irq_save(flags);
	fbatch = &this_cpu_ptr(&cpu_fbatches)->lru_add;
	for (int i = (int)folio_batch_count(fbatch) - 1; i >= 0; i--)
		if (fbatch->folios[i] == folio) {
			folio_set_active(folio);
			break;
		}
	local_irq_restore(flags);
}

/*
 * The classic LRU's folio_mark_accessed (no MGLRU): two touches activate.
 *   inactive,unreferenced -> referenced
 *   inactive,referenced   -> active, unreferenced
 *   active,unreferenced   -> referenced
 * so a folio read once stays inactive (a scan passes through without displacing the active
 * list) and one read twice while still on the inactive list is promoted.  Unevictable folios
 * only ever get PG_referenced: their list is never rotated.  The caller holds a reference.
 */
void folio_mark_accessed(struct folio *folio)
{
	if (!folio_test_referenced(folio)) {
		folio_set_referenced(folio);
	} else if (folio_test_unevictable(folio)) {
		/* on LRU_UNEVICTABLE, which is never maintained: nothing to gain */
	} else if (!folio_test_active(folio)) {
		if (folio_test_lru(folio))
			folio_activate(folio);
		else
			__lru_cache_activate_folio(folio);
		folio_clear_referenced(folio);
		workingset_activation(folio);
	}
	if (folio_test_idle(folio))
		folio_clear_idle(folio);
}

/* ---- release ---- */

/*
 * Called by folio_put when the last reference went: a folio still
 * on a list must leave it before the allocator takes the frame back (the list links share the
 * word the free lists use).  Its LRU flags go with it, as __folio_clear_lru_flags (both active
 * and unevictable is a bug: left for the bad-page check to report).
 */
void __page_cache_release(struct folio *folio)
{
	unsigned long flags;

	if (!folio_test_lru(folio))
		return;
	spin_lock_irqsave(&node_lruvec.lru_lock, flags);
	lruvec_del_folio(&node_lruvec, folio);
	__folio_clear_lru(folio);
	if (!(folio_test_active(folio) && folio_test_unevictable(folio))) {
		__folio_clear_active(folio);
		__folio_clear_unevictable(folio);
	}
	spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
}

/* ---- unevictable ---- */

/*
 * Folios of @fbatch that are evictable again leave the
 * unevictable list for the inactive one.  Each is claimed by clearing PG_lru under the lock.
 */
void check_move_unevictable_folios(struct folio_batch *fbatch)
{
	long pgscanned = 0, pgrescued = 0;
	unsigned long flags;

	spin_lock_irqsave(&node_lruvec.lru_lock, flags);
	for (unsigned int i = 0; i < fbatch->nr; i++) {
		struct folio *folio = fbatch->folios[i];
		long nr = (long)folio_nr_pages(folio);

		pgscanned += nr;
		if (!folio_test_clear_lru(folio))
			continue;		/* in a batch: lru_add_fn decides at drain */
		if (folio_evictable(folio) && folio_test_unevictable(folio)) {
			lruvec_del_folio(&node_lruvec, folio);
			folio_clear_unevictable(folio);
			lruvec_add_folio(&node_lruvec, folio);
			pgrescued += nr;
		}
		folio_set_lru(folio);
	}
	spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
	count_vm_events(UNEVICTABLE_PGRESCUED, pgrescued);
	count_vm_events(UNEVICTABLE_PGSCANNED, pgscanned);
}

/*
 * Reclaim's cull of an unevictable folio, done at once for a whole batch: listed
 * folios of @fbatch that may no longer be evicted move to the unevictable list (PG_active
 * cleared, PG_unevictable set).  Batched ones are decided by lru_add_fn at drain.
 */
static void cull_unevictable_folios(struct folio_batch *fbatch)
{
	long pgculled = 0;
	unsigned long flags;

	spin_lock_irqsave(&node_lruvec.lru_lock, flags);
	for (unsigned int i = 0; i < fbatch->nr; i++) {
		struct folio *folio = fbatch->folios[i];

		if (!folio_test_clear_lru(folio))
			continue;
		if (!folio_evictable(folio) && !folio_test_unevictable(folio)) {
			lruvec_del_folio(&node_lruvec, folio);
			folio_clear_active(folio);
			folio_set_unevictable(folio);
			lruvec_add_folio(&node_lruvec, folio);
			pgculled += (long)folio_nr_pages(folio);
		}
		folio_set_lru(folio);
	}
	spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
	count_vm_events(UNEVICTABLE_PGCULLED, pgculled);
}

/* Every folio of @mapping, PAGEVEC_SIZE at a time with a reference each, through @fn
 * (filemap_get_folios + a batch function, as Linux's shmem_unlock_mapping).  Folios seen. */
static unsigned long mapping_for_each_batch(struct address_space *mapping,
					    void (*fn)(struct folio_batch *fbatch))
{
	struct folio_batch fbatch;
	unsigned long seen = 0, flags;
	pgoff_t index = 0;
	struct folio *folio;

	for (;;) {
		folio_batch_init(&fbatch);
		spin_lock_irqsave(&mapping->i_pages.xa_lock, flags);
		for (folio = xa_find(&mapping->i_pages, &index, ~0UL, XA_PRESENT); folio;
		     folio = index == ~0UL ? NULL : xa_find_after(&mapping->i_pages, &index, ~0UL, XA_PRESENT)) {
			if (xa_is_value(folio))
				continue;		/* a workingset shadow entry */
			folio_get(folio);
			if (!folio_batch_add(&fbatch, folio))
				break;			/* full: go on after @index next time */
		}
		spin_unlock_irqrestore(&mapping->i_pages.xa_lock, flags);
		seen += folio_batch_count(&fbatch);
		fn(&fbatch);
		folios_put(&fbatch);
		if (!folio || index == ~0UL)
			return seen;
		index++;
	}
}

/* Clear AS_UNEVICTABLE and move the mapping's folios back (SHM_UNLOCK).  Folios seen. */
unsigned long mapping_release_unevictable(struct address_space *mapping)
{
	mapping_clear_unevictable(mapping);
	return mapping_for_each_batch(mapping, check_move_unevictable_folios);
}

/*
 * Set AS_UNEVICTABLE and move the mapping's cached folios to the unevictable list now, not when
 * reclaim meets them (see the header).  Folios seen.
 */
unsigned long mapping_lock_unevictable(struct address_space *mapping)
{
	mapping_set_unevictable(mapping);
	return mapping_for_each_batch(mapping, cull_unevictable_folios);
}

/* ---- checking and showing ---- */

int lru_check(int (*pr)(const char *fmt, ...))
{
	static const unsigned long want_flag[NR_LRU_LISTS] = {
		[LRU_ACTIVE_ANON] = 1UL << PG_active, [LRU_ACTIVE_FILE] = 1UL << PG_active,
		[LRU_UNEVICTABLE] = 1UL << PG_unevictable,
	};
	const unsigned long lru_bits = 1UL << PG_lru | 1UL << PG_active | 1UL << PG_unevictable;
	int bad = 0;
	enum lru_list lru;
	unsigned long flags;

	lru_add_drain_all();	/* a folio claimed by a batch is listed without PG_lru until then */
	spin_lock_irqsave(&node_lruvec.lru_lock, flags);
	for_each_lru(lru) {
		unsigned long n = 0;
		for (struct page *p = page_list_first(&node_lruvec.lists[lru]); p; p = page_list_next(p)) {
			if ((p->flags & lru_bits) != (1UL << PG_lru | want_flag[lru]) && bad++ < 8)
				pr("lru: pfn %#lx on list %d has flags %#lx\n", page_to_pfn(p), lru, p->flags);
			n++;
		}
		if (n != node_lruvec.nr_pages[lru] && bad++ < 8)
			pr("lru: list %d holds %lu folios, counted %lu\n", lru, n, node_lruvec.nr_pages[lru]);
	}
	spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
	if (node_lruvec.nr_pages[LRU_INACTIVE_ANON] != global_node_page_state(NR_INACTIVE_ANON) ||
	    node_lruvec.nr_pages[LRU_ACTIVE_ANON] != global_node_page_state(NR_ACTIVE_ANON) ||
	    node_lruvec.nr_pages[LRU_INACTIVE_FILE] != global_node_page_state(NR_INACTIVE_FILE) ||
	    node_lruvec.nr_pages[LRU_ACTIVE_FILE] != global_node_page_state(NR_ACTIVE_FILE) ||
	    node_lruvec.nr_pages[LRU_UNEVICTABLE] != global_node_page_state(NR_UNEVICTABLE)) {
		pr("lru: list counts disagree with the node stats\n");
		bad++;
	}
	return bad;
}

#define LRU_SHOW	4	/* folios shown per list */

static const char *const lru_list_names[NR_LRU_LISTS] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

/*
 * `lru`: how many folios waited in this CPU's batches (which it then drains, so every cache
 * folio is on a list and the counts after it are exact), each file list's length, then its
 * first LRU_SHOW folios (the newest) with pfn, index and flags as `page <pfn>` prints them.
 * Snapshot under lru_lock, printed after.
 */
static int cmd_lru(int argc, char **argv)
{
	struct { unsigned long pfn, index, flags; } shown[NR_LRU_LISTS][LRU_SHOW];
	unsigned long len[NR_LRU_LISTS], flags;
	unsigned int nshown[NR_LRU_LISTS] = { 0 };
	char buf[160];
	enum lru_list lru;

	if (shell_no_args(argc, argv))
		return 2;
	unsigned int batched = lru_batched_folios();
	lru_add_drain_all();
	spin_lock_irqsave(&node_lruvec.lru_lock, flags);
	for_each_lru(lru) {
		len[lru] = node_lruvec.nr_pages[lru];
		for (struct page *p = page_list_first(&node_lruvec.lists[lru]); p && nshown[lru] < LRU_SHOW;
		     p = page_list_next(p), nshown[lru]++) {
			shown[lru][nshown[lru]].pfn = page_to_pfn(p);
			shown[lru][nshown[lru]].index = p->index;
			shown[lru][nshown[lru]].flags = p->flags;
		}
	}
	spin_unlock_irqrestore(&node_lruvec.lru_lock, flags);
	kprintf("batched %u\n", batched);
	for (lru = LRU_INACTIVE_FILE; lru < NR_LRU_LISTS; lru++)
		kprintf("%s %lu\n", lru_list_names[lru], len[lru]);
	for (lru = LRU_INACTIVE_FILE; lru < NR_LRU_LISTS; lru++)
		for (unsigned int i = 0; i < nshown[lru]; i++) {
			format_page_flags(buf, sizeof(buf), shown[lru][i].flags);
			kprintf("%s: pfn %#lx index %lu flags: %s\n", lru_list_names[lru], shown[lru][i].pfn,
				shown[lru][i].index, buf);
		}
	return 0;
}
SHELL_COMMAND(lru, "", "LRU list lengths and the newest folios of each, with their flags", cmd_lru);
