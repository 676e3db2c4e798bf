/*
 * slab_common.c - the slab allocator's interface: kmem_cache_create/destroy, kmalloc and
 * friends over the size classes, large kmalloc from the page allocator, kfree of anything,
 * slab_check(), and the `slabinfo`, `kmalloc`, `kfree`, `slabcheck` commands (v6.10's
 * mm/slab_common.c, in miniature).
 *
 * kmalloc(size) -> the class: sizes up to 192 by a table of (size - 1) / 8 (so 96 and 192 are
 * classes, as in Linux), above by compares (no clz on rv32imac) -> slab_alloc() of that cache.
 * Above KMALLOC_MAX_CACHE_SIZE (half a page) whole pages: a compound page of the order that
 * fits.  kfree(p) -> the page of p: a slab page -> its cache, if p is an object's start; a
 * page-allocator block -> the folio, if p is its start; anything else -> a report, nothing freed.
 * Locking: slab_caches_lock guards the list of caches; the rest is mm/slub.c's.
 *
 * Where tinymm differs from v6.10, and why: kmem_cache_free() of an object of another cache
 * frees nothing and reports it (v6.10 WARNs "Wrong slab cache" and frees to the right one).
 * A cache destroyed
 * with objects left names the caller's function, kmem_cache_destroy() (v6.10's message names
 * __kmem_cache_shutdown()).
 */
#include <string.h>
#include "tinymm/cache.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/shrinker.h"
#include "slab.h"

#define NR_KMALLOC		(KMALLOC_SHIFT_HIGH + 1)

/* [0]: normal, [1]: __GFP_DMA.  Index 1 is 96 bytes, 2 is 192, i (3..) is 2^i. */
static struct kmem_cache kmalloc_caches[2][NR_KMALLOC];
static struct kmem_cache kmem_cache_boot;	/* the cache of struct kmem_cache */
static char kmalloc_names[2][NR_KMALLOC][20];

/* kmalloc_size_index: the class of sizes 1..192, by (size - 1) / 8. */
static const unsigned char size_index[24] = {
	3, 4, 5, 5, 6, 6, 6, 6, 1, 1, 1, 1, 7, 7, 7, 7, 2, 2, 2, 2, 2, 2, 2, 2,
};

/* The same as cache pointers, filled by kmem_cache_init: kmalloc's lookup is one load.  In
 * small data: on RISC-V one gp-relative add finds it instead of auipc + addi. */
static struct kmem_cache *kmalloc_small[24] __small_data;

static unsigned int kmalloc_size(unsigned int i)
{
	return i == 1 ? 96 : i == 2 ? 192 : 1u << i;
}

static void add_cache(struct kmem_cache *s)
{
	unsigned long flags;

	spin_lock_irqsave(&slab_caches_lock, flags);
	s->next = slab_caches;
	slab_caches = s;
	spin_unlock_irqrestore(&slab_caches_lock, flags);
}

void kmem_cache_init(void)
{
	slab_caches = NULL;
	slub_reset();
	shrinker_register(&slab_shrinker);
	if (kmem_cache_open(&kmem_cache_boot, "kmem_cache", sizeof(struct kmem_cache), 0,
			    SLAB_HWCACHE_ALIGN | slub_debug, NULL))
		panic("slab: cannot make the kmem_cache cache");
	add_cache(&kmem_cache_boot);
	for (int dma = 0; dma < 2; dma++)
		for (unsigned int i = 1; i < NR_KMALLOC; i++) {
			unsigned int size = kmalloc_size(i);
			char *name = kmalloc_names[dma][i];
			if (size >= 1024)
				ksnprintf(name, 20, "%skmalloc-%uk", dma ? "dma-" : "", size >> 10);
			else
				ksnprintf(name, 20, "%skmalloc-%u", dma ? "dma-" : "", size);
			/* Power-of-two sizes are aligned to their size (Linux's guarantee). */
			unsigned int align = (size & (size - 1)) ? 0 : size;
			if (kmem_cache_open(&kmalloc_caches[dma][i], name, size, align,
					    slub_debug | (dma ? SLAB_CACHE_DMA : 0), NULL))
				panic("slab: cannot make %s", name);
			add_cache(&kmalloc_caches[dma][i]);
		}
	for (unsigned int e = 0; e < ARRAY_SIZE(size_index); e++)
		kmalloc_small[e] = &kmalloc_caches[0][size_index[e]];
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     slab_flags_t flags, void (*ctor)(void *))
{
	struct kmem_cache *s = NULL;

	if (name && size && !(align & (align - 1)))
		s = slab_alloc(&kmem_cache_boot, GFP_KERNEL);
	if (s && kmem_cache_open(s, name, size, align, (flags & ~SLAB_PANIC) | slub_debug, ctor)) {
		slab_free(&kmem_cache_boot, virt_to_slab(s), s);
		s = NULL;
	}
	if (!s) {
		if (flags & SLAB_PANIC)
			panic("kmem_cache_create: cannot make %s", name ? name : "(null)");
		printk(KERN_WARNING "kmem_cache_create(%s) failed: size %u align %u\n",
		       name ? name : "(null)", size, align);
		return NULL;
	}
	add_cache(s);
	return s;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	unsigned long flags;

	if (!s)
		return;
	struct slab *own = virt_to_slab(s);
	if (!own || own->slab_cache != &kmem_cache_boot) {
		printk(KERN_WARNING "kmem_cache_destroy(%s): a boot cache (kmalloc, kmem_cache) stays\n",
		       s->name);
		return;
	}
	__kmem_cache_discard_empty(s);
	if (s->nr_slabs) {
		/* The cache stays (see the header for the message). */
		slab_bug(s, "Objects remaining on kmem_cache_destroy()");
		printk(KERN_ERR "%lu objects in %lu slabs still allocated\n",
		       s->total_objects - slab_free_objects(s), s->nr_slabs);
		return;
	}
	spin_lock_irqsave(&slab_caches_lock, flags);
	for (struct kmem_cache **pp = &slab_caches; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	slab_free(&kmem_cache_boot, virt_to_slab(s), s);
}

__fastpath void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp)
{
	if (unlikely((gfp & __GFP_ZERO) || s->debug))
		return slab_alloc(s, gfp);
	return slab_alloc_fast(s, gfp);
}

