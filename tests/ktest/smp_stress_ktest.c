/*
 * smp_stress_ktest.c - suite "smp_stress": the allocators under real concurrency, one worker
 * thread pinned to each online CPU (docs/smp.md, issue 38's stress list, its first two parts).
 *
 *   folios: each worker allocates folios of orders 0-3, stamps every page with a tag derived
 *     from its pfn, takes a second reference and hands it to the next CPU's worker through a
 *     mailbox (xchg); the receiver checks the stamps and drops that reference while the
 *     allocator may already have dropped its own: a folio is freed by whichever CPU puts last.
 *   kmalloc: sizes 8 to 2048 bytes, each filled with a byte of its own and kept in a small ring;
 *     an object leaving the ring is checked, then freed, often on a CPU other than the one that
 *     last freed into that cache.
 *   page cache (second case): one file over a fake disk that keeps, per page, the generation
 *     last written back.  Each worker writes generations to its own pages (whole pages, under
 *     the folio lock, as write_begin/write_end), reads random pages of the whole file under the
 *     folio lock and checks each is uniform, of its index, and of a generation between the last
 *     finished and the last started write of that page; every few rounds it writes its range
 *     back, calls try_to_free_pages() (direct reclaim, as an allocation under pressure would:
 *     clean folios are evicted and read again from the disk), and poisons a frame of its own
 *     with memory_failure() (a kernel page: -EBUSY, set aside when freed, unpoisoned).
 * Afterwards: every folio came back with its stamps intact, the file reads back exactly the
 * last generation of every page (in the cache and, after a final write-back, on the disk),
 * reclaim evicted some of it (disk reads beyond the first), no poisoned frame is left,
 * buddy_check() and slab_check() find nothing, and no lock-order report or WARNING was
 * printed.  With one CPU online the same runs with a single worker.
 * The suite is KTEST_SUITE_SMP: its workers go to every CPU, not only CPU 0.
 */
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/ktest.h"
#include "tinymm/lockdep.h"
#include "tinymm/memory-failure.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/smp.h"
#include "tinymm/swap.h"
#include "tinymm/writeback.h"
#include "ktest_rand.h"

#define STRESS_ROUNDS	20000
#define STRESS_MAX_ORDER 3
#define KRING		8
#define STAMP		0x5eed0000UL

struct stress_worker {
	unsigned int index, next;	/* its slot; the worker it hands folios to */
	struct folio *mailbox;		/* a folio (one reference) handed to this worker */
	unsigned long folios, handoffs, kmallocs, failures;
	unsigned long bad_stamps, bad_bytes;
	unsigned int cpu_seen;		/* the CPU it ran on (checked against its pin) */
	bool moved;
};

static struct stress_worker workers[NR_CPUS];

static unsigned long stamp_of(const struct page *page)
{
	return STAMP ^ page_to_pfn(page);
}

static void stamp_folio(struct folio *folio)
{
	for (unsigned long i = 0; i < folio_nr_pages(folio); i++) {
		struct page *page = folio_page(folio, i);
		unsigned long *w = page_address(page);

		w[0] = stamp_of(page);
		w[PAGE_SIZE / sizeof(long) - 1] = ~stamp_of(page);
	}
}

static bool stamps_intact(struct folio *folio)
{
	for (unsigned long i = 0; i < folio_nr_pages(folio); i++) {
		struct page *page = folio_page(folio, i);
		const unsigned long *w = page_address(page);

		if (w[0] != stamp_of(page) || w[PAGE_SIZE / sizeof(long) - 1] != ~stamp_of(page))
			return false;
	}
	return true;
}

/* Take what was handed to @w (if anything), check it and drop that reference. */
static void receive(struct stress_worker *w)
{
	struct folio *got = xchg(&w->mailbox, NULL);

	if (!got)
		return;
	if (!stamps_intact(got))
		w->bad_stamps++;
	w->handoffs++;
	folio_put(got);
}

static bool object_intact(const unsigned char *p, size_t size, unsigned char fill)
{
	for (size_t i = 0; i < size; i++)
		if (p[i] != fill)
			return false;
	return true;
}

