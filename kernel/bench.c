/*
 * bench.c - `make bench`'s in-kernel runner: the shell command `bench` (so it runs only when
 * asked, `tinymm.run=bench`, under QEMU -icount).  It counts the instructions of single
 * alloc_pages() / __free_pages() and kmalloc() / kfree() calls as linked in this image, reading
 * arch_instret() just before and just after each call; the cost of an empty interval (the
 * smallest of 1000) is subtracted.  tools/bench boots it and collects the rows;
 * docs/benchmarks.md has the tables.
 *
 * The state before measuring (issue 13): 2000 allocations of orders 0-3 drawn from a fixed-seed
 * PRNG (xorshift32), a random half of them freed.  Then 1000 measured calls of each kind:
 *   order0-alloc, order0-free   alloc_pages(GFP_KERNEL, 0) / __free_pages(page, 0), the frees in
 *                               a shuffled order
 *   order0-alloc-refill         an order-0 allocation right after drain_all_pages(): the per-CPU
 *                               list is empty and is refilled from the buddy lists (with no
 *                               per-CPU lists every allocation takes that slow path)
 *   order3-alloc, order3-free   the same with order 3
 *   order10-split               an order-0 allocation while every free block is order 10 (the
 *                               smaller ones are isolated meanwhile, one unmeasured round first)
 *   order10-merge               a free whose block merges all the way up to order 10: order 0;
 *                               with per-CPU lists the smallest order they do not hold (they
 *                               keep a small block away from its buddy)
 * then init-per-frame (boot/main.c's count of memmap_init() + page_alloc_init() over the frames
 * with a struct page), struct-page (bytes) and memmap-overhead (bytes of memmap per MiB of RAM).
 *
 * The slab allocator's rows (kmalloc / kfree as linked, kmalloc caches without slab debugging:
 * the bench fails if one of them has it, e.g. under tinymm.slub_debug), after the page
 * allocator's scenario is over, every kmalloc cache shrunk first.  The state: 4000 kmallocs of
 * sizes 16-1024 (uniform, the same xorshift32), a random half of them kfree'd.  Then 1000
 * measured calls of each kind, in this order:
 *   kmalloc-mixed-alloc         kmalloc(size, GFP_KERNEL), sizes 16-1024 drawn beforehand
 *   kmalloc-mixed-overhead-permille   (not timed) bytes of the slab frames gained since the
 *                               shrink, minus the bytes asked for by the live objects (the 2000
 *                               survivors and the 1000 above), per 1000 bytes asked for
 *   kmalloc-mixed-free          kfree() of those 1000, in a shuffled order
 *   kmalloc-64-alloc, kmalloc-64-free     kmalloc(64, GFP_KERNEL) / kfree, shuffled
 *   kmalloc-512-alloc, kmalloc-512-free   the same with 512 bytes
 * then the survivors are kfree'd and the caches shrunk: the slab frames must all come back.
 * Row: `bench <board> <operation> <min> <median> <max> <unit>`, tab-separated; the operations
 * get "-nocheck" with tinymm.check_pages=0.  Median: the lower one (sample 500 of 1000).
 *
 * The same scenario runs on the host under callgrind: tests/bench/host_bench.c includes this file
 * with TINYMM_BENCH_CALLGRIND, where each call is bracketed by callgrind's collection toggles and
 * dumped under its operation's name; tools/bench turns the dumps into rows.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/cache.h"
#include "tinymm/bench.h"
#include "tinymm/gfp.h"
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "../mm/internal.h"	/* the zones' free lists: to leave only order-10 blocks free */
#include "../mm/slab.h"		/* slab_caches and their flags: no debugging, shrink them all */

#ifdef TINYMM_BENCH_CALLGRIND
#include <stdio.h>
#include <valgrind/callgrind.h>
#define BENCH_BOARD	"host"
#define bench_printf	printf
/* One callgrind dump per call, named by the operation (@slot is the kernel's). */
#define BENCH(slot, op, stmt) do {						\
		CALLGRIND_TOGGLE_COLLECT;					\
		stmt;								\
		CALLGRIND_TOGGLE_COLLECT;					\
		CALLGRIND_DUMP_STATS_AT(bench_op_name[op]);			\
	} while (0)
