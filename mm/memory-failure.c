/*
 * memory-failure.c - HWPoison: a frame's memory went bad (Linux's mm/memory-failure.c, for what
 * tinymm has: free frames, page-cache and anonymous folios, kernel frames; the tasks mapping a
 * frame are mm/hwpoison_user.c's).  docs/hwpoison.md has the state table and the rules.
 *
 * memory_failure(pfn, flags), in Linux's order: TestSetPageHWPoison (already set: one line,
 * -EHWPOISON, nothing counted; an action-required caller that maps the frame gets SIGBUS,
 * mm/hwpoison_user.c's kill_accessing_process, -EFAULT if it does not); get_hwpoison_page() (per-CPU lists drained, LRU batches shaken):
 * a free frame is taken off the buddy lists and keeps one reference forever; a frame that is
 * neither on an LRU nor free (kernel, slab, reserved, a tail of a high-order block) is
 * "unhandlable": left to its owner; a large folio gets PG_has_hwpoisoned and would be split
 * ("unsplit thp" when it cannot be); then the folio lock (a folio that became large meanwhile:
 * once more from the start, then "different compound page after locking"), writeback waited
 * for, the user mappings (hwpoison_user_mappings(): unmapped, hwpoison entries, the
 * action-required caller's SIGBUS), the truncated check, and the action error_states[] names
 * for a flags snapshot (identify_page_state(), mm/hwpoison_actions.c).  Every outcome is one
 * action_result(): "Memory failure: 0x<pfn>: recovery action for <state>: <result>",
 * num_poisoned_pages and the node's statistics (kept, with the per-frame records, in
 * mm/hwpoison_state.c).  unpoison_memory() undoes a software injection; page_handle_poison()
 * is the end of soft offline (mm/soft-offline.c).  The `hwpoison` command is mm/hwpoison_cmd.c.
 *
 * Invariants:
 *   - A PG_hwpoison frame is never on a free list or a per-CPU list (so the allocator never
 *     hands one out, page checks on or off): memory_failure() sets the flag and takes a free
 *     frame off in one interrupt-masked stretch (one CPU: nothing allocates in between), and
 *     the free path sets poisoned frames aside (mm/page_check.c).
 *   - num_poisoned_pages counts the frames marked here, each once: +1 per action_result() and
 *     per page_handle_poison(), -1 per unpoison.  The statistics only grow.
 *   - A frame memory_failure() recovered holds memory_failure()'s reference until unpoison:
 *     a page-cache folio out of its mapping and off the LRU, or a taken-off free frame (also
 *     marked MAGIC_HWPOISON in ->private).  A frame left to its owner (Ignored) holds none.
 * Locking: mf_mutex around each call (sleeping: folio lock, writeback); inside it current's
 *   mmap_lock (only for an already poisoned frame: kill_accessing_process), or the folio
 *   lock, then the zone lock (take_page_off_buddy), and the actions' lru_lock and xa_lock
 *   (mm/hwpoison_actions.c); mf_cur and hw_memory_failure are mf_mutex's.  Never from interrupts.
 *
 * Where tinymm differs from v6.10, and why:
 *   - Less to handle: no hwpoison_filter (no hwpoison-inject module), no early kill
 *     (mm/hwpoison_user.c), no hugetlb, no movable non-LRU pages, no memory_failure_queue (no
 *     machine-check interrupt; the shell and madvise inject), no sysctl (recovery is always
 *     on).  Unpoison has no page-table or offline pages to refuse; it refuses a slab or
 *     reserved frame without a line, as v6.10 does.
 *   - The per-CPU lists (every CPU's, each under its pcp->lock) are drained with interrupts
 *     masked instead of zone_pcp_disable(): that keeps this CPU's empty until we are done, and
 *     a frame is marked and taken off the buddy in the same masked stretch, so no allocation
 *     on this CPU can get it in between.  Another CPU may refill its lists meanwhile and take
 *     the frame: take_page_off_buddy() then fails and the frame is handled as in use, and a
 *     frame it frees after the mark is caught by the free path's check (v6.10 leaves the same
 *     races to check_new_page(), which tinymm.check_pages=0 turns off).  shake_page() runs
 *     masked, so it drains this CPU's LRU batches only; the folio path, interrupts on, drains
 *     every CPU's (lru_add_drain_all()).
 *   - A frame with no reference that is in no free block is on its way somewhere (a preempted
 *     free, a block out with page reporting): memory_failure() unmarks it, sleeps a tick and
 *     looks again, MF_SETTLE_TRIES times (mf_settle()), where v6.10 retries get_any_page()
 *     three times without sleeping.  It says "unhandlable page." once, when it stops.
 *   - No large folio can be split (split_huge_page() refuses what is neither anonymous nor in a
 *     file's page cache, and tinymm's page cache holds order-0 folios only): always "unsplit
 *     thp"; try_to_split_thp_page() drops the reference on failure, as 6.10's does.
 *   - tinymm's own: a record of each frame for `hwpoison list`; a debug-level line saying what a
 *     frame left to its owner is (the console shows v6.10's lines alone); unpoison of a frame
 *     left to its owner only clears the mark (v6.10 would drop a reference it never took);
 *     unpoison messages are not ratelimited (tests read them); mf_race_hook lets a KTAP case
 *     change the frame where a racing thread could.
 */
