/*
 * workingset.c - refault detection, as Linux v6.10's mm/workingset.c (the classic LRU part).
 *
 * The question: a folio read again soon after reclaim evicted it — was the cache too small for
 * it, so that it deserved the active list?  Each eviction and each activation ticks a clock,
 * lruvec->nonresident_age.  Eviction leaves a shadow entry (an XArray value entry) in the
 * folio's slot holding the clock's value and the folio's PG_workingset.  When the folio comes
 * back (a refault), refault_distance = now - then counts the evictions and activations since:
 * the folio would have survived had the inactive list been that much longer.  The inactive list
 * can only grow by taking from the active list, so if refault_distance <= the active list's
 * size, the folio is activated right away (workingset_activate_file) — and if its shadow says
 * it was in the workingset when evicted, PG_workingset comes back too (workingset_restore_file).
 * Every refault counts workingset_refault_file.
 *
 * Shadow entries cost XArray nodes.  A leaf node holding only shadows is a "shadow node"; the
 * XArray tells us when a leaf's counts change (workingset_update_node), and such nodes are kept
 * on shadow_nodes.  A shrinker keeps them to one per 8 pages of RAM at 64 slots a node
 * (count_shadow_nodes: pages >> (XA_CHUNK_SHIFT - 3)), deleting the oldest first
 * (workingset_nodereclaim).
 *
 * Shadow layout (pack_shadow without memcg id or node id: one node, no memcg):
 *   value = eviction << WORKINGSET_SHIFT | workingset;  stored as xa_mk_value(value)
 * so EVICTION_SHIFT = 1 (value entry tag) + 1 (workingset bit), and the clock keeps
 * BITS_PER_LONG - 2 bits; when RAM has more pages than that, the clock is stored in buckets of
 * 2^bucket_order evictions (only on 32-bit boards with > 4 GiB... i.e. never here, but kept).
 *
 * Invariants: a shadow node is on shadow_nodes iff its count == nr_values > 0; WORKINGSET_NODES
 *   is the list's length.
 * Locking: update_node and eviction run under the mapping's xa_lock; shadow_nodes_lock nests
 *   inside xa_lock; the shrinker takes shadow_nodes_lock, then the node's xa_lock by trylock
 *   (the order is reversed there, as Linux's list_lru walk does).
 *
 * Where tinymm differs from v6.10, and why: the classic LRU only (no MGLRU), no memcg and one
 * node, so the shadow packs neither a memcg id nor a node id and the workingset size is the
 * active file list alone (no anon, no swap); shadow nodes sit on one list, not a list_lru.
 */
#include "tinymm/bitops.h"
#include "tinymm/irqflags.h"
#include "tinymm/list.h"
#include "tinymm/lockdep.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/shrinker.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "tinymm/workingset.h"
#include "tinymm/xarray.h"

#define BITS_PER_XA_VALUE	(BITS_PER_LONG - 1)
#define WORKINGSET_SHIFT	1
#define EVICTION_SHIFT		((BITS_PER_LONG - BITS_PER_XA_VALUE) + WORKINGSET_SHIFT)
#define EVICTION_MASK		(~0UL >> EVICTION_SHIFT)

unsigned int workingset_bucket_order;

void *workingset_pack_shadow(unsigned long eviction, bool workingset)
{
	eviction &= EVICTION_MASK;
	eviction = (eviction << WORKINGSET_SHIFT) | workingset;
	return xa_mk_value(eviction);
}

void workingset_unpack_shadow(void *shadow, unsigned long *evictionp, bool *workingsetp)
{
	unsigned long entry = xa_to_value(shadow);

	*workingsetp = entry & ((1UL << WORKINGSET_SHIFT) - 1);
	*evictionp = entry >> WORKINGSET_SHIFT;
}

void workingset_age_nonresident(struct lruvec *lruvec, unsigned long nr_pages)
{
	atomic_long_add((long)nr_pages, &lruvec->nonresident_age);
}

/* The folio is being evicted (xa_lock held, folio locked and off the LRU): its shadow. */
void *workingset_eviction(struct folio *folio)
{
	struct lruvec *lruvec = &node_lruvec;
	unsigned long eviction = (unsigned long)atomic_long_read(&lruvec->nonresident_age);

	lockdep_assert_held(&folio->mapping->i_pages.xa_lock);
	lockdep_assert_folio_locked(folio);
	eviction >>= workingset_bucket_order;
	workingset_age_nonresident(lruvec, folio_nr_pages(folio));
	return workingset_pack_shadow(eviction, folio_test_workingset(folio));
}

/*
 * workingset_test_recent() without memcg: the refault distance against the workingset
 * size, which for a file folio with no swap is the active file list alone.  The subtraction is
 * modulo the clock's width: a shadow older than a whole wrap reads as recent, as in Linux.
 */
bool workingset_test_recent(void *shadow, bool file, bool *workingset)
{
	struct lruvec *lruvec = &node_lruvec;
	unsigned long eviction, refault, refault_distance, workingset_size;

	workingset_unpack_shadow(shadow, &eviction, workingset);
	eviction <<= workingset_bucket_order;
	refault = (unsigned long)atomic_long_read(&lruvec->nonresident_age);
	refault_distance = (refault - eviction) & EVICTION_MASK;
	workingset_size = global_node_page_state(NR_ACTIVE_FILE);
	if (!file)
		workingset_size += global_node_page_state(NR_INACTIVE_FILE);
	return refault_distance <= workingset_size;
}

