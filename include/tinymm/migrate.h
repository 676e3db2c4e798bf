/*
 * migrate.h - moving a folio's contents to another frame while it stays in use: page
 * migration (v6.10 include/linux/migrate.h and migrate_mode.h, reduced; mm/migrate.c,
 * docs/migration.md).
 *
 *   migrate_pages(from, get_new_folio, put_new_folio, private, mode, reason, &nr_succeeded)
 *        every folio on @from (isolated: off the LRU with a reference of the caller's, or a
 *        non-LRU movable page isolated with isolate_movable_page) moved to a folio
 *        @get_new_folio(src, @private) returns; a folio that could not move stays on @from
 *        (the caller puts it back with putback_movable_pages), a moved one is released.
 *        Returns the number that did not move (0: all did), or -ENOMEM when @get_new_folio
 *        had nothing (the rest stay on @from).  An LRU folio's ptes hold migration entries
 *        while it moves; a task touching one waits for the folio lock (mm/memory.c).
 *   putback_movable_pages(list)  what migrate_pages left back where it came from.
 *   isolate_movable_page(page, mode)  a non-LRU movable page (__SetPageMovable: a driver's
 *        movable_operations in page->mapping) isolated for migration: PG_isolated set, a
 *        reference taken; false if it is not movable or already isolated.
 *
 * A non-LRU movable page (a balloon's: mm/balloon_compaction.c) names its owner's
 * movable_operations in page->mapping with PAGE_MAPPING_MOVABLE (v6.10's layout):
 *   isolate_page(page, mode)   the owner lets the page go (it stays the owner's; PG_isolated)
 *   migrate_page(dst, src, mode)  the owner moves @src's role to @dst: MIGRATEPAGE_SUCCESS or
 *                              -errno (then @src stays and is put back)
 *   putback_page(page)         a page isolated and not moved goes back to its owner
 *
 * Locking: migrate_pages() sleeps (folio locks, writeback); never from interrupt context or
 * with a spinlock held.  isolate_movable_page() and the movable_operations run with the page
 * locked (trylock) and no other lock of migrate.c held.
 */
#ifndef TINYMM_MIGRATE_H
#define TINYMM_MIGRATE_H

#include <stdbool.h>
#include "list.h"
#include "mm_types.h"
#include "page-flags.h"

/* v6.10's include/linux/migrate_mode.h. */
enum migrate_mode {
	MIGRATE_ASYNC,		/* never block: a busy folio is skipped */
	MIGRATE_SYNC_LIGHT,	/* may block on folio locks, not on writeback */
	MIGRATE_SYNC,		/* may block on both */
};

/* Why a folio moved: v6.10's enum migrate_reason, the ones tinymm has first. */
enum migrate_reason {
	MR_COMPACTION,
	MR_MEMORY_FAILURE,
	MR_MEMORY_HOTPLUG,
	MR_SYSCALL,		/* the shell's `migrate` (v6.10: move_pages/migrate_pages calls) */
	MR_MEMPOLICY_MBIND,
	MR_NUMA_MISPLACED,
	MR_CONTIG_RANGE,
	MR_LONGTERM_PIN,
	MR_DEMOTION,
	MR_TYPES
};

typedef unsigned int isolate_mode_t;
#define ISOLATE_UNEVICTABLE	0x8	/* v6.10's: mlocked folios may be isolated too */

#define MIGRATEPAGE_SUCCESS	0
#define MIGRATEPAGE_UNMAP	1

typedef struct folio *new_folio_t(struct folio *src, unsigned long private);
typedef void free_folio_t(struct folio *dst, unsigned long private);

struct movable_operations {
	bool (*isolate_page)(struct page *page, isolate_mode_t mode);
	int (*migrate_page)(struct page *dst, struct page *src, enum migrate_mode mode);
	void (*putback_page)(struct page *page);
};

/* A driver's page becomes movable (the page is not on the LRU and has no other mapping). */
static inline void __SetPageMovable(struct page *page, const struct movable_operations *ops)
{
	page->mapping = (struct address_space *)((unsigned long)ops | PAGE_MAPPING_MOVABLE);
}

static inline void __ClearPageMovable(struct page *page)
{
	/* v6.10 keeps PAGE_MAPPING_MOVABLE so a racing isolation still sees what it was. */
	page->mapping = (struct address_space *)PAGE_MAPPING_MOVABLE;
}

/* Movable with an owner (v6.10's __PageMovable plus a check that the ops are still there). */
static inline bool __PageMovable(const struct page *page)
{
	return ((unsigned long)page->mapping & PAGE_MAPPING_FLAGS) == PAGE_MAPPING_MOVABLE;
}

static inline bool PageMovable(const struct page *page)
{
	return __PageMovable(page) &&
	       ((unsigned long)page->mapping & ~PAGE_MAPPING_FLAGS) != 0;
}

static inline const struct movable_operations *page_movable_ops(const struct page *page)
{
	return (const struct movable_operations *)((unsigned long)page->mapping & ~PAGE_MAPPING_FLAGS);
}

int migrate_pages(struct page_list *from, new_folio_t get_new_folio, free_folio_t put_new_folio,
		  unsigned long private, enum migrate_mode mode, int reason,
		  unsigned int *nr_succeeded);
void putback_movable_pages(struct page_list *list);
bool isolate_movable_page(struct page *page, isolate_mode_t mode);

/* The parts a movable_operations->migrate_page or a mapping's own move uses (mm/migrate.c). */
void folio_migrate_flags(struct folio *dst, struct folio *src);
void folio_migrate_copy(struct folio *dst, struct folio *src);

#endif
