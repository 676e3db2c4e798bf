/*
 * vmstat.h - system-wide memory counters with Linux's names (mm/vmstat.c).  Node page-state
 * items are gauges (pages now), events only grow.
 *   mod_node_page_state(NR_FILE_PAGES, +1); global_node_page_state(NR_FILE_PAGES)
 *   count_vm_events(PGPGIN, sectors); global_vm_event(PGPGIN)
 * `vmstat` (mm/vmstat_cmd.c) prints them with Linux's names.
 *
 * Per CPU, as v6.10 (so CPUs counting at once do not pass one cache line around): each CPU
 * has a differential per node item, added to its own; past vmstat_threshold (v6.10's
 * calculate_normal_threshold()) it is folded into the global vm_node_stat[], and a work item
 * folds every CPU's once a second while any is left (v6.10's vmstat_update).  Events are per
 * CPU only and summed when read (v6.10's all_vm_events()).
 *
 * Where tinymm differs from v6.10, and why:
 *   - the differentials are atomic longs, not s8 updated with interrupts masked: an update
 *     that lands on the CPU it left (migrated in between) still counts, one amoadd either way,
 *     and any CPU can fold any other's (one work item, not one per CPU);
 *   - global_node_page_state() adds every CPU's differential to the global (v6.10's reads
 *     the global alone, up to threshold x CPUs off): meminfo, the shell and the tests compare
 *     exact figures, and with at most NR_CPUS (8) the sum is a few loads;
 *   - ALLOCSTALL is one counter, printed as allocstall_normal (v6.10 counts per zone of the
 *     request); tinymm counts every stall there.
 */
#ifndef TINYMM_VMSTAT_H
#define TINYMM_VMSTAT_H

#include "atomic.h"
#include "smp.h"

enum node_stat_item {
	NR_FILE_PAGES,		/* page-cache pages (all of them block devices': meminfo Buffers) */
	NR_FILE_DIRTY,		/* page-cache folios with PG_dirty (meminfo Dirty, vmstat nr_dirty) */
	NR_WRITEBACK,		/* folios with PG_writeback (meminfo Writeback, nr_writeback) */
	/* The LRU lists' lengths (mm/swap.c), in enum lru_list's order (NR_LRU_BASE + lru). */
	NR_INACTIVE_ANON,
	NR_ACTIVE_ANON,
	NR_INACTIVE_FILE,
	NR_ACTIVE_FILE,
	NR_UNEVICTABLE,
	/* Workingset (mm/workingset.c): XArray nodes holding only shadow entries; refaults seen,
	 * activated, restored; shadow nodes reclaimed. */
	WORKINGSET_NODES,
	WORKINGSET_REFAULT_FILE,
	WORKINGSET_ACTIVATE_FILE,
	WORKINGSET_RESTORE_FILE,
	WORKINGSET_NODERECLAIM,
	NR_VMSCAN_WRITE,	/* folios reclaim started writeback on (pageout) */
	NR_VMSCAN_IMMEDIATE,	/* folios marked PG_reclaim to be reclaimed when their I/O ends */
	NR_ANON_MAPPED,		/* anonymous pages mapped by page tables (meminfo AnonPages, nr_anon_pages) */
	NR_FILE_MAPPED,		/* page-cache pages mapped by page tables (meminfo Mapped, nr_mapped) */
	NR_PAGETABLE,		/* page-table frames, PG_table (meminfo PageTables, nr_page_table_pages) */
	NR_MLOCK,		/* pages with PG_mlocked (meminfo Mlocked, nr_mlock; v6.10: a zone stat) */
	NR_SWAPCACHE,		/* pages in the swap cache (meminfo SwapCached, nr_swapcached); also in
				 * NR_FILE_PAGES, as v6.10 counts them */
	NR_VM_NODE_STAT_ITEMS
};

