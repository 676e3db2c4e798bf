/*
 * errseq.h - v6.10's errseq_t (lib/errseq.c): "has an error happened since I last looked?" for
 * any number of independent watchers, in one 32-bit word, so one write error is reported once to
 * each file that was open when it happened, however many times other callers ask.
 *
 *   bits 0-11   the last error, as a positive errno (MAX_ERRNO = 4095 is the mask)
 *   bit 12      ERRSEQ_SEEN: someone has sampled this error since it was set
 *   bits 13-31  a counter, bumped by errseq_set() only when the previous error was seen, so an
 *               error that nobody has looked at yet is not counted twice
 *
 *   errseq_set(&eseq, -EIO)                  record an error; returns the previous value
 *   errseq_sample(&eseq)                     a cursor for a new watcher (an open file's f_wb_err):
 *                                            0 if the current error was never seen (the new
 *                                            watcher will be told about it), else the value
 *   errseq_check(&eseq, since)               -errno if something changed since @since, else 0
 *   errseq_check_and_advance(&eseq, &since)  the same, marking the error seen and moving @since
 *                                            to it: the next check says 0 until a new error
 * Locking: lock-free (cmpxchg on the word); each cursor is its owner's.
 */
#ifndef TINYMM_ERRSEQ_H
#define TINYMM_ERRSEQ_H

#include "kernel.h"

typedef uint32_t errseq_t;

#define MAX_ERRNO		4095
#define ERRSEQ_SHIFT		12			/* ilog2(MAX_ERRNO + 1) */
#define ERRSEQ_SEEN		(1U << ERRSEQ_SHIFT)
#define ERRSEQ_CTR_INC		(1U << (ERRSEQ_SHIFT + 1))

errseq_t errseq_set(errseq_t *eseq, int err);
errseq_t errseq_sample(errseq_t *eseq);
int errseq_check(errseq_t *eseq, errseq_t since);
int errseq_check_and_advance(errseq_t *eseq, errseq_t *since);

#endif
