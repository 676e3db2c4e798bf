/*
 * completion.c - completions (include/tinymm/completion.h), on a wait queue whose lock also
 * guards done.  Invariant: done == UINT_MAX after complete_all() and never decremented then.
 * Locking: x->wait.lock, interrupts masked.
 */
#include <limits.h>
#include "tinymm/completion.h"

void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

void complete(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != UINT_MAX)
		x->done++;
	__wake_up_locked_key(&x->wait, TASK_NORMAL, NULL);
	spin_unlock_irqrestore(&x->wait.lock, flags);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	spin_lock_irqsave(&x->wait.lock, flags);
	x->done = UINT_MAX;
	spin_unlock_irqrestore(&x->wait.lock, flags);
	wake_up_all(&x->wait);
}

/* Consume one done if there is one; under the lock. */
static bool take_done(struct completion *x)
{
	unsigned long flags;
	bool got = false;

	spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done) {
		if (x->done != UINT_MAX)
			x->done--;
		got = true;
	}
	spin_unlock_irqrestore(&x->wait.lock, flags);
	return got;
}

void wait_for_completion(struct completion *x)
{
	wait_for_completion_timeout(x, MAX_SCHEDULE_TIMEOUT);
}

unsigned long wait_for_completion_timeout(struct completion *x, unsigned long timeout)
{
	long left = (long)timeout;
	struct wait_queue_entry e;

	might_sleep();
	init_wait_entry(&e, WQ_FLAG_EXCLUSIVE);
	for (;;) {
		prepare_to_wait_exclusive(&x->wait, &e, TASK_UNINTERRUPTIBLE);
		if (take_done(x)) {
			if (!left)
				left = 1;
			break;
		}
		if (!left)
			break;
		left = schedule_timeout(left);
	}
	finish_wait(&x->wait, &e);
	return (unsigned long)left;
}

bool try_wait_for_completion(struct completion *x)
{
	return take_done(x);
}

bool completion_done(struct completion *x)
{
	return READ_ONCE(x->done) != 0;
}
