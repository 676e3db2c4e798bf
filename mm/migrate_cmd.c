/*
 * migrate_cmd.c - the `migrate` shell command: move one frame's folio elsewhere, or show what
 * migration did so far (mm/migrate.c, docs/migration.md).
 *
 *   migrate <pfn>   the folio at @pfn isolated and moved by migrate_pages(MIGRATE_SYNC,
 *                   MR_SYSCALL): "migrate: 0x<old> -> 0x<new> (<kind>, mapped <n>)", kind
 *                   file, anon, swapcache or movable (a driver's page: the balloon's);
 *                   status 0.  A frame that holds nothing movable, or a move given up, is one
 *                   line why and status 1: "migrate: 0x<pfn>: <why>".
 *   migrate         "migrate: moved <n>, failed <n> (pinned <n>, locked <n>, ...)": vmstat's
 *                   pgmigrate_success and pgmigrate_fail, and the failures by reason.
 * A pfn is decimal or 0x-hex, as `page` and `hwpoison` take it; a bad number is status 2.
 * Locking: none of its own; the frame's state is read racily and isolation decides.
 *
 * Where tinymm differs from v6.10: Linux moves a task's pages with move_pages(2) and
 * migrate_pages(2) (NUMA); tinymm has one node, so this command names a frame instead.
 */
#include "tinymm/cmdline.h"
#include "tinymm/errno.h"
#include "tinymm/kernel.h"
#include "tinymm/migrate.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"
#include "internal.h"

/* Why the frame holds nothing migration could move, or NULL if it may. */
static const char *unmovable_reason(struct page *page)
{
	if (PageHWPoison(page))
		return "poisoned frame";
	if (PageReserved(page))
		return "reserved frame";
	if (PageBuddy(page) || page_ref_count(page) == 0)
		return "free frame";
	if (PageSlab(page))
		return "slab frame (kernel memory, not movable)";
	if (PageTable(page))
		return "page-table frame (kernel memory, not movable)";
	return NULL;
}

static struct folio *cmd_new_folio(struct folio *src, unsigned long private)
{
	struct folio *dst = alloc_migration_target(src, 0);

	if (dst)
		*(unsigned long *)private = page_to_pfn(&dst->page);
	return dst;
}

static const char *folio_kind(struct folio *folio)
{
	if (__PageMovable(&folio->page))
		return "movable";
	if (folio_test_anon(folio))
		return folio_test_swapcache(folio) ? "swapcache" : "anon";
	return folio_test_swapcache(folio) ? "swapcache" : "file";
}

static int migrate_one_pfn(unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);
	unsigned long before[MIGRATE_FAIL_REASONS], newpfn = 0;
	const char *why = unmovable_reason(page);
	struct folio *folio;
	struct page_list list;
	const char *kind;
	unsigned int moved = 0;
	int mapped, ret;
	bool isolated;

	if (why) {
		kprintf("migrate: %#lx: %s\n", pfn, why);
		return 1;
	}
	folio = page_folio(page);
	if (!folio_try_get(folio)) {
		kprintf("migrate: %#lx: free frame\n", pfn);
		return 1;
	}
	lru_add_drain_all();	/* a folio in an LRU batch is on no list yet */
	if (__PageMovable(&folio->page))
		isolated = isolate_movable_page(&folio->page, ISOLATE_UNEVICTABLE);
	else
		isolated = folio_isolate_lru(folio);
	kind = folio_kind(folio);
	mapped = folio_mapcount(folio);
	folio_put(folio);	/* isolation holds its own */
	if (!isolated) {
		kprintf("migrate: %#lx: not movable: on no LRU list and not a movable page (kernel memory, or being freed)\n",
			pfn);
		return 1;
	}
	page_list_init(&list);
	page_list_add_tail(&list, &folio->page);
	for (int r = 0; r < MIGRATE_FAIL_REASONS; r++)
		before[r] = migrate_fail_count(r);
	ret = migrate_pages(&list, cmd_new_folio, NULL, (unsigned long)&newpfn, MIGRATE_SYNC,
			    MR_SYSCALL, &moved);
	if (ret) {
		putback_movable_pages(&list);
		why = ret == -ENOMEM ? "no memory to move it to" : "busy";
		for (int r = 0; r < MIGRATE_FAIL_REASONS; r++)
			if (migrate_fail_count(r) != before[r])
				why = migrate_fail_name(r);
		kprintf("migrate: %#lx: not moved: %s\n", pfn, why);
		return 1;
	}
	if (!moved || !newpfn)	/* freed while isolated: nothing was left to move */
		kprintf("migrate: %#lx: freed meanwhile, nothing to move\n", pfn);
	else
		kprintf("migrate: %#lx -> %#lx (%s, mapped %d)\n", pfn, newpfn, kind, mapped);
	return 0;
}

static int cmd_migrate(int argc, char **argv)
{
	unsigned long long v;

	if (argc == 1) {
		kprintf("migrate: moved %lu, failed %lu (", global_vm_event(PGMIGRATE_SUCCESS),
			global_vm_event(PGMIGRATE_FAIL));
		for (int r = 0; r < MIGRATE_FAIL_REASONS; r++)
			kprintf("%s%s %lu", r ? ", " : "", migrate_fail_name(r), migrate_fail_count(r));
		kprintf(")\n");
		return 0;
	}
	if (argc != 2) {
		kprintf("migrate: usage: migrate [<pfn>]\n");
		return 2;
	}
	if (kstrtoull(argv[1], &v)) {
		kprintf("migrate: invalid number '%s'\n", argv[1]);
		return 2;
	}
	if ((unsigned long)v != v || !pfn_valid((unsigned long)v)) {
		kprintf("migrate: pfn %#llx is not valid (hole or beyond memory)\n", v);
		return 1;
	}
	return migrate_one_pfn((unsigned long)v);
}
SHELL_COMMAND(migrate, "[<pfn>]", "move the folio at a frame elsewhere (no pfn: what migration did so far)",
	      cmd_migrate);
