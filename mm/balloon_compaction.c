/*
 * balloon_compaction.c - the frames a memory balloon holds, as movable pages: enqueue and
 * dequeue for the driver, balloon_mops for page migration (v6.10 mm/balloon_compaction.c,
 * reduced).  include/tinymm/balloon_compaction.h states the invariants of a balloon page, the
 * locking, and where this differs from v6.10; docs/balloon.md explains them.
 *
 * The driver counts what it told the host; this file only keeps the frames: it never talks to a
 * device and never changes the managed page count (the driver does, v6.10's
 * adjust_managed_page_count(), unless the host allows deflate on OOM).
 */
#include "tinymm/balloon_compaction.h"
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/gfp.h"
#include "tinymm/lockdep.h"
#include "tinymm/pagemap.h"
#include "internal.h"

void balloon_devinfo_init(struct balloon_dev_info *b_dev_info)
{
	b_dev_info->isolated_pages = 0;
	b_dev_info->nr_pages = 0;
	spin_lock_init(&b_dev_info->pages_lock);
	page_list_init(&b_dev_info->pages);
	b_dev_info->migratepage = NULL;
}

/*
 * v6.10's balloon_mapping_gfp_mask() with compaction (GFP_HIGHUSER_MOVABLE) and its
 * __GFP_NOMEMALLOC | __GFP_NORETRY | __GFP_NOWARN: a balloon never dips into the reserves, never
 * drives reclaim hard, and a failure is the driver's to report (once), not the allocator's.
 */
struct page *balloon_page_alloc(void)
{
	return alloc_page(GFP_HIGHUSER_MOVABLE | __GFP_NOMEMALLOC | __GFP_NORETRY | __GFP_NOWARN);
}

/* pages_lock held, @page locked (or not yet visible to anyone else). */
void balloon_page_insert(struct balloon_dev_info *balloon, struct page *page)
{
	lockdep_assert_held(&balloon->pages_lock);
	__SetPageOffline(page);
	__SetPageMovable(page, &balloon_mops);
	page->private = (unsigned long)balloon;
	page_list_add(&balloon->pages, page);
	balloon->nr_pages++;
}

/*
 * pages_lock held, @page locked.  An isolated page is on the migration core's list, not ours
 * (the migratepage callback's case): it only leaves the isolated count (the callback does that).
 * The mapping goes to NULL, where v6.10's __ClearPageMovable() keeps PAGE_MAPPING_MOVABLE and
 * its free_pages_prepare() clears it: tinymm's free path calls any mapping a bad page, and the
 * page goes back to the allocator soon.  A racing isolate_movable_page() finds it not movable.
 */
void balloon_page_delete(struct page *page)
{
	struct balloon_dev_info *b = balloon_page_device(page);

	lockdep_assert_held(&b->pages_lock);
	__ClearPageOffline(page);
	page->mapping = NULL;
	page->private = 0;
	if (!PageIsolated(page)) {
		page_list_del(&b->pages, page);
		b->nr_pages--;
	}
}

void balloon_page_enqueue(struct balloon_dev_info *b_dev_info, struct page *page)
{
	struct folio *folio = page_folio(page);
	unsigned long flags;
	bool locked;

	spin_lock_irqsave(&b_dev_info->pages_lock, flags);
	/* Just allocated: nobody else can hold its lock (v6.10 warns the same way). */
	locked = folio_trylock(folio);
	WARN_ON_ONCE(!locked);
	balloon_page_insert(b_dev_info, page);
	if (locked)
		folio_unlock(folio);
	spin_unlock_irqrestore(&b_dev_info->pages_lock, flags);
}

/*
 * The first page that can be taken: not locked (isolate_movable_page may be looking at it) and
 * not hardware-poisoned (v6.10 leaves those in the balloon).  NULL when the list is empty or all
 * are busy; an empty list with nothing isolated while the driver still counts pages would be a
 * driver bug (v6.10 BUG()s; tinymm says it and returns NULL).
 */
struct page *balloon_page_dequeue(struct balloon_dev_info *b_dev_info)
{
	struct page *page, *taken = NULL;
	unsigned long flags;

	spin_lock_irqsave(&b_dev_info->pages_lock, flags);
	for (page = page_list_first(&b_dev_info->pages); page; page = page_list_next(page)) {
		struct folio *folio = page_folio(page);

		if (!folio_trylock(folio))
			continue;
		if (PageHWPoison(page)) {
			folio_unlock(folio);
			continue;
		}
		balloon_page_delete(page);
		folio_unlock(folio);
		taken = page;
		break;
	}
	spin_unlock_irqrestore(&b_dev_info->pages_lock, flags);
	return taken;
}

/* ---- balloon_mops: the migration core's view (include/tinymm/migrate.h) ---- */

/* The page is locked (isolate_movable_page); it leaves our list for the migration core's. */
static bool balloon_page_isolate(struct page *page, isolate_mode_t mode)
{
	struct balloon_dev_info *b = balloon_page_device(page);
	unsigned long flags;

	(void)mode;
	if (!b)
		return false;
	spin_lock_irqsave(&b->pages_lock, flags);
	page_list_del(&b->pages, page);
	b->nr_pages--;
	b->isolated_pages++;
	spin_unlock_irqrestore(&b->pages_lock, flags);
	return true;
}

static void balloon_page_putback(struct page *page)
{
	struct balloon_dev_info *b = balloon_page_device(page);
	unsigned long flags;

	if (WARN_ON_ONCE(!b))
		return;
	spin_lock_irqsave(&b->pages_lock, flags);
	page_list_add(&b->pages, page);
	b->nr_pages++;
	b->isolated_pages--;
	spin_unlock_irqrestore(&b->pages_lock, flags);
}

/* Both pages locked by the migration core; the driver moves the role (v6.10). */
static int balloon_page_migrate(struct page *newpage, struct page *page, enum migrate_mode mode)
{
	struct balloon_dev_info *b = balloon_page_device(page);

	VM_BUG_ON_PAGE(!PageLocked(page), page);
	VM_BUG_ON_PAGE(!PageLocked(newpage), newpage);
	if (!b || !b->migratepage)
		return -EAGAIN;
	return b->migratepage(b, newpage, page, mode);
}

const struct movable_operations balloon_mops = {
	.isolate_page = balloon_page_isolate,
	.migrate_page = balloon_page_migrate,
	.putback_page = balloon_page_putback,
};
