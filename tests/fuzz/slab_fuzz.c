/*
 * slab_fuzz.c - libFuzzer target for the slab allocator (mm/slub.c, mm/slub_debug.c,
 * mm/slab_common.c): CTest fuzz.slab; long runs: README.md.
 *
 * Each input boots a fresh page allocator over a fake RAM like buddy_fuzz.c's (16 MiB,
 * 4 MiB-aligned, bank 0 [0, 6M), a hole, bank 1 [8M, 16M): kfree's fast lookup knows one bank
 * at a time), then kmem_cache_init().  Its first byte picks slab debugging (slub_debug: off,
 * all of F Z P, or Z, P, F alone), set before kmem_cache_init() so every cache of the run has
 * it, and whether [0, 4M) is ZONE_DMA; the rest, read round and round for at least
 * OPS_PER_INPUT operations, decodes to operations (op byte % 16):
 *   0-3   kmalloc(size, gfp): every class 1..2048 (class sizes and their neighbours often),
 *         0 (ZERO_SIZE_PTR), pages up to 16 KiB + 1, now and then past KMALLOC_MAX_SIZE (NULL)
 *   4     kzalloc(size, gfp): zero over the size asked
 *   5-7   kfree() of a live kmalloc object, of NULL or ZERO_SIZE_PTR (nothing happens), or a
 *         misuse that must be reported once and free nothing: kfree/kmem_cache_free inside an
 *         object, kmem_cache_free to another cache, a second free (with F), a free after a
 *         write just past either end (with Z: the red zone is restored, the object lives on)
 *   8, 9  krealloc() of a live object or NULL: to a new size, a little larger or smaller, or 0
 *   10    kmem_cache_alloc() from one of MAX_CACHES caches made by kmem_cache_create()
 *   11    kmem_cache_free() or kfree() of such an object
 *   12    kmem_cache_create() (sizes up to 8 KiB and now and then 64 KiB, alignments,
 *         HWCACHE_ALIGN, RECLAIM_ACCOUNT, CACHE_DMA, with or without a constructor; an
 *         alignment that is no power of two or an object larger than the largest slab must
 *         fail), or kmem_cache_destroy() of one: with objects left (reported, the cache
 *         stays), or after freeing them
 *   13    kmem_cache_shrink() of any cache: afterwards it keeps no empty slab, no active slab;
 *         or shrink_slab() at any priority: it frees what it says, at 0 every empty slab
 *   14    2 to 64 allocations of one size or from one cache (full and partial slabs)
 *   15    free everything, every other object or the newest few; the full check (below);
 *         drain the per-CPU page lists
 * A shadow map keeps every live object's address, the size asked, its ksize() and a fill byte;
 * the object's size asked holds a pattern made from that byte, and [size, ksize) is scribbled
 * on too (ksize() promises it).  A new object must lie in RAM, overlap no live one (ksize to
 * ksize), be aligned (a power-of-two kmalloc size n <= 2048: to n; other kmalloc sizes: 8;
 * large: a page; cache objects: the alignment asked, at least 8), have ksize() >= its size,
 * come from the right kmalloc class (from ZONE_DMA for __GFP_DMA), be zero for kzalloc and be
 * constructed for a cache with a constructor (which is given back constructed).  The pattern
 * is checked before each kfree/krealloc/kmem_cache_free, in the full check and at the end;
 * krealloc must keep min(old, new) bytes (and with __GFP_ZERO zero the rest, as v6.10).
 * After every operation: slab_check() finds nothing (and buddy_check(), every
 * BUDDY_CHECK_EVERY operations), no slab report (nr_slab_bugs) but the misuses' and no bad
 * page appeared, and free frames + slab frames + large kmalloc frames == managed frames.  The
 * full check, every FULL_CHECK_EVERY operations: every live object's pattern and ksize, every
 * cache's allocated objects == the shadow's count for it, and no cache keeps more than
 * min_partial empty slabs.
 * At the end everything is freed and every made cache destroyed; slab_check() (red zones
 * included, when on) must find nothing; after kmem_cache_shrink() of every cache and
 * drain_all_pages(NULL) no frame is in a slab, and every zone's free blocks are the boot's.
 * Any failure prints the check, slab_check's and buddy_check's complaints and the kernel log,
 * then aborts.
 *
 * This file holds the run, the shadow and the checks; the operations are in slab_fuzz_ops.c,
 * what both share in slab_fuzz.h.
 *
 * SLAB_FUZZ_BREAK=1 changes one byte of a live object, =2 (slab debugging forced on) one byte
 * of a red zone, at the end of every input: CTests fuzz.slab_corrupt_object_aborts and
 * fuzz.slab_red_zone_aborts require the abort.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/slab.h"
#include "tinymm/time.h"
#include "../../mm/slab.h"
#include "fake_ram.h"
#include "slab_fuzz.h"

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

static char *ram;
struct obj live[MAX_LIVE];
int nr_live;
struct cache caches[MAX_CACHES];
int ctor_slot = -1;		/* the cache being allocated from: the constructor's */
unsigned long large_frames, bugs0, op_index;
static unsigned long bad0, ops_this_input, boot_free;
static unsigned long boot_nr_free[MAX_NR_ZONES][NR_PAGE_ORDERS];
bool dma_zone;
unsigned char next_fill;
static unsigned long long total_ops, total_inputs;
static int break_mode;