#else
#include "tinymm/board_config.h"
#define BENCH_BOARD	BOARD_NAME
#define bench_printf	kprintf
#define BENCH(slot, op, stmt) do {						\
		uint64_t t0_ = arch_instret();					\
		stmt;								\
		uint64_t t1_ = arch_instret();					\
		(slot) = (uint32_t)(t1_ - t0_);					\
	} while (0)
#endif

/* Per-CPU page lists (mm/pcp.c) take frees of orders below NR_PCP_ORDERS. */
#ifdef NR_PCP_ORDERS
#define HAVE_PCP	1
#define MERGE_ORDER	NR_PCP_ORDERS
#define bench_drain()	drain_all_pages(NULL)
#else
#define HAVE_PCP	0
#define MERGE_ORDER	0
#define bench_drain()	do { } while (0)
#endif

#define NR_SAMPLES	1000
#define NR_FRAG		2000
#define NR_KFRAG	4000		/* kmallocs before the slab rows, a random half kfree'd */
#define KMIX_MIN	16		/* the mixed sizes: uniform in [KMIX_MIN, KMIX_MAX] */
#define KMIX_MAX	1024
#define BENCH_SEED	0x2545f491u

uint64_t bench_init_instret __ro_after_init;	/* boot/main.c, once */

enum bench_op {
	OP_ORDER0_ALLOC, OP_ORDER0_FREE, OP_ORDER0_REFILL, OP_ORDER3_ALLOC, OP_ORDER3_FREE,
	OP_SPLIT, OP_MERGE, OP_KMIX_ALLOC, OP_KMIX_FREE, OP_K64_ALLOC, OP_K64_FREE, OP_K512_ALLOC,
	OP_K512_FREE, OP_EMPTY, NR_BENCH_OPS
};
static const char *const bench_op_name[NR_BENCH_OPS] = {
	"order0-alloc", "order0-free", "order0-alloc-refill", "order3-alloc", "order3-free",
	"order10-split", "order10-merge", "kmalloc-mixed-alloc", "kmalloc-mixed-free",
	"kmalloc-64-alloc", "kmalloc-64-free", "kmalloc-512-alloc", "kmalloc-512-free", "empty",
};

/* Scratch, from the page allocator before the state is made (no bss in normal boots). */
struct bench {
	struct page **pages;		/* NR_SAMPLES measured blocks */
	struct page **frag;		/* NR_FRAG pre-fragmenting blocks, NULL once freed */
	uint32_t *samples[2];		/* NR_SAMPLES each: split and merge are measured in turns */
	void **objs;			/* NR_SAMPLES measured kmalloc objects, NULL once freed */
	void **kfrag;			/* NR_KFRAG pre-fragmenting objects, NULL once freed */
	uint16_t *obj_size;		/* NR_SAMPLES: the sizes asked for the measured ones */
	uint16_t *kfrag_size;		/* NR_KFRAG */
	uint16_t *perm;			/* NR_KFRAG (>= NR_FRAG) */
	uint8_t *frag_order;		/* NR_FRAG */
	uint32_t overhead;		/* the empty interval */
	uint32_t rng;
	unsigned long slab_frames;	/* held by all caches once shrunk, before the slab rows */
};
#define BENCH_SCRATCH	(NR_SAMPLES * sizeof(struct page *) + NR_FRAG * sizeof(struct page *) + \
			 2 * NR_SAMPLES * sizeof(uint32_t) + \
			 (NR_SAMPLES + NR_KFRAG) * (sizeof(void *) + sizeof(uint16_t)) + \
			 NR_KFRAG * sizeof(uint16_t) + NR_FRAG)
_Static_assert(NR_KFRAG >= NR_FRAG && NR_KFRAG <= 65536, "perm is NR_KFRAG uint16_t");

