/*
 * filemap.c - the folio lock and folio bit waits: hashed wait queues with PG_waiters, as
 * v6.10's mm/filemap.c.  (The page cache proper joins this file with the block-device issue.)
 *
 * Invariants:
 *   - PG_waiters set <= someone may sleep on this folio's bucket for one of its bits; it is set
 *     under the bucket's lock before the sleeper's last check, so a releaser that sees it clear
 *     can skip the wake-up safely, and one that sees it set takes the bucket lock.
 *   - folio_wake_bit() clears PG_waiters only under the bucket lock, and only when the walk met
 *     no waiter of this folio (page_match == 0) or the bucket is empty.
 *   - a wake function sets WQ_FLAG_WOKEN with release order before removing the entry; the
 *     sleeper reads it with acquire order and needs no lock to know it was woken.
 * Locking: bucket lock (spin_lock_irq) around PG_waiters changes and queue walks; PG_locked and
 *   PG_writeback are changed by atomic bit operations only.
 */
#include "tinymm/bug.h"
#include "tinymm/mmdebug.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/writeback.h"

_Static_assert(PG_waiters == 7 && PG_locked < 7,
	       "PG_waiters must be bit 7, in PG_locked's byte, as v6.10 requires");

static struct wait_queue_head folio_wait_table[PAGE_WAIT_TABLE_SIZE];
static unsigned long wake_bit_calls;

/* v6.10's sysctl_page_lock_unfairness default: exclusive attempts before a hand-off. */
#define PAGE_LOCK_UNFAIRNESS	5

/* Linux's hash_ptr(): multiply by the golden ratio, keep the top bits. */
static unsigned int hash_ptr(const void *p, unsigned int bits)
{
#if __SIZEOF_LONG__ == 8
	return (unsigned int)(((unsigned long)p * 0x61C8864680B583EBUL) >> (64 - bits));
#else
	return (unsigned int)(((unsigned long)p * 0x61C88647UL) >> (32 - bits));
#endif
}

/* At boot, before any thread could wait (Linux's pagecache_init()). */
void pagecache_init(void)
{
	for (int i = 0; i < PAGE_WAIT_TABLE_SIZE; i++)
		init_waitqueue_head(&folio_wait_table[i]);
}

struct wait_queue_head *folio_waitqueue(struct folio *folio)
{
	return &folio_wait_table[hash_ptr(folio, PAGE_WAIT_TABLE_BITS)];
}

struct wait_page_key {
	struct folio *folio;
	int bit_nr;
	int page_match;
};

struct wait_page_queue {
	struct folio *folio;
	int bit_nr;
	struct wait_queue_entry wait;
};

static bool wake_page_match(struct wait_page_queue *wait_page, struct wait_page_key *key)
{
	if (wait_page->folio != key->folio)
		return false;
	key->page_match = 1;
	return wait_page->bit_nr == key->bit_nr;
}

static int wake_page_function(struct wait_queue_entry *wait, unsigned int mode, int sync, void *arg)
{
	struct wait_page_key *key = arg;
	struct wait_page_queue *wait_page = container_of(wait, struct wait_page_queue, wait);
	unsigned int flags;

	(void)sync;
	if (!wake_page_match(wait_page, key))
		return 0;
	flags = wait->flags;
	if (flags & WQ_FLAG_EXCLUSIVE) {
		/* Someone took the bit again already: stop, the next release wakes us. */
		if (test_bit(key->bit_nr, &key->folio->flags))
			return -1;
		if (flags & WQ_FLAG_CUSTOM) {	/* hand-off: take it for the waiter */
			if (test_and_set_bit(key->bit_nr, &key->folio->flags))
				return -1;
			flags |= WQ_FLAG_DONE;
		}
	}
	smp_store_release(&wait->flags, flags | WQ_FLAG_WOKEN);
	try_to_wake_up(wait->private, mode);
	/* Last: after this the waiter may return and its entry (on its stack) vanish. */
	list_del_init(&wait->entry);
	return (flags & WQ_FLAG_EXCLUSIVE) != 0;
}

static void folio_wake_bit(struct folio *folio, int bit_nr)
{
	struct wait_queue_head *q = folio_waitqueue(folio);
	struct wait_page_key key = { .folio = folio, .bit_nr = bit_nr, .page_match = 0 };
	unsigned long flags;

	wake_bit_calls++;
	spin_lock_irqsave(&q->lock, flags);
	__wake_up_locked_key(q, TASK_NORMAL, &key);
	/* Other folios' waiters may share the bucket: then a waiter of ours may be missed here
	 * and PG_waiters stays set; the next wake-up clears it.  Rare, and harmless. */
	if (!waitqueue_active(q) || !key.page_match)
		folio_clear_waiters(folio);
	spin_unlock_irqrestore(&q->lock, flags);
}