static int stress_worker_fn(void *arg)
{
	struct stress_worker *w = arg;
	struct { unsigned char *p; size_t size; unsigned char fill; } ring[KRING] = { { 0 } };
	unsigned long seed = 0x9e3779b9UL * (w->index + 1);

	w->cpu_seen = (unsigned int)raw_smp_processor_id();
	for (unsigned int i = 0; i < STRESS_ROUNDS; i++) {
		unsigned long r = ktest_xorshift(&seed);
		unsigned int order = (unsigned int)(r % (STRESS_MAX_ORDER + 1));
		struct folio *folio = folio_alloc(GFP_KERNEL, order);

		if (folio) {
			stamp_folio(folio);
			folio_get(folio);		/* the next worker's reference */
			struct folio *old = xchg(&workers[w->next].mailbox, folio);
			if (old) {			/* not taken yet: ours to check and drop */
				if (!stamps_intact(old))
					w->bad_stamps++;
				folio_put(old);
			}
			folio_put(folio);		/* ours: the receiver may free it */
			w->folios++;
		} else {
			w->failures++;
		}
		receive(w);

		unsigned int slot = i % KRING;
		if (ring[slot].p) {
			if (!object_intact(ring[slot].p, ring[slot].size, ring[slot].fill))
				w->bad_bytes++;
			kfree(ring[slot].p);
		}
		ring[slot].size = (size_t)8 << ((r >> 8) % 9);	/* 8 .. 2048 */
		ring[slot].fill = (unsigned char)(r >> 16);
		ring[slot].p = kmalloc(ring[slot].size, GFP_KERNEL);
		if (ring[slot].p) {
			memset(ring[slot].p, ring[slot].fill, ring[slot].size);
			w->kmallocs++;
		} else {
			w->failures++;
		}
		if ((unsigned int)raw_smp_processor_id() != w->cpu_seen)
			w->moved = true;
	}
	for (unsigned int slot = 0; slot < KRING; slot++) {
		if (!ring[slot].p)
			continue;
		if (!object_intact(ring[slot].p, ring[slot].size, ring[slot].fill))
			w->bad_bytes++;
		kfree(ring[slot].p);
	}
	return 0;
}

static void smp_stress_folios_and_kmalloc(struct ktest *t)
{
	struct task_struct *tasks[NR_CPUS] = { 0 };
	unsigned int cpus[NR_CPUS], n = 0, cpu;
	unsigned long reports = lockdep_nr_reports(), warnings = nr_warnings();

	memset(workers, 0, sizeof(workers));
	for_each_online_cpu(cpu)
		cpus[n++] = cpu;
	for (unsigned int i = 0; i < n; i++) {
		struct cpumask pin = { 1UL << cpus[i] };

		workers[i].index = i;
		workers[i].next = (i + 1) % n;
		tasks[i] = kthread_create(stress_worker_fn, &workers[i], "stress/%u", cpus[i]);
		KTEST_ASSERT_TRUE(t, tasks[i] != NULL);
		KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(tasks[i], &pin), 0);
	}
	for (unsigned int i = 0; i < n; i++)
		wake_up_process(tasks[i]);
	for (unsigned int i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, kthread_join(tasks[i]), 0);
	for (unsigned int i = 0; i < n; i++)	/* what the last round handed over */
		receive(&workers[i]);

	unsigned long folios = 0, handoffs = 0, kmallocs = 0;
	for (unsigned int i = 0; i < n; i++) {
		struct stress_worker *w = &workers[i];

		KTEST_EXPECT_EQ(t, w->bad_stamps, 0);
		KTEST_EXPECT_EQ(t, w->bad_bytes, 0);
		KTEST_EXPECT_EQ(t, w->failures, 0);
		KTEST_EXPECT_EQ(t, w->cpu_seen, cpus[i]);	/* pinned: it ran where it was put */
		KTEST_EXPECT_FALSE(t, w->moved);
		KTEST_EXPECT_TRUE(t, w->mailbox == NULL);
		folios += w->folios;
		handoffs += w->handoffs;
		kmallocs += w->kmallocs;
	}
	KTEST_EXPECT_EQ(t, folios, (unsigned long)n * STRESS_ROUNDS);
	KTEST_EXPECT_EQ(t, kmallocs, (unsigned long)n * STRESS_ROUNDS);
	KTEST_EXPECT_GT(t, handoffs, 0);
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, buddy_check(printk), 0);
	KTEST_EXPECT_EQ(t, slab_check(printk), 0);
	KTEST_EXPECT_EQ(t, lockdep_nr_reports(), reports);
	KTEST_EXPECT_EQ(t, nr_warnings(), warnings);
}

