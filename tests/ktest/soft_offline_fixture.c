/*
 * soft_offline_fixture.c - what every case of the `soft_offline` suite stands on (the cases:
 * soft_offline_ktest.c; shared: soft_offline_ktest.h): the fake disk whose reads complete at
 * once with a pattern of the page's index and whose writepages records what it was handed, the
 * suite's books (the frames it took, the counters before it), setup and the teardown that checks
 * the machine is whole, the log capture, and soft-offlining a page-cache folio with its checks.
 */
#include <limits.h>
#include <string.h>
#include "tinymm/delay.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/memory-failure.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/timer.h"
#include "tinymm/vmstat.h"
#include "tinymm/writeback.h"
#include "../../mm/internal.h"
#include "soft_offline_ktest.h"

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

#define SO_PAGES	64

struct address_space so_mapping;
unsigned long so_poisoned[SO_MAX_POISONED];	/* frames this suite took, in order */
unsigned int so_nr_poisoned;
long so_poison_base;			/* num_poisoned_pages before the suite */
unsigned long so_mf_total;			/* memory_failure stats' total, likewise */

/* What the fake disk's writepage was handed. */
struct so_write so_written[8];
unsigned int so_nr_written;

/* FNV-1a over a folio's bytes. */
static uint64_t so_hash(const unsigned char *p, unsigned long n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (unsigned long i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

uint64_t so_sum(struct folio *folio)
{
	return so_hash(page_address(&folio->page), folio_nr_pages(folio) * PAGE_SIZE);
}

/* One page's bytes (a reader's copy of an order-0 folio). */
uint64_t so_sum_bytes(const unsigned char *p)
{
	return so_hash(p, PAGE_SIZE);
}

static void so_fill(struct folio *folio)
{
	unsigned char *p = page_address(&folio->page);

	for (unsigned long i = 0; i < PAGE_SIZE; i++)
		p[i] = (unsigned char)(folio->index * 131 + i * 7 + (i >> 8));
}

static int so_read_folio(struct address_space *m, struct folio *folio)
{
	(void)m;
	so_fill(folio);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static int so_writepage(struct folio *folio, struct writeback_control *wbc, void *data)
{
	(void)wbc;
	(void)data;
	if (so_nr_written < ARRAY_SIZE(so_written)) {
		so_written[so_nr_written].index = folio->index;
		so_written[so_nr_written].pfn = page_to_pfn(&folio->page);
		so_written[so_nr_written].sum = so_sum(folio);
	}
	so_nr_written++;
	folio_start_writeback(folio);
	folio_unlock(folio);
	folio_end_writeback(folio);
	return 0;
}

static int so_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	return write_cache_pages(mapping, wbc, so_writepage, NULL);
}

static const struct address_space_operations so_aops = {
	.read_folio = so_read_folio,
	.writepages = so_writepages,
};

long so_poisoned_now(void)
{
	return atomic_long_read(&num_poisoned_pages);
}

unsigned long so_mf_stats_total(void)
{
	struct memory_failure_stats st;

	memory_failure_get_stats(&st);
	return st.total;
}

void so_setup(void)
{
	lru_add_drain();
	address_space_init(&so_mapping, &so_aops, (loff_t)SO_PAGES * PAGE_SIZE);
	so_nr_written = 0;
}

void so_teardown(struct ktest *t)
{
	truncate_inode_pages(&so_mapping, 0);
	inode_io_list_del(&so_mapping);		/* dirtied cases put it on the flusher's list */
	KTEST_EXPECT_EQ(t, so_mapping.nrpages, 0UL);
	KTEST_EXPECT_EQ(t, lru_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, buddy_check(kprintf), 0);
	KTEST_EXPECT_EQ(t, so_poisoned_now(), so_poison_base + (long)so_nr_poisoned);
	KTEST_EXPECT_EQ(t, so_mf_stats_total(), so_mf_total);
}

/* The log holds @line (the messages checked name their pfn, so they are this call's). */
static char so_log[2048];
static size_t so_log_len;

static void so_log_out(const char *s, size_t n)
{
	for (; n--; s++) {
		if (so_log_len == sizeof(so_log) - 1)
			memmove(so_log, so_log + 1024, so_log_len -= 1024);
		so_log[so_log_len++] = *s;
	}
	so_log[so_log_len] = '\0';
}

bool so_logged(const char *line)
{
	so_log_len = 0;
	log_buf_dump(so_log_out);
	return strstr(so_log, line) != NULL;
}

/* A new uptodate, unlocked cache folio at @index on its LRU list; the caller holds a reference. */
struct folio *so_new(struct ktest *t, pgoff_t index)
{
	struct folio *folio = __filemap_get_folio(&so_mapping, index, FGP_CREAT | FGP_LOCK, GFP_KERNEL);

	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "no folio");
		return NULL;
	}
	so_fill(folio);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	lru_add_drain();
	return folio;
}

