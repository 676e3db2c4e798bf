/*
 * pagecache_ktest.c - mm/filemap.c and mm/readahead.c (suite `pagecache`, every board, and on
 * the host under ASan/UBSan through tests/host/pagecache_test.c) over a fake "disk" whose reads
 * complete at once: every byte read back, readahead windows against values computed by hand
 * from v6.10's rules, random reads not read ahead, errors left not uptodate, invalidation, the
 * Buffers count.  No thread sleeps: a folio is unlocked before anyone could wait on it.
 *
 * v6.10 by hand, 128 KiB maximum (ra_pages 32), one page per read, from page 0:
 *   miss at 0:  get_init_ra_size(1, 32) = 4 (1 <= 32/32: x4); async 4 - 1 = 3; window [0, 4),
 *               PG_readahead on page 0 + 4 - 3 = 1
 *   hit 1:      expected index 0 + 4 - 3 = 1: start 4, get_next_ra_size(4) = 8 (4 <= 16: x2),
 *               async 8: window [4, 12), marker on 4
 *   hit 4:      start 12, size 16, marker 12;   hit 12: start 28, size 32 (16 <= 16: x2)
 *   hit 28:     start 60, size 32 (32 > 16: the maximum), marker 60
 */
#include <string.h>
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/printk.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/slab.h"
#include "tinymm/swap.h"
#include "tinymm/vmstat.h"

#define DISK_PAGES	400
#define DISK_SIZE	((loff_t)DISK_PAGES * 4096 - 1000)	/* the last page is partial */

static struct address_space mapping;
static struct file_ra_state ra;

/* What the fake disk was asked for: one entry per read_folio or readahead batch. */
struct batch { pgoff_t start; unsigned int nr; int marked; bool rahead; };
static struct batch batches[256];
static int nr_batches;
static pgoff_t bad_page = ~0UL;		/* reads of this page fail */

static uint8_t disk_byte(loff_t pos)
{
	return (uint8_t)(pos * 7 + (pos >> 12) * 13);
}

static void fill(struct folio *folio)
{
	uint8_t *p = page_address(&folio->page);
	loff_t base = (loff_t)folio->index << PAGE_SHIFT;

	for (unsigned int i = 0; i < PAGE_SIZE; i++)
		p[i] = base + i < DISK_SIZE ? disk_byte(base + i) : 0;
}

static void complete_read(struct folio *folio)
{
	if (folio->index != bad_page) {		/* a failed read: not uptodate, that is all */
		fill(folio);
		folio_mark_uptodate(folio);
	}
	folio_unlock(folio);
}

static int fake_protocol_errors;	/* a folio handed over unlocked or uptodate */

static int fake_read_folio(struct address_space *m, struct folio *folio)
{
	fake_protocol_errors += !folio_test_locked(folio) || folio_test_uptodate(folio);
	batches[nr_batches++] = (struct batch){ folio->index, 1, -1, false };
	complete_read(folio);
	return 0;
}

static void fake_readahead(struct readahead_control *rac)
{
	struct batch *b = &batches[nr_batches++];
	struct folio *folio;

	*b = (struct batch){ readahead_index(rac), readahead_count(rac), -1, true };
	while ((folio = readahead_folio(rac))) {
		fake_protocol_errors += !folio_test_locked(folio);
		if (folio_test_readahead(folio))
			b->marked = (int)folio->index;
		complete_read(folio);
	}
}

static const struct address_space_operations fake_aops = {
	.read_folio = fake_read_folio,
	.readahead = fake_readahead,
};

static unsigned long file_pages_before;

static void setup(void)
{
	address_space_init(&mapping, &fake_aops, DISK_SIZE);
	file_ra_state_init(&ra, 32);
	nr_batches = 0;
	bad_page = ~0UL;
	fake_protocol_errors = 0;
	file_pages_before = global_node_page_state(NR_FILE_PAGES);
}

