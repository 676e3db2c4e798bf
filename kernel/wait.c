/*
 * wait.c - wait queues (see include/tinymm/wait.h): queueing, waking, the default functions.
 *
 * Invariants: an entry is on at most one queue; exclusive entries are queued at the tail, so a
 * wake-up walks the non-exclusive ones first and stops after nr_exclusive exclusive wake-ups.
 * A wake function returns > 0 when it woke something, 0 when not, < 0 to stop the walk (the
 * folio lock's hand-off uses that).
 * Locking: wq_head->lock with interrupts masked around every change and every walk.
 */
#include "tinymm/lockdep.h"
#include "tinymm/wait.h"

void init_waitqueue_head(struct wait_queue_head *wq_head)
{
	spin_lock_init(&wq_head->lock);
	INIT_LIST_HEAD(&wq_head->head);
}

void add_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq_head->lock, flags);
	list_add(&wq_entry->entry, &wq_head->head);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

void add_wait_queue_exclusive(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	wq_entry->flags |= WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq_head->lock, flags);
	list_add_tail(&wq_entry->entry, &wq_head->head);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

void remove_wait_queue(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	spin_lock_irqsave(&wq_head->lock, flags);
	list_del_init(&wq_entry->entry);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

void prepare_to_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry, int state)
{
	unsigned long flags;

	wq_entry->flags &= ~WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq_head->lock, flags);
	if (list_empty(&wq_entry->entry))
		list_add(&wq_entry->entry, &wq_head->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

void prepare_to_wait_exclusive(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry,
			       int state)
{
	unsigned long flags;

	wq_entry->flags |= WQ_FLAG_EXCLUSIVE;
	spin_lock_irqsave(&wq_head->lock, flags);
	if (list_empty(&wq_entry->entry))
		list_add_tail(&wq_entry->entry, &wq_head->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

void finish_wait(struct wait_queue_head *wq_head, struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	/* Linux's lockless check: an entry a waker already took off (autoremove) needs no lock. */
	if (!list_empty(&wq_entry->entry)) {
		spin_lock_irqsave(&wq_head->lock, flags);
		list_del_init(&wq_entry->entry);
		spin_unlock_irqrestore(&wq_head->lock, flags);
	}
}

int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode, int flags, void *key)
{
	(void)flags;
	(void)key;
	return try_to_wake_up(wq_entry->private, mode);
}

int autoremove_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode, int flags, void *key)
{
	int ret = default_wake_function(wq_entry, mode, flags, key);

	if (ret)
		list_del_init(&wq_entry->entry);
	return ret;
}

/* Caller holds wq_head->lock. */
static int __wake_up_common(struct wait_queue_head *wq_head, unsigned int mode, int nr_exclusive,
			    void *key)
{
	struct wait_queue_entry *curr, *next;

	lockdep_assert_held(&wq_head->lock);
	list_for_each_entry_safe(curr, next, &wq_head->head, entry) {
		unsigned int flags = curr->flags;
		int ret = curr->func(curr, mode, 0, key);
		if (ret < 0)
			break;
		if (ret && (flags & WQ_FLAG_EXCLUSIVE) && !--nr_exclusive)
			break;
	}
	return nr_exclusive;
}

void __wake_up(struct wait_queue_head *wq_head, unsigned int mode, int nr_exclusive, void *key)
{
	unsigned long flags;

	spin_lock_irqsave(&wq_head->lock, flags);
	__wake_up_common(wq_head, mode, nr_exclusive, key);
	spin_unlock_irqrestore(&wq_head->lock, flags);
}

void __wake_up_locked_key(struct wait_queue_head *wq_head, unsigned int mode, void *key)
{
	__wake_up_common(wq_head, mode, 1, key);
}