/* Under the bucket lock: the last try before sleeping. */
static bool folio_trylock_flag(struct folio *folio, int bit_nr, struct wait_queue_entry *wait)
{
	if (wait->flags & WQ_FLAG_EXCLUSIVE) {
		if (test_and_set_bit(bit_nr, &folio->flags))
			return false;
	} else if (test_bit(bit_nr, &folio->flags)) {
		return false;
	}
	wait->flags |= WQ_FLAG_WOKEN | WQ_FLAG_DONE;
	return true;
}

enum behavior { EXCLUSIVE, SHARED };

static void folio_wait_bit_common(struct folio *folio, int bit_nr, int state, enum behavior behavior)
{
	struct wait_queue_head *q = folio_waitqueue(folio);
	int unfairness = PAGE_LOCK_UNFAIRNESS;
	struct wait_page_queue wait_page = { .folio = folio, .bit_nr = bit_nr };
	struct wait_queue_entry *wait = &wait_page.wait;

	might_sleep();
	init_wait_entry(wait, 0);
	wait->func = wake_page_function;
repeat:
	wait->flags = 0;
	if (behavior == EXCLUSIVE) {
		wait->flags = WQ_FLAG_EXCLUSIVE;
		if (--unfairness < 0)
			wait->flags |= WQ_FLAG_CUSTOM;
	}
	/* PG_waiters first, then the last try, both under the bucket lock: a releaser we just
	 * missed sees PG_waiters and comes to the queue. */
	spin_lock_irq(&q->lock);
	folio_set_waiters(folio);
	if (!folio_trylock_flag(folio, bit_nr, wait))
		__add_wait_queue_entry_tail(q, wait);
	spin_unlock_irq(&q->lock);

	for (;;) {
		unsigned int flags;

		set_current_state(state);
		flags = smp_load_acquire(&wait->flags);
		if (!(flags & WQ_FLAG_WOKEN)) {
			io_schedule();
			continue;
		}
		if (behavior != EXCLUSIVE || (flags & WQ_FLAG_DONE))
			break;
		/* Woken to compete for the lock: it may be gone again. */
		if (test_and_set_bit(bit_nr, &folio->flags))
			goto repeat;
		wait->flags |= WQ_FLAG_DONE;
		break;
	}
	finish_wait(q, wait);
}

void __folio_lock(struct folio *folio)
{
	folio_wait_bit_common(folio, PG_locked, TASK_UNINTERRUPTIBLE, EXCLUSIVE);
	lock_acquire(&folio_lock_map, folio, 1, (unsigned long)__builtin_return_address(0));
}

void folio_wait_bit(struct folio *folio, int bit_nr)
{
	folio_wait_bit_common(folio, bit_nr, TASK_UNINTERRUPTIBLE, SHARED);
}

/* A folio another context unlocked (I/O completion) leaves its locker's stack when seen. */
static bool folio_still_locked(const void *folio)
{
	return folio_test_locked((const struct folio *)folio);
}

struct lockdep_map folio_lock_map = { .name = "PG_locked", .still_held = folio_still_locked };

void folio_unlock(struct folio *folio)
{
	VM_BUG_ON_PAGE(!folio_test_locked(folio), &folio->page);
	lock_release(folio);
	if (folio_xor_flags_has_waiters(folio, 1UL << PG_locked))
		folio_wake_bit(folio, PG_locked);
}

/*
 * v6.10's: the start of writeback is all accounting (__folio_start_writeback in
 * mm/page-writeback.c); its end is accounting plus the wake-up, which lives here with the other
 * bit waits.  __folio_end_writeback() clears PG_writeback with the one fetch-xor that also says
 * whether anyone sleeps on the folio.
 */
void folio_end_writeback(struct folio *folio)
{
	VM_BUG_ON_PAGE(!folio_test_writeback(folio), &folio->page);
	/* Reclaim wanted this folio gone when it was clean: put it where reclaim looks next.  A
	 * plain test and clear (v6.10): losing a rotation to a race is cheaper than an atomic. */
	if (folio_test_reclaim(folio)) {
		folio_clear_reclaim(folio);
		folio_rotate_reclaimable(folio);
	}
	/* Writeback holds no reference: keep the folio alive until the wake-up is done. */
	folio_get(folio);
	if (__folio_end_writeback(folio))
		folio_wake_bit(folio, PG_writeback);
	folio_put(folio);
}

void folio_wait_writeback(struct folio *folio)
{
	while (folio_test_writeback(folio))
		folio_wait_bit(folio, PG_writeback);
}

unsigned long folio_wake_bit_calls(void)
{
	return wake_bit_calls;
}
