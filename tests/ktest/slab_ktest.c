/*
 * slab_ktest.c - suite `slab`: the slab allocator on every board (and on the host, in
 * tests/host/slab_test.c): every kmalloc class, alignment, constructors, the slab page type,
 * giving empty slabs back, krealloc, and each debug report with the kernel alive after it.
 *
 * The debug cases use caches made with the debug flags, so they run whatever tinymm.slub_debug
 * says; tests/qemu/slab.cmake also runs the whole suite with tinymm.slub_debug=1 (every kmalloc
 * cache a debug cache).  Explicit-only (tinymm.test=slab): its reports taint the kernel on
 * purpose.  slab_check() must find nothing after every case.
 */
#include <string.h>
#include "tinymm/kernel-page-flags.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shrinker.h"
#include "tinymm/slab.h"
#include "../../mm/slab.h"

#define GFP_TEST	(GFP_KERNEL | __GFP_NOWARN)
#define EXPECT_SLAB_OK(t)	KTEST_EXPECT_EQ(t, slab_check(printk), 0)

static const char *class_name(size_t size)
{
	static const struct { size_t max; const char *name; } classes[] = {
		{ 8, "kmalloc-8" }, { 16, "kmalloc-16" }, { 32, "kmalloc-32" }, { 64, "kmalloc-64" },
		{ 96, "kmalloc-96" }, { 128, "kmalloc-128" }, { 192, "kmalloc-192" },
		{ 256, "kmalloc-256" }, { 512, "kmalloc-512" }, { 1024, "kmalloc-1k" },
		{ 2048, "kmalloc-2k" },
	};
	for (unsigned int i = 0; i < ARRAY_SIZE(classes); i++)
		if (size <= classes[i].max)
			return classes[i].name;
	return NULL;
}

/* Every size 1..2048 lands in its class, aligned, ksize covering it, writable to its end. */
static void every_size_class(struct ktest *t)
{
	int wrong = 0;

	for (size_t size = 1; size <= KMALLOC_MAX_CACHE_SIZE; size += size < 200 ? 1 : 61) {
		char *p = kmalloc(size, GFP_TEST);
		KTEST_ASSERT_TRUE(t, p != NULL);
		const char *cache = slab_cache_name_of(virt_to_page(p));
		size_t align = (size & (size - 1)) ? 8 : size < 8 ? 8 : size;
		if (!cache || strcmp(cache, class_name(size)) || ksize(p) < size ||
		    (uintptr_t)p % align) {
			printk(KERN_ERR "slab: kmalloc(%lu) = %p in %s, ksize %lu\n", (unsigned long)size,
			       (void *)p, cache ? cache : "no cache", (unsigned long)ksize(p));
			wrong++;
		}
		memset(p, 0x5a, size);
		kfree(p);
	}
	KTEST_EXPECT_EQ(t, wrong, 0);
	/* The edges, by name. */
	void *p = kmalloc(2048, GFP_TEST), *q = kmalloc(2049, GFP_TEST);
	KTEST_EXPECT_STREQ(t, slab_cache_name_of(virt_to_page(p)), "kmalloc-2k");
	KTEST_EXPECT_TRUE(t, q && !slab_cache_name_of(virt_to_page(q)));	/* pages */
	KTEST_EXPECT_EQ(t, (uintptr_t)q % PAGE_SIZE, 0);
	KTEST_EXPECT_EQ(t, ksize(q), PAGE_SIZE);
	kfree(p);
	kfree(q);
	EXPECT_SLAB_OK(t);
}

