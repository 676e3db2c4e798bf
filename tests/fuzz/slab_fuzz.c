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
#include "tinymm/shrinker.h"
#include "tinymm/slab.h"
#include "tinymm/time.h"
#include "../../mm/slab.h"
#include "fake_ram.h"
#include "fuzz_input.h"

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

#define MIB		(1UL << 20)
#define RAM_SIZE	FAKE_RAM_TWO_BANKS
#define MAX_LIVE	256
#define MAX_CACHES	4
#define OPS_PER_INPUT	160	/* at least; an input longer than that gives one per byte */
#define FULL_CHECK_EVERY 32
#define BUDDY_CHECK_EVERY 2	/* buddy_check() walks every frame: 60% of the time if on every one */
#define LARGE_MAX	(4 * PAGE_SIZE + 1)
#define TAIL_BYTE	0xe7	/* written over [size, ksize) */

struct obj {
	unsigned char *p;
	size_t size;			/* asked (0: ZERO_SIZE_PTR) */
	size_t ks;			/* ksize() when it was made */
	struct kmem_cache *cache;	/* the slab cache holding it; NULL: pages, ZERO_SIZE_PTR */
	int slot;			/* caches[slot]'s object; -1: kmalloc's */
	unsigned char fill;
};

struct cache {
	struct kmem_cache *s;		/* NULL: a free slot */
	unsigned int size, align;
	slab_flags_t flags;
	bool ctor;
	int live;
	char name[16];
};

static char *ram;
static struct obj live[MAX_LIVE];
static int nr_live;
static struct cache caches[MAX_CACHES];
static int ctor_slot = -1;		/* the cache being allocated from: the constructor's */
static unsigned long large_frames, bugs0, bad0, op_index, ops_this_input, boot_free;
static unsigned long boot_nr_free[MAX_NR_ZONES][NR_PAGE_ORDERS];
static bool dma_zone;
static unsigned char next_fill;
static unsigned long long total_ops, total_inputs;
static int break_mode;

static void __attribute__((noreturn)) fuzz_fail(int line, const char *what)
{
	fprintf(stderr, "slab_fuzz: check failed at %s:%d, operation %lu of the input: %s\n",
		__FILE__, line, op_index, what);
	fprintf(stderr, "slub_debug %#x, %d live objects; slab_check and buddy_check say:\n",
		slub_debug, nr_live);
	slab_check(eprintf);
	buddy_check(eprintf);
	fprintf(stderr, "--- kernel log ---\n");
	log_buf_dump(log_out);
	abort();
}
#define CHECK(cond)	do { if (!(cond)) fuzz_fail(__LINE__, #cond); } while (0)

static void check_all(void);

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

static unsigned char pat(unsigned char fill, size_t i)
{
	return (unsigned char)(fill + i * 7 + (i >> 8));	/* a shifted copy does not match */
}

/* The constructed state: made from the address, so an object moved or swapped shows. */
static unsigned char ctor_pat(const void *obj, size_t i)
{
	return (unsigned char)(((uintptr_t)obj >> 3) * 13 + i * 5 + 0x5a);
}

static void ctor(void *obj)
{
	CHECK(ctor_slot >= 0 && caches[ctor_slot].ctor);	/* only while allocating from it */
	struct slab *slab = virt_to_slab(obj);
	CHECK(slab && slab->slab_cache == caches[ctor_slot].s);
	for (size_t i = 0; i < caches[ctor_slot].size; i++)
		((unsigned char *)obj)[i] = ctor_pat(obj, i);
}

static void write_pattern(struct obj *o, size_t from)
{
	for (size_t i = from; i < o->size; i++)
		o->p[i] = pat(o->fill, i);
	for (size_t i = o->size; i < o->ks; i++)
		o->p[i] = TAIL_BYTE;
}

static void check_contents(const struct obj *o, size_t upto)
{
	char what[160];

	for (size_t i = 0; i < upto; i++)
		if (o->p[i] != pat(o->fill, i)) {
			snprintf(what, sizeof(what), "the contents of a live object (0x%lx, %zu bytes, "
				 "%s) changed at byte %zu: 0x%02x instead of 0x%02x", (unsigned long)o->p,
				 o->size, o->cache ? o->cache->name : "pages", i, o->p[i], pat(o->fill, i));
			fuzz_fail(__LINE__, what);
		}
}