/* ---- page cache, reclaim and memory_failure() ---- */

#define SF_PER_WORKER	16
#define SF_PAGES	(SF_PER_WORKER * NR_CPUS)
#define SF_ROUNDS	256
#define SF_MAGIC	0x7a6b0000UL

static struct address_space sf_mapping;
static unsigned int sf_disk[SF_PAGES];		/* generation on the disk, per page */
static unsigned int sf_started[SF_PAGES];	/* the last generation a writer began */
static unsigned int sf_done[SF_PAGES];		/* the last generation a writer finished */
static atomic_long_t sf_disk_reads, sf_disk_writes;

struct sf_worker {
	unsigned int index, nr_pages;
	unsigned long reads, writes, bad_reads, bad_torn, read_errors, write_errors;
	unsigned long reclaimed, poisoned, bad_poison;
};
static struct sf_worker sf_workers[NR_CPUS];

static unsigned long sf_word(pgoff_t index, unsigned int gen)
{
	return SF_MAGIC ^ (index << 20) ^ gen;
}

static void sf_fill(struct folio *folio, unsigned int gen)
{
	unsigned long *w = page_address(&folio->page);

	for (unsigned int i = 0; i < PAGE_SIZE / sizeof(long); i++)
		w[i] = sf_word(folio->index, gen);
}

/* The generation a whole page holds, or -1 if it is not uniform or not of its index. */
static long sf_gen_of(struct folio *folio)
{
	const unsigned long *w = page_address(&folio->page);
	unsigned long gen = (w[0] ^ SF_MAGIC ^ (folio->index << 20));

	if (gen >= (1UL << 20))
		return -1;
	for (unsigned int i = 1; i < PAGE_SIZE / sizeof(long); i++)
		if (w[i] != w[0])
			return -1;
	return (long)gen;
}