static void zero_size_and_impossible_sizes(struct ktest *t)
{
	unsigned long free0 = nr_free_pages_and_pcp();

	KTEST_EXPECT_TRUE(t, kmalloc(0, GFP_TEST) == ZERO_SIZE_PTR);
	KTEST_EXPECT_TRUE(t, krealloc(NULL, 0, GFP_TEST) == ZERO_SIZE_PTR);
	kfree(ZERO_SIZE_PTR);			/* both no-ops */
	kfree(NULL);
	KTEST_EXPECT_EQ(t, ksize(ZERO_SIZE_PTR), 0);
	KTEST_EXPECT_TRUE(t, kmalloc(KMALLOC_MAX_SIZE + 1, GFP_TEST) == NULL);
	KTEST_EXPECT_TRUE(t, kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL) == NULL);	/* with the warning */
	KTEST_EXPECT_TRUE(t, kmalloc((size_t)-1, GFP_TEST) == NULL);
	KTEST_EXPECT_TRUE(t, kcalloc((size_t)-1 / 2, 4, GFP_TEST) == NULL);	/* overflow */
	/* A large kmalloc is whole pages, given back whole. */
	void *big = kmalloc(5 * PAGE_SIZE, GFP_TEST);
	KTEST_ASSERT_TRUE(t, big != NULL);
	KTEST_EXPECT_EQ(t, ksize(big), 8 * PAGE_SIZE);
	kfree(big);
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free0);
}

static void kzalloc_and_krealloc(struct ktest *t)
{
	unsigned char *p = kmalloc(100, GFP_TEST);

	KTEST_ASSERT_TRUE(t, p != NULL);
	memset(p, 0xee, 100);
	kfree(p);
	p = kzalloc(100, GFP_TEST);
	KTEST_ASSERT_TRUE(t, p != NULL);
	int nonzero = 0;
	for (int i = 0; i < 100; i++)
		nonzero += p[i] != 0;
	KTEST_EXPECT_EQ(t, nonzero, 0);
	for (int i = 0; i < 100; i++)
		p[i] = (unsigned char)i;
	unsigned char *q = krealloc(p, 90, GFP_TEST);		/* shrinking: in place */
	KTEST_EXPECT_TRUE(t, q == p);
	q = krealloc(p, 3000, GFP_TEST);			/* growing into pages: copied */
	KTEST_ASSERT_TRUE(t, q != NULL && q != p);
	int moved = 0;
	for (int i = 0; i < 90; i++)
		moved += q[i] == (unsigned char)i;
	KTEST_EXPECT_EQ(t, moved, 90);
	KTEST_EXPECT_TRUE(t, krealloc(q, 0, GFP_TEST) == ZERO_SIZE_PTR);	/* frees q */
	EXPECT_SLAB_OK(t);
}

static unsigned int ctor_calls;
static void ctor_mark(void *obj)
{
	ctor_calls++;
	memset(obj, 0xc7, 40);
}

/* A cache's own alignment, and a constructor run once per object when its slab is made. */
static void cache_alignment_and_constructor(struct ktest *t)
{
	struct kmem_cache *s = kmem_cache_create("ktest_ctor", 40, 32, 0, ctor_mark);
	void *objs[8];

	KTEST_ASSERT_TRUE(t, s != NULL);
	ctor_calls = 0;
	for (int i = 0; i < 8; i++) {
		objs[i] = kmem_cache_alloc(s, GFP_TEST);
		KTEST_ASSERT_TRUE(t, objs[i] != NULL);
		KTEST_EXPECT_EQ(t, (uintptr_t)objs[i] % 32, 0);
		KTEST_EXPECT_EQ(t, ((unsigned char *)objs[i])[39], 0xc7);	/* constructed */
	}
	KTEST_EXPECT_EQ(t, ctor_calls, s->objects);	/* one slab: every object, once */
	KTEST_EXPECT_EQ(t, kmem_cache_size(s), 40);
	for (int i = 0; i < 8; i++)
		kmem_cache_free(s, objs[i]);
	void *again = kmem_cache_alloc(s, GFP_TEST);	/* reused: the constructor does not run */
	KTEST_EXPECT_EQ(t, ctor_calls, s->objects);
	KTEST_EXPECT_EQ(t, ((unsigned char *)again)[0], 0xc7);
	kmem_cache_free(s, again);
	EXPECT_SLAB_OK(t);
	kmem_cache_destroy(s);
	EXPECT_SLAB_OK(t);
}

