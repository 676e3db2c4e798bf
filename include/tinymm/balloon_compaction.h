/*
 * balloon_compaction.h - the pages a memory balloon has taken from the guest, kept movable
 * (v6.10 include/linux/balloon_compaction.h, reduced; mm/balloon_compaction.c, docs/balloon.md).
 *
 * A balloon driver (drivers/virtio_balloon.c) allocates frames with balloon_page_alloc(), hands
 * each to its balloon_dev_info with balloon_page_enqueue() before it tells the host, and takes
 * them back with balloon_page_dequeue() before it tells the host it deflates.  A frame in the
 * balloon (between enqueue and dequeue) is:
 *   - PageOffline (the page type; /proc/kpageflags' KPF_OFFLINE),
 *   - movable: page->mapping is &balloon_mops with PAGE_MAPPING_MOVABLE (__SetPageMovable),
 *   - page->private is its balloon_dev_info (balloon_page_device()),
 *   - on b_dev_info->pages, or isolated for migration (then PG_isolated, off the list, counted
 *     in isolated_pages),
 *   - holding the one reference balloon_page_alloc() gave it.
 * Migration (mm/migrate.c) reaches a balloon page through balloon_mops: isolate_page takes it
 * off the list, migrate_page calls b_dev_info->migratepage (the driver inflates the new frame and
 * deflates the old: v6.10's virtballoon_migratepage), putback_page puts it back on the list.
 *
 * Locking: b_dev_info->pages_lock (spinlock, irqsave) guards pages and isolated_pages.  Enqueue
 * and dequeue also trylock the page (the folio lock) while they change its type and mapping, so
 * they never race with isolate_movable_page(), which holds the page lock around isolate_page.
 *
 * Where tinymm differs from v6.10, and why: the list is a struct page_list (mm/internal.h's
 * compressed links over page->lru: struct page has no list_head), so the list-taking variants
 * (balloon_page_list_enqueue/dequeue) are not here: drivers keep a batch in an array.  No
 * BALLOON_INFLATE/DEFLATE/MIGRATE vm events.  No balloon_page_finalize(): the old page's
 * reference is dropped by the driver's migratepage, as v6.10 itself does.  balloon_page_delete()
 * sets page->mapping to NULL (v6.10 keeps PAGE_MAPPING_MOVABLE until free_pages_prepare() clears
 * it; tinymm's free path does not).
 */
#ifndef TINYMM_BALLOON_COMPACTION_H
#define TINYMM_BALLOON_COMPACTION_H

#include "migrate.h"
#include "mmzone.h"
#include "spinlock.h"

struct balloon_dev_info {
	unsigned long isolated_pages;	/* isolated for migration; pages_lock */
	spinlock_t pages_lock;
	struct page_list pages;		/* the frames handed to the host; pages_lock */
	unsigned long nr_pages;		/* on @pages; pages_lock */
	/* Move the balloon's role from @page to @newpage (both locked): MIGRATEPAGE_SUCCESS, or
	 * -EAGAIN and @page stays.  NULL: the balloon's pages do not migrate. */
	int (*migratepage)(struct balloon_dev_info *b_dev_info, struct page *newpage,
			   struct page *page, enum migrate_mode mode);
};

extern const struct movable_operations balloon_mops;

void balloon_devinfo_init(struct balloon_dev_info *b_dev_info);
/* A frame for the balloon: movable, no reclaim beyond one round, no warning.  NULL if none. */
struct page *balloon_page_alloc(void);
/* @page (from balloon_page_alloc) into the balloon. */
void balloon_page_enqueue(struct balloon_dev_info *b_dev_info, struct page *page);
/* A frame out of the balloon (no longer Offline or movable, its reference still held: the
 * caller tells the host, then put_page()s it), or NULL if none can be taken now (all isolated
 * or locked). */
struct page *balloon_page_dequeue(struct balloon_dev_info *b_dev_info);

/* For migratepage callbacks: pages_lock held, @page locked. */
void balloon_page_insert(struct balloon_dev_info *balloon, struct page *page);
void balloon_page_delete(struct page *page);

static inline struct balloon_dev_info *balloon_page_device(const struct page *page)
{
	return (struct balloon_dev_info *)page->private;
}

/* The frame is a balloon's (Offline and owned by balloon_mops). */
static inline bool PageBalloon(const struct page *page)
{
	return PageOffline(page) && PageMovable(page) && page_movable_ops(page) == &balloon_mops;
}

#endif
