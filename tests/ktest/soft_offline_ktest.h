/*
 * soft_offline_ktest.h - what the two parts of the `soft_offline` KTAP suite share: the fake
 * disk, the suite's books, setup and teardown and the helpers below are in
 * tests/ktest/soft_offline_fixture.c, the cases and the one case table in
 * tests/ktest/soft_offline_ktest.c.  tests/host/soft_offline_test.c includes both.
 */
#ifndef TESTS_KTEST_SOFT_OFFLINE_KTEST_H
#define TESTS_KTEST_SOFT_OFFLINE_KTEST_H
#include <stdbool.h>
#include <stdint.h>
#include "tinymm/ktest.h"
#include "tinymm/pagemap.h"

#define SO_MAX_POISONED	16
#define SO_ALLOCS	100000UL

/* What the fake disk's writepages was handed, one entry a folio. */
struct so_write {
	pgoff_t index;
	unsigned long pfn;
	uint64_t sum;
};

extern struct address_space so_mapping;			/* the fake disk's page cache */
extern unsigned long so_poisoned[SO_MAX_POISONED];	/* frames this suite took, in order */
extern unsigned int so_nr_poisoned;
extern long so_poison_base;				/* num_poisoned_pages before the suite */
extern unsigned long so_mf_total;			/* memory_failure stats' total, likewise */
extern struct so_write so_written[8];
extern unsigned int so_nr_written;

void so_expect_poisoned(struct ktest *t, unsigned long pfn);
bool so_logged(const char *line);
unsigned long so_mf_stats_total(void);
struct folio *so_move_tries(struct ktest *t, pgoff_t index, int tries);
struct folio *so_new(struct ktest *t, pgoff_t index);
long so_poisoned_now(void);
void so_remember(unsigned long pfn);
void so_setup(void);
uint64_t so_sum(struct folio *folio);
uint64_t so_sum_bytes(const unsigned char *p);
void so_teardown(struct ktest *t);

/* A case: the fake disk set up, the body, then teardown's checks. */
#define SO_CASE(fn)						\
static void fn##_case(struct ktest *t)				\
{								\
	so_setup();						\
	fn(t);							\
	so_teardown(t);						\
}

#define so_move(t, index)	so_move_tries(t, index, 1)
#endif