#define pr_fmt(fmt) "Memory failure: " fmt

#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/delay.h"
#include "tinymm/irqflags.h"
#include "tinymm/memory-failure.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "internal.h"

static bool hw_memory_failure;		/* a hardware-reported failure was seen: no unpoison */
DEFINE_MUTEX(mf_mutex);

/* The call in progress (mf_mutex): what action_result() records about the frame. */
static struct {
	enum mf_kind kind;
	bool hw;
	bool ref;	/* memory_failure() holds a reference on the frame now */
} mf_cur;

bool memory_failure_hw_seen(void)
{
	return READ_ONCE(hw_memory_failure);
}

/* ---- references ---- */

/* get_page_unless_zero(): a reference, unless the frame is free (or being freed). */
static bool page_ref_try_get(struct page *page)
{
	int old = atomic_read(&page->_refcount);

	do {
		if (old <= 0)
			return false;
	} while (!atomic_try_cmpxchg(&page->_refcount, &old, old + 1));
	return true;
}

/* is_free_buddy_page(): mm/hwpoison_state.c has it, for the records too. */
static bool is_free_buddy_page(const struct page *page)
{
	return mf_is_free_buddy_page(page);
}

/* ---- soft offline's end ---- */

/*
 * Mark @page poisoned for soft offline and keep it: a free frame (@hugepage_or_freepage) is
 * taken off the buddy lists first (false if it was allocated meanwhile: nothing done); with
 * @release the caller's reference goes (if it was the last, the free path sets the frame
 * aside); then the frame gets one reference of its own and is counted.  Called under mf_mutex.
 */
bool page_handle_poison(struct page *page, bool hugepage_or_freepage, bool release)
{
	unsigned long pfn = page_to_pfn(page);

	WRITE_ONCE(hwpoison_seen, true);	/* before the flag: the free path looks from now on */
	if (hugepage_or_freepage) {
		unsigned long flags;
		bool taken;

		/* __page_handle_poison(): drain, then take it off; masked, so no allocation
		 * sees the frame between the two (one CPU). */
		local_irq_save(flags);
		drain_all_pages(page_zone(page));
		taken = take_page_off_buddy(page);
		if (taken) {
			SetPageHWPoison(page);
			SetPageHWPoisonTakenOff(page);
		}
		local_irq_restore(flags);
		if (!taken)
			return false;
	}
	SetPageHWPoison(page);
	if (release)
		put_page(page);
	atomic_inc(&page->_refcount);		/* page_ref_inc */
	num_poisoned_pages_inc(pfn);
	mf_record_add(pfn, NR_MF_MSG, MF_RECOVERED, MF_KIND_SOFT_OFFLINE, true, false);
	return true;
}

/* ---- getting hold of the frame: get_hwpoison_page() and its helpers ---- */

/* An LRU folio or a free frame: what memory_failure() and soft offline can act on. */
static bool HWPoisonHandlable(struct page *page, int flags)
{
	(void)flags;
	if (PageSlab(page))
		return false;
	return PageLRU(page) || is_free_buddy_page(page);
}

