/*
 * vmstat.h - system-wide memory counters with Linux's names (mm/vmstat.c).  Node page-state
 * items are gauges (pages now), events only grow.  One node, one CPU: each is one atomic long.
 *   mod_node_page_state(NR_FILE_PAGES, +1); global_node_page_state(NR_FILE_PAGES)
 *   count_vm_events(PGPGIN, kb); global_vm_event(PGPGIN)
 * The writeback/reclaim issue adds the LRU items and the `vmstat` command.
 */
#ifndef TINYMM_VMSTAT_H
#define TINYMM_VMSTAT_H

#include "atomic.h"

enum node_stat_item {
	NR_FILE_PAGES,		/* page-cache pages (all of them block devices': meminfo Buffers) */
	NR_VM_NODE_STAT_ITEMS
};

enum vm_event_item {
	PGPGIN,			/* KiB read from block devices */
	PGPGOUT,		/* KiB written */
	NR_VM_EVENT_ITEMS
};

extern atomic_long_t vm_node_stat[NR_VM_NODE_STAT_ITEMS];
extern atomic_long_t vm_events[NR_VM_EVENT_ITEMS];

static inline void mod_node_page_state(enum node_stat_item item, long delta)
{
	atomic_long_add(delta, &vm_node_stat[item]);
}
static inline unsigned long global_node_page_state(enum node_stat_item item)
{
	long v = atomic_long_read(&vm_node_stat[item]);

	return v < 0 ? 0 : (unsigned long)v;
}
static inline void count_vm_events(enum vm_event_item item, long delta)
{
	atomic_long_add(delta, &vm_events[item]);
}
static inline unsigned long global_vm_event(enum vm_event_item item)
{
	return (unsigned long)atomic_long_read(&vm_events[item]);
}

#endif
