/*
 * vmstat_cmd.c - the `vmstat` command: /proc/vmstat's text, `name value` per line with Linux
 * v6.10's names, in its vmstat_text order (zone items, node items, then events), for the
 * counters tinymm keeps (include/tinymm/vmstat.h).
 *
 * Where tinymm differs from v6.10, and why: items v6.10 has and tinymm does not (NUMA,
 * THP, compaction, swap...) are left out rather than printed as a made-up 0.
 *
 * nr_free_pages is NR_FREE_PAGES: the buddy lists' frames, not the per-CPU lists'.
 * pgpgin/pgpgout are kept in sectors and halved on output, as Linux's vmstat_start does.
 * Locking: none; every value is one atomic read, a snapshot as /proc's are.
 */
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "tinymm/vmstat.h"

struct vmstat_item {
	const char *name;
	enum { VS_NODE, VS_EVENT, VS_FN } kind;
	int item;
	unsigned long (*fn)(void);
};

#define NODE(n, i)	{ n, VS_NODE, i, NULL }
#define EVENT(n, i)	{ n, VS_EVENT, i, NULL }
#define FN(n, f)	{ n, VS_FN, 0, f }

static const struct vmstat_item vmstat_items[] = {
	FN("nr_free_pages", nr_free_pages),
	NODE("nr_mlock", NR_MLOCK),		/* a zone stat in v6.10: printed before the node ones */
	NODE("nr_inactive_anon", NR_INACTIVE_ANON),
	NODE("nr_active_anon", NR_ACTIVE_ANON),
	NODE("nr_inactive_file", NR_INACTIVE_FILE),
	NODE("nr_active_file", NR_ACTIVE_FILE),
	NODE("nr_unevictable", NR_UNEVICTABLE),
	FN("nr_slab_reclaimable", slab_pages_reclaimable),
	FN("nr_slab_unreclaimable", slab_pages_unreclaimable),
	NODE("workingset_nodes", WORKINGSET_NODES),
	NODE("workingset_refault_file", WORKINGSET_REFAULT_FILE),
	NODE("workingset_activate_file", WORKINGSET_ACTIVATE_FILE),
	NODE("workingset_restore_file", WORKINGSET_RESTORE_FILE),
	NODE("workingset_nodereclaim", WORKINGSET_NODERECLAIM),
	NODE("nr_anon_pages", NR_ANON_MAPPED),
	NODE("nr_mapped", NR_FILE_MAPPED),
	NODE("nr_file_pages", NR_FILE_PAGES),
	NODE("nr_dirty", NR_FILE_DIRTY),
	NODE("nr_writeback", NR_WRITEBACK),
	NODE("nr_vmscan_write", NR_VMSCAN_WRITE),
	NODE("nr_vmscan_immediate_reclaim", NR_VMSCAN_IMMEDIATE),
	NODE("nr_page_table_pages", NR_PAGETABLE),
	NODE("nr_swapcached", NR_SWAPCACHE),
	EVENT("pgpgin", PGPGIN),
	EVENT("pgpgout", PGPGOUT),
	EVENT("pswpin", PSWPIN),
	EVENT("pswpout", PSWPOUT),
	EVENT("allocstall_normal", ALLOCSTALL),
	EVENT("pgactivate", PGACTIVATE),
	EVENT("pgdeactivate", PGDEACTIVATE),
	EVENT("pgfault", PGFAULT),
	EVENT("pgmajfault", PGMAJFAULT),
	EVENT("pgrefill", PGREFILL),
	EVENT("pgsteal_kswapd", PGSTEAL_KSWAPD),
	EVENT("pgsteal_direct", PGSTEAL_DIRECT),
	EVENT("pgscan_kswapd", PGSCAN_KSWAPD),
	EVENT("pgscan_direct", PGSCAN_DIRECT),
	EVENT("pageoutrun", PAGEOUTRUN),
	EVENT("pgrotated", PGROTATED),
	EVENT("pgmigrate_success", PGMIGRATE_SUCCESS),
	EVENT("pgmigrate_fail", PGMIGRATE_FAIL),
	EVENT("compact_migrate_scanned", COMPACTMIGRATE_SCANNED),
	EVENT("compact_free_scanned", COMPACTFREE_SCANNED),
	EVENT("compact_isolated", COMPACTISOLATED),
	EVENT("compact_stall", COMPACTSTALL),
	EVENT("compact_fail", COMPACTFAIL),
	EVENT("compact_success", COMPACTSUCCESS),
	EVENT("compact_daemon_wake", KCOMPACTD_WAKE),
	EVENT("unevictable_pgs_culled", UNEVICTABLE_PGCULLED),
	EVENT("unevictable_pgs_scanned", UNEVICTABLE_PGSCANNED),
	EVENT("unevictable_pgs_rescued", UNEVICTABLE_PGRESCUED),
	EVENT("unevictable_pgs_mlocked", UNEVICTABLE_PGMLOCKED),
	EVENT("unevictable_pgs_munlocked", UNEVICTABLE_PGMUNLOCKED),
	EVENT("unevictable_pgs_cleared", UNEVICTABLE_PGCLEARED),
	EVENT("unevictable_pgs_stranded", UNEVICTABLE_PGSTRANDED),
	EVENT("oom_kill", OOM_KILL),
};

static int cmd_vmstat(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	for (unsigned int i = 0; i < ARRAY_SIZE(vmstat_items); i++) {
		const struct vmstat_item *v = &vmstat_items[i];
		unsigned long val;

		if (v->kind == VS_NODE)
			val = global_node_page_state((enum node_stat_item)v->item);
		else if (v->kind == VS_EVENT)
			val = global_vm_event((enum vm_event_item)v->item);
		else
			val = v->fn();
		if (v->kind == VS_EVENT && (v->item == PGPGIN || v->item == PGPGOUT))
			val /= 2;		/* sectors -> KiB, as vmstat_start */
		kprintf("%s %lu\n", v->name, val);
	}
	return 0;
}
SHELL_COMMAND(vmstat, "", "memory counters with Linux's names, as /proc/vmstat", cmd_vmstat);