/* "BUG <cache>: <fn>: <address> <what>" (no cache known: "kmalloc"), then the taint. */
static void free_bug(const char *fn, const struct kmem_cache *s, const void *obj, const char *what)
{
	char msg[96];

	ksnprintf(msg, sizeof(msg), "%s: 0x%lx %s", fn, (unsigned long)obj, what);
	slab_bug(s, msg);
	slab_bug_end(s, NULL, obj);
}

/*
 * The slab holding @obj, without trusting @obj: its page in the hot memmap bank, that page's
 * head, the slab page type.  NULL sends the caller to its slow path (which also searches every
 * bank).
 */
static inline struct slab *slab_of(const void *obj, struct page **pagep)
{
	const struct memmap_bank *b = memmap_hot_bank;
	unsigned long i = PHYS_PFN(__pa(obj)) - b->start_pfn;

	if (unlikely(i >= b->nr_pages))
		return NULL;
	struct page *page = b->map + i, *head = compound_head(page);
	if (unlikely(head->page_type != ~PG_slab))
		return NULL;
	*pagep = page;
	return page_slab(head);
}

/*
 * May the fast path free @obj: is it an object's start, in a cache without debugging?  Power-of-
 * two slots: an aligned address.  Others: a whole number of slots from the slab's first byte
 * (@obj's page start less the slab's pages before it: tinymm's kernel addresses are linear over
 * RAM), below the last slot.  A debug cache's mask fails every address: its frees are checked.
 */
static inline bool plain_object_at(const struct kmem_cache *s, const struct slab *slab,
				   const struct page *page, const void *obj)
{
	if (likely(s->free_mask))
		return !((uintptr_t)obj & s->free_mask);
	uintptr_t off = ((uintptr_t)obj & (PAGE_SIZE - 1)) +
			((uintptr_t)(page - slab_page(slab)) << PAGE_SHIFT);
	return !(off % s->size) && off / s->size < slab->objects;
}

static __attribute__((noinline)) void kmem_cache_free_slow(struct kmem_cache *s, void *obj)
{
	struct slab *slab = virt_to_slab(obj);

	if (unlikely(!slab || slab->slab_cache != s || !slab_object_at(s, slab, obj))) {
		/* Nothing freed (see the header). */
		free_bug("kmem_cache_free", s, obj, !slab ? "is not a slab object" :
			 slab->slab_cache != s ? "belongs to another cache" :
			 "is not the start of an object");
		return;
	}
	slab_free(s, slab, obj);
}

__fastpath void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	struct page *page;
	struct slab *slab = slab_of(obj, &page);

	if (unlikely(!slab || slab->slab_cache != s || !plain_object_at(s, slab, page, obj)))
		return kmem_cache_free_slow(s, obj);
	slab_free_fast(s, slab, obj);
}

/* ---- kmalloc ---- */