static void check_live(const struct obj *o)
{
	if (o->size) {
		CHECK(ksize(o->p) == o->ks);
		CHECK(virt_to_slab(o->p) ? virt_to_slab(o->p)->slab_cache == o->cache : !o->cache);
	}
	check_contents(o, o->size);
}

static size_t kmalloc_class(size_t size)
{
	static const unsigned int classes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048 };

	for (unsigned int i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (size <= classes[i])
			return classes[i];
	return 0;
}

static bool is_pow2(size_t n)
{
	return n && !(n & (n - 1));
}

static size_t large_bytes(size_t size)		/* what a large kmalloc takes: 2^order pages */
{
	size_t bytes = PAGE_SIZE;

	while (bytes < size)
		bytes <<= 1;
	return bytes;
}

/* A new object (kmalloc's, krealloc's moved one, or a cache's): where and what it must be,
 * then into the shadow.  @gfp: what it was asked with (__GFP_ZERO: it must be zero). */
static struct obj *got_object(void *p, size_t size, gfp_t gfp, int slot)
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
			fuzz_fail(__LINE__, what);
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
static void forget(int i)
{
	struct obj *o = &live[i];

	if (o->slot >= 0)
		caches[o->slot].live--;
	if (o->size && !o->cache)
		large_frames -= o->ks / PAGE_SIZE;
	live[i] = live[--nr_live];
}

/* Free live[i]: kfree(), or kmem_cache_free() for a cache's object unless @by_kfree. */
static void free_one(int i, bool by_kfree)
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
static int pick_kmalloc(unsigned int b)
{
	for (int n = 0; n < nr_live; n++) {
		int i = (int)((b + (unsigned int)n) % (unsigned int)nr_live);
		if (live[i].slot < 0)
			return i;
	}
	return -1;
}

/* ---- decoding ---- */

static gfp_t decode_gfp(unsigned int b)
{
	gfp_t gfp = __GFP_NOWARN;

	gfp |= (b & 1) ? GFP_KERNEL : (b & 2) ? GFP_ATOMIC : GFP_NOWAIT;
	if ((b & 0x1c) == 0x1c)
		gfp |= __GFP_DMA;
	return gfp;
}

static size_t decode_size(struct input *in)
{
	static const unsigned int classes[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048 };
	unsigned int b = byte(in), v = b << 8 | byte(in);

	switch (b >> 5) {
	case 0: case 1: case 2:
		return 1 + v % 2048;				/* any small size */
	case 3:
		return classes[v % 11] + (b & 3) - 1;		/* a class, or next to one */
	case 4:
		return 1 + v % 64;
	case 5:
		return KMALLOC_MAX_CACHE_SIZE + 1 + v % (LARGE_MAX - KMALLOC_MAX_CACHE_SIZE);
	case 6:
		return (size_t)1 << (v % 12);			/* 1 .. 2048 */
	default:
		if ((v & 0xff) >= 0xf8)
			return KMALLOC_MAX_SIZE + 1 + (v >> 8);	/* too large: NULL */
		return (v & 0xff) < 0x60 ? 0 : (v & 0xff) < 0xc0 ? PAGE_SIZE << (v % 3) : 2048 + (v & 1);
	}
}

/* May an allocation that needs a block of @order fail?  Only past KMALLOC_MAX_SIZE, for DMA
 * without a DMA zone, or when memory runs short, which it should not (at most MAX_LIVE
 * objects of at most 16 frames): half of it in use, or no free block that large. */
static bool may_fail(size_t size, bool dma, unsigned int order)
{
	unsigned long free = 0, blocks = 0;

	if (size > KMALLOC_MAX_SIZE || (dma && !dma_zone))
		return true;
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		if (dma && z != ZONE_DMA)
			continue;
		free += zones[z].free_pages + (unsigned long)pcp_count(&zones[z].pcp[0]);
		for (unsigned int o = order; o < NR_PAGE_ORDERS; o++)
			blocks += zones[z].free_area[o].nr_free;
	}
	return !blocks || free < (dma ? zones[ZONE_DMA].managed_pages : totalram_pages()) / 2;
}

/* The block a kmalloc of @size needs: a slab's (at most order 1, for kmalloc-2048 with red
 * zones) or the pages'. */