/* Free blocks below MAX_PAGE_ORDER, off the free lists while order10-split runs. */
static struct page_list bench_held[MAX_NR_ZONES][MAX_PAGE_ORDER];

static uint32_t bench_rand(struct bench *b)
{
	uint32_t x = b->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return b->rng = x;
}

/* perm[0..n) = a random permutation of 0..n-1 (Fisher-Yates). */
static void bench_permute(struct bench *b, int n)
{
	for (int i = 0; i < n; i++)
		b->perm[i] = (uint16_t)i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(bench_rand(b) % (uint32_t)(i + 1));
		uint16_t t = b->perm[i];
		b->perm[i] = b->perm[j];
		b->perm[j] = t;
	}
}

static void bench_row(const char *op, unsigned long lo, unsigned long med, unsigned long hi,
		      const char *unit)
{
	bench_printf("bench\t%s\t%s%s\t%lu\t%lu\t%lu\t%s\n", BENCH_BOARD, op,
		     page_checks ? "" : "-nocheck", lo, med, hi, unit);
}

#ifdef TINYMM_BENCH_CALLGRIND
static void bench_report(struct bench *b, enum bench_op op, uint32_t *s) { }
#else
static void sort_u32(uint32_t *v, int n)
{
	static const int gaps[] = { 701, 301, 132, 57, 23, 10, 4, 1 };	/* Ciura's shell sort */

	for (unsigned g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++)
		for (int i = gaps[g]; i < n; i++) {
			uint32_t x = v[i];
			int j = i;
			for (; j >= gaps[g] && v[j - gaps[g]] > x; j -= gaps[g])
				v[j] = v[j - gaps[g]];
			v[j] = x;
		}
}

void bench_summary(const char *op, uint32_t *s, int n, uint32_t overhead)
{
	for (int i = 0; i < n; i++)
		s[i] = s[i] > overhead ? s[i] - overhead : 0;
	sort_u32(s, n);
	bench_row(op, s[0], s[(n - 1) / 2], s[n - 1], "instructions");
}

static void bench_report(struct bench *b, enum bench_op op, uint32_t *s)
{
	bench_summary(bench_op_name[op], s, NR_SAMPLES, b->overhead);
}
#endif

static int bench_fail(const char *what, const char *detail)
{
	bench_printf("bench: %s%s\n", what, detail);
	return 1;
}

/* The cost of reading the counter twice with nothing between. */
static int bench_calibrate(struct bench *b)
{
	uint32_t *s = b->samples[0];

	for (int i = 0; i < NR_SAMPLES; i++)
		BENCH(s[i], OP_EMPTY, (void)0);
	b->overhead = ~0u;
	for (int i = 0; i < NR_SAMPLES; i++)
		b->overhead = min(b->overhead, s[i]);
#ifndef TINYMM_BENCH_CALLGRIND
	if (!b->overhead)
		return bench_fail("the instruction counter does not count (QEMU needs -icount)", "");
#endif
	return 0;
}

static int measure_alloc(struct bench *b, enum bench_op op, unsigned int order, bool drain)
{
	uint32_t *s = b->samples[0];
	struct page *page;

	for (int i = 0; i < NR_SAMPLES; i++) {
		if (drain)
			bench_drain();
		BENCH(s[i], op, page = alloc_pages(GFP_KERNEL, order));
		if (!page)
			return bench_fail("allocation failed in ", bench_op_name[op]);
		b->pages[i] = page;
	}
	bench_report(b, op, s);
	return 0;
}

static void measure_free(struct bench *b, enum bench_op op, unsigned int order)
{
	uint32_t *s = b->samples[0];

	bench_permute(b, NR_SAMPLES);
	for (int i = 0; i < NR_SAMPLES; i++) {
		/* The page is picked before the first counter read: the compiler otherwise schedules
		 * the permutation's loads inside the measured interval. */
		struct page *page = b->pages[b->perm[i]];
		__asm__ __volatile__("" : "+r"(page));
		/* A literal 0, as the kernel's order-0 frees are written (page_alloc.h). */
		if (order == 0)
			BENCH(s[i], op, __free_pages(page, 0));
		else
			BENCH(s[i], op, __free_pages(page, order));
	}
	bench_report(b, op, s);
}

