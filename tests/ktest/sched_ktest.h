/*
 * sched_ktest.h - the `sched` suite's parts: the folio-lock cases of tests/ktest/sched_folio_ktest.c
 * and the thread-stack case of tests/ktest/sched_stack_ktest.c, for the one case table in tests/ktest/sched_ktest.c.
 */
#ifndef TESTS_KTEST_SCHED_KTEST_H
#define TESTS_KTEST_SCHED_KTEST_H
#include "tinymm/ktest.h"

void folio_lock_contended_by_4(struct ktest *t);
void folio_shared_bucket(struct ktest *t);
void folio_writeback_wait(struct ktest *t);
void thread_stack_vmalloc_with_guard(struct ktest *t);
#endif