static int sf_read_folio(struct address_space *m, struct folio *folio)
{
	(void)m;
	sf_fill(folio, READ_ONCE(sf_disk[folio->index]));
	atomic_long_inc(&sf_disk_reads);
	folio_mark_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static void sf_readahead(struct readahead_control *rac)
{
	struct folio *folio;

	while ((folio = readahead_folio(rac)))
		sf_read_folio(rac->mapping, folio);
}

/* Locked, dirty cleared: the page's generation to the disk, written back at once. */
static int sf_writepage(struct folio *folio, struct writeback_control *wbc)
{
	long gen = sf_gen_of(folio);

	(void)wbc;
	folio_start_writeback(folio);
	if (gen >= 0)
		WRITE_ONCE(sf_disk[folio->index], (unsigned int)gen);
	atomic_long_inc(&sf_disk_writes);
	folio_unlock(folio);
	folio_end_writeback(folio);
	return gen >= 0 ? 0 : -EIO;
}

static int sf_writepage_cb(struct folio *folio, struct writeback_control *wbc, void *data)
{
	(void)data;
	return sf_writepage(folio, wbc);
}

static int sf_writepages(struct address_space *m, struct writeback_control *wbc)
{
	return write_cache_pages(m, wbc, sf_writepage_cb, NULL);
}

static const struct address_space_operations sf_aops = {
	.read_folio = sf_read_folio,
	.readahead = sf_readahead,
	.writepages = sf_writepages,
	.writepage = sf_writepage,
};

static void sf_write(struct sf_worker *w, pgoff_t index)
{
	unsigned int gen = READ_ONCE(sf_started[index]) + 1;	/* only this worker writes it */
	struct folio *folio;

	WRITE_ONCE(sf_started[index], gen);
	smp_mb();		/* started before any byte of it can be seen */
	folio = __filemap_get_folio(&sf_mapping, index, FGP_CREAT | FGP_LOCK, GFP_KERNEL);
	if (IS_ERR(folio)) {
		w->write_errors++;
		return;
	}
	sf_fill(folio, gen);
	folio_mark_uptodate(folio);
	folio_mark_dirty(folio);
	folio_unlock(folio);
	folio_put(folio);
	smp_mb();
	WRITE_ONCE(sf_done[index], gen);
	w->writes++;
}

static void sf_read(struct sf_worker *w, pgoff_t index)
{
	unsigned int done = READ_ONCE(sf_done[index]);
	struct folio *folio;
	long gen;

	smp_mb();
	folio = read_cache_folio(&sf_mapping, index);
	if (IS_ERR(folio)) {
		w->read_errors++;
		return;
	}
	folio_lock(folio);
	gen = sf_gen_of(folio);
	folio_unlock(folio);
	folio_put(folio);
	smp_mb();
	if (gen < 0)
		w->bad_torn++;
	else if ((unsigned long)gen < done || (unsigned long)gen > READ_ONCE(sf_started[index]))
		w->bad_reads++;
	w->reads++;
}

/* A frame of our own goes bad: left to us, set aside when freed, then unpoisoned. */
static void sf_poison(struct sf_worker *w)
{
	struct page *p = alloc_page(GFP_KERNEL);

	if (!p) {
		w->bad_poison++;
		kprintf("    # sfstress/%u: no page to poison\n", w->index);
		return;
	}
	unsigned long pfn = page_to_pfn(p);
	int mf = memory_failure(pfn, MF_SW_SIMULATED);
	if (mf != -EBUSY || !PageHWPoison(p)) {
		w->bad_poison++;
		kprintf("    # sfstress/%u: memory_failure(%#lx) = %d, HWPoison %d\n", w->index, pfn,
			mf, PageHWPoison(p));
	}
	__free_page(p);
	if (!PageHWPoisonTakenOff(p) || page_ref_count(p) != 0) {
		w->bad_poison++;
		kprintf("    # sfstress/%u: %#lx freed: taken off %d, refcount %d\n", w->index, pfn,
			PageHWPoisonTakenOff(p), page_ref_count(p));
	}
	/* 0 means the mark is gone and the frame is back in the allocator: PageHWPoison() is
	 * not asked after it, another worker may already have allocated and poisoned it. */
	int up = unpoison_memory(pfn);
	if (up != 0) {
		w->bad_poison++;
		kprintf("    # sfstress/%u: unpoison_memory(%#lx) = %d\n", w->index, pfn, up);
	}
	w->poisoned++;
}

static int sf_worker_fn(void *arg)
{
	struct sf_worker *w = arg;
	pgoff_t first = (pgoff_t)w->index * SF_PER_WORKER;
	unsigned long seed = 0x2545f491UL * (w->index + 1);

	for (unsigned int i = 0; i < SF_ROUNDS; i++) {
		unsigned long r = ktest_xorshift(&seed);

		sf_write(w, first + i % SF_PER_WORKER);
		sf_read(w, (pgoff_t)(r % w->nr_pages));
		sf_read(w, (pgoff_t)((r >> 16) % w->nr_pages));
		if (i % 8 == 7)
			filemap_fdatawrite_range(&sf_mapping, (loff_t)first << PAGE_SHIFT,
						 ((loff_t)(first + SF_PER_WORKER) << PAGE_SHIFT) - 1);
		if (i % 32 == 31) {
			lru_add_drain();
			w->reclaimed += try_to_free_pages(GFP_KERNEL, 0);
		}
		if (i % 32 == 15)
			sf_poison(w);
	}
	lru_add_drain();
	return 0;
}

static void smp_stress_pagecache_reclaim_hwpoison(struct ktest *t)
{
	struct task_struct *tasks[NR_CPUS] = { 0 };
	unsigned int cpus[NR_CPUS], n = 0, cpu;
	unsigned long reports = lockdep_nr_reports(), warnings = nr_warnings();
	struct memory_failure_stats st0, st1;

	for_each_online_cpu(cpu)
		cpus[n++] = cpu;
	memset(sf_workers, 0, sizeof(sf_workers));
	memset(sf_disk, 0, sizeof(sf_disk));
	memset(sf_started, 0, sizeof(sf_started));
	memset(sf_done, 0, sizeof(sf_done));
	atomic_long_set(&sf_disk_reads, 0);
	atomic_long_set(&sf_disk_writes, 0);
	lru_add_drain();
	address_space_init(&sf_mapping, &sf_aops, (loff_t)n * SF_PER_WORKER * PAGE_SIZE);
	memory_failure_get_stats(&st0);
	long corrupted = atomic_long_read(&num_poisoned_pages);
	for (unsigned int i = 0; i < n; i++) {
		struct cpumask pin = { 1UL << cpus[i] };

		sf_workers[i].index = i;
		sf_workers[i].nr_pages = n * SF_PER_WORKER;
		tasks[i] = kthread_create(sf_worker_fn, &sf_workers[i], "sfstress/%u", cpus[i]);
		KTEST_ASSERT_TRUE(t, tasks[i] != NULL);
		KTEST_EXPECT_EQ(t, set_cpus_allowed_ptr(tasks[i], &pin), 0);
	}
	for (unsigned int i = 0; i < n; i++)
		wake_up_process(tasks[i]);
	for (unsigned int i = 0; i < n; i++)
		KTEST_EXPECT_EQ(t, kthread_join(tasks[i]), 0);

	unsigned long reads = 0, writes = 0, reclaimed = 0, poisoned = 0;
	for (unsigned int i = 0; i < n; i++) {
		struct sf_worker *w = &sf_workers[i];

		KTEST_EXPECT_EQ(t, w->bad_torn, 0);
		KTEST_EXPECT_EQ(t, w->bad_reads, 0);
		KTEST_EXPECT_EQ(t, w->read_errors, 0);
		KTEST_EXPECT_EQ(t, w->write_errors, 0);
		KTEST_EXPECT_EQ(t, w->bad_poison, 0);
		reads += w->reads;
		writes += w->writes;
		reclaimed += w->reclaimed;
		poisoned += w->poisoned;
	}
	KTEST_EXPECT_EQ(t, writes, (unsigned long)n * SF_ROUNDS);
	KTEST_EXPECT_EQ(t, reads, 2UL * n * SF_ROUNDS);
	KTEST_EXPECT_EQ(t, poisoned, (unsigned long)n * (SF_ROUNDS / 32));
	KTEST_EXPECT_GT(t, reclaimed, 0);
	/* Reclaim evicted written-back folios, read again from the disk (never read at first:
	 * every page was written before anyone could read it, or read as generation 0). */
	KTEST_EXPECT_GT(t, atomic_long_read(&sf_disk_reads), 0);
	KTEST_EXPECT_GT(t, atomic_long_read(&sf_disk_writes), 0);
	memory_failure_get_stats(&st1);
	KTEST_EXPECT_EQ(t, st1.total - st0.total, poisoned);
	KTEST_EXPECT_EQ(t, atomic_long_read(&num_poisoned_pages), corrupted);	/* all given back */

	/* The file: exactly the last generation of every page, in the cache and on the disk. */
	unsigned int bad_final = 0, bad_disk = 0;
	for (pgoff_t i = 0; i < (pgoff_t)n * SF_PER_WORKER; i++) {
		struct folio *folio = read_cache_folio(&sf_mapping, i);

		if (IS_ERR(folio)) {
			bad_final++;
			continue;
		}
		if (sf_gen_of(folio) != (long)sf_started[i] || sf_started[i] != sf_done[i])
			bad_final++;
		folio_put(folio);
	}
	KTEST_EXPECT_EQ(t, filemap_write_and_wait_range(&sf_mapping, 0,
							(loff_t)n * SF_PER_WORKER * PAGE_SIZE - 1), 0);
	for (pgoff_t i = 0; i < (pgoff_t)n * SF_PER_WORKER; i++)
		bad_disk += sf_disk[i] != sf_started[i];
	KTEST_EXPECT_EQ(t, bad_final, 0);
	KTEST_EXPECT_EQ(t, bad_disk, 0);
	truncate_inode_pages(&sf_mapping, 0);
	inode_io_list_del(&sf_mapping);
	KTEST_EXPECT_EQ(t, sf_mapping.nrpages, 0UL);

	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, buddy_check(printk), 0);
	KTEST_EXPECT_EQ(t, slab_check(printk), 0);
	KTEST_EXPECT_EQ(t, lru_check(printk), 0);
	KTEST_EXPECT_EQ(t, lockdep_nr_reports(), reports);
	KTEST_EXPECT_EQ(t, nr_warnings(), warnings);
}

static const struct ktest_case smp_stress_cases[] = {
	KTEST_CASE(smp_stress_folios_and_kmalloc),
	KTEST_CASE(smp_stress_pagecache_reclaim_hwpoison),
	{}
};
KTEST_SUITE_SMP(smp_stress, smp_stress_cases);
