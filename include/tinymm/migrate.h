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
 * The lists are struct page_list (mmzone.h; mm/internal.h has page_list_add_tail & co), linked
 * through folio->lru as tinymm's LRU and free lists are: v6.10's take a struct list_head.
 *
 * Locking: migrate_pages() sleeps (folio locks, writeback); never from interrupt context or
 * with a spinlock held.  isolate_movable_page() and the movable_operations run with the page
 * locked (trylock) and no other lock of migrate.c held.
 */
#ifndef TINYMM_MIGRATE_H
#define TINYMM_MIGRATE_H

#include <stdbool.h>
#include "migrate_mode.h"
#include "mm_types.h"
#include "mmzone.h"
#include "page-flags.h"


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
/* A new folio for @src anywhere (@private unused): migrate_pages()'s usual @get_new_folio. */
struct folio *alloc_migration_target(struct folio *src, unsigned long private);
bool isolate_movable_page(struct page *page, isolate_mode_t mode);

/* Why a folio was given up on (counted per reason; the shell's `migrate` prints them). */
enum migrate_fail {
	MIGRATE_FAIL_REFS,	/* "pinned": someone else holds a reference */
	MIGRATE_FAIL_LOCKED,	/* "locked": its lock stayed busy through every pass */
	MIGRATE_FAIL_WRITEBACK,	/* "writeback": under writeback, and the mode may not wait */
	MIGRATE_FAIL_MAPPED,	/* "mapped": a pte could not be made a migration entry */
	MIGRATE_FAIL_BUFFERS,	/* "buffers": buffer heads that could not be released */
	MIGRATE_FAIL_REFUSED,	/* "refused": a movable page's owner said no */
	MIGRATE_FAIL_NOMEM,	/* "nomem": no frame to move it to */
	MIGRATE_FAIL_LARGE,	/* "large": a large folio (tinymm moves order 0 only) */
	MIGRATE_FAIL_REASONS
};
unsigned long migrate_fail_count(enum migrate_fail reason);
const char *migrate_fail_name(enum migrate_fail reason);

/* The parts a movable_operations->migrate_page or a mapping's own move uses (mm/migrate.c). */
void folio_migrate_flags(struct folio *dst, struct folio *src);
void folio_migrate_copy(struct folio *dst, struct folio *src);
/* v6.10's folio_migrate_mapping(), for a page-cache or swap-cache folio: @dst (locked, private)
 * gets @src's bytes and PG_uptodate, then @src's slot, mapping, index, PG_dirty (and
 * PG_swapbacked, PG_swapcache, the entry) under xa_lock with @src's count frozen at the
 * cache's, the caller's and @extra_count more (private data's); 0, or -EAGAIN if someone else
 * holds @src (nothing changed).  A mapping's migrate_folio (buffer_migrate_folio) calls it. */
int folio_migrate_mapping(struct address_space *mapping, struct folio *dst, struct folio *src,
			  int extra_count);

#endif
