/*
 * hwpoison_state.c - what tinymm knows about its poisoned frames: num_poisoned_pages
 * (meminfo's HardwareCorrupted), the per-node memory_failure statistics, the words of the
 * "recovery action" line, and a record per poisoned frame for `hwpoison list`, with what the
 * frame was (mf_kind_of).  The handling itself is mm/memory-failure.c and
 * mm/hwpoison_actions.c; this part is apart because it is portable without the kernel core
 * (meminfo reads the counter on the host too).
 *
 * Invariants: num_poisoned_pages = frames marked by memory_failure() and page_handle_poison(),
 * less those unpoisoned; the statistics only grow (total = ignored + failed + delayed +
 * recovered); a used record names a frame that was poisoned when it was written (a record whose
 * frame is no longer poisoned is stale and may be reused).
 * Locking: the counter is atomic; the statistics and the records are written under mf_mutex
 * (by memory_failure() and friends) and, for the records, under mf_records_lock (irqs masked),
 * which readers take too; a statistics read is a snapshot, as Linux's sysfs files are.
 *
 * Where tinymm differs from v6.10, and why: the per-frame records are tinymm's own (v6.10's
 * trace event is its record; tinymm has no tracing).  No per-memory-block count
 * (memblk_nr_poison): tinymm has no memory blocks.
 */
#include <string.h>
#include "tinymm/irqflags.h"
#include "tinymm/memory-failure.h"
#include "tinymm/mm.h"
#include "tinymm/spinlock.h"
#include "internal.h"

atomic_long_t num_poisoned_pages;
bool hwpoison_seen;
static struct memory_failure_stats mf_stats[MAX_NUMNODES];

static const char *const action_name[] = {
	[MF_IGNORED] = "Ignored",
	[MF_FAILED] = "Failed",
	[MF_DELAYED] = "Delayed",
	[MF_RECOVERED] = "Recovered",
};

static const char *const action_page_types[] = {
	[MF_MSG_KERNEL]			= "reserved kernel page",
	[MF_MSG_KERNEL_HIGH_ORDER]	= "high-order kernel page",
	[MF_MSG_SLAB]			= "kernel slab page",
	[MF_MSG_DIFFERENT_COMPOUND]	= "different compound page after locking",
	[MF_MSG_HUGE]			= "huge page",
	[MF_MSG_FREE_HUGE]		= "free huge page",
	[MF_MSG_UNMAP_FAILED]		= "unmapping failed page",
	[MF_MSG_DIRTY_SWAPCACHE]	= "dirty swapcache page",
	[MF_MSG_CLEAN_SWAPCACHE]	= "clean swapcache page",
	[MF_MSG_DIRTY_MLOCKED_LRU]	= "dirty mlocked LRU page",
	[MF_MSG_CLEAN_MLOCKED_LRU]	= "clean mlocked LRU page",
	[MF_MSG_DIRTY_UNEVICTABLE_LRU]	= "dirty unevictable LRU page",
	[MF_MSG_CLEAN_UNEVICTABLE_LRU]	= "clean unevictable LRU page",
	[MF_MSG_DIRTY_LRU]		= "dirty LRU page",
	[MF_MSG_CLEAN_LRU]		= "clean LRU page",
	[MF_MSG_TRUNCATED_LRU]		= "already truncated LRU page",
	[MF_MSG_BUDDY]			= "free buddy page",
	[MF_MSG_DAX]			= "dax page",
	[MF_MSG_UNSPLIT_THP]		= "unsplit thp",
	[MF_MSG_UNKNOWN]		= "unknown page",
};
_Static_assert(ARRAY_SIZE(action_page_types) == NR_MF_MSG, "a name for every mf_action_page_type");

static const char *const mf_kind_names[] = {
	[MF_KIND_FREE] = "free page",
	[MF_KIND_LRU] = "page-cache page",
	[MF_KIND_SLAB] = "slab page",
	[MF_KIND_RESERVED] = "reserved page",
	[MF_KIND_KERNEL] = "kernel page",
	[MF_KIND_KERNEL_TAIL] = "tail of a high-order kernel block",
	[MF_KIND_SOFT_OFFLINE] = "soft-offlined page",
	[MF_KIND_ANON] = "anonymous page",
};
_Static_assert(ARRAY_SIZE(mf_kind_names) == NR_MF_KIND, "a name for every mf_kind");

const char *mf_action_page_type_name(enum mf_action_page_type type)
{
	return (unsigned int)type < NR_MF_MSG ? action_page_types[type] : "?";
}

const char *mf_action_name(enum mf_result result)
{
	return (unsigned int)result <= MF_RECOVERED ? action_name[result] : "?";
}

const char *mf_kind_name(enum mf_kind kind)
{
	return (unsigned int)kind < NR_MF_KIND ? mf_kind_names[kind] : "?";
}

/* ---- counters and records ---- */

/* No per-memory-block count (see the header). */
void num_poisoned_pages_inc(unsigned long pfn)
{
	(void)pfn;
	atomic_long_inc(&num_poisoned_pages);
}

void num_poisoned_pages_sub(unsigned long pfn, long i)
{
	(void)pfn;
	atomic_long_sub(i, &num_poisoned_pages);
}

void memory_failure_node_stats(int nid, struct memory_failure_stats *st)
{
	*st = mf_stats[nid];
}