/* Take every free block below MAX_PAGE_ORDER off the free lists (@hold), or put them back. */
static void bench_hold_small_blocks(bool hold)
{
	for (int zi = 0; zi < MAX_NR_ZONES; zi++) {
		struct zone *z = &zones[zi];
		unsigned long flags;
		struct page *page;
		if (!z->managed_pages)
			continue;
		spin_lock_irqsave(&z->lock, flags);
		for (unsigned int o = 0; o < MAX_PAGE_ORDER; o++) {
			struct page_list *held = &bench_held[zi][o];
			if (!hold) {
				while ((page = page_list_first(held))) {
					page_list_del(held, page);
					__putback_isolated_page(page, o, false);
				}
				continue;
			}
			page_list_init(held);
			for (int mt = 0; mt < MIGRATE_TYPES; mt++)
				while ((page = page_list_first(&z->free_area[o].free_list[mt]))) {
					__isolate_free_page(page, o);
					page_list_add(held, page);
				}
		}
		spin_unlock_irqrestore(&z->lock, flags);
	}
}

static bool only_max_order_free(void)
{
	for (int zi = 0; zi < MAX_NR_ZONES; zi++)
		for (unsigned int o = 0; o < MAX_PAGE_ORDER; o++)
			if (zones[zi].free_area[o].nr_free)
				return false;
	return true;
}

/* One split and one merge: the order-0 allocation splits an order-10 block; the free merges back. */
static int split_merge_round(struct bench *b, int i, bool measure)
{
	struct page *page;

	if (measure)
		BENCH(b->samples[0][i], OP_SPLIT, page = alloc_pages(GFP_KERNEL, 0));
	else
		page = alloc_pages(GFP_KERNEL, 0);
	if (!page)
		return bench_fail("allocation failed in ", bench_op_name[OP_SPLIT]);
	if (HAVE_PCP) {
		/* The order-0 frame and the rest of the refill batch back; merge test above pcp. */
		__free_pages(page, 0);
		bench_drain();
		page = alloc_pages(GFP_KERNEL, MERGE_ORDER);
		if (!page)
			return bench_fail("allocation failed in ", bench_op_name[OP_MERGE]);
	}
	if (measure)
		BENCH(b->samples[1][i], OP_MERGE, __free_pages(page, MERGE_ORDER));
	else
		__free_pages(page, MERGE_ORDER);
	return 0;
}

static int measure_split_merge(struct bench *b)
{
	int ret = 0;

	bench_drain();
	bench_hold_small_blocks(true);
	if (!only_max_order_free())
		ret = bench_fail("free blocks below order 10 remain after isolating them", "");
	/* Unmeasured first round: it may claim a MOVABLE pageblock for UNMOVABLE, once. */
	for (int i = -1; !ret && i < NR_SAMPLES; i++)
		ret = split_merge_round(b, i, i >= 0);
	if (!ret && !only_max_order_free())
		ret = bench_fail("the frees did not merge back to order 10", "");
	bench_hold_small_blocks(false);
	if (!ret) {
		bench_report(b, OP_SPLIT, b->samples[0]);
		bench_report(b, OP_MERGE, b->samples[1]);
	}
	return ret;
}

static int bench_scenario(struct bench *b)
{
	int i;

	if (bench_calibrate(b))
		return 1;
	/* The fragmented state. */
	for (i = 0; i < NR_FRAG; i++) {
		b->frag_order[i] = (uint8_t)(bench_rand(b) & 3);
		b->frag[i] = alloc_pages(GFP_KERNEL, b->frag_order[i]);
		if (!b->frag[i])
			return bench_fail("allocation failed in ", "the pre-fragmentation");
	}
	bench_permute(b, NR_FRAG);
	for (i = 0; i < NR_FRAG / 2; i++) {
		int j = b->perm[i];
		__free_pages(b->frag[j], b->frag_order[j]);
		b->frag[j] = NULL;
	}

	if (measure_alloc(b, OP_ORDER0_ALLOC, 0, false))
		return 1;
	measure_free(b, OP_ORDER0_FREE, 0);
	if (measure_alloc(b, OP_ORDER0_REFILL, 0, HAVE_PCP))
		return 1;
	for (i = 0; i < NR_SAMPLES; i++)
		__free_pages(b->pages[i], 0);
	if (measure_alloc(b, OP_ORDER3_ALLOC, 3, false))
		return 1;
	measure_free(b, OP_ORDER3_FREE, 3);
	return measure_split_merge(b);
}