enum vm_event_item {
	PGPGIN,			/* 512-byte sectors submitted for reading (vmstat prints KiB) */
	PGPGOUT,		/* ... for writing */
	PSWPIN,			/* pages read in from swap (mm/page_io.c) */
	PSWPOUT,		/* pages written out to swap */
	PGACTIVATE,		/* folios moved to the active list */
	PGDEACTIVATE,		/* ... to the inactive list (reclaim) */
	PGFAULT,		/* user page faults handled (mm/memory.c: handle_mm_fault) */
	PGMAJFAULT,		/* ... of them that waited for I/O (VM_FAULT_MAJOR) */
	PGROTATED,		/* ... to the inactive tail after writeback (folio_rotate_reclaimable) */
	PGMIGRATE_SUCCESS,	/* folios migrate_pages() moved (mm/migrate.c) */
	PGMIGRATE_FAIL,		/* ... it gave up on (left in place) */
	COMPACTMIGRATE_SCANNED,	/* compaction (mm/compaction.c): pages the migrate scanner looked at */
	COMPACTFREE_SCANNED,	/* ... the free scanner looked at */
	COMPACTISOLATED,	/* ... pages isolated by either scanner */
	COMPACTSTALL,		/* direct compaction entered from the allocator's slow path */
	COMPACTFAIL,		/* ... that did not make the allocation succeed */
	COMPACTSUCCESS,		/* ... that did */
	KCOMPACTD_WAKE,		/* kcompactd woken */
	ALLOCSTALL,		/* direct reclaim entered (one counter: see the header) */
	PGREFILL,		/* active folios scanned (shrink_active_list) */
	PGSCAN_KSWAPD,		/* reclaim: inactive folios scanned and reclaimed, by kswapd / direct */
	PGSCAN_DIRECT,
	PGSTEAL_KSWAPD,
	PGSTEAL_DIRECT,
	PAGEOUTRUN,		/* kswapd's balance_pgdat runs */
	UNEVICTABLE_PGCULLED,	/* folios put on the unevictable list */
	UNEVICTABLE_PGSCANNED,	/* checked by check_move_unevictable_folios */
	UNEVICTABLE_PGRESCUED,	/* moved back from the unevictable list */
	UNEVICTABLE_PGMLOCKED,	/* pages given PG_mlocked (mm/mlock.c) */
	UNEVICTABLE_PGMUNLOCKED,	/* ... that lost it by munlock */
	UNEVICTABLE_PGCLEARED,	/* ... that still had it when freed (folio_put) */
	UNEVICTABLE_PGSTRANDED,	/* ... munlocked while off the unevictable list it was on */
	OOM_KILL,		/* tasks the OOM killer killed (mm/oom_kill.c) */
	NR_VM_EVENT_ITEMS
};

extern atomic_long_t vm_node_stat[NR_VM_NODE_STAT_ITEMS];
/*
 * meminfo's VmallocTotal and VmallocUsed: the size of [VMALLOC_START, VMALLOC_END) once
 * vmalloc_init() ran (0 before, and on a board without page tables yet), and the pages vmalloc()
 * allocated (not vmap()'s: v6.10's nr_vmalloc_pages).  v6.10 keeps both in mm/vmalloc.c; here
 * they live in mm/vmstat.c, built on every board, so meminfo links where vmalloc does not yet.
 */
extern unsigned long vmalloc_total;
extern atomic_long_t nr_vmalloc_pages;

/* One CPU's share (v6.10's per_cpu_nodestat and vm_event_states). */
/* 512 bytes, a power of two: this CPU's is one shift of its number away, and no cache line
 * is shared between two CPUs'. */
struct vmstat_cpu {
	atomic_long_t node_diff[NR_VM_NODE_STAT_ITEMS];
	atomic_long_t events[NR_VM_EVENT_ITEMS];
} __attribute__((aligned(512)));
DECLARE_PER_CPU(struct vmstat_cpu, vmstat_cpu);
extern long vmstat_threshold;
extern unsigned long vmstat_threshold2;	/* 2 * vmstat_threshold: one compare tests both ends */

void vmstat_fold_item(atomic_long_t *diff, enum node_stat_item item);

static inline void mod_node_page_state(enum node_stat_item item, long delta)
{
	atomic_long_t *d = &this_cpu_ptr(&vmstat_cpu)->node_diff[item];
	long x = atomic_long_add_return(delta, d);

	/* x > t or x < -t, as x + t outside [0, 2t] */
	if (unlikely((unsigned long)(x + vmstat_threshold) > vmstat_threshold2))
		vmstat_fold_item(d, item);
}
/* The global and every CPU's differential: exact when nobody is counting. */
unsigned long global_node_page_state(enum node_stat_item item);
static inline void count_vm_events(enum vm_event_item item, long delta)
{
	atomic_long_add(delta, &this_cpu_ptr(&vmstat_cpu)->events[item]);
}
unsigned long global_vm_event(enum vm_event_item item);

/* Every CPU's differentials into the globals (v6.10's refresh_cpu_vm_stats() for each, as
 * /proc/sys/vm/stat_refresh); true if any was not zero. */
bool vmstat_fold_all(void);
/* vmstat_threshold from memory and the CPUs online (v6.10's refresh_zone_stat_thresholds()). */
void refresh_zone_stat_thresholds(void);
/* Tests: the item back to @value, its differentials cleared. */
void node_page_state_set(enum node_stat_item item, long value);
/* Set by vmstat_work.c: have the fold work run (NULL on the host and before the workqueues). */
extern void (*vmstat_fold_schedule)(void);

#endif
