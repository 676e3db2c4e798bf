/*
 * workingset.h - refault detection for the page cache (mm/workingset.c), v6.10's rules.
 *
 *   workingset_eviction(folio)       reclaim is removing @folio from the cache: the shadow
 *                                    entry (a value entry) to leave in its slot, stamped with
 *                                    the eviction clock and whether it was PG_workingset
 *   workingset_refault(folio, shadow) @folio is being added where @shadow was: if its refault
 *                                    distance fits in the active list, it starts active
 *                                    (workingset_activate_file) and, if it had been in the
 *                                    workingset, PG_workingset comes back (workingset_restore_file)
 *   workingset_activation(folio)     an activation by access ages the clock as an eviction does
 *   workingset_update_node(node)     the page cache's XArray callback: leaf nodes holding only
 *                                    shadow entries go on the shadow_nodes list, whose length a
 *                                    shrinker bounds (workingset_nodereclaim)
 * Locking: eviction and update_node run under the mapping's xa_lock; the clock is atomic; the
 *   shadow_nodes list has its own lock, taken inside xa_lock.
 */
#ifndef TINYMM_WORKINGSET_H
#define TINYMM_WORKINGSET_H

#include "kernel.h"

struct folio;
struct xa_node;
struct lruvec;

void *workingset_eviction(struct folio *folio);
void workingset_refault(struct folio *folio, void *shadow);
void workingset_activation(struct folio *folio);
void workingset_age_nonresident(struct lruvec *lruvec, unsigned long nr_pages);
/* The decision alone (no counters, no folio): was the refault "recent"?  @workingset: the
 * shadow's workingset bit.  For tests and `page`-style tools. */
bool workingset_test_recent(void *shadow, bool file, bool *workingset);
void workingset_update_node(struct xa_node *node);
/* Shadow nodes on the list now, and the most the shrinker lets stay (count_shadow_nodes). */
unsigned long workingset_shadow_nodes(void);
unsigned long workingset_max_shadow_nodes(void);
/* Pack and unpack as the kernel does, for the KTAP arithmetic cases. */
void *workingset_pack_shadow(unsigned long eviction, bool workingset);
void workingset_unpack_shadow(void *shadow, unsigned long *eviction, bool *workingset);
extern unsigned int workingset_bucket_order;
void workingset_init(void);

#endif
