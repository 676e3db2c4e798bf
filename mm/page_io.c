/*
 * page_io.c - swap I/O: a swap-cache folio written to its slot or read from it, one bio per
 * folio (Linux v6.10's mm/page_io.c: swap_writepage, swap_read_folio, their bio completions).
 * docs/swap.md.
 *
 * Invariants: a folio is written only locked, in the swap cache, with its dirty bit cleared
 * for I/O (reclaim's pageout()); it is unlocked under PG_writeback before the bio is submitted
 * and the completion ends writeback.  A read runs with the folio locked and not uptodate; the
 * completion marks it uptodate (only if the read worked) and unlocks it, so a waiter that
 * locks it and finds it not uptodate knows the slot could not be read.
 *
 * Where tinymm differs from v6.10, and why: no swap over a filesystem (swap_writepage_fs),
 * no zswap and no synchronous (SWP_SYNCHRONOUS_IO) path: every area is a block device, every
 * read goes through the swap cache.  The error lines name the device ("vdb") where v6.10
 * prints major:minor, which tinymm's devices do not have.  A write error redirties the folio
 * and clears PG_reclaim, as v6.10's, so the data stays in memory and the next pass tries again.
 */
#include "tinymm/blkdev.h"
#include "tinymm/errno.h"
#include "tinymm/mm.h"
#include "tinymm/page-flags.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/swapfile.h"
#include "tinymm/vmstat.h"
#include "tinymm/writeback.h"

static struct folio *bio_first_folio(struct bio *bio)
{
	return page_folio(bio->bi_io_vec[0].bv_page);
}

/* Interrupt context: must not sleep. */
static void end_swap_bio_write(struct bio *bio)
{
	struct folio *folio = bio_first_folio(bio);

	if (bio->bi_status) {
		/* The data is still only in memory: dirty again, and not freed at writeback's end. */
		folio_set_dirty(folio);
		pr_err("Write-error on swap-device (%s:%llu)\n", bio->bi_bdev->bd_name,
			 (unsigned long long)bio->bi_sector);
		folio_clear_reclaim(folio);
	}
	folio_end_writeback(folio);
	bio_put(bio);
}

int swap_writepage(struct folio *folio, struct writeback_control *wbc)
{
	swp_entry_t entry = folio_swap_entry(folio);
	struct swap_info_struct *si;
	struct bio *bio;

	(void)wbc;
	lockdep_assert_folio_locked(folio);
	/* Nobody names the slot any more (the task exited meanwhile): nothing to write. */
	if (folio_free_swap(folio)) {
		folio_unlock(folio);
		return 0;
	}
	si = swp_swap_info(entry);
	bio = si ? bio_alloc(si->bdev, 1, REQ_OP_WRITE, GFP_NOIO) : NULL;
	if (!bio) {
		/* Not started: kept dirty for a later pass (reclaim's PAGE_RETRY). */
		folio_set_dirty(folio);
		folio_unlock(folio);
		return si ? -ENOMEM : -EIO;
	}
	bio->bi_sector = swap_slot_sector(swp_offset(entry));
	bio->bi_end_io = end_swap_bio_write;
	bio_add_page(bio, &folio->page, PAGE_SIZE, 0);
	count_vm_events(PSWPOUT, 1);
	folio_start_writeback(folio);
	folio_unlock(folio);
	submit_bio(bio);
	return 0;
}

/* Interrupt context: must not sleep. */
static void end_swap_bio_read(struct bio *bio)
{
	struct folio *folio = bio_first_folio(bio);

	if (bio->bi_status)
		pr_err("Read-error on swap-device (%s:%llu)\n", bio->bi_bdev->bd_name,
			 (unsigned long long)bio->bi_sector);
	else
		folio_mark_uptodate(folio);
	folio_unlock(folio);
	bio_put(bio);
}

int swap_read_folio(struct folio *folio)
{
	swp_entry_t entry = folio_swap_entry(folio);
	struct swap_info_struct *si = swp_swap_info(entry);
	struct bio *bio;

	lockdep_assert_folio_locked(folio);
	bio = si ? bio_alloc(si->bdev, 1, REQ_OP_READ, GFP_KERNEL) : NULL;
	if (!bio)
		return -ENOMEM;			/* not started: still locked, the caller's to undo */
	bio->bi_sector = swap_slot_sector(swp_offset(entry));
	bio->bi_end_io = end_swap_bio_read;
	bio_add_page(bio, &folio->page, PAGE_SIZE, 0);
	count_vm_events(PSWPIN, 1);
	submit_bio(bio);
	return 0;
}