/* A folio in an LRU batch has no PG_lru yet: drain the batches, and look again. */
static void shake_page(struct page *p)
{
	if (!PageSlab(p))
		lru_add_drain();
}

/* 1: referenced; 0: free (no reference); -EBUSY: not a kind we handle (now). */
static int __get_hwpoison_page(struct page *page, int flags)
{
	struct folio *folio = page_folio(page);

	if (!HWPoisonHandlable(&folio->page, flags))
		return -EBUSY;
	if (page_ref_try_get(&folio->page)) {
		if (folio == page_folio(page))
			return 1;
		pr_info("%#lx cannot catch tail\n", page_to_pfn(page));
		folio_put(folio);
	}
	return 0;
}

#define GET_PAGE_MAX_RETRY_NUM 3
/* From memory_failure() to get_any_page(): not a word of an unhandlable page yet.
 * memory_failure() may look again (mf_settle) and says it once, when it stops, so the console
 * has one "unhandlable page." line per failure. */
#define MF_UNHANDLABLE_QUIET	(1 << 16)

/* get_any_page(): 1 (in use, referenced), 0 (free), -EBUSY / -EIO (unhandlable). */
static int get_any_page(struct page *p, int flags)
{
	bool count_increased = flags & MF_COUNT_INCREASED;
	int ret = 0, pass = 0;

try_again:
	if (!count_increased) {
		ret = __get_hwpoison_page(p, flags);
		if (!ret) {
			if (page_ref_count(p)) {
				/* We raced with an allocation, retry. */
				if (pass++ < GET_PAGE_MAX_RETRY_NUM)
					goto try_again;
				ret = -EBUSY;
			} else if (!is_free_buddy_page(p)) {
				/* We raced with put_page, retry. */
				if (pass++ < GET_PAGE_MAX_RETRY_NUM)
					goto try_again;
				ret = -EIO;
			}
			goto out;
		} else if (ret == -EBUSY) {
			/* Perhaps only for now (a folio in an LRU batch), retry. */
			if (pass++ < 3) {
				shake_page(p);
				goto try_again;
			}
			ret = -EIO;
			goto out;
		}
	}
	if (HWPoisonHandlable(p, flags)) {
		ret = 1;
	} else {
		/* A page we cannot handle: can shaking turn it into one we can? */
		if (pass++ < GET_PAGE_MAX_RETRY_NUM) {
			put_page(p);
			shake_page(p);
			count_increased = false;
			goto try_again;
		}
		put_page(p);
		ret = -EIO;
	}
out:
	if (ret == -EIO && !(flags & MF_UNHANDLABLE_QUIET))
		pr_err("%#lx: unhandlable page.\n", page_to_pfn(p));
	return ret;
}

/* For unpoison: -EHWPOISON for a taken-off frame, else 1 with a reference, 0 without. */
static int __get_unpoison_page(struct page *page)
{
	if (PageHWPoisonTakenOff(page))
		return -EHWPOISON;
	return page_ref_try_get(page) ? 1 : 0;
}

/*
 * The per-CPU lists drained first, so a free frame on one is seen in the buddy; the mask keeps
 * them empty until we are done.  The caller may hold the mask longer.
 */
int get_hwpoison_page(struct page *p, int flags)
{
	unsigned long irqflags;
	int ret;

	local_irq_save(irqflags);
	drain_all_pages(page_zone(p));
	if (flags & MF_UNPOISON)
		ret = __get_unpoison_page(p);
	else
		ret = get_any_page(p, flags);
	local_irq_restore(irqflags);
	return ret;
}

/*
 * Every outcome ends here: counted (num_poisoned_pages, the node's statistics), recorded,
 * printed ("Memory failure: 0x<pfn>: recovery action for <state>: <result>", pr_err).  0 for
 * Recovered and Delayed, -EBUSY otherwise.
 */
int action_result(unsigned long pfn, enum mf_action_page_type type, enum mf_result result)
{
	num_poisoned_pages_inc(pfn);
	mf_stats_update(pfn, result);
	mf_record_add(pfn, type, result, mf_cur.kind, mf_cur.ref, mf_cur.hw);
	pr_err("%#lx: recovery action for %s: %s\n", pfn, mf_action_page_type_name(type),
	       mf_action_name(result));
	return (result == MF_RECOVERED || result == MF_DELAYED) ? 0 : -EBUSY;
}