/* ---- the slab allocator: kmalloc / kfree ---- */

/* Frames in slabs once every cache has given its empty slabs back (each keeps up to
 * min_partial of them otherwise).  The bench is the only user: no cache comes or goes
 * meanwhile. */
static unsigned long bench_slab_shrink(void)
{
	for (struct kmem_cache *s = slab_caches; s; s = s->next)
		kmem_cache_shrink(s);
	return slab_pages_reclaimable() + slab_pages_unreclaimable();
}

/* The rows are of the non-debug paths: refuse a debug cache (tinymm.slub_debug, a debug build). */
static int bench_kmalloc_check(void *obj, enum bench_op op)
{
	const struct slab *slab;

	if (!obj)
		return bench_fail("kmalloc failed in ", bench_op_name[op]);
	slab = virt_to_slab(obj);
	if (!slab)
		return bench_fail("kmalloc gave no slab object in ", bench_op_name[op]);
	if (kmem_cache_debug(slab->slab_cache))
		return bench_fail("slab debugging is on for ", slab->slab_cache->name);
	return 0;
}

static uint16_t bench_kmix_size(struct bench *b)
{
	return (uint16_t)(KMIX_MIN + bench_rand(b) % (KMIX_MAX - KMIX_MIN + 1));
}

/* kmalloc(obj_size[i], GFP_KERNEL) into objs[i]; the size is in a register before the interval. */
static int measure_kmalloc(struct bench *b, enum bench_op op)
{
	uint32_t *s = b->samples[0];

	for (int i = 0; i < NR_SAMPLES; i++) {
		size_t size = b->obj_size[i];
		void *obj;
		__asm__ __volatile__("" : "+r"(size));
		BENCH(s[i], op, obj = kmalloc(size, GFP_KERNEL));
		b->objs[i] = obj;
		if (bench_kmalloc_check(obj, op))
			return 1;
	}
	bench_report(b, op, s);
	return 0;
}

/* kfree() of objs[], in a shuffled order, the object picked before the interval (measure_free). */
static void measure_kfree(struct bench *b, enum bench_op op)
{
	uint32_t *s = b->samples[0];

	bench_permute(b, NR_SAMPLES);
	for (int i = 0; i < NR_SAMPLES; i++) {
		void *obj = b->objs[b->perm[i]];
		__asm__ __volatile__("" : "+r"(obj));
		BENCH(s[i], op, kfree(obj));
		b->objs[b->perm[i]] = NULL;
	}
	bench_report(b, op, s);
}

/*
 * kmalloc-mixed-overhead-permille: the slab frames gained since the shrink (every cache's, so
 * exactly the kmalloc caches this workload used), as bytes, minus the bytes asked for by the
 * live objects, per 1000 bytes asked for.  It counts the size-class rounding, the free slots of
 * the slabs (the holes left by the frees, the active slab's unused rest, the empty slabs a cache
 * keeps) and each slab's unusable tail.  No metadata beyond that exists without debugging: the
 * free pointer lives in the free object and struct slab is the slab's struct page, which the
 * memmap has anyway (memmap-overhead), so it is not counted.
 */