/* Slab pages carry the slab page type on the head, every page reads KPF_SLAB; freed, neither. */
static void slab_pages_are_typed(struct ktest *t)
{
	void *small = kmalloc(64, GFP_TEST), *big = kmalloc(2048, GFP_TEST);	/* 1- and 4-page slabs */

	KTEST_ASSERT_TRUE(t, small && big);
	struct page *sp = virt_to_page(small), *bp = compound_head(virt_to_page(big));
	KTEST_EXPECT_TRUE(t, PageSlab(sp));
	KTEST_EXPECT_EQ(t, sp->page_type, ~PG_slab);		/* v6.10: the type is a cleared bit */
	KTEST_EXPECT_TRUE(t, stable_page_flags(sp) & (1ULL << KPF_SLAB));
	unsigned int order = virt_to_slab(big)->slab_cache->order;	/* 2 without debugging */
	KTEST_EXPECT_TRUE(t, order > 0 && PageHead(bp) && folio_order(page_folio(bp)) == order);
	for (int i = 0; i < 1 << order; i++) {
		KTEST_EXPECT_TRUE(t, PageSlab(bp + i));
		KTEST_EXPECT_TRUE(t, stable_page_flags(bp + i) & (1ULL << KPF_SLAB));
	}
	KTEST_EXPECT_STREQ(t, slab_cache_name_of(bp + (1 << order) - 1), "kmalloc-2k");
	kfree(small);
	kfree(big);
	struct kmem_cache *s = kmem_cache_create("ktest_typed", 1000, 0, 0, NULL);
	KTEST_ASSERT_TRUE(t, s != NULL);
	void *o = kmem_cache_alloc(s, GFP_TEST);
	struct page *op = compound_head(virt_to_page(o));
	kmem_cache_free(s, o);
	kmem_cache_shrink(s);				/* the slab goes back to the buddy */
	drain_all_pages(NULL);				/* (through the per-CPU lists) */
	KTEST_EXPECT_FALSE(t, PageSlab(op));
	KTEST_EXPECT_FALSE(t, stable_page_flags(op) & (1ULL << KPF_SLAB));
	KTEST_EXPECT_TRUE(t, stable_page_flags(op) & (1ULL << KPF_BUDDY));
	kmem_cache_destroy(s);
	EXPECT_SLAB_OK(t);
}

/* Empty slabs beyond min_partial go back on free; shrink gives back the rest; destroying a cache
 * with live objects is refused with a report. */
static void empty_slabs_go_back(struct ktest *t)
{
	struct kmem_cache *s = kmem_cache_create("ktest_partial", 512, 0, 0, NULL);
	static void *objs[8 * 20];
	unsigned long frames0 = slab_pages_unreclaimable();

	KTEST_ASSERT_TRUE(t, s != NULL);
	unsigned int nslabs = min(20u, (unsigned int)ARRAY_SIZE(objs) / s->objects);
	unsigned int n = nslabs * s->objects;	/* 20 slabs of 8 without debugging */
	KTEST_ASSERT_TRUE(t, nslabs > s->min_partial + 2);
	for (unsigned int i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(s, GFP_TEST);
		KTEST_ASSERT_TRUE(t, objs[i] != NULL);
	}
	KTEST_EXPECT_EQ(t, s->nr_slabs, nslabs);
	KTEST_EXPECT_EQ(t, slab_pages_unreclaimable() - frames0, (unsigned long)nslabs << s->order);
	unsigned long bugs = nr_slab_bugs;
	kmem_cache_destroy(s);				/* refused: objects remain */
	KTEST_EXPECT_EQ(t, nr_slab_bugs, bugs + 1);
	for (unsigned int i = 0; i < n; i++)
		kmem_cache_free(s, objs[i]);
	KTEST_EXPECT_LE(t, s->nr_slabs, s->min_partial + 1);	/* + the active one */
	KTEST_EXPECT_EQ(t, slab_empty_slabs(s), s->nr_partial);
	EXPECT_SLAB_OK(t);
	kmem_cache_shrink(s);
	KTEST_EXPECT_EQ(t, s->nr_slabs, 0);
	KTEST_EXPECT_EQ(t, slab_pages_unreclaimable(), frames0);
	kmem_cache_destroy(s);
	EXPECT_SLAB_OK(t);
	void *k = kmalloc(64, GFP_TEST);		/* a kmalloc cache is never destroyed */
	kmem_cache_destroy(virt_to_slab(k)->slab_cache);
	kfree(k);
	KTEST_EXPECT_TRUE(t, kmalloc(64, GFP_TEST) == k);	/* still there, same object */
	kfree(k);
	EXPECT_SLAB_OK(t);
}