/* No large folio tinymm has can be split (the header says why): the reference goes, "unsplit
 * thp". */
static int try_to_split_thp_page(struct page *page)
{
	put_page(page);
	return -EBUSY;
}

/* What a frame left to its owner is, at debug level so the console shows Linux's lines alone
 * ("unhandlable page.", then the recovery action); `dmesg` has it. */
static void mf_warn_left_alone(unsigned long pfn)
{
	printk(KERN_DEBUG "Memory failure: %#lx: %s: left to its owner, kept from the allocator "
	       "once freed\n", pfn, mf_kind_name(mf_cur.kind));
}

void (*mf_race_hook)(struct page *p, enum mf_race_point where);

/* mm/hwpoison_user.c, linked where there are user page tables (not in the host's page-cache
 * tests, whose folios are never mapped): without it nothing is mapped, nothing to do. */
bool hwpoison_user_mappings(struct folio *folio, struct page *p, unsigned long pfn, int flags)
	__attribute__((weak));
int kill_accessing_process(struct task_struct *p, unsigned long pfn, int flags)
	__attribute__((weak));

/*
 * A frame with no reference that is not in a free block is on its way somewhere: a free that
 * was preempted between its last put and the free lists (its stale flags write would drop our
 * mark), or a block out with page reporting.  Unmark it, unmask, and give the other side a
 * tick to finish (it may be a lower-priority thread), then look again: up to MF_SETTLE_TRIES
 * times.  What stays that way (a tail of someone's high-order block) is marked and left to its
 * owner: the free lists refuse a marked frame (__free_one_page, free_unref_page), so it is set
 * aside when the block comes back.
 * true: unmarked and unmasked, try again.
 */
#define MF_SETTLE_TRIES	3
static bool mf_settle(struct page *p, int *settle, unsigned long irqflags)
{
	if (page_ref_count(p) || (*settle)++ >= MF_SETTLE_TRIES)
		return false;
	ClearPageHWPoison(p);
	local_irq_restore(irqflags);
	msleep(1);
	return true;
}

/**
 * memory_failure - a frame is corrupt: mark it, and contain what it holds.
 * @pfn: the frame; @flags: MF_* (MF_SW_SIMULATED for a software injection; without it the
 * failure counts as a hardware one, which turns unpoison off for good).
 *
 * 0 when handled (Recovered, Delayed), -EHWPOISON when already poisoned (nothing else done),
 * -ENXIO for a frame that is not RAM, -EBUSY otherwise.  Sleeps (the folio lock, writeback).
 */