/* update_per_node_mf_stats(): total and the result's counter. */
void mf_stats_update(unsigned long pfn, enum mf_result result)
{
	struct page *p = pfn_to_page(pfn);
	struct memory_failure_stats *st = &mf_stats[p ? page_to_nid(p) : 0];

	switch (result) {
	case MF_IGNORED:
		++st->ignored;
		break;
	case MF_FAILED:
		++st->failed;
		break;
	case MF_DELAYED:
		++st->delayed;
		break;
	case MF_RECOVERED:
		++st->recovered;
		break;
	}
	++st->total;
}

void memory_failure_get_stats(struct memory_failure_stats *st)
{
	memset(st, 0, sizeof(*st));
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		st->total += mf_stats[nid].total;
		st->ignored += mf_stats[nid].ignored;
		st->failed += mf_stats[nid].failed;
		st->delayed += mf_stats[nid].delayed;
		st->recovered += mf_stats[nid].recovered;
	}
}

/* A record per poisoned frame, while there is room (a full table records no more: `hwpoison
 * list` then says "not recorded", and unpoison assumes memory_failure()'s reference, as Linux
 * always does).  A record whose frame is no longer poisoned is free for reuse. */
#define MF_RECORDS	128
static struct {
	bool used;
	struct mf_record r;
} mf_records[MF_RECORDS];
static DEFINE_SPINLOCK(mf_records_lock);

static struct mf_record *mf_record_find(unsigned long pfn)
{
	for (int i = 0; i < MF_RECORDS; i++)
		if (mf_records[i].used && mf_records[i].r.pfn == pfn)
			return &mf_records[i].r;
	return NULL;
}

void mf_record_add(unsigned long pfn, int type, enum mf_result result, enum mf_kind kind,
		   bool ref, bool hw)
{
	struct mf_record *rec;
	unsigned long flags;

	spin_lock_irqsave(&mf_records_lock, flags);
	rec = mf_record_find(pfn);
	for (int i = 0; !rec && i < MF_RECORDS; i++) {
		struct page *p = pfn_to_page(mf_records[i].r.pfn);
		if (!mf_records[i].used || !p || !PageHWPoison(p)) {
			mf_records[i].used = true;
			rec = &mf_records[i].r;
		}
	}
	if (rec)
		*rec = (struct mf_record){ .pfn = pfn, .type = (unsigned char)type,
					   .result = (unsigned char)result,
					   .kind = (unsigned char)kind, .ref = ref, .hw = hw };
	spin_unlock_irqrestore(&mf_records_lock, flags);
}

void mf_record_del(unsigned long pfn)
{
	unsigned long flags;

	spin_lock_irqsave(&mf_records_lock, flags);
	for (int i = 0; i < MF_RECORDS; i++)
		if (mf_records[i].used && mf_records[i].r.pfn == pfn)
			mf_records[i].used = false;
	spin_unlock_irqrestore(&mf_records_lock, flags);
}

bool memory_failure_record(unsigned long pfn, struct mf_record *rec)
{
	struct page *page = pfn_to_page(pfn);
	struct mf_record *r;
	unsigned long flags;
	bool found = false;

	spin_lock_irqsave(&mf_records_lock, flags);
	r = mf_record_find(pfn);
	if (r && page && PageHWPoison(page)) {
		*rec = *r;
		found = true;
	}
	spin_unlock_irqrestore(&mf_records_lock, flags);
	return found;
}

/* ---- what a frame is ---- */

/* is_free_buddy_page(): @page lies in a free block of the buddy lists. */
bool mf_is_free_buddy_page(const struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
		struct page *head = pfn_to_page(pfn & ~((1UL << order) - 1));

		if (head && PageBuddy(head) && buddy_order_unsafe(head) >= order)
			return true;
	}
	return false;
}

/* On a per-CPU list (free, but not PageBuddy)?  For the record's kind only. */
static bool on_pcp_list(const struct page *page)
{
	bool found = false;
	unsigned long flags;

	/* Every CPU's lists, each under its lock (mm/pcp.c). */
	for (int cpu = 0; cpu < NR_CPUS && !found; cpu++) {
		struct per_cpu_pages *pcp = &page_zone(page)->pcp[cpu];
		pcp_spin_lock_irqsave(pcp, flags);
		for (int i = 0; i < NR_PCP_LISTS && !found; i++) {
			struct page *q;
			for_each_pcp_block(q, pcp, &pcp->lists[i])
				found |= q == page;
		}
		pcp_spin_unlock_irqrestore(pcp, flags);
	}
	return found;
}

/* What @p is now, in the words `hwpoison list` uses (before memory_failure() changes it). */
enum mf_kind mf_kind_of(struct page *p)
{
	struct folio *folio = page_folio(p);

	if (PageSlab(p))
		return MF_KIND_SLAB;
	if (PageReserved(p))
		return MF_KIND_RESERVED;
	if (folio_test_anon(folio))
		return MF_KIND_ANON;
	if (folio_test_lru(folio) || folio->mapping)
		return MF_KIND_LRU;
	if (mf_is_free_buddy_page(p) || on_pcp_list(p))
		return MF_KIND_FREE;
	if (PageTail(p) || !page_ref_count(p))
		return MF_KIND_KERNEL_TAIL;
	return MF_KIND_KERNEL;
}
