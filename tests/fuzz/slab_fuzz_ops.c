/*
 * slab_fuzz_ops.c - the slab fuzzer's operations (the op byte's meanings: slab_fuzz.c's header):
 * decoding sizes and GFP flags from the input, kmalloc/kzalloc/kfree/krealloc with the misuses
 * that must be reported, and caches of the fuzzer's own (create, destroy, alloc, free, bulk,
 * shrink).  Every object made goes through got_object(), every free through the shadow
 * (slab_fuzz.c), which checks it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shrinker.h"
#include "tinymm/slab.h"
#include "../../mm/slab.h"
#include "fake_ram.h"
#include "slab_fuzz.h"

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

void kmalloc_op(struct input *in, bool zero)
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

void kfree_op(struct input *in)
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

void krealloc_op(struct input *in)
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
			CHECK(o.p[j] == 0);	/* as in Linux: the spare bytes zeroed */
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

void create_op(struct input *in)
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

void cache_alloc_op(struct input *in)
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
void bulk_op(struct input *in)
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
void free_many(unsigned int b)
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

void cache_free_op(struct input *in)
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

/* kmem_cache_shrink() of one cache, or reclaim's shrink_slab() at some priority (0: all). */
void shrink_op(struct input *in)
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