/* Frees in any order over several slabs (the active one, partial ones, full ones going
 * partial, partial ones going empty) keep every list and counter right. */
static void frees_across_slabs(struct ktest *t)
{
	static void *objs[6 * 64];
	struct kmem_cache *s = kmem_cache_create("ktest_across", 64, 0, 0, NULL);
	unsigned int x = 12345;

	KTEST_ASSERT_TRUE(t, s != NULL);
	unsigned int n = min((unsigned int)ARRAY_SIZE(objs), 6 * s->objects);
	for (int round = 0; round < 3; round++) {
		for (unsigned int i = 0; i < n; i++)
			if (!objs[i]) {
				objs[i] = kmem_cache_alloc(s, GFP_TEST);
				KTEST_ASSERT_TRUE(t, objs[i] != NULL);
				memset(objs[i], (int)i, 64);
			}
		EXPECT_SLAB_OK(t);
		for (unsigned int k = 0; k < n; k++) {	/* free about two thirds, scattered */
			x = x * 1103515245 + 12345;
			unsigned int i = (x >> 8) % n;
			if (objs[i] && (x & 3)) {
				KTEST_EXPECT_EQ(t, ((unsigned char *)objs[i])[63], (unsigned char)i);
				kmem_cache_free(s, objs[i]);
				objs[i] = NULL;
			}
		}
		EXPECT_SLAB_OK(t);
		KTEST_EXPECT_LE(t, slab_empty_slabs(s), s->min_partial);
	}
	for (unsigned int i = 0; i < n; i++)
		if (objs[i]) {
			kmem_cache_free(s, objs[i]);
			objs[i] = NULL;
		}
	kmem_cache_shrink(s);
	KTEST_EXPECT_EQ(t, s->nr_slabs, 0);
	kmem_cache_destroy(s);
	EXPECT_SLAB_OK(t);
}

/* Reclaim's hook: the slab allocator's shrinker gives back the empty slabs caches keep. */
static void shrinker_gives_back_empty_slabs(struct ktest *t)
{
	struct kmem_cache *s = kmem_cache_create("ktest_shrink", 256, 0, 0, NULL);
	static void *objs[8 * 16];

	KTEST_ASSERT_TRUE(t, s != NULL);
	unsigned int n = min((unsigned int)ARRAY_SIZE(objs), 8 * s->objects);
	for (unsigned int i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(s, GFP_TEST);
		KTEST_ASSERT_TRUE(t, objs[i] != NULL);
	}
	for (unsigned int i = 0; i < n; i++)
		kmem_cache_free(s, objs[i]);
	flush_cpu_slab(s);
	unsigned long kept = slab_empty_slabs(s), frames = slab_pages_unreclaimable();
	KTEST_EXPECT_GT(t, kept, 0);
	KTEST_EXPECT_LE(t, kept, s->min_partial);
	unsigned long freed = shrink_slab(GFP_KERNEL, 0, NULL, 0);	/* priority 0: everything */
	KTEST_EXPECT_GE(t, freed, kept << s->order);
	KTEST_EXPECT_EQ(t, slab_empty_slabs(s), 0);
	KTEST_EXPECT_EQ(t, s->nr_slabs, 0);
	KTEST_EXPECT_EQ(t, slab_pages_unreclaimable(), frames - freed);
	KTEST_EXPECT_EQ(t, shrink_slab(GFP_KERNEL, 0, NULL, 0), 0);	/* nothing left to give */
	kmem_cache_destroy(s);
	EXPECT_SLAB_OK(t);
}

