/*
 * smp_mm_test.c - mm's per-CPU state under real concurrency, before SMP boots: the portable
 * kernel built for 4 CPUs (host_kernel_smp, CONFIG_NR_CPUS=4), each pthread playing one CPU
 * (host_cpu_id and the simulated interrupt mask are per thread), under ASan and UBSan.
 *
 * - pcp_race: three CPUs allocate and free blocks of orders 0-3 (half of them freed by another
 *   CPU, through a shared pool), each block stamped with its owner and checked before its free
 *   (a block handed out twice is caught); the fourth drains every CPU's lists from afar, decays
 *   them, flips ZONE_BELOW_HIGH and walks the lists, the operations that take other CPUs'
 *   pcp->lock.  Then every frame is back, buddycheck is clean and the lock-order checker
 *   reported nothing.
 * - slab_race: the same with kmalloc/kfree of mixed sizes (debugging off: the fast paths), frees
 *   on other CPUs landing in partial slabs and in other CPUs' active slabs (slab_lock), while
 *   the fourth CPU runs slabcheck and shrinks the caches.  Then every CPU's cache is flushed (on
 *   the host a cross-CPU call reaches only the caller: each thread flushes its own), slabcheck
 *   is clean and the slabs' frames are all back.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "test.h"
#include "tinymm/cmdline.h"
#include "tinymm/lockdep.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/slab.h"
#include "../../mm/internal.h"
#include "../../mm/slab.h"
#include "fake_ram.h"

_Static_assert(NR_CPUS == 4, "built with CONFIG_NR_CPUS=4 (cmake/host.cmake)");

#define RAM_SIZE	(32 * SZ_1M)
#define WORKERS		3
#define ROUNDS		200000
#define POOL		256

static char *ram;
static atomic_t stop;

/* Blocks (or objects) handed from one CPU to another to free. */
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static void *pool[POOL];
static unsigned int pool_order[POOL];
static int pool_n;

/* false: the pool is full, the caller frees @p itself. */
static bool pool_put(void *p, unsigned int order)
{
	bool put = false;

	pthread_mutex_lock(&pool_lock);
	if (pool_n < POOL) {
		pool[pool_n] = p;
		pool_order[pool_n++] = order;
		put = true;
	}
	pthread_mutex_unlock(&pool_lock);
	return put;
}

static void *pool_get(unsigned int *order)
{
	void *p = NULL;

	pthread_mutex_lock(&pool_lock);
	if (pool_n) {
		p = pool[--pool_n];
		*order = pool_order[pool_n];
	}
	pthread_mutex_unlock(&pool_lock);
	return p;
}

static void boot(void)
{
	char line[128];
	struct boot_args args;

	assert_int_equal(fake_ram_one_bank(__pa(ram), RAM_SIZE), 0);
	fake_ram_reserve_kernel(__pa(ram));
	slub_debug = 0;		/* the fast paths, not the debug caches' locked ones */
	snprintf(line, sizeof(line), "tinymm.check_pages=1");
	cmdline_parse(line, &args, __kparams_start, __kparams_end, no_warning);
	assert_int_equal(memmap_init(), 0);
	assert_int_equal(page_alloc_init(), 0);
	kmem_cache_init();
	pool_n = 0;
	atomic_set(&stop, 0);
}

static int setup(void **state)
{
	ram = fake_ram_alloc(RAM_SIZE);
	return ram ? 0 : -1;
}

static int teardown(void **state)
{
	free(ram);
	return 0;
}

static unsigned int rnd(unsigned int *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

/* ---- pcp ---- */

struct held {
	struct page *page;
	unsigned int order;
};

/* The stamp: the owning CPU and a sequence number in every frame's first word. */
static void stamp(struct page *page, unsigned int order, unsigned long v)
{
	for (unsigned int i = 0; i < (1U << order); i++)
		*(unsigned long *)page_address(page + i) = v;
}

static bool stamp_ok(struct page *page, unsigned int order, unsigned long v)
{
	for (unsigned int i = 0; i < (1U << order); i++)
		if (*(unsigned long *)page_address(page + i) != v)
			return false;
	return true;
}

static atomic_t bad_stamps;

static void *pcp_worker(void *arg)
{
	int cpu = (int)(intptr_t)arg;
	unsigned int seed = (unsigned int)cpu * 7919u + 1;
	struct held held[64] = { 0 };

	host_cpu_id = cpu;
	for (int r = 0; r < ROUNDS; r++) {
		unsigned int i = rnd(&seed) % 64, order;
		if (held[i].page) {
			struct page *page = held[i].page;
			unsigned long v = ((unsigned long)cpu << 24) | i;
			if (!stamp_ok(page, held[i].order, v))
				atomic_inc(&bad_stamps);
			stamp(page, held[i].order, 0);
			if ((rnd(&seed) & 1) || !pool_put(page, held[i].order))
				__free_pages(page, held[i].order);	/* on this CPU, else another's */
			held[i].page = NULL;
		} else {
			order = rnd(&seed) % 8 < 5 ? 0 : 1 + rnd(&seed) % 3;
			struct page *page = alloc_pages(GFP_KERNEL | (rnd(&seed) & 1 ? __GFP_MOVABLE : 0),
							order);
			if (page) {
				stamp(page, order, ((unsigned long)cpu << 24) | i);
				held[i] = (struct held){ page, order };
			}
		}
		struct page *other = pool_get(&order);
		if (other)
			__free_pages(other, order);
	}
	for (unsigned int i = 0; i < 64; i++)
		if (held[i].page)
			__free_pages(held[i].page, held[i].order);
	return NULL;
}

/* CPU 3: everything that reaches into the other CPUs' lists. */
static void *pcp_remote(void *arg)
{
	host_cpu_id = NR_CPUS - 1;
	for (unsigned int n = 0; !atomic_read(&stop); n++) {
		drain_all_pages(NULL);
		decay_pcp_high_all();
		zone_set_flag(preferred_zone, ZONE_BELOW_HIGH, n & 1);
		(void)pcp_holds_part_of(preferred_zone, pfn_to_page(preferred_zone->zone_start_pfn), 3);
		if (n % 16 == 0)
			(void)buddy_check(NULL);	/* each CPU's lists under its lock */
	}
	zone_set_flag(preferred_zone, ZONE_BELOW_HIGH, false);
	return NULL;
}

static void run_race(void *(*worker)(void *), void *(*remote)(void *))
{
	pthread_t t[WORKERS], r;

	for (int i = 0; i < WORKERS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i), 0);
	assert_int_equal(pthread_create(&r, NULL, remote, NULL), 0);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	atomic_set(&stop, 1);
	pthread_join(r, NULL);
}