int memory_failure(unsigned long pfn, int flags)
{
	unsigned long page_flags, irqflags;
	struct folio *folio;
	bool retry = true;
	int settle = 0;
	struct page *p;
	int res = 0;

	mutex_lock(&mf_mutex);
	if (!(flags & MF_SW_SIMULATED))
		hw_memory_failure = true;
	/* pfn_to_online_page(): all of tinymm's RAM is online. */
	p = pfn_to_page(pfn);
	if (!p) {
		pr_err("%#lx: memory outside kernel control\n", pfn);
		res = -ENXIO;
		goto unlock_mutex;
	}
	mf_cur.hw = !(flags & MF_SW_SIMULATED);
	mf_cur.ref = flags & MF_COUNT_INCREASED;
	WRITE_ONCE(hwpoison_seen, true);	/* before any frame has the flag: the free path */

try_again:
	if (mf_race_hook)
		mf_race_hook(p, MF_RACE_PASS);
	mf_cur.kind = mf_kind_of(p);
	/* Marking and taking a free frame off happen with interrupts masked: on one CPU nothing can
	 * allocate the marked frame before it is off the lists. */
	local_irq_save(irqflags);
	/* A frame on a per-CPU list goes to the buddy before it is marked: marked, the free lists
	 * would set it aside rather than take it (__free_one_page). */
	drain_all_pages(page_zone(p));
	if (TestSetPageHWPoison(p)) {
		local_irq_restore(irqflags);
		pr_err("%#lx: already hardware poisoned\n", pfn);
		res = -EHWPOISON;
		/* The caller is about to touch it (v6.10): SIGBUS where it maps it, if it does. */
		if ((flags & MF_ACTION_REQUIRED) && kill_accessing_process)
			res = kill_accessing_process(current, pfn, flags);
		if (flags & MF_COUNT_INCREASED)
			put_page(p);
		goto unlock_mutex;
	}

	/*
	 * Nothing to do about refcount-0 frames: a free one is taken off the buddy; a tail of a
	 * non-compound high-order block belongs to a kernel user who cannot be stopped.
	 */
	if (!(flags & MF_COUNT_INCREASED)) {
		res = get_hwpoison_page(p, flags | MF_UNHANDLABLE_QUIET);
		if (!res) {
			if (is_free_buddy_page(p)) {
				if (take_page_off_buddy(p)) {
					SetPageHWPoisonTakenOff(p);
					atomic_inc(&p->_refcount);	/* page_ref_inc */
					mf_cur.ref = true;
					res = MF_RECOVERED;
				} else {
					/* We lost the race, try again. */
					if (retry) {
						ClearPageHWPoison(p);
						local_irq_restore(irqflags);
						retry = false;
						goto try_again;
					}
					res = MF_FAILED;
				}
				local_irq_restore(irqflags);
				res = action_result(pfn, MF_MSG_BUDDY, (enum mf_result)res);
			} else {
				if (mf_settle(p, &settle, irqflags))
					goto try_again;
				local_irq_restore(irqflags);
				mf_warn_left_alone(pfn);
				res = action_result(pfn, MF_MSG_KERNEL_HIGH_ORDER, MF_IGNORED);
			}
			goto unlock_mutex;
		} else if (res < 0) {
			if (mf_settle(p, &settle, irqflags))
				goto try_again;
			local_irq_restore(irqflags);
			if (res == -EIO)
				pr_err("%#lx: unhandlable page.\n", pfn);
			mf_warn_left_alone(pfn);
			res = action_result(pfn, MF_MSG_UNKNOWN, MF_IGNORED);
			goto unlock_mutex;
		}
		mf_cur.ref = true;
	}
	local_irq_restore(irqflags);

	folio = page_folio(p);
	if (folio_test_large(folio)) {
		/* Set after the reference is taken, so it cannot race with a split. */
		folio_set_has_hwpoisoned(folio);
		if (try_to_split_thp_page(p) < 0) {
			mf_cur.ref = false;
			res = action_result(pfn, MF_MSG_UNSPLIT_THP, MF_IGNORED);
			goto unlock_mutex;
		}
		folio = page_folio(p);
	}

	/* A folio still in an LRU batch gets onto its list before we lock it. */
	shake_page(p);
	if (mf_race_hook)
		mf_race_hook(p, MF_RACE_LOCK);
	folio_lock(folio);

	/* Only a small folio is handled from here on, but its compound state may have changed
	 * since the first look: look again from the start, once; then give it up. */
	if (folio_test_large(folio)) {
		if (retry) {
			ClearPageHWPoison(p);
			folio_unlock(folio);
			folio_put(folio);
			flags &= ~MF_COUNT_INCREASED;
			mf_cur.ref = false;
			retry = false;
			goto try_again;
		}
		res = action_result(pfn, MF_MSG_DIFFERENT_COMPOUND, MF_IGNORED);
		goto unlock_page;
	}

	/* The flags decide the action, and the action may change them: a snapshot now. */
	page_flags = folio->flags;

	if (!folio_test_lru(folio) && !folio_test_writeback(folio))
		goto identify_page_state;

	/* Pages under I/O are too hard to mess with: wait (no Delayed for it). */
	folio_wait_writeback(folio);
	/* The end of a PG_reclaim writeback parks the folio in a rotation batch (PG_lru clear, a
	 * batch reference) on whichever CPU ended it: drain them all, or the folio would look
	 * busy and fail. */
	lru_add_drain_all();

	/* Now take care of user space mappings (mm/hwpoison_user.c).  Abort on failure: a page
	 * still mapped must not leave its mapping. */
	if (hwpoison_user_mappings && !hwpoison_user_mappings(folio, p, pfn, flags)) {
		res = action_result(pfn, MF_MSG_UNMAP_FAILED, MF_IGNORED);
		goto unlock_page;
	}

	/* Torn down by someone else? */
	if (folio_test_lru(folio) && !folio_test_anon(folio) && !folio_test_swapcache(folio) &&
	    folio->mapping == NULL) {
		res = action_result(pfn, MF_MSG_TRUNCATED_LRU, MF_IGNORED);
		goto unlock_page;
	}

identify_page_state:
	res = identify_page_state(pfn, p, page_flags);
	mutex_unlock(&mf_mutex);
	return res;
unlock_page:
	folio_unlock(folio);
unlock_mutex:
	mutex_unlock(&mf_mutex);
	return res;
}