/* @folio (new, locked, not yet on the LRU) replaces @shadow. */
void workingset_refault(struct folio *folio, void *shadow)
{
	long nr = (long)folio_nr_pages(folio);
	bool workingset;

	lockdep_assert_folio_locked(folio);
	mod_node_page_state(WORKINGSET_REFAULT_FILE, nr);
	if (!workingset_test_recent(shadow, true, &workingset))
		return;
	folio_set_active(folio);
	workingset_age_nonresident(&node_lruvec, (unsigned long)nr);
	mod_node_page_state(WORKINGSET_ACTIVATE_FILE, nr);
	if (workingset) {		/* it was active before it was evicted */
		folio_set_workingset(folio);
		mod_node_page_state(WORKINGSET_RESTORE_FILE, nr);
	}
}

/* An activation by access moves the clock as well, so
 * promotions that displace folios count toward later refault distances. */
void workingset_activation(struct folio *folio)
{
	workingset_age_nonresident(&node_lruvec, folio_nr_pages(folio));
}

/* ---- shadow nodes ---- */

static LIST_HEAD(shadow_nodes);
static DEFINE_SPINLOCK(shadow_nodes_lock);

/* The page cache's XArray callback (xa_lock held): keep shadow_nodes exact. */
void workingset_update_node(struct xa_node *node)
{
	unsigned long flags;

	lockdep_assert_held(&node->array->xa_lock);
	spin_lock_irqsave(&shadow_nodes_lock, flags);
	if (node->count && node->count == node->nr_values) {
		if (list_empty(&node->private_list)) {
			list_add_tail(&node->private_list, &shadow_nodes);
			mod_node_page_state(WORKINGSET_NODES, 1);
		}
	} else if (!list_empty(&node->private_list)) {
		list_del_init(&node->private_list);
		mod_node_page_state(WORKINGSET_NODES, -1);
	}
	spin_unlock_irqrestore(&shadow_nodes_lock, flags);
}

unsigned long workingset_shadow_nodes(void)
{
	return global_node_page_state(WORKINGSET_NODES);
}

unsigned long workingset_max_shadow_nodes(void)
{
	/* Nodes may cover 8 x RAM when every slot held a shadow (64 slots a node). */
	return totalram_pages() >> (XA_CHUNK_SHIFT - 3);
}

static unsigned long count_shadow_nodes(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long nodes = workingset_shadow_nodes(), max_nodes = workingset_max_shadow_nodes();

	(void)s;
	(void)sc;
	if (!nodes)
		return SHRINK_EMPTY;
	return nodes > max_nodes ? nodes - max_nodes : 0;
}

/*
 * shadow_lru_isolate() over the oldest nodes: each goes with all its shadows
 * (xa_delete_node, under its mapping's xa_lock).  A node whose mapping lock is busy is rotated
 * to the tail and skipped this time.
 */
static unsigned long scan_shadow_nodes(struct shrinker *s, struct shrink_control *sc)
{
	unsigned long freed = 0, flags;

	(void)s;
	for (unsigned long n = 0; n < sc->nr_to_scan; n++) {
		spin_lock_irqsave(&shadow_nodes_lock, flags);
		if (list_empty(&shadow_nodes)) {
			spin_unlock_irqrestore(&shadow_nodes_lock, flags);
			break;
		}
		struct xa_node *node = list_first_entry(&shadow_nodes, struct xa_node, private_list);
		struct xarray *xa = node->array;
		if (!spin_trylock(&xa->xa_lock)) {
			list_move_tail(&node->private_list, &shadow_nodes);
			spin_unlock_irqrestore(&shadow_nodes_lock, flags);
			continue;
		}
		list_del_init(&node->private_list);
		mod_node_page_state(WORKINGSET_NODES, -1);
		spin_unlock(&shadow_nodes_lock);	/* interrupts stay masked: xa_lock is irqsave */
		xa_delete_node(node);			/* calls workingset_update_node: off-list already */
		spin_unlock_irqrestore(&xa->xa_lock, flags);
		mod_node_page_state(WORKINGSET_NODERECLAIM, 1);
		freed++;
	}
	return freed;
}

static struct shrinker workingset_shadow_shrinker = {
	.count_objects = count_shadow_nodes,
	.scan_objects = scan_shadow_nodes,
	.seeks = SHRINKER_NOSEEKS,
	.batch = 1,		/* tinymm keeps no deferred count: small excesses must go too */
	.name = "mm-shadow",
};

/* The clock's bucket size, and the shadow-node shrinker. */
void workingset_init(void)
{
	unsigned int timestamp_bits = BITS_PER_LONG - EVICTION_SHIFT;
	unsigned long pages = totalram_pages();
	unsigned int max_order = 0;

	while (max_order < BITS_PER_LONG && ((pages - 1) >> max_order) && pages > 1)
		max_order++;		/* fls_long(pages - 1) */

	workingset_bucket_order = max_order > timestamp_bits ? max_order - timestamp_bits : 0;
	shrinker_register(&workingset_shadow_shrinker);
}