void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "slab_fuzz: check failed at %s:%d, operation %lu of the input: %s\n",
		file, line, op_index, what);
	fprintf(stderr, "slub_debug %#x, %d live objects; slab_check and buddy_check say:\n",
		slub_debug, nr_live);
	slab_check(eprintf);
	buddy_check(eprintf);
	fprintf(stderr, "--- kernel log ---\n");
	log_buf_dump(log_out);
	abort();
}

static void report(void)
{
	fprintf(stderr, "slab_fuzz: %llu operations in %llu inputs\n", total_ops, total_inputs);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	break_mode = fuzz_break_mode("SLAB_FUZZ_BREAK");
	ram = fake_ram_alloc(RAM_SIZE);
	if (!ram)
		abort();
	time_init(1000000);
	console_loglevel = 0;		/* the log keeps everything for a failure report */
	atexit(report);
	return 0;
}

/* ---- the shadow ---- */

unsigned char pat(unsigned char fill, size_t i)
{
	return (unsigned char)(fill + i * 7 + (i >> 8));	/* a shifted copy does not match */
}

/* The constructed state: made from the address, so an object moved or swapped shows. */
unsigned char ctor_pat(const void *obj, size_t i)
{
	return (unsigned char)(((uintptr_t)obj >> 3) * 13 + i * 5 + 0x5a);
}

void ctor(void *obj)
{
	CHECK(ctor_slot >= 0 && caches[ctor_slot].ctor);	/* only while allocating from it */
	struct slab *slab = virt_to_slab(obj);
	CHECK(slab && slab->slab_cache == caches[ctor_slot].s);
	for (size_t i = 0; i < caches[ctor_slot].size; i++)
		((unsigned char *)obj)[i] = ctor_pat(obj, i);
}

void write_pattern(struct obj *o, size_t from)
{
	for (size_t i = from; i < o->size; i++)
		o->p[i] = pat(o->fill, i);
	for (size_t i = o->size; i < o->ks; i++)
		o->p[i] = TAIL_BYTE;
}

void check_contents(const struct obj *o, size_t upto)
{
	char what[160];

	for (size_t i = 0; i < upto; i++)
		if (o->p[i] != pat(o->fill, i)) {
			snprintf(what, sizeof(what), "the contents of a live object (0x%lx, %zu bytes, "
				 "%s) changed at byte %zu: 0x%02x instead of 0x%02x", (unsigned long)o->p,
				 o->size, o->cache ? o->cache->name : "pages", i, o->p[i], pat(o->fill, i));
			fuzz_fail(__FILE__, __LINE__, what);
		}
}

void check_live(const struct obj *o)
{
	if (o->size) {
		CHECK(ksize(o->p) == o->ks);
		CHECK(virt_to_slab(o->p) ? virt_to_slab(o->p)->slab_cache == o->cache : !o->cache);
	}
	check_contents(o, o->size);
}

size_t kmalloc_class(size_t size)
{
	static const unsigned int classes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048 };

	for (unsigned int i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (size <= classes[i])
			return classes[i];
	return 0;
}

bool is_pow2(size_t n)
{
	return n && !(n & (n - 1));
}

size_t large_bytes(size_t size)		/* what a large kmalloc takes: 2^order pages */
{
	size_t bytes = PAGE_SIZE;

	while (bytes < size)
		bytes <<= 1;
	return bytes;
}

/* A new object (kmalloc's, krealloc's moved one, or a cache's): where and what it must be,
 * then into the shadow.  @gfp: what it was asked with (__GFP_ZERO: it must be zero). */
struct obj *got_object(void *p, size_t size, gfp_t gfp, int slot)
{
	struct obj *o = &live[nr_live];
	uintptr_t a = (uintptr_t)p;