/**
 * unpoison_memory - give a software-poisoned frame back (a testing interface).
 *
 * 0, or -ENXIO (no such frame), -EOPNOTSUPP (a hardware failure was seen: off for good),
 * -EBUSY (not poisoned, in use, or a slab/reserved frame, which stays poisoned and is not
 * mentioned).  Each refusal but the last prints Linux's "Unpoison: ..." line.
 */
int unpoison_memory(unsigned long pfn)
{
	struct mf_record rec = { 0 };
	bool recorded;
	struct folio *folio;
	int ret = -EBUSY, ghp;
	struct page *p;

	if (!pfn_valid(pfn))
		return -ENXIO;
	p = pfn_to_page(pfn);
	folio = page_folio(p);

	mutex_lock(&mf_mutex);
	if (hw_memory_failure) {
		printk(KERN_INFO "Unpoison: Disabled after HW memory failure %#lx\n", pfn);
		ret = -EOPNOTSUPP;
		goto unlock_mutex;
	}
	if (!PageHWPoison(p)) {
		printk(KERN_INFO "Unpoison: Page was already unpoisoned %#lx\n", pfn);
		goto unlock_mutex;
	}
	if (page_ref_count(&folio->page) > 1) {
		printk(KERN_INFO "Unpoison: Someone grabs the hwpoison page %#lx\n", pfn);
		goto unlock_mutex;
	}
	if (folio_test_slab(folio) || PageReserved(&folio->page))
		goto unlock_mutex;
	if (folio_mapped(folio)) {
		printk(KERN_INFO "Unpoison: Someone maps the hwpoison page %#lx\n", pfn);
		goto unlock_mutex;
	}
	/* v6.10's folio_mapping(): an anonymous folio's ->mapping is its anon_vma, no mapping. */
	if (folio->mapping && !folio_test_anon(folio)) {
		printk(KERN_INFO "Unpoison: the hwpoison page has non-NULL mapping %#lx\n", pfn);
		goto unlock_mutex;
	}

	recorded = memory_failure_record(pfn, &rec);
	/* Without its record (the table was full) nobody knows whether memory_failure() holds a
	 * reference or the owner does: dropping one could free a page in use.  Refuse. */
	if (!recorded && !PageHWPoisonTakenOff(p)) {
		printk(KERN_INFO "Unpoison: no record of how %#lx was poisoned; left as it is\n", pfn);
		goto unlock_mutex;
	}
	ghp = get_hwpoison_page(p, MF_UNPOISON);
	if (!ghp) {
		/* Nobody holds it (a tail of a block in use): only the mark goes. */
		ret = TestClearPageHWPoison(p) ? 0 : -EBUSY;
	} else if (ghp < 0) {
		if (ghp == -EHWPOISON) {
			ret = put_page_back_buddy(p) ? 0 : -EBUSY;
		} else {
			ret = ghp;
			printk(KERN_INFO "Unpoison: failed to grab page %#lx\n", pfn);
		}
	} else {
		folio_put(folio);			/* the reference just taken */
		if (TestClearPageHWPoison(p)) {
			/* memory_failure()'s reference, if it took one: a frame it left to its
			 * owner keeps the owner's (the header says why). */
			if (rec.ref)
				folio_put(folio);
			ret = 0;
		}
	}

unlock_mutex:
	if (!ret)
		mf_record_del(pfn);
	mutex_unlock(&mf_mutex);
	if (!ret) {
		num_poisoned_pages_sub(pfn, 1);
		printk(KERN_INFO "Unpoison: Software-unpoisoned page %#lx\n", pfn);
	}
	return ret;
}