static void pcp_race(void **state)
{
	unsigned long lockdep_before = lockdep_nr_reports();

	boot();
	unsigned long free_before = nr_free_pages_and_pcp();
	atomic_set(&bad_stamps, 0);
	run_race(pcp_worker, pcp_remote);
	unsigned int order;
	for (struct page *p; (p = pool_get(&order));)
		__free_pages(p, order);
	assert_int_equal(atomic_read(&bad_stamps), 0);
	drain_all_pages(NULL);
	assert_int_equal(nr_free_pages_and_pcp(), free_before);
	assert_int_equal(nr_free_pages_and_pcp(), nr_free_pages());	/* every list empty */
	assert_int_equal(buddy_check(NULL), 0);
	assert_int_equal(lockdep_nr_reports(), lockdep_before);
}

/* ---- slab ---- */

/* Each CPU's active slabs back (the host's cross-CPU call reaches only the caller). */
static void flush_all_caches_here(void);

static const size_t sizes[] = { 8, 24, 64, 100, 192, 512, 1024, 3000 };

static void *slab_worker(void *arg)
{
	int cpu = (int)(intptr_t)arg;
	unsigned int seed = (unsigned int)cpu * 104729u + 3;
	struct { unsigned char *p; size_t n; } held[64] = { 0 };

	host_cpu_id = cpu;
	for (int r = 0; r < ROUNDS; r++) {
		unsigned int i = rnd(&seed) % 64, dummy;
		if (held[i].p) {
			for (size_t k = 0; k < held[i].n; k++)
				if (held[i].p[k] != (unsigned char)(cpu * 64 + i))
					atomic_inc(&bad_stamps);
			if ((rnd(&seed) & 1) || !pool_put(held[i].p, 0))
				kfree(held[i].p);
			held[i].p = NULL;
		} else {
			size_t n = sizes[rnd(&seed) % ARRAY_SIZE(sizes)];
			unsigned char *p = kmalloc(n, GFP_KERNEL);
			if (p) {
				memset(p, cpu * 64 + (int)i, n);
				held[i].p = p;
				held[i].n = n;
			}
		}
		void *other = pool_get(&dummy);
		if (other)
			kfree(other);
	}
	for (unsigned int i = 0; i < 64; i++)
		kfree(held[i].p);
	flush_all_caches_here();
	return NULL;
}

/* slabcheck's reports while the others run: every one but the frames total, which compares
 * one snapshot per cache with a global count and so is exact only when nobody allocates. */
static int racing_check_report(const char *fmt, ...)
{
	if (!strstr(fmt, "accounted")) {
		atomic_add(1000, &bad_stamps);
		va_list ap;
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	return 0;
}

static void *slab_remote(void *arg)
{
	host_cpu_id = NR_CPUS - 1;
	while (!atomic_read(&stop)) {
		(void)slab_check(racing_check_report);
		for (struct kmem_cache *s = slab_caches; s; s = s->next)
			kmem_cache_shrink(s);
	}
	flush_all_caches_here();
	return NULL;
}

static void flush_all_caches_here(void)
{
	for (struct kmem_cache *s = slab_caches; s; s = s->next)
		flush_cpu_slab(s);
}

static void slab_race(void **state)
{
	unsigned long lockdep_before = lockdep_nr_reports();

	boot();
	atomic_set(&bad_stamps, 0);
	run_race(slab_worker, slab_remote);
	unsigned int dummy;
	for (void *p; (p = pool_get(&dummy));)
		kfree(p);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {	/* the pool's frees landed on CPU 0 */
		host_cpu_id = cpu;
		flush_all_caches_here();
	}
	host_cpu_id = 0;
	assert_int_equal(atomic_read(&bad_stamps), 0);
	assert_int_equal(slab_check(NULL), 0);
	for (struct kmem_cache *s = slab_caches; s; s = s->next)
		assert_int_equal(slab_free_objects(s), s->total_objects);	/* nothing allocated */
	assert_int_equal(buddy_check(NULL), 0);
	assert_int_equal(lockdep_nr_reports(), lockdep_before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pcp_race),
		cmocka_unit_test(slab_race),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