	*o = (struct obj){ p, size, 0, NULL, slot, next_fill++ };
	if (!size) {
		CHECK(p == ZERO_SIZE_PTR && ksize(p) == 0);
		nr_live++;
		return o;
	}
	o->ks = ksize(p);
	CHECK(o->ks >= size);
	CHECK(a >= (uintptr_t)ram && a + o->ks <= (uintptr_t)ram + RAM_SIZE);
	CHECK(virt_to_page(p) && virt_to_page(o->p + o->ks - 1));	/* not in the hole */
	struct slab *slab = virt_to_slab(p);
	o->cache = slab ? slab->slab_cache : NULL;
	if (slot >= 0) {
		struct cache *c = &caches[slot];
		CHECK(o->cache == c->s);
		CHECK(a % max(c->align, 8u) == 0);
		c->live++;
	} else if (size <= KMALLOC_MAX_CACHE_SIZE) {
		CHECK(o->cache && kmem_cache_size(o->cache) == kmalloc_class(size));
		CHECK(!strncmp(o->cache->name, "dma-", 4) == !!(gfp & __GFP_DMA));
		CHECK(a % (is_pow2(size) ? size : ARCH_KMALLOC_MINALIGN) == 0);
	} else {
		CHECK(!o->cache && a % PAGE_SIZE == 0 && o->ks == large_bytes(size));
		large_frames += o->ks / PAGE_SIZE;
	}
	CHECK(!(gfp & __GFP_DMA) || page_zonenum(virt_to_page(p)) == ZONE_DMA);
	for (int i = 0; i < nr_live; i++) {
		const struct obj *q = &live[i];
		if (q->size && a < (uintptr_t)q->p + q->ks && (uintptr_t)q->p < a + o->ks) {
			char what[128];
			snprintf(what, sizeof(what), "new object 0x%lx (ksize %zu) overlaps live 0x%lx "
				 "(ksize %zu)", (unsigned long)a, o->ks, (unsigned long)q->p, q->ks);
			fuzz_fail(__FILE__, __LINE__, what);
		}
	}
	if (gfp & __GFP_ZERO)
		for (size_t i = 0; i < size; i++)
			CHECK(o->p[i] == 0);
	if (slot >= 0 && caches[slot].ctor)
		for (size_t i = 0; i < size; i++)
			CHECK(o->p[i] == ctor_pat(p, i));
	nr_live++;
	write_pattern(o, 0);
	return o;
}

/* live[i] leaves the shadow (the caller frees it). */
void forget(int i)
{
	struct obj *o = &live[i];

	if (o->slot >= 0)
		caches[o->slot].live--;
	if (o->size && !o->cache)
		large_frames -= o->ks / PAGE_SIZE;
	live[i] = live[--nr_live];
}

/* Free live[i]: kfree(), or kmem_cache_free() for a cache's object unless @by_kfree. */
void free_one(int i, bool by_kfree)
{
	struct obj *o = &live[i];

	check_live(o);
	if (o->slot >= 0) {
		struct cache *c = &caches[o->slot];
		if (c->ctor)			/* given back constructed */
			for (size_t j = 0; j < c->size; j++)
				o->p[j] = ctor_pat(o->p, j);
		struct kmem_cache *s = c->s;
		void *p = o->p;
		forget(i);
		if (by_kfree)
			kfree(p);		/* any slab object may go back by kfree() */
		else
			kmem_cache_free(s, p);
	} else {
		void *p = o->p;
		forget(i);
		kfree(p);
	}
}

/* A kmalloc object to work on: a live one (nr_live > 0 and not a cache's), else -1. */
int pick_kmalloc(unsigned int b)
{
	for (int n = 0; n < nr_live; n++) {
		int i = (int)((b + (unsigned int)n) % (unsigned int)nr_live);
		if (live[i].slot < 0)
			return i;
	}
	return -1;
}

/* ---- checks ---- */

unsigned long slab_frames(void)
{
	return slab_pages_reclaimable() + slab_pages_unreclaimable();
}


void check_all(void)
{
	CHECK(nr_slab_bugs == bugs0);		/* none but those expect_one_report() takes */
	CHECK(nr_bad_pages == bad0);
	CHECK(slab_check(NULL) == 0);
	if (op_index % BUDDY_CHECK_EVERY == 0 || op_index == ops_this_input)
		CHECK(buddy_check(NULL) == 0);
	CHECK(nr_free_pages_and_pcp() + slab_frames() + large_frames == totalram_pages());
}