static unsigned int kmalloc_order(size_t size)
{
	unsigned int order = 0;

	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return 1;
	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* One kmalloc (or kzalloc, for __GFP_ZERO); false if it failed. */
static bool do_kmalloc(size_t size, gfp_t gfp)
{
	void *p = gfp & __GFP_ZERO ? kzalloc(size, gfp & ~__GFP_ZERO) : kmalloc(size, gfp);

	if (size > KMALLOC_MAX_SIZE || (size && (gfp & __GFP_DMA) && !dma_zone))
		CHECK(!p);
	CHECK(p || !size || may_fail(size, gfp & __GFP_DMA, kmalloc_order(size)));
	if (p)
		got_object(p, size, gfp, -1);
	return p;
}

static void kmalloc_op(struct input *in, bool zero)
{
	size_t size = decode_size(in);

	do_kmalloc(size, decode_gfp(byte(in)) | (zero ? __GFP_ZERO : 0));
}

/* A misuse the allocator must report once (nr_slab_bugs) and survive, changing nothing. */
static void expect_one_report(const struct obj *o)
{
	CHECK(nr_slab_bugs == bugs0 + 1);
	bugs0 = nr_slab_bugs;
	if (o)
		check_live(o);
}

/* Frees that must be refused: inside an object; to the wrong cache; a second time (with
 * consistency checks, which catch it); after a write past either end (with red zones).  Each
 * is reported and frees nothing. */
static void bad_free(unsigned int b, unsigned int k)
{
	int i = nr_live ? (int)(b % (unsigned int)nr_live) : -1;
	const struct obj *o = i >= 0 ? &live[i] : NULL;

	if (!o || !o->size)
		return;
	if ((b & 0x300) == 0) {				/* not the start of an object */
		unsigned char *q = o->p + 1 + k % (o->ks - 1);
		if (o->slot >= 0 && (k & 1))
			kmem_cache_free(caches[o->slot].s, q);
		else
			kfree(q);
		expect_one_report(o);
	} else if ((b & 0x300) == 0x100) {		/* another cache's object */
		struct kmem_cache *s = slab_caches;
		for (unsigned int n = k % 8; n-- && s->next;)
			s = s->next;
		if (s == o->cache)
			s = s->next ? s->next : slab_caches;
		kmem_cache_free(s, o->p);
		expect_one_report(o);
	} else if ((b & 0x300) == 0x300) {
		if (!(slub_debug & SLAB_RED_ZONE) || !o->cache)
			return;
		/* a byte either side of the object changed: the free is refused with one report,
		 * the red zone is restored, and the object stays allocated (freed later, fine) */
		unsigned char *q = k & 1 ? o->p - 1 : o->p + o->ks;
		*q ^= (unsigned char)(k | 1);
		if (o->slot >= 0 && (k & 2))
			kmem_cache_free(caches[o->slot].s, o->p);
		else
			kfree(o->p);
		expect_one_report(o);
	} else if (slub_debug & SLAB_CONSISTENCY_CHECKS) {	/* freed twice */
		void *p = o->p;
		struct kmem_cache *s = o->slot >= 0 ? caches[o->slot].s : NULL;
		free_one(i, !s || (k & 1));
		check_all();
		if (s && !(k & 1))
			kmem_cache_free(s, p);
		else
			kfree(p);
		expect_one_report(NULL);
	}
}

static void kfree_op(struct input *in)
{
	unsigned int b = byte(in);
	int i = pick_kmalloc(b);

	if (b % 32 == 0 || i < 0)
		kfree(b & 0x20 ? NULL : ZERO_SIZE_PTR);		/* nothing happens */
	else if (b % 32 == 1) {
		unsigned int which = byte(in) | (b & 0x60) << 3;
		bad_free(which, byte(in));
	} else
		free_one(i, false);
}

static void krealloc_op(struct input *in)
{
	unsigned int b = byte(in), how = byte(in);
	int i = (b & 0xf) ? pick_kmalloc(b >> 4) : -1;	/* -1: krealloc(NULL, ...) */
	unsigned int g = byte(in);
	gfp_t gfp = decode_gfp(g) | (g & 0x80 ? __GFP_ZERO : 0);	/* zero what is new */
	size_t old = i >= 0 ? live[i].size : 0, size;

	if (how < 64)
		size = old + 1 + how % 32;			/* a little larger */
	else if (how < 128)
		size = old > how % 32 ? old - how % 32 : 0;	/* a little smaller */
	else if (how < 144)
		size = 0;
	else
		size = decode_size(in);
	if (size > KMALLOC_MAX_SIZE)
		size = KMALLOC_MAX_SIZE + 1;
	if (i < 0) {
		void *p = krealloc(NULL, size, gfp);
		CHECK(p || !size || may_fail(size, gfp & __GFP_DMA, kmalloc_order(size)));
		if (!size)
			CHECK(p == ZERO_SIZE_PTR);
		if (p)
			got_object(p, size, gfp, -1);
		return;
	}
	struct obj o = live[i];
	check_live(&o);
	void *p = krealloc(o.p, size, gfp);
	if (!size) {			/* freed */
		CHECK(p == ZERO_SIZE_PTR);
		forget(i);
		got_object(p, 0, gfp, -1);
		return;
	}
	if (!p) {			/* failed: the old object stays as it was */
		CHECK(size > o.ks && may_fail(size, gfp & __GFP_DMA, kmalloc_order(size)));
		check_live(&o);
		return;
	}
	if (p == o.p) {			/* in place: only when it fits */
		CHECK(size <= o.ks && ksize(p) == o.ks);
		for (size_t j = size; (gfp & __GFP_ZERO) && j < o.ks; j++)
			CHECK(o.p[j] == 0);	/* v6.10: the spare bytes zeroed */
		live[i].size = size;
		write_pattern(&live[i], min(old, size));
		check_live(&live[i]);
		return;
	}
	CHECK(o.size == 0 || size > o.ks);	/* moved: only when it did not fit */
	CHECK(o.size == 0 || (uintptr_t)p >= (uintptr_t)o.p + o.ks ||	/* made while o was live */
	      (uintptr_t)p + min(size, ksize(p)) <= (uintptr_t)o.p);
	forget(i);
	/* the new object keeps the old's bytes: checked before got_object() writes its own */
	struct obj n = { p, size, 0, virt_to_slab(p) ? virt_to_slab(p)->slab_cache : NULL, -1, o.fill };
	check_contents(&n, min(old, size));
	for (size_t j = o.ks; (gfp & __GFP_ZERO) && j < size; j++)
		CHECK(n.p[j] == 0);		/* beyond what was copied: zero */
	struct obj *no = got_object(p, size, gfp & ~__GFP_ZERO, -1);
	no->fill = o.fill;		/* the pattern continues over the rest */
	write_pattern(no, 0);
}

/* ---- caches of our own ---- */

static bool listed(const struct kmem_cache *c)
{
	for (struct kmem_cache *s = slab_caches; s; s = s->next)
		if (s == c)
			return true;
	return false;
}

static void create_op(struct input *in)
{
	static const unsigned int aligns[8] = { 0, 8, 16, 64, 128, 256, 4096, 24 };
	unsigned int b = byte(in), hi = byte(in), v = hi << 8 | byte(in), f = byte(in);
	int slot = (int)(b % MAX_CACHES);
	struct cache *c = &caches[slot];

	if (c->s && c->live && (b & 0x80)) {	/* objects left: a report, the cache stays */
		kmem_cache_destroy(c->s);
		expect_one_report(NULL);
		CHECK(listed(c->s));
		return;
	}
	if (c->s) {			/* free what it holds, then destroy it */
		for (int i = nr_live; i-- > 0;)
			if (live[i].slot == slot)
				free_one(i, false);
		CHECK(c->live == 0);
		kmem_cache_destroy(c->s);
		CHECK(nr_slab_bugs == bugs0);	/* "Objects remaining" */
		CHECK(!listed(c->s));
		c->s = NULL;
		return;
	}
	switch ((b >> 2) % 4) {
	case 0: c->size = 1 + v % 64; break;
	case 1: c->size = 1 + v % 2048; break;
	case 2: c->size = 2049 + v % 6144; break;
	default: c->size = 8u << (v % 10); break;		/* 8 .. 4096 */
	}
	if ((f & 0xe0) == 0xe0)
		c->size = (PAGE_SIZE << MAX_PAGE_ORDER) + 1 + v;	/* no slab holds one */
	if ((f & 0xe0) == 0xa0)		/* one a slab, past the costly order */
		c->size = (PAGE_SIZE << PAGE_ALLOC_COSTLY_ORDER) + 1 + v % (PAGE_SIZE << PAGE_ALLOC_COSTLY_ORDER);
	if ((f & 0xe0) == 0xc0)
		kmem_cache_destroy(NULL);			/* nothing happens */
	c->align = aligns[(b >> 4) % 8];
	c->flags = (f & 1 ? SLAB_HWCACHE_ALIGN : 0) | (f & 2 ? SLAB_RECLAIM_ACCOUNT : 0) |
		   ((f & 0x0c) == 0x0c ? SLAB_CACHE_DMA : 0);
	c->ctor = f & 0x10;
	c->live = 0;
	snprintf(c->name, sizeof(c->name), "fuzz-%d", slot);
	c->s = kmem_cache_create(c->name, c->size, c->align, c->flags, c->ctor ? ctor : NULL);
	if ((!is_pow2(c->align) && c->align) || c->size > (PAGE_SIZE << MAX_PAGE_ORDER)) {
		CHECK(!c->s);
		return;
	}
	CHECK(c->s && kmem_cache_size(c->s) == c->size);
	CHECK(slab_caches == c->s);
}

/* One kmem_cache_alloc from caches[slot]; false if it failed. */
static bool do_cache_alloc(int slot, gfp_t gfp)
{
	struct cache *c = &caches[slot];
	bool dma = c->flags & SLAB_CACHE_DMA;

	ctor_slot = slot;
	void *p = kmem_cache_alloc(c->s, gfp);
	ctor_slot = -1;
	CHECK(p || may_fail(c->size, dma, c->s->min_order));
	CHECK(!p || !dma || dma_zone);
	if (p) {
		CHECK(!dma || page_zonenum(virt_to_page(p)) == ZONE_DMA);
		got_object(p, c->size, gfp, slot);
	}
	return p;
}

static void cache_alloc_op(struct input *in)
{
	unsigned int b = byte(in);
	int slot = (int)(b % MAX_CACHES);
	gfp_t gfp = decode_gfp(byte(in)) & ~__GFP_DMA;

	if (!caches[slot].s)
		return;
	if (!caches[slot].ctor && (b & 0x80))
		gfp |= __GFP_ZERO;
	do_cache_alloc(slot, gfp);
}

/* Many objects of one size at once (full slabs, several partial ones after some frees). */
static void bulk_op(struct input *in)
{
	unsigned int b = byte(in), n = 2 + b % 63;
	int slot = (int)((b >> 6) % MAX_CACHES);

	if ((b & 0x80) && caches[slot].s) {
		gfp_t gfp = decode_gfp(byte(in)) & ~__GFP_DMA;
		while (n-- && nr_live < MAX_LIVE && do_cache_alloc(slot, gfp))
			;
	} else {
		size_t size = decode_size(in);
		gfp_t gfp = decode_gfp(byte(in));
		while (n-- && nr_live < MAX_LIVE && do_kmalloc(size, gfp))
			;
	}
}

/* Frees in bulk: everything; every other object (many partial slabs); the newest few (the
 * active slab empties). */
static void free_many(unsigned int b)
{
	switch (b % 4) {
	case 0:
		while (nr_live)
			free_one(nr_live - 1, false);
		break;
	case 1:
		for (int i = nr_live - 1 - (int)(b >> 7); i >= 0; i -= 2)
			free_one(i, b & 4);
		break;
	default:
		for (unsigned int n = 1 + (b >> 2) % 32; n-- && nr_live;)
			free_one(nr_live - 1, b & 0x80);
		break;
	}
}

static void cache_free_op(struct input *in)
{
	unsigned int b = byte(in);

	for (int n = 0; n < nr_live; n++) {
		int i = (int)((b + (unsigned int)n) % (unsigned int)nr_live);
		if (live[i].slot >= 0) {
			free_one(i, b & 0x80);
			return;
		}
	}
}

static unsigned long slab_frames(void)
{
	return slab_pages_reclaimable() + slab_pages_unreclaimable();
}

/* kmem_cache_shrink() of one cache, or reclaim's shrink_slab() at some priority (0: all). */
static void shrink_op(struct input *in)
{
	unsigned int b = byte(in), n = 0;
	struct kmem_cache *s;

	if (b & 1) {
		int prio = (int)(b >> 1) % (DEF_PRIORITY + 1);
		unsigned long before = slab_frames(), freed = shrink_slab(GFP_KERNEL, 0, NULL, prio);
		CHECK(before - slab_frames() == freed);		/* counted in frames */
		for (s = slab_caches; s && !prio; s = s->next)
			CHECK(slab_empty_slabs(s) == 0);
		return;
	}
	for (s = slab_caches; s; s = s->next)
		n++;
	b = (b >> 1) % n;
	for (s = slab_caches; b--; s = s->next)
		;
	CHECK(kmem_cache_shrink(s) == 0);
	CHECK(slab_empty_slabs(s) == 0 && !s->cpu_slab[0].slab);
}

/* ---- checks ---- */

static void check_all(void)
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
			fuzz_fail(__LINE__, what);
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