static void bench_kmix_overhead(struct bench *b)
{
	unsigned long long asked = 0, slot = 0, held;
	unsigned long objects = 0;

	for (int i = 0; i < NR_KFRAG; i++)
		if (b->kfrag[i]) {
			asked += b->kfrag_size[i];
			slot += ksize(b->kfrag[i]);
			objects++;
		}
	for (int i = 0; i < NR_SAMPLES; i++) {
		asked += b->obj_size[i];
		slot += ksize(b->objs[i]);
		objects++;
	}
	held = (unsigned long long)(slab_pages_reclaimable() + slab_pages_unreclaimable() -
				    b->slab_frames) * PAGE_SIZE;
	unsigned long permille = held > asked ?
				 (unsigned long)(((held - asked) * 1000 + asked / 2) / asked) : 0;
	bench_printf("bench: kmalloc-mixed: %lu objects, %lu bytes asked, %lu in their slots, "
		     "%lu in slabs (%lu frames)\n", objects, (unsigned long)asked, (unsigned long)slot,
		     (unsigned long)held, (unsigned long)(held / PAGE_SIZE));
	bench_row("kmalloc-mixed-overhead-permille", permille, permille, permille, "bytes");
}

/* The fragmented state, then the six measured kinds and the overhead. */
static int bench_slab(struct bench *b)
{
	int i;

	for (i = 0; i < NR_KFRAG; i++) {
		b->kfrag_size[i] = bench_kmix_size(b);
		b->kfrag[i] = kmalloc(b->kfrag_size[i], GFP_KERNEL);
		if (bench_kmalloc_check(b->kfrag[i], OP_KMIX_ALLOC))
			return 1;
	}
	bench_permute(b, NR_KFRAG);
	for (i = 0; i < NR_KFRAG / 2; i++) {
		int j = b->perm[i];
		kfree(b->kfrag[j]);
		b->kfrag[j] = NULL;
	}

	for (i = 0; i < NR_SAMPLES; i++)
		b->obj_size[i] = bench_kmix_size(b);
	if (measure_kmalloc(b, OP_KMIX_ALLOC))
		return 1;
	bench_kmix_overhead(b);
	measure_kfree(b, OP_KMIX_FREE);

	for (int k = 0; k < 2; k++) {
		enum bench_op op = k ? OP_K512_ALLOC : OP_K64_ALLOC;
		for (i = 0; i < NR_SAMPLES; i++)
			b->obj_size[i] = k ? 512 : 64;
		if (measure_kmalloc(b, op))
			return 1;
		measure_kfree(b, (enum bench_op)(op + 1));	/* its OP_K*_FREE */
	}
	return 0;
}

/* Run the scenario, give everything back, check the allocator is whole.  0 or 1. */
static int bench_all(void)
{
	struct bench b = { .rng = BENCH_SEED };
	char *mem = alloc_pages_exact(BENCH_SCRATCH, GFP_KERNEL);
	int ret;

	if (!mem)
		return bench_fail("no memory for the scratch arrays", "");
	memset(mem, 0, BENCH_SCRATCH);
	b.pages = (struct page **)mem;
	b.frag = b.pages + NR_SAMPLES;
	b.samples[0] = (uint32_t *)(b.frag + NR_FRAG);
	b.samples[1] = b.samples[0] + NR_SAMPLES;
	b.objs = (void **)(b.samples[1] + NR_SAMPLES);
	b.kfrag = b.objs + NR_SAMPLES;
	b.obj_size = (uint16_t *)(b.kfrag + NR_KFRAG);
	b.kfrag_size = b.obj_size + NR_SAMPLES;
	b.perm = b.kfrag_size + NR_KFRAG;
	b.frag_order = (uint8_t *)(b.perm + NR_KFRAG);
	if (!HAVE_PCP)
		bench_printf("bench: no per-CPU lists: order0-alloc-refill is the buddy path, "
			     "as every order-0 allocation\n");
	b.slab_frames = bench_slab_shrink();
	bench_drain();
	unsigned long free_before = nr_free_pages_and_pcp(), bad_before = nr_bad_pages;
	unsigned long slab_bugs_before = nr_slab_bugs;

	ret = bench_scenario(&b);
	for (int i = 0; i < NR_FRAG; i++)
		if (b.frag[i])
			__free_pages(b.frag[i], b.frag_order[i]);
	if (!ret)
		ret = bench_slab(&b);
	for (int i = 0; i < NR_SAMPLES; i++)
		kfree(b.objs[i]);
	for (int i = 0; i < NR_KFRAG; i++)
		kfree(b.kfrag[i]);
	if (bench_slab_shrink() != b.slab_frames && !ret)
		ret = bench_fail("slab frames still held after every object was freed", "");
	bench_drain();
	if (!ret && (nr_free_pages_and_pcp() != free_before || nr_bad_pages != bad_before))
		ret = bench_fail("frames lost or leaked as bad during the run", "");
	if (!ret && (nr_slab_bugs != slab_bugs_before || slab_check(printk)))
		ret = bench_fail("slab reports or slab_check failures during the run", "");
	free_pages_exact(mem, BENCH_SCRATCH);
	if (buddy_check(printk))
		ret = bench_fail("buddy_check failed after the run", "");
	return ret;
}