static void full_check(void)
{
	for (int i = 0; i < nr_live; i++)
		check_live(&live[i]);
	for (struct kmem_cache *s = slab_caches; s; s = s->next) {
		unsigned long n = 0;
		for (int i = 0; i < nr_live; i++)
			n += live[i].cache == s;
		for (int c = 0; c < MAX_CACHES; c++)	/* a made cache is a kmem_cache object */
			n += caches[c].s && virt_to_slab(caches[c].s)->slab_cache == s;
		char what[160];
		unsigned long used = s->total_objects - slab_free_objects(s);
		if (used != n) {
			snprintf(what, sizeof(what), "%s: %lu objects allocated, the shadow holds %lu",
				 s->name, used, n);
			fuzz_fail(__FILE__, __LINE__, what);
		}
		CHECK(slab_empty_slabs(s) <= s->min_partial);
	}
}

static void boot(unsigned int cfg)
{
	static const slab_flags_t debug[8] = {
		0, 0, 0, SLAB_DEBUG_FLAGS, SLAB_DEBUG_FLAGS, SLAB_RED_ZONE, SLAB_POISON,
		SLAB_CONSISTENCY_CHECKS,
	};
	phys_addr_t pa = __pa(ram);

	if (fake_ram_two_banks(pa))
		abort();
	dma_zone = cfg & 8;
	zone_dma_limit = dma_zone ? pa + 4 * MIB : 0;
	page_poisoning_enabled = false;
	page_checks = true;
	CHECK(memmap_init() == 0);
	CHECK(page_alloc_init() == 0);
	slub_debug = break_mode == 2 ? SLAB_DEBUG_FLAGS : debug[cfg & 7];
	kmem_cache_init();
	nr_live = 0;
	large_frames = 0;
	memset(caches, 0, sizeof(caches));
	bugs0 = nr_slab_bugs;
	bad0 = nr_bad_pages;
	CHECK(slab_frames() == 0);
	boot_free = nr_free_pages_and_pcp();
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			boot_nr_free[z][o] = zones[z].free_area[o].nr_free;
}

/* The self-tests' breakage, at the end of an input: a changed byte the shadow must see, or
 * a red zone slab_check() must see. */
static void break_on_purpose(void)
{
	int i = pick_kmalloc(0);

	if (i < 0 || !live[i].size || !live[i].cache) {
		void *p = kmalloc(100, GFP_KERNEL);
		CHECK(p);
		i = (int)(got_object(p, 100, GFP_KERNEL, -1) - live);
	}
	if (break_mode == 1)
		live[i].p[live[i].size / 2] ^= 0x40;
	else
		live[i].p[live[i].ks] ^= 0x40;		/* just past ksize: the right red zone */
	check_all();
	full_check();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size, 0, 1 };	/* byte 0 is the configuration */
	size_t ops = size < 2 ? 0 : max(size, (size_t)OPS_PER_INPUT);

	boot(size ? byte(&in) : 0);
	total_inputs++;
	ops_this_input = ops;
	for (op_index = 0; op_index < ops; op_index++, total_ops++) {
		unsigned int op = byte(&in) % 16, b;
		switch (op) {
		case 0: case 1: case 2: case 3: case 4:
			if (nr_live < MAX_LIVE)
				kmalloc_op(&in, op == 4);
			break;
		case 5: case 6: case 7:
			kfree_op(&in);
			break;
		case 8: case 9:
			if (nr_live < MAX_LIVE)
				krealloc_op(&in);
			break;
		case 10:
			if (nr_live < MAX_LIVE)
				cache_alloc_op(&in);
			break;
		case 11:
			cache_free_op(&in);
			break;
		case 12:
			create_op(&in);
			break;
		case 13:
			shrink_op(&in);
			break;
		case 14:
			bulk_op(&in);
			break;
		case 15:
			b = byte(&in);
			if (b % 8 < 3)
				free_many(b / 8);
			else if (b % 8 < 5)
				full_check();
			else
				drain_all_pages(NULL);
			break;
		}
		check_all();
		if (op_index % FULL_CHECK_EVERY == FULL_CHECK_EVERY - 1)
			full_check();
	}
	if (break_mode)
		break_on_purpose();
	full_check();
	while (nr_live)
		free_one(nr_live - 1, false);
	for (int c = 0; c < MAX_CACHES; c++)
		if (caches[c].s) {
			kmem_cache_destroy(caches[c].s);
			caches[c].s = NULL;
		}
	check_all();		/* every red zone intact, when there are red zones */
	full_check();
	for (struct kmem_cache *s = slab_caches; s; s = s->next)
		CHECK(kmem_cache_shrink(s) == 0);
	drain_all_pages(NULL);
	check_all();
	CHECK(slab_frames() == 0 && large_frames == 0);
	CHECK(nr_free_pages_and_pcp() == boot_free);		/* nothing leaked */
	for (int z = 0; z < MAX_NR_ZONES; z++)		/* the boot's blocks again */
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			CHECK(zones[z].free_area[o].nr_free == boot_nr_free[z][o]);
	return 0;
}
