/*
 * swap.h - the LRU lists of page-cache folios (mm/swap.c), Linux v6.10's names and rules.
 *
 * Where tinymm differs from v6.10, and why: Linux spreads these over
 * include/linux/{mmzone,mm_inline,swap,pagevec,pagemap}.h; tinymm keeps them in one header.  One
 * node and no memcg, so one lruvec (v6.10: pglist_data.__lruvec, or one per memcg).  The anon
 * lists hold mm/memory.c's anonymous folios (PG_swapbacked); with no swap they are never
 * scanned (v6.10 does not scan them without swap either): reclaim is the classic (non-MGLRU)
 * scanner over the file lists only, and `lru` shows the file lists.  The per-CPU batches are guarded by masking
 * interrupts (v6.10: local_lock; one CPU).  mapping_release_unevictable() is v6.10's
 * shmem_unlock_mapping() walk for any mapping; mapping_lock_unevictable() moves the folios at once
 * where v6.10's SHM_LOCK leaves them to reclaim, so `lru` shows the state asked for (mm/swap.c).
 *
 *   folio_add_lru(folio)        a new cache folio: into this CPU's lru_add batch, with a
 *                               reference; PG_lru and a list only when the batch drains
 *   lru_add_drain()             empty this CPU's batches onto the lists
 *   lru_add_drain_all()         every CPU's (a cross-CPU call to each with a batch); irqs on
 *   folio_mark_accessed(folio)  two-touch: inactive,unreferenced -> PG_referenced;
 *                               inactive,referenced -> active list (PG_active, referenced
 *                               cleared); active,unreferenced -> PG_referenced
 *   folio_rotate_reclaimable(f) writeback of a PG_reclaim folio ended: to the inactive tail
 *   __page_cache_release(f)     the last reference is gone: off its list (folio_put calls it)
 *   mapping_set_unevictable(m) / mapping_clear_unevictable(m)   AS_UNEVICTABLE (bit only, as
 *                               Linux); mapping_release_unevictable(m) clears it and moves the
 *                               mapping's folios back;
 *                               mapping_lock_unevictable(m) sets it and culls them at once
 *
 * Invariants: a folio is on exactly one list iff PG_lru; PG_active only on the active list,
 * PG_unevictable only on the unevictable list (never both); lruvec.nr_pages[lru] is the
 * length of lists[lru] and equals the matching node stat (NR_INACTIVE_FILE...).  A folio in a
 * batch has no PG_lru and holds one reference for the batch.  The list head is the newest
 * folio, the tail the oldest: reclaim (mm/vmscan.c) scans from the tail.  A folio reclaim has
 * isolated is on no list, has no PG_lru and holds reclaim's reference.
 * Locking: lruvec.lru_lock, taken irqsave (writeback completions rotate folios from interrupts),
 * around every list change and PG_lru/PG_active/PG_unevictable change of a listed folio; the
 * per-CPU batches by masking interrupts (see above).  Lock order: xa_lock, then
 * lru_lock (the lists never call into the cache).
 */
#ifndef TINYMM_SWAP_H
#define TINYMM_SWAP_H

#include "bitops.h"
#include "fs.h"
#include "mm_types.h"
#include "mmzone.h"
#include "pagevec.h"
#include "spinlock.h"

/* Linux's enum lru_list (the anon lists: see the header). */
#define LRU_BASE	0
#define LRU_ACTIVE	1
#define LRU_FILE	2
enum lru_list {
	LRU_INACTIVE_ANON = LRU_BASE,
	LRU_ACTIVE_ANON = LRU_BASE + LRU_ACTIVE,
	LRU_INACTIVE_FILE = LRU_BASE + LRU_FILE,
	LRU_ACTIVE_FILE = LRU_BASE + LRU_FILE + LRU_ACTIVE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS
};
#define for_each_lru(lru)	for (lru = 0; lru < NR_LRU_LISTS; lru++)