/* Every case ends here: the mapping empties completely, the Buffers count comes back. */
static void teardown(struct ktest *t)
{
	invalidate_mapping_pages(&mapping, 0, ~0UL);
	KTEST_EXPECT_EQ(t, mapping.nrpages, 0UL);
	KTEST_EXPECT_TRUE(t, xa_empty(&mapping.i_pages));
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), file_pages_before);
	KTEST_EXPECT_EQ(t, fake_protocol_errors, 0);
}

static bool read_page(struct ktest *t, pgoff_t index)
{
	static uint8_t buf[PAGE_SIZE];
	loff_t pos = (loff_t)index << PAGE_SHIFT;

	KTEST_EXPECT_EQ(t, filemap_read(&mapping, &ra, pos, buf, PAGE_SIZE), (long)PAGE_SIZE);
	for (unsigned int i = 0; i < PAGE_SIZE; i += 509)
		if (buf[i] != disk_byte(pos + i)) {
			ktest_fail_msg(t, __FILE__, __LINE__, "a byte read back wrong");
			return false;
		}
	return true;
}

static void expect_batch(struct ktest *t, int i, pgoff_t start, unsigned int nr, int marked)
{
	if (batches[i].start != start || batches[i].nr != nr || batches[i].marked != marked) {
		char msg[120];
		ksnprintf(msg, sizeof(msg), "batch %d: [%lu, +%u) marker %d, expected [%lu, +%u) marker %d",
			  i, batches[i].start, batches[i].nr, batches[i].marked, start, nr, marked);
		ktest_fail_msg(t, __FILE__, __LINE__, msg);
	}
}

static void sequential_windows_ramp_up(struct ktest *t)
{
	for (pgoff_t i = 0; i < 60; i++)
		read_page(t, i);
	KTEST_EXPECT_EQ(t, nr_batches, 5);
	expect_batch(t, 0, 0, 4, 1);
	expect_batch(t, 1, 4, 8, 4);
	expect_batch(t, 2, 12, 16, 12);
	expect_batch(t, 3, 28, 32, 28);
	expect_batch(t, 4, 60, 32, 60);
	KTEST_EXPECT_EQ(t, ra.start, 60);
	KTEST_EXPECT_EQ(t, ra.size, 32);
	KTEST_EXPECT_EQ(t, ra.async_size, 32);
	KTEST_EXPECT_EQ(t, mapping.nrpages, 92);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), 92);
	read_page(t, 60);				/* the marker: [92, 124) at the maximum */
	expect_batch(t, 5, 92, 32, 92);
}

/* 16 KiB at once from 0: get_init_ra_size(4, 32) = 8 (4 <= 8: x2), async 8 - 4 = 4. */
static void larger_first_request(struct ktest *t)
{
	static uint8_t buf[4 * PAGE_SIZE];

	KTEST_EXPECT_EQ(t, filemap_read(&mapping, &ra, 0, buf, sizeof(buf)), sizeof(buf));
	expect_batch(t, 0, 0, 8, 4);
	KTEST_EXPECT_EQ(t, nr_batches, 1);
	KTEST_EXPECT_EQ(t, ra.prev_pos, (loff_t)sizeof(buf));
}

/* Reads far apart with nothing cached before them: each reads its own page, nothing more. */
static void random_reads_not_read_ahead(struct ktest *t)
{
	static const pgoff_t at[] = { 0, 200, 57, 330, 121 };

	read_page(t, at[0]);			/* page 0 always opens a window: [0, 4) */
	for (unsigned int i = 1; i < ARRAY_SIZE(at); i++)
		read_page(t, at[i]);
	KTEST_EXPECT_EQ(t, nr_batches, 5);
	for (int i = 1; i < 5; i++)
		expect_batch(t, i, at[i], 1, -1);
	KTEST_EXPECT_EQ(t, mapping.nrpages, 4 + 4);
}

static void readahead_off_reads_one_page(struct ktest *t)
{
	ra.ra_pages = 0;
	for (pgoff_t i = 0; i < 10; i++)
		read_page(t, i);
	KTEST_EXPECT_EQ(t, nr_batches, 10);
	for (int i = 0; i < 10; i++)
		KTEST_EXPECT_EQ(t, batches[i].nr, 1);
	KTEST_EXPECT_EQ(t, mapping.nrpages, 10);
}

