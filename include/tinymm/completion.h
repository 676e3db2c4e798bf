/*
 * completion.h - "wait until this has happened", Linux's (kernel/completion.c).  done counts
 * complete() calls not yet consumed; complete_all() makes it effectively infinite.
 * Locking: the wait queue's lock (irqs masked): complete() works from interrupt handlers.
 */
#ifndef TINYMM_COMPLETION_H
#define TINYMM_COMPLETION_H

#include "wait.h"

struct completion {
	unsigned int done;
	struct wait_queue_head wait;
};

#define COMPLETION_INITIALIZER(work)							\
	{ 0, __WAIT_QUEUE_HEAD_INITIALIZER((work).wait) }
#define DECLARE_COMPLETION(work)	struct completion work = COMPLETION_INITIALIZER(work)

void init_completion(struct completion *x);
static inline void reinit_completion(struct completion *x)
{
	x->done = 0;
}
void complete(struct completion *x);
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
/* 0 if it timed out, else the jiffies left (at least 1). */
unsigned long wait_for_completion_timeout(struct completion *x, unsigned long timeout);
bool try_wait_for_completion(struct completion *x);
bool completion_done(struct completion *x);

#endif