static void *kmalloc_large(size_t size, gfp_t gfp)
{
	if (size > KMALLOC_MAX_SIZE) {
		/* A warning as alloc_pages' WARN_ON_ONCE_GFP gives: not with __GFP_NOWARN. */
		if (!(gfp & __GFP_NOWARN)) {
			printk(KERN_WARNING "kmalloc: %lu bytes is above KMALLOC_MAX_SIZE (%lu)\n",
			       (unsigned long)size, KMALLOC_MAX_SIZE);
			WARN_ON_ONCE(1);
		}
		return NULL;
	}
	unsigned int order = 0;
	while ((PAGE_SIZE << order) < size)
		order++;
	struct page *page = alloc_pages(gfp | __GFP_COMP, order);
	return page ? page_address(page) : NULL;
}

/* Sizes 0 and above KMALLOC_MAX_CACHE_SIZE, __GFP_DMA, __GFP_ZERO and debug caches. */
static __attribute__((noinline)) void *kmalloc_slow(size_t size, gfp_t gfp, struct kmem_cache *s)
{
	if (!size)
		return ZERO_SIZE_PTR;
	if (size > KMALLOC_MAX_CACHE_SIZE)
		return kmalloc_large(size, gfp);
	if (gfp & __GFP_DMA)	/* the same class among the dma-kmalloc caches */
		s = &kmalloc_caches[1][s - kmalloc_caches[0]];
	return slab_alloc(s, gfp);
}

__fastpath void *kmalloc(size_t size, gfp_t gfp)
{
	struct kmem_cache *s;

	if (likely(size - 1 < 192))
		s = kmalloc_small[(size - 1) >> 3];
	else if (likely(size - 1 < KMALLOC_MAX_CACHE_SIZE))
		s = &kmalloc_caches[0][size <= 256 ? 8 : size <= 512 ? 9 : size <= 1024 ? 10 : 11];
	else
		return kmalloc_slow(size, gfp, NULL);
	if (unlikely((gfp & (__GFP_DMA | __GFP_ZERO)) || s->debug))
		return kmalloc_slow(size, gfp, s);
	return slab_alloc_fast(s, gfp);
}
_Static_assert(KMALLOC_SHIFT_HIGH == 11, "kmalloc's compares stop at 2048 bytes");

/* Everything kfree's fast path does not take: reports for what is no object. */
static __attribute__((noinline)) void kfree_slow(const void *obj)
{
	struct page *page = virt_to_page(obj);
	struct page *head = page ? compound_head(page) : NULL;

	if (head && PageSlab(head)) {
		struct slab *slab = page_slab(head);
		struct kmem_cache *s = slab->slab_cache;
		if (slab_object_at(s, slab, obj))
			slab_free(s, slab, (void *)obj);
		else
			free_bug("kfree", s, obj, "is not the start of an object");
		return;
	}
	/* A large kmalloc, or any block of the page allocator: its start, in use, not reserved. */
	if (!head || page_address(head) != obj || page_ref_count(head) <= 0 || PageReserved(head)) {
		free_bug("kfree", NULL, obj, !head ? "is not in memory" :
			 "is not a slab object or the start of an allocated block");
		return;
	}
	folio_put(page_folio(head));
}

__fastpath void kfree(const void *obj)
{
	struct page *page;

	if (unlikely(ZERO_OR_NULL_PTR(obj)))
		return;
	struct slab *slab = slab_of(obj, &page);
	if (unlikely(!slab))
		return kfree_slow(obj);
	struct kmem_cache *s = slab->slab_cache;
	if (unlikely(!plain_object_at(s, slab, page, obj)))
		return kfree_slow(obj);
	slab_free_fast(s, slab, (void *)obj);
}

size_t ksize(const void *obj)
{
	if (ZERO_OR_NULL_PTR(obj))
		return 0;
	struct slab *slab = virt_to_slab(obj);
	if (slab) {
		const struct kmem_cache *s = slab->slab_cache;
		/* slab_ksize(): the whole slot unless debugging guards its end. */
		return s->flags & (SLAB_RED_ZONE | SLAB_POISON) ? s->object_size :
		       s->offset >= s->object_size ? s->offset : s->size - s->red_left_pad;
	}
	struct page *page = virt_to_page(obj);
	return page ? PAGE_SIZE << folio_order(page_folio(page)) : 0;
}

void *krealloc(const void *obj, size_t new_size, gfp_t gfp)
{
	if (!new_size) {
		kfree(obj);
		return ZERO_SIZE_PTR;
	}
	size_t ks = ksize(obj);
	if (ks >= new_size) {
		if (gfp & __GFP_ZERO)
			memset((char *)obj + new_size, 0, ks - new_size);
		return (void *)obj;
	}
	void *p = kmalloc(new_size, gfp);
	if (p && ks) {
		memcpy(p, obj, ks);
		kfree(obj);
	}
	return p;
}