/* ---- debug reports: each found, the object kept out, the kernel going on ---- */

static struct kmem_cache *debug_cache(const char *name)
{
	return kmem_cache_create(name, 24, 0, SLAB_DEBUG_FLAGS, NULL);
}

static void redzone_overflow_is_caught_at_free(struct ktest *t)
{
	struct kmem_cache *s = debug_cache("ktest_overflow");
	KTEST_ASSERT_TRUE(t, s != NULL);
	unsigned char *p = kmem_cache_alloc(s, GFP_TEST);
	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_EQ(t, p[24], SLUB_RED_ACTIVE);		/* the right red zone */
	KTEST_EXPECT_EQ(t, p[-1], SLUB_RED_ACTIVE);		/* and the left one */
	unsigned long bugs = nr_slab_bugs, used = s->total_objects - slab_free_objects(s);
	p[24] = 0;					/* one byte too far */
	kmem_cache_free(s, p);
	KTEST_EXPECT_EQ(t, nr_slab_bugs, bugs + 1);
	KTEST_EXPECT_EQ(t, s->total_objects - slab_free_objects(s), used);	/* not freed */
	KTEST_EXPECT_EQ(t, p[24], SLUB_RED_ACTIVE);		/* restored */
	void *q = kmem_cache_alloc(s, GFP_TEST);		/* the kernel goes on */
	KTEST_EXPECT_TRUE(t, q != NULL && q != p);
	kmem_cache_free(s, q);
	EXPECT_SLAB_OK(t);
}

static void write_after_free_is_caught_at_allocation(struct ktest *t)
{
	struct kmem_cache *s = debug_cache("ktest_uaf");
	KTEST_ASSERT_TRUE(t, s != NULL);
	unsigned char *p = kmem_cache_alloc(s, GFP_TEST);
	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_EQ(t, p[0], POISON_FREE);			/* fresh objects read as poison */
	KTEST_EXPECT_EQ(t, p[23], POISON_END);
	kmem_cache_free(s, p);
	unsigned long bugs = nr_slab_bugs;
	p[5] = 0x42;					/* the bug */
	void *q = kmem_cache_alloc(s, GFP_TEST);		/* would have been p */
	KTEST_EXPECT_EQ(t, nr_slab_bugs, bugs + 1);
	KTEST_EXPECT_TRUE(t, q != NULL && q != p);
	KTEST_EXPECT_TRUE(t, virt_to_slab(q) != virt_to_slab(p));	/* p's slab is never used again */
	KTEST_EXPECT_EQ(t, virt_to_slab(p)->inuse, virt_to_slab(p)->objects);
	kmem_cache_free(s, q);
	EXPECT_SLAB_OK(t);
}

static void double_free_is_caught(struct ktest *t)
{
	struct kmem_cache *s = debug_cache("ktest_double");
	KTEST_ASSERT_TRUE(t, s != NULL);
	void *keep = kmem_cache_alloc(s, GFP_TEST), *p = kmem_cache_alloc(s, GFP_TEST);
	KTEST_ASSERT_TRUE(t, keep && p);
	kmem_cache_free(s, p);
	unsigned long bugs = nr_slab_bugs, freeobj = slab_free_objects(s);
	kmem_cache_free(s, p);
	KTEST_EXPECT_EQ(t, nr_slab_bugs, bugs + 1);
	KTEST_EXPECT_EQ(t, slab_free_objects(s), freeobj);	/* on the free list once */
	void *a = kmem_cache_alloc(s, GFP_TEST), *b = kmem_cache_alloc(s, GFP_TEST);
	KTEST_EXPECT_TRUE(t, a != b);			/* handed out once */
	kmem_cache_free(s, a);
	kmem_cache_free(s, b);
	kmem_cache_free(s, keep);
	EXPECT_SLAB_OK(t);
	kmem_cache_destroy(s);
}