/* The whole disk through odd sizes and offsets; the partial last page ends the reads. */
static void every_byte_and_the_end(struct ktest *t)
{
	static uint8_t buf[20000];
	loff_t pos = 0;

	for (size_t n = 1; pos < DISK_SIZE; n = n * 3 % 19997 + 1) {
		long got = filemap_read(&mapping, &ra, pos, buf, n);
		KTEST_ASSERT_TRUE(t, got > 0);
		KTEST_EXPECT_TRUE(t, (size_t)got == n || pos + got == DISK_SIZE);
		for (long i = 0; i < got; i++)
			if (buf[i] != disk_byte(pos + i)) {
				char msg[80];
				ksnprintf(msg, sizeof(msg), "byte %lld: %u, expected %u",
					  (long long)(pos + i), buf[i], disk_byte(pos + i));
				ktest_fail_msg(t, __FILE__, __LINE__, msg);
				return;
			}
		pos += got;
	}
	KTEST_EXPECT_EQ(t, filemap_read(&mapping, &ra, DISK_SIZE, buf, 10), 0);
	KTEST_EXPECT_EQ(t, filemap_read(&mapping, &ra, DISK_SIZE - 5, buf, 10), 5);
	KTEST_EXPECT_EQ(t, mapping.nrpages, DISK_PAGES);
}

/* A failed read: the caller gets -EIO, the folio stays cached but not uptodate, the mapping's
 * error is untouched and the readahead window shrinks; the pages around it read fine; a later
 * read tries the device again. */
static void read_error_leaves_folio_not_uptodate(struct ktest *t)
{
	static uint8_t buf[PAGE_SIZE];

	bad_page = 6;
	read_page(t, 5);
	KTEST_EXPECT_EQ(t, filemap_read(&mapping, &ra, 6 * PAGE_SIZE, buf, PAGE_SIZE), -EIO);
	struct folio *folio = filemap_get_folio(&mapping, 6);
	KTEST_EXPECT_FALSE(t, IS_ERR(folio));
	KTEST_EXPECT_FALSE(t, folio_test_uptodate(folio));
	KTEST_EXPECT_FALSE(t, folio_test_locked(folio));
	folio_put(folio);
	/* As in Linux: a read error is not writeback's error (AS_EIO); the window is quartered. */
	KTEST_EXPECT_FALSE(t, test_bit(AS_EIO, &mapping.flags));
	KTEST_EXPECT_EQ(t, ra.ra_pages, 32U / 4);	/* one failed read_folio of page 6 */
	read_page(t, 7);
	int before = nr_batches;
	bad_page = ~0UL;
	read_page(t, 6);				/* retried: the device is asked again */
	KTEST_EXPECT_EQ(t, nr_batches, before + 1);
	expect_batch(t, before, 6, 1, -1);
}

/*
 * Linux's page_cache_ra_unbounded(): -ENOMEM from filemap_add_folio() ends the window; the pages
 * added before it are still read.  The first miss at 0 opens [0, 4); page 0 sits in the
 * xarray's head, page 1 needs its first node, whose allocation fails (xa_alloc_fail_nth).
 */
static void readahead_stops_at_enomem(struct ktest *t)
{
	xa_alloc_fail_nth = 1;
	read_page(t, 0);
	unsigned int unused = xa_alloc_fail_nth;
	xa_alloc_fail_nth = 0;
	KTEST_EXPECT_EQ(t, unused, 0);		/* the allocation failed */
	KTEST_EXPECT_EQ(t, nr_batches, 1);
	expect_batch(t, 0, 0, 1, -1);		/* page 0 alone: its marker was page 1's */
	KTEST_EXPECT_EQ(t, mapping.nrpages, 1);
	for (pgoff_t i = 1; i < 4; i++) {
		struct folio *f = filemap_get_folio(&mapping, i);
		KTEST_EXPECT_TRUE(t, f == ERR_PTR(-ENOENT));
		if (!IS_ERR(f))
			folio_put(f);
	}
}

