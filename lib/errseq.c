/*
 * errseq.c - v6.10's lib/errseq.c, the same algorithm (include/tinymm/errseq.h has the layout).
 *
 * Why a counter and a SEEN bit rather than a plain "error happened" flag: a flag cleared by the
 * first caller that reports it (the old AS_EIO scheme, still kept beside it) tells only one of
 * several fsync callers; a bare counter would count every failed page.  errseq_set() bumps the
 * counter only if the previous error was seen, so "unseen" errors collapse into one, and every
 * watcher whose cursor differs from the word learns of it exactly once.
 * Invariants: the low 12 bits are 0 (never set) or a positive errno; the counter only grows.
 * Locking: cmpxchg loops; a lost race with another setter or a reader setting SEEN is retried
 * (setter) or ignored (reader: either outcome is a correct report).
 */
#include "tinymm/atomic.h"
#include "tinymm/bug.h"
#include "tinymm/errseq.h"

errseq_t errseq_set(errseq_t *eseq, int err)
{
	errseq_t cur, old = READ_ONCE(*eseq);

	if (WARN_ON(err == 0 || (unsigned int)-err > MAX_ERRNO))
		return old;
	for (;;) {
		/* Replace the error bits and clear SEEN; bump the counter only if it was seen. */
		errseq_t new = (old & ~(MAX_ERRNO | ERRSEQ_SEEN)) | (errseq_t)-err;

		if (old & ERRSEQ_SEEN)
			new += ERRSEQ_CTR_INC;
		if (new == old) {		/* the same unseen error again: nothing to record */
			cur = new;
			break;
		}
		cur = cmpxchg(eseq, old, new);
		/* Our swap, or someone else's to the same value: done. */
		if (cur == old || cur == new)
			break;
		old = cur;
	}
	return cur;
}

errseq_t errseq_sample(errseq_t *eseq)
{
	errseq_t old = READ_ONCE(*eseq);

	/* Nobody has seen the current error: the new watcher may be the first to report it. */
	if (!(old & ERRSEQ_SEEN))
		old = 0;
	return old;
}

int errseq_check(errseq_t *eseq, errseq_t since)
{
	errseq_t cur = READ_ONCE(*eseq);

	if (cur == since)
		return 0;
	return -(int)(cur & MAX_ERRNO);
}

int errseq_check_and_advance(errseq_t *eseq, errseq_t *since)
{
	errseq_t old = READ_ONCE(*eseq), new;
	int err = 0;

	if (old != *since) {
		/* Mark it seen; if the swap fails a setter or another reader got there: either way
		 * what we report is right, and @since moves to what we saw. */
		new = old | ERRSEQ_SEEN;
		if (new != old)
			cmpxchg(eseq, old, new);
		*since = new;
		err = -(int)(new & MAX_ERRNO);
	}
	return err;
}