/* The one lruvec (see the header). */
struct lruvec {
	struct page_list lists[NR_LRU_LISTS];	/* head = newest, tail = oldest */
	unsigned long nr_pages[NR_LRU_LISTS];	/* each list's length (Linux: lru_zone_size) */
	spinlock_t lru_lock;
	/* mm/workingset.c: the clock of evictions and activations that shadow entries are
	 * stamped with, and reclaim's snapshot of WORKINGSET_ACTIVATE_FILE (Linux's refaults[1]):
	 * a change since the last reclaim run means the active list may be shrunk. */
	atomic_long_t nonresident_age;
	unsigned long refaults_file;
};
extern struct lruvec node_lruvec;

/* Mapping flag AS_UNEVICTABLE (fs.h): ramfs / SHM_LOCK style, the whole mapping stays. */
static inline void mapping_set_unevictable(struct address_space *mapping)
{
	set_bit(AS_UNEVICTABLE, &mapping->flags);
}
static inline void mapping_clear_unevictable(struct address_space *mapping)
{
	clear_bit(AS_UNEVICTABLE, &mapping->flags);
}
static inline bool mapping_unevictable(const struct address_space *mapping)
{
	return mapping && test_bit(AS_UNEVICTABLE, &mapping->flags);
}

/* The list primitives (Linux's mm_inline.h), lru_lock held: reclaim isolates and puts back. */
void lruvec_add_folio(struct lruvec *lruvec, struct folio *folio);
void lruvec_add_folio_tail(struct lruvec *lruvec, struct folio *folio);
void lruvec_del_folio(struct lruvec *lruvec, struct folio *folio);

void folio_add_lru(struct folio *folio);
bool folio_isolate_lru(struct folio *folio);	/* mm/vmscan.c: off the LRU with our reference */
void lru_add_drain(void);
void lru_add_drain_all(void);
void folio_mark_accessed(struct folio *folio);
void folio_activate(struct folio *folio);
void folio_rotate_reclaimable(struct folio *folio);
void __page_cache_release(struct folio *folio);
bool folio_evictable(const struct folio *folio);
void check_move_unevictable_folios(struct folio_batch *fbatch);
unsigned long mapping_release_unevictable(struct address_space *mapping);
unsigned long mapping_lock_unevictable(struct address_space *mapping);
/* The list a listed folio is on (Linux's folio_lru_list: PG_swapbacked picks the anon lists). */
enum lru_list folio_lru_list(const struct folio *folio);
/* Folios waiting in this CPU's batches (for tests and `lru`). */
unsigned int lru_batched_folios(void);
/* Walk every list and compare with the counts; prints each mismatch, returns their number. */
int lru_check(int (*pr)(const char *fmt, ...));

/*
 * Reclaim (mm/vmscan.c; kswapd in mm/kswapd.c), Linux's classic (non-MGLRU) scanner over the
 * file lists.
 *   try_to_free_pages(gfp, order)  direct reclaim: an allocation that may sleep found no page;
 *                                  returns the pages freed (0: no progress)
 *   kswapd: a thread woken below a zone's low watermark that reclaims up to its high one
 */
#define SWAP_CLUSTER_MAX	32UL
#ifndef MAX_RECLAIM_RETRIES
#define MAX_RECLAIM_RETRIES	16
#endif
unsigned long try_to_free_pages(gfp_t gfp_mask, unsigned int order);
void kswapd_run(void);			/* at boot, once threads can be created */
/* Linux's folio_check_references() verdicts, exposed for the KTAP rules. */
enum folio_references {
	FOLIOREF_RECLAIM,
	FOLIOREF_RECLAIM_CLEAN,
	FOLIOREF_KEEP,
	FOLIOREF_ACTIVATE,
};
enum folio_references folio_check_references(struct folio *folio);
/* Linux's inactive_is_low() for the file lists. */
bool inactive_file_is_low(struct lruvec *lruvec);
/* shrink_folio_list() on one listed folio, for the KTAP rules: pages freed. */
unsigned long reclaim_folio_for_test(struct folio *folio, bool kswapd, bool pgdat_dirty);

#endif