/* drop_caches' invalidate: clean unused folios go, one somebody holds stays. */
static void invalidate_keeps_held_folios(struct ktest *t)
{
	for (pgoff_t i = 0; i < 12; i++)
		read_page(t, i);
	unsigned long cached = mapping.nrpages;
	struct folio *held = read_cache_folio(&mapping, 3);
	KTEST_EXPECT_FALSE(t, IS_ERR(held));
	KTEST_EXPECT_TRUE(t, folio_test_uptodate(held));
	KTEST_EXPECT_EQ(t, invalidate_mapping_pages(&mapping, 0, ~0UL), cached - 1);
	KTEST_EXPECT_EQ(t, mapping.nrpages, 1);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_FILE_PAGES), 1);
	folio_put(held);
	KTEST_EXPECT_EQ(t, invalidate_mapping_pages(&mapping, 0, ~0UL), 1);
}

/* __filemap_get_folio: lookups, FGP_CREAT, FGP_LOCK; -ENOENT; -EEXIST on a second add. */
static void get_folio_flags(struct ktest *t)
{
	KTEST_EXPECT_TRUE(t, (filemap_get_folio(&mapping, 9)) == (ERR_PTR(-ENOENT)));
	struct folio *f = __filemap_get_folio(&mapping, 9, FGP_CREAT | FGP_LOCK, GFP_KERNEL);
	KTEST_EXPECT_FALSE(t, IS_ERR(f));
	KTEST_EXPECT_TRUE(t, folio_test_locked(f));
	KTEST_EXPECT_TRUE(t, (f->mapping) == (&mapping));
	KTEST_EXPECT_EQ(t, f->index, 9);
	struct folio *g = folio_alloc(GFP_KERNEL, 0);
	KTEST_EXPECT_EQ(t, filemap_add_folio(&mapping, g, 9, GFP_KERNEL), -EEXIST);
	KTEST_EXPECT_TRUE(t, (g->mapping) == NULL);
	folio_put(g);
	folio_unlock(f);
	struct folio *h = filemap_get_folio(&mapping, 9);
	KTEST_EXPECT_TRUE(t, (h) == (f));
	lru_add_drain();		/* the lru_add batch's reference goes (mm/swap.c) */
	KTEST_EXPECT_EQ(t, atomic_read(&f->_refcount), 3);	/* cache + two lookups */
	folio_put(h);
	folio_put(f);
}

/* Each case on a fresh mapping, checked empty afterwards. */
#define PC_CASE(fn)								\
	static void fn##_case(struct ktest *t) { setup(); fn(t); teardown(t); }
PC_CASE(sequential_windows_ramp_up)
PC_CASE(larger_first_request)
PC_CASE(random_reads_not_read_ahead)
PC_CASE(readahead_off_reads_one_page)
PC_CASE(every_byte_and_the_end)
PC_CASE(read_error_leaves_folio_not_uptodate)
PC_CASE(readahead_stops_at_enomem)
PC_CASE(invalidate_keeps_held_folios)
PC_CASE(get_folio_flags)

static const struct ktest_case pagecache_cases[] = {
	{ "sequential_windows_ramp_up", sequential_windows_ramp_up_case },
	{ "larger_first_request", larger_first_request_case },
	{ "random_reads_not_read_ahead", random_reads_not_read_ahead_case },
	{ "readahead_off_reads_one_page", readahead_off_reads_one_page_case },
	{ "every_byte_and_the_end", every_byte_and_the_end_case },
	{ "read_error_leaves_folio_not_uptodate", read_error_leaves_folio_not_uptodate_case },
	{ "readahead_stops_at_enomem", readahead_stops_at_enomem_case },
	{ "invalidate_keeps_held_folios", invalidate_keeps_held_folios_case },
	{ "get_folio_flags", get_folio_flags_case },
	{}
};
KTEST_SUITE(pagecache, pagecache_cases);