void so_remember(unsigned long pfn)
{
	if (so_nr_poisoned < SO_MAX_POISONED)
		so_poisoned[so_nr_poisoned++] = pfn;
}

/* What page_handle_poison() leaves: marked, one reference (its own), nothing else. */
void so_expect_poisoned(struct ktest *t, unsigned long pfn)
{
	struct page *p = pfn_to_page(pfn);

	KTEST_EXPECT_TRUE(t, PageHWPoison(p));
	KTEST_EXPECT_EQ(t, page_ref_count(p), 1);
	KTEST_EXPECT_TRUE(t, p->mapping == NULL);
	KTEST_EXPECT_FALSE(t, PageBuddy(p));
	KTEST_EXPECT_EQ(t, p->flags & (1UL << PG_lru | 1UL << PG_locked | 1UL << PG_dirty |
				       1UL << PG_writeback | 1UL << PG_active | 1UL << PG_unevictable |
				       1UL << PG_mlocked), 0);
}

/*
 * Soft-offline the folio cached at @index (nobody else holding it) and check the move: same
 * bytes and index in a new frame, the old one poisoned and counted.  The new folio (referenced),
 * or NULL.
 */
struct folio *so_move_tries(struct ktest *t, pgoff_t index, int tries)
{
	unsigned long pages = so_mapping.nrpages, file = global_node_page_state(NR_FILE_PAGES);
	long poisoned = so_poisoned_now();
	struct folio *folio = filemap_get_folio(&so_mapping, index);

	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "nothing cached");
		return NULL;
	}
	unsigned long old = page_to_pfn(&folio->page);
	uint64_t sum = so_sum(folio);
	folio_put(folio);

	int ret;
	/* A concurrent holder (the reader case) can outlast soft offline's ten passes: Linux gives
	 * up then too (-EBUSY, nothing lost).  Only that case tries more than once. */
	while ((ret = soft_offline_page(old, 0)) == -EBUSY && --tries > 0)
		msleep(1);
	KTEST_EXPECT_EQ(t, ret, 0);
	so_remember(old);
	so_expect_poisoned(t, old);
	KTEST_EXPECT_EQ(t, so_poisoned_now(), poisoned + 1);
	KTEST_EXPECT_EQ(t, so_mapping.nrpages, pages);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), file);
	folio = filemap_get_folio(&so_mapping, index);
	if (IS_ERR(folio)) {
		ktest_fail_msg(t, __FILE__, __LINE__, "the index lost its folio");
		return NULL;
	}
	KTEST_EXPECT_NE(t, page_to_pfn(&folio->page), old);
	KTEST_EXPECT_TRUE(t, folio_test_uptodate(folio));
	KTEST_EXPECT_FALSE(t, PageHWPoison(&folio->page));
	KTEST_EXPECT_TRUE(t, folio->mapping == &so_mapping);
	KTEST_EXPECT_EQ(t, folio->index, index);
	KTEST_EXPECT_EQ(t, so_sum(folio), sum);
	return folio;
}