/* Frames with a struct page, and the bytes of their maps (whole pages, as memblock gave them). */
static unsigned long bench_memmap(unsigned long *bytes)
{
	unsigned long frames = 0;

	*bytes = 0;
	for (int i = 0; i < memmap_nr_banks(); i++) {
		unsigned long n = memmap_bank(i)->end_pfn - memmap_bank(i)->start_pfn;
		frames += n;
		*bytes += ALIGN(n * sizeof(struct page), PAGE_SIZE);
	}
	return frames;
}

static void bench_sizes(void)
{
	unsigned long bytes;
	unsigned long long ram = memblock_phys_mem_size();

	bench_memmap(&bytes);
	unsigned long per_mib = ram ? (unsigned long)(((unsigned long long)bytes << 20) / ram) : 0;
	bench_row("struct-page", sizeof(struct page), sizeof(struct page), sizeof(struct page), "bytes");
	bench_row("memmap-overhead", per_mib, per_mib, per_mib, "bytes");
}

#ifndef TINYMM_BENCH_CALLGRIND
static int cmd_bench(int argc, char **argv)
{
	unsigned long bytes, frames = bench_memmap(&bytes);

	if (argc >= 2 && !strcmp(argv[1], "pcp")) {
		if (argc == 2 || (argc == 3 && !strcmp(argv[2], "quick")))
			return bench_pcp(argc == 3);
		kprintf("bench: usage: bench [pcp [quick]|smp]\n");
		return 2;
	}
	if (argc == 2 && !strcmp(argv[1], "smp"))
		return bench_smp();
	if (shell_no_args(argc, argv))
		return 2;
	int ret = bench_all();
	if (!ret) {
		unsigned long per = frames ? (unsigned long)((bench_init_instret + frames / 2) / frames) : 0;
		bench_row("init-per-frame", per, per, per, "instructions");
		bench_sizes();
		ret = bench_core();
	}
	if (!ret)
		ret = bench_fs();
	if (!ret)
		ret = bench_fault();
	if (!ret && bench_fork)		/* weak: built where user tasks are (cmake/kernel.cmake) */
		ret = bench_fork();
	if (!ret && bench_swap)		/* weak: built where user tasks are (cmake/kernel.cmake) */
		ret = bench_swap();
	if (!ret && bench_migrate)	/* weak: built where user tasks are (cmake/kernel.cmake) */
		ret = bench_migrate();
	if (!ret && bench_user)		/* weak: built where the arch has its user program */
		ret = bench_user();
	if (!ret && bench_exec)		/* weak: built where user tasks are (cmake/kernel.cmake) */
		ret = bench_exec();
	if (!ret)			/* last: it takes all free memory for a while */
		ret = bench_compact();
	return ret;
}
SHELL_COMMAND(bench, "[pcp [quick]|smp]",
	      "make bench: instruction counts of the allocators and the kernel core; pcp: per pcp batch and scale (QEMU -icount); smp: order-0 pairs per second on 1 and 2 CPUs",
	      cmd_bench);
#endif
