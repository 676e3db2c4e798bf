/*
 * slab.h - small objects from slabs of buddy pages (mm/slub.c, mm/slab_common.c), Linux's names
 * and meaning (v6.10's SLUB, in miniature):
 *
 *   kmem_cache_create(name, size, align, flags, ctor)   a cache of equal objects, or NULL
 *   kmem_cache_alloc(s, gfp) / kmem_cache_free(s, obj)   one object
 *   kmem_cache_shrink(s) / kmem_cache_destroy(s)          give empty slabs back / the cache
 *   kmalloc(size, gfp), kzalloc, kfree, krealloc, ksize  by size: classes 8 ... 2048 bytes (plus
 *                                                        96 and 192), larger from the page allocator
 *
 * kmalloc(0) returns ZERO_SIZE_PTR, which kfree() accepts and nothing may dereference; a size
 * above KMALLOC_MAX_SIZE returns NULL with a warning.  Debugging (red zones, poisoning, checks
 * on every free) is per cache: on with tinymm.slub_debug, and by default in debug builds.
 */
#ifndef TINYMM_SLAB_H
#define TINYMM_SLAB_H

#include <stddef.h>
#include "gfp.h"
#include "mm.h"

typedef unsigned int slab_flags_t;

/* v6.10's values. */
#define SLAB_CONSISTENCY_CHECKS	0x00000100U	/* F: check every free (double, wrong cache) */
#define SLAB_RED_ZONE		0x00000400U	/* Z: guard bytes either side of each object */
#define SLAB_POISON		0x00000800U	/* P: fill free objects, verify at allocation */
#define SLAB_HWCACHE_ALIGN	0x00002000U	/* align objects to a cache line */
#define SLAB_CACHE_DMA		0x00004000U	/* slab pages from ZONE_DMA */
#define SLAB_RECLAIM_ACCOUNT	0x00020000U	/* counted as SReclaimable */
#define SLAB_PANIC		0x00040000U	/* kmem_cache_create() failing is fatal */
/* Freed objects stay objects of this cache: a reader without a reference may still read one
 * (lib/xarray.c's nodes).  v6.10 gives the slab pages back after an RCU grace period; tinymm
 * has no RCU, so they are never given back while the cache lives (kmem_cache_shrink and the
 * slab shrinker pass it by), and the free pointer sits outside the object. */
#define SLAB_TYPESAFE_BY_RCU	0x00080000U
#define SLAB_DEBUG_FLAGS	(SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE | SLAB_POISON)

#define ZERO_SIZE_PTR		((void *)16)
#define ZERO_OR_NULL_PTR(x)	((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

#define KMALLOC_MIN_SIZE	8
#define KMALLOC_SHIFT_HIGH	(PAGE_SHIFT - 1)
#define KMALLOC_MAX_CACHE_SIZE	(1UL << KMALLOC_SHIFT_HIGH)	/* half a page: larger is pages */
#define KMALLOC_MAX_SIZE	(1UL << (MAX_PAGE_ORDER + PAGE_SHIFT))
#define ARCH_KMALLOC_MINALIGN	8

struct kmem_cache;

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     slab_flags_t flags, void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *s);
int kmem_cache_shrink(struct kmem_cache *s);
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp);
void kmem_cache_free(struct kmem_cache *s, void *obj);
unsigned int kmem_cache_size(const struct kmem_cache *s);	/* object_size */

void *kmalloc(size_t size, gfp_t gfp);
void kfree(const void *obj);
void *krealloc(const void *obj, size_t new_size, gfp_t gfp);
size_t ksize(const void *obj);

static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	return kzalloc(n * size, gfp);
}

/* Boot: the kmalloc caches.  Again in host tests: forgets every cache, then recreates them. */
void kmem_cache_init(void);

/* Frames held in slabs, by reclaimability (meminfo's SReclaimable / SUnreclaim). */
unsigned long slab_pages_reclaimable(void);
unsigned long slab_pages_unreclaimable(void);

/* Verify every cache's slabs and free lists (and, with red zones, every red zone); prints each
 * problem through @pr (NULL: quiet); returns their number. */
int slab_check(int (*pr)(const char *fmt, ...));

/* The cache a slab page belongs to, or NULL if @page is no slab page (dump_page, `page`). */
const char *slab_cache_name_of(const struct page *page);

/* mm/slub.c's reports: violations found (debug caches, kfree of a non-object). */
extern unsigned long nr_slab_bugs;
#endif