/* Wrong cache, a pointer into an object, a pointer outside RAM: reported, nothing freed. */
static void bad_frees_are_reported(struct ktest *t)
{
	struct kmem_cache *a = debug_cache("ktest_wrong_a"), *b = debug_cache("ktest_wrong_b");
	KTEST_ASSERT_TRUE(t, a && b);
	char *p = kmem_cache_alloc(a, GFP_TEST), *k = kmalloc(64, GFP_TEST);
	KTEST_ASSERT_TRUE(t, p && k);
	unsigned long bugs = nr_slab_bugs, fa = slab_free_objects(a), fb = slab_free_objects(b);
	kmem_cache_free(b, p);				/* the wrong cache */
	KTEST_EXPECT_EQ(t, nr_slab_bugs, bugs + 1);
	KTEST_EXPECT_EQ(t, slab_free_objects(a), fa);
	KTEST_EXPECT_EQ(t, slab_free_objects(b), fb);
	kfree(k + 8);					/* inside an object */
	KTEST_EXPECT_EQ(t, nr_slab_bugs, bugs + 2);
	kfree((void *)(uintptr_t)0x1000);		/* no RAM there on any board */
	KTEST_EXPECT_EQ(t, nr_slab_bugs, bugs + 3);
	struct page *pg = alloc_page(GFP_TEST);		/* inside a page-allocator block */
	KTEST_ASSERT_TRUE(t, pg != NULL);
	kfree((char *)page_address(pg) + 100);
	KTEST_EXPECT_EQ(t, nr_slab_bugs, bugs + 4);
	KTEST_EXPECT_EQ(t, page_ref_count(pg), 1);	/* still the caller's */
	__free_page(pg);
	/* kmalloc-192 (no power of two): inside an object, and the slot-sized tail past the last
	 * object, which is a whole number of slots from the slab's start but no object. */
	char *q = kmalloc(150, GFP_TEST);
	KTEST_ASSERT_TRUE(t, q != NULL);
	struct slab *qs = virt_to_slab(q);
	struct kmem_cache *c = qs->slab_cache;
	kfree(q + c->size / 2);
	KTEST_EXPECT_EQ(t, nr_slab_bugs, bugs + 5);
	char *tail = (char *)slab_address(qs) + c->red_left_pad + (size_t)qs->objects * c->size;
	unsigned long expect = bugs + 5;
	if (tail + c->size <= (char *)slab_address(qs) + (PAGE_SIZE << slab_order(qs))) {
		kfree(tail);			/* only when a whole extra slot fits in the tail */
		expect++;
	} else if (tail < (char *)slab_address(qs) + (PAGE_SIZE << slab_order(qs))) {
		kfree(tail);			/* a partial tail: still no object */
		expect++;
	}
	KTEST_EXPECT_EQ(t, nr_slab_bugs, expect);
	kfree(q);
	kmem_cache_free(a, p);
	kfree(k);
	KTEST_EXPECT_EQ(t, nr_slab_bugs, expect);
	EXPECT_SLAB_OK(t);
	kmem_cache_destroy(a);
	kmem_cache_destroy(b);
}

static const struct ktest_case slab_cases[] = {
	KTEST_CASE(every_size_class), KTEST_CASE(zero_size_and_impossible_sizes),
	KTEST_CASE(kzalloc_and_krealloc), KTEST_CASE(cache_alignment_and_constructor),
	KTEST_CASE(slab_pages_are_typed), KTEST_CASE(empty_slabs_go_back),
	KTEST_CASE(shrinker_gives_back_empty_slabs), KTEST_CASE(frees_across_slabs),
	KTEST_CASE(redzone_overflow_is_caught_at_free),
	KTEST_CASE(write_after_free_is_caught_at_allocation), KTEST_CASE(double_free_is_caught),
	KTEST_CASE(bad_frees_are_reported),
	{}
};
KTEST_SUITE_EXPLICIT(slab, slab_cases);
