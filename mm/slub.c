/*
 * slub.c - caches of equal objects in slabs of buddy pages (v6.10's mm/slub.c, in miniature).
 *
 * kmem_cache_alloc() -> slab_alloc(): pop this CPU's freelist (the active slab's free objects),
 * irqs masked, no lock (the freelist is this CPU's alone; other CPUs reach it only by asking
 * this one: flush_cpu_slab(), slab_free_objects()).  Empty: ___slab_alloc() takes the active slab's own freelist, else a
 * partial slab, else a new slab from alloc_pages(); the slab becomes the active one (frozen).
 * kmem_cache_free() -> slab_free(): an object of the active slab is pushed on this CPU's
 * freelist; any other goes on its slab's freelist under s->lock (__slab_free), moving the slab
 * from full to partial, and an empty slab beyond min_partial back to the page allocator.
 * Debug caches (mm/slub_debug.c) skip the active slab and check every step.
 *
 * Invariants and locking: mm/slab.h.  slab_check() verifies the counts and lists.  Where tinymm
 * differs from v6.10, and why: mm/slab.h's header (one node, no cmpxchg_double: slab_lock).
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/cmdline.h"
#include "tinymm/irqflags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shrinker.h"
#include "slab.h"

struct kmem_cache *slab_caches;
DEFINE_SPINLOCK(slab_caches_lock);
unsigned long nr_slab_bugs;
static unsigned int slub_min_partial_param;	/* tinymm.slub_min_partial; 0: Linux's rule */
/* [reclaimable] frames in slabs: atomic, as slabs of different caches come and go under their
 * own locks (and the shrinker's from kswapd). */
static atomic_long_t nr_slab_pages[2];

KPARAM_UINT(slub_min_partial, slub_min_partial_param, 1, 1000,
	    "empty slabs a cache keeps before giving them back (default: v6.10's 5..10 by size)");

/* ---- geometry (calculate_sizes / calculate_order) ---- */

static unsigned int fls_u(unsigned long x)
{
	unsigned int n = 0;

	while (x) {
		n++;
		x >>= 1;
	}
	return n;
}

static unsigned int get_order_bytes(unsigned long size)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < size)
		order++;
	return order;
}

/* The smallest order from @min_order up to @max_order leaving at most 1/@fract of the slab unused. */
static unsigned int calc_slab_order(unsigned int size, unsigned int min_order, unsigned int max_order,
				    unsigned int fract)
{
	unsigned int order;

	for (order = min_order; order <= max_order; order++) {
		unsigned long slab_size = PAGE_SIZE << order;
		if (slab_size % size <= slab_size / fract)
			break;
	}
	return order;
}

static unsigned int calculate_order(unsigned int size)
{
	/* min_objects = 4 * (fls(nr_cpus) + 1), nr_cpus the CPUs there are (v6.10: present, else
	 * nr_cpu_ids), not NR_CPUS; slub_max_order = PAGE_ALLOC_COSTLY_ORDER. */
	unsigned int min_objects = 4 * (fls_u(max(cpumask_weight(cpu_possible_mask), 1U)) + 1);
	unsigned int max_objects = (unsigned int)max((PAGE_SIZE << PAGE_ALLOC_COSTLY_ORDER) / size, 1UL);
	unsigned int min_order;

	min_objects = min(min_objects, max_objects);
	min_order = get_order_bytes((unsigned long)min_objects * size);
	for (unsigned int fract = 16; fract > 1; fract /= 2) {
		unsigned int order = calc_slab_order(size, min_order, PAGE_ALLOC_COSTLY_ORDER, fract);
		if (order <= PAGE_ALLOC_COSTLY_ORDER)
			return order;
	}
	return get_order_bytes(size);	/* one object does not fit the costly order */
}

static unsigned int calculate_alignment(slab_flags_t flags, unsigned int align, unsigned int size)
{
	if (flags & SLAB_HWCACHE_ALIGN) {
		unsigned int ralign = 64;	/* L1 line of every tinymm board */
		while (size <= ralign / 2)
			ralign /= 2;
		align = max(align, ralign);
	}
	align = max(align, 8u);		/* ARCH_SLAB_MINALIGN: alignof(unsigned long long) */
	return ALIGN(align, (unsigned int)sizeof(void *));
}

static unsigned long slab_random_seed = 0x9e3779b9UL;

int kmem_cache_open(struct kmem_cache *s, const char *name, unsigned int size,
		    unsigned int align, slab_flags_t flags, void (*ctor)(void *))
{
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->object_size = size;
	s->ctor = ctor;
	s->flags = flags;
	s->align = calculate_alignment(flags, align, size);
	spin_lock_init(&s->lock);
	page_list_init(&s->partial);
	page_list_init(&s->full);

	unsigned int sz = ALIGN(size, (unsigned int)sizeof(void *));
	if ((flags & SLAB_RED_ZONE) && sz == size)
		sz += sizeof(void *);		/* room for a right red zone */
	s->inuse = sz;
	if ((flags & (SLAB_POISON | SLAB_RED_ZONE | SLAB_TYPESAFE_BY_RCU)) || ctor) {
		/* Keep the free pointer out of the object: the poison and the constructed state
		 * stay whole, an overflow hits the red zone before it, and a type-safe object
		 * freed under a reader keeps its fields (a hardened pointer is any bits). */
		s->offset = sz;
		sz += sizeof(void *);
	} else {
		/* Mid-object: a small overflow from the previous slot misses it. */
		s->offset = ALIGN_DOWN(size / 2, (unsigned int)sizeof(void *));
	}
	if (flags & SLAB_RED_ZONE) {
		s->red_left_pad = ALIGN((unsigned int)sizeof(void *), s->align);
		sz += s->red_left_pad;
	}
	s->size = ALIGN(sz, s->align);
	if (!size || s->size > (PAGE_SIZE << MAX_PAGE_ORDER))
		return -1;
	s->order = calculate_order(s->size);
	s->min_order = get_order_bytes(s->size);
	s->objects = (unsigned int)((PAGE_SIZE << s->order) / s->size);
	if (s->objects > 0x7fff)	/* objects has 15 bits */
		return -1;
	/* set_min_partial(): ilog2(size) / 2, between MIN_PARTIAL 5 and MAX_PARTIAL 10. */
	s->min_partial = slub_min_partial_param ? slub_min_partial_param :
			 min(10u, max(5u, (fls_u(s->size) - 1) / 2));
	if (flags & SLAB_TYPESAFE_BY_RCU)
		s->min_partial = ~0U;		/* empty slabs stay (slab.h) */
	s->debug = (flags & SLAB_DEBUG_FLAGS) != 0;
	/* kfree's start-of-object test: with power-of-two slots in page-aligned slabs an object
	 * start is an aligned address, and the slab holds no tail to exclude. */
	s->free_mask = s->debug ? ~0UL :
		       !(s->size & (s->size - 1)) && s->size <= PAGE_SIZE ? s->size - 1 : 0;
	s->allocflags = (flags & SLAB_RECLAIM_ACCOUNT ? __GFP_RECLAIMABLE : 0) |
			(flags & SLAB_CACHE_DMA ? __GFP_DMA : 0);
	slab_random_seed = slab_random_seed * 6364136223846793005ULL + (unsigned long)arch_counter_read();
	s->random = slab_random_seed | 1;
	return 0;
}

/* ---- slabs ---- */

struct slab *virt_to_slab(const void *obj)
{
	struct page *page = virt_to_page(obj);

	if (!page)
		return NULL;
	page = compound_head(page);
	return PageSlab(page) ? page_slab(page) : NULL;
}

static struct slab *allocate_slab(struct kmem_cache *s, gfp_t gfp)
{
	gfp_t g = (gfp & ~(__GFP_ZERO | __GFP_MOVABLE | __GFP_RECLAIMABLE | __GFP_DMA)) | s->allocflags;
	unsigned int order = s->order;
	/* The first try gives up early (__GFP_NORETRY); a higher order than one object
	 * needs is an optimisation, not worth reclaiming for (no reclaim, no reserves).  The second
	 * try, at the order one object needs, may do everything the caller allowed. */
	gfp_t first = g | __GFP_NOWARN | __GFP_NORETRY;
	if ((first & __GFP_DIRECT_RECLAIM) && order > s->min_order)
		first = (first | __GFP_NOMEMALLOC) & ~__GFP_RECLAIM;
	struct page *page = alloc_pages(first | (order ? __GFP_COMP : 0), order);

	if (!page) {
		order = s->min_order;
		page = alloc_pages(g | (order ? __GFP_COMP : 0), order);
	}
	if (!page)
		return NULL;
	struct slab *slab = page_slab(page);
	__SetPageSlab(page);
	slab->slab_cache = s;
	slab->counters = 0;
	slab->objects = (PAGE_SIZE << order) / s->size;
	char *base = page_address(page), *prev = NULL;
	for (unsigned int i = 0; i < slab->objects; i++) {
		void *obj = base + (size_t)i * s->size + s->red_left_pad;
		if (kmem_cache_debug(s))
			setup_object_debug(s, obj);
		if (s->ctor)
			s->ctor(obj);
		if (prev)
			set_freepointer(s, prev, obj);
		else
			slab->freelist = obj;
		prev = obj;
	}
	set_freepointer(s, prev, NULL);
	atomic_long_add(1L << order, &nr_slab_pages[!!(s->flags & SLAB_RECLAIM_ACCOUNT)]);
	return slab;
}

static void discard_slab(struct kmem_cache *s, struct slab *slab)
{
	struct page *page = slab_page(slab);
	unsigned int order = slab_order(slab);

	__ClearPageSlab(page);
	slab->slab_cache = NULL;
	slab->freelist = NULL;
	slab->counters = 0;
	page->lru.next = page->lru.prev = 0;
	atomic_long_sub(1L << order, &nr_slab_pages[!!(s->flags & SLAB_RECLAIM_ACCOUNT)]);
	__free_pages(page, order);
}

/* Put @slab on the partial or the full list of @s; s->lock held. */
static void add_slab(struct kmem_cache *s, struct slab *slab, bool partial)
{
	lockdep_assert_held(&s->lock);
	page_list_add(partial ? &s->partial : &s->full, slab_page(slab));
	if (partial)
		s->nr_partial++;
	else
		s->nr_full++;
}

static void remove_slab(struct kmem_cache *s, struct slab *slab, bool partial)
{
	lockdep_assert_held(&s->lock);
	page_list_del(partial ? &s->partial : &s->full, slab_page(slab));
	if (partial)
		s->nr_partial--;
	else
		s->nr_full--;
}

/* A slab leaves its list (or the CPU) with @inuse objects used: where does it go?  s->lock
 * held.  Returns true if it must be discarded (the caller does it without the lock). */
static bool place_slab(struct kmem_cache *s, struct slab *slab)
{
	lockdep_assert_held(&s->lock);
	if (!slab->inuse && s->nr_partial >= s->min_partial) {
		s->nr_slabs--;
		s->total_objects -= slab->objects;
		return true;
	}
	add_slab(s, slab, slab->freelist != NULL);
	return false;
}

/* Return this CPU's active slab to the lists, its free objects to its freelist.  irqs masked,
 * on the CPU that owns @c. */
static void deactivate_slab(struct kmem_cache *s, struct kmem_cache_cpu *c)
{
	struct slab *slab = c->slab;
	void *freelist = c->freelist;
	unsigned int freed = 0;

	if (!slab)
		return;
	c->freelist = NULL;
	spin_lock(&s->lock);
	/* Other CPUs free into a frozen slab's own freelist meanwhile (slab_lock): ours joins it. */
	slab_lock(slab);
	for (void *obj = freelist, *next; obj; obj = next) {
		next = get_freepointer(s, obj);
		set_freepointer(s, obj, slab->freelist);
		slab->freelist = obj;
		freed++;
	}
	slab->frozen = 0;
	slab->inuse -= freed;
	c->slab = NULL;
	bool discard = place_slab(s, slab);
	slab_unlock(slab);
	spin_unlock(&s->lock);
	if (discard)
		discard_slab(s, slab);
}

/* Each CPU's own active slab back (v6.10's flush_all(): work on each CPU; here a cross-CPU
 * call, which runs with interrupts masked as the owner's fast paths need). */
static void flush_cpu_slab_local(void *info)
{
	struct kmem_cache *s = info;

	deactivate_slab(s, this_cpu_ptr(&s->cpu_slab));
}

/* @fn(@s) on every online CPU, interrupts masked: a CPU's cpu_slab is touched by that CPU
 * alone.  Interrupts must be on (smp_call_function_many's rule) when other CPUs are up. */
static void slab_on_each_cpu(smp_call_func_t fn, struct kmem_cache *s)
{
	unsigned long flags;

	if (num_online_cpus() > 1) {
		on_each_cpu(fn, s, true);
		return;
	}
	local_irq_save(flags);
	fn(s);
	local_irq_restore(flags);
}

void flush_cpu_slab(struct kmem_cache *s)
{
	slab_on_each_cpu(flush_cpu_slab_local, s);
}

static void __slab_free(struct kmem_cache *s, struct slab *slab, void *obj);

/* A slab with free objects for this CPU: the active one's freelist, a partial one, or a new one.
 * irqs masked on entry and exit (a new slab is allocated with them restored to @irqflags, after
 * which the task may be on another CPU: its cpu_slab is looked up again).  The active slab
 * changes and is frozen under s->lock and slab_lock, so slab_check() sees every CPU's. */
static void *___slab_alloc(struct kmem_cache *s, gfp_t gfp, unsigned long *irqflags)
{
	struct kmem_cache_cpu *c = this_cpu_ptr(&s->cpu_slab);
	struct slab *slab = c->slab;
	void *obj;

	if (slab) {
		spin_lock(&s->lock);
		slab_lock(slab);
		if (slab->freelist)		/* other CPUs' frees: take them */
			goto freeze;
		slab->frozen = 0;		/* full: off to the full list */
		slab_unlock(slab);
		add_slab(s, slab, false);
		c->slab = slab = NULL;
		spin_unlock(&s->lock);
	}
	spin_lock(&s->lock);
	slab = (struct slab *)page_list_first(&s->partial);
	if (slab) {
		remove_slab(s, slab, true);
		slab_lock(slab);
		goto freeze;
	}
	spin_unlock(&s->lock);
	local_irq_restore(*irqflags);
	slab = allocate_slab(s, gfp);
	local_irq_save(*irqflags);
	if (!slab)
		return NULL;
	c = this_cpu_ptr(&s->cpu_slab);
	spin_lock(&s->lock);
	s->nr_slabs++;
	s->total_objects += slab->objects;
	if (c->slab) {			/* an interrupt (or this CPU, if the task moved) has one */
		add_slab(s, slab, true);
		spin_unlock(&s->lock);
		obj = c->freelist;
		if (obj) {
			c->freelist = get_freepointer(s, obj);
			return obj;
		}
		return ___slab_alloc(s, gfp, irqflags);
	}
	slab_lock(slab);
freeze:
	/* Its whole freelist is this CPU's now. */
	c->slab = slab;
	slab->frozen = 1;
	obj = slab->freelist;
	slab->freelist = NULL;
	slab->inuse = slab->objects;
	slab_unlock(slab);
	spin_unlock(&s->lock);
	c->freelist = get_freepointer(s, obj);
	return obj;
}

/* The debug caches' allocation: from the lists, checked, under s->lock. */
static void *debug_slab_alloc(struct kmem_cache *s, gfp_t gfp)
{
	unsigned long flags;
	struct slab *slab;
	void *obj;

	for (;;) {
		spin_lock_irqsave(&s->lock, flags);
		slab = (struct slab *)page_list_first(&s->partial);
		if (!slab) {
			spin_unlock_irqrestore(&s->lock, flags);
			slab = allocate_slab(s, gfp);
			if (!slab)
				return NULL;
			spin_lock_irqsave(&s->lock, flags);
			s->nr_slabs++;
			s->total_objects += slab->objects;
			add_slab(s, slab, true);
		}
		obj = slab->freelist;
		if (alloc_debug_processing(s, slab, obj)) {
			slab->freelist = get_freepointer(s, obj);
			slab->inuse++;
			if (!slab->freelist) {
				remove_slab(s, slab, true);
				add_slab(s, slab, false);
			}
			spin_unlock_irqrestore(&s->lock, flags);
			return obj;
		}
		/* Corrupt: alloc_debug_processing marked every object used; move it to full and
		 * never hand out anything from it again. */
		remove_slab(s, slab, true);
		add_slab(s, slab, false);
		spin_unlock_irqrestore(&s->lock, flags);
	}
}

/* The fast path found this CPU's freelist empty (irqs masked as @irqflags says). */
void *slab_alloc_refill(struct kmem_cache *s, gfp_t gfp, unsigned long irqflags)
{
	void *obj = ___slab_alloc(s, gfp, &irqflags);

	local_irq_restore(irqflags);
	return obj;
}

/* The fast path's object is not in this CPU's active slab, and its slab changes lists (it was
 * full, or becomes empty): the locked way (irqs masked as @irqflags says).  The unlocked step
 * for a slab that stays partial is inline in slab_free_fast() (mm/slab.h). */
void slab_free_other(struct kmem_cache *s, struct slab *slab, void *obj, unsigned long irqflags)
{
	__slab_free(s, slab, obj);
	local_irq_restore(irqflags);
}

/* Every case: debug caches, __GFP_ZERO, and the fast path. */
void *slab_alloc(struct kmem_cache *s, gfp_t gfp)
{
	unsigned long flags;
	void *obj;

	if (unlikely(kmem_cache_debug(s))) {
		obj = debug_slab_alloc(s, gfp);
	} else {
		local_irq_save(flags);
		struct kmem_cache_cpu *c = this_cpu_ptr(&s->cpu_slab);
		obj = c->freelist;
		if (likely(obj))
			c->freelist = get_freepointer(s, obj);
		else
			obj = ___slab_alloc(s, gfp, &flags);
		local_irq_restore(flags);
	}
	if (unlikely(gfp & __GFP_ZERO) && obj)
		memset(obj, 0, s->object_size);
	return obj;
}

/* An object goes back to a slab that is not this CPU's active one.  irqs masked. */
static void __slab_free(struct kmem_cache *s, struct slab *slab, void *obj)
{
	bool discard = false;

	spin_lock(&s->lock);
	slab_lock(slab);
	bool was_full = !slab->freelist && !slab->frozen;
	set_freepointer(s, obj, slab->freelist);
	slab->freelist = obj;
	slab->inuse--;
	if (slab->frozen) {
		/* a CPU's active slab: nothing moves */
	} else if (!slab->inuse && s->nr_partial >= s->min_partial) {
		/* An empty slab goes back once the partial list holds min_partial (this one
		 * included, if it is there) */
		remove_slab(s, slab, !was_full);
		s->nr_slabs--;
		s->total_objects -= slab->objects;
		discard = true;
	} else if (was_full) {
		remove_slab(s, slab, false);
		add_slab(s, slab, true);
	}
	slab_unlock(slab);
	spin_unlock(&s->lock);
	if (discard)
		discard_slab(s, slab);
}

void slab_free(struct kmem_cache *s, struct slab *slab, void *obj)
{
	unsigned long flags;

	if (unlikely(kmem_cache_debug(s))) {
		spin_lock_irqsave(&s->lock, flags);
		bool ok = free_debug_processing(s, slab, obj);
		spin_unlock_irqrestore(&s->lock, flags);
		if (ok) {
			local_irq_save(flags);
			__slab_free(s, slab, obj);
			local_irq_restore(flags);
		}
		return;
	}
	local_irq_save(flags);
	struct kmem_cache_cpu *c = this_cpu_ptr(&s->cpu_slab);
	if (likely(slab == c->slab)) {
		set_freepointer(s, obj, c->freelist);
		c->freelist = obj;
	} else {
		__slab_free(s, slab, obj);
	}
	local_irq_restore(flags);
}

/* ---- reports shared with slub_debug.c and slab_common.c ---- */

void slab_bug(const struct kmem_cache *s, const char *what)
{
	nr_slab_bugs++;
	printk(KERN_ERR "=============================================================================\n");
	printk(KERN_ERR "BUG %s: %s\n", s ? s->name : "kmalloc", what);
	printk(KERN_ERR "-----------------------------------------------------------------------------\n");
}

void slab_bug_end(const struct kmem_cache *s, const struct slab *slab, const void *obj)
{
	(void)s;
	if (slab)
		printk(KERN_ERR "Slab 0x%lx objects=%u used=%u fp=0x%lx\n", (unsigned long)slab,
		       slab->objects, slab->inuse, (unsigned long)slab->freelist);
	if (obj)
		printk(KERN_ERR "Object 0x%lx\n", (unsigned long)obj);
	if (slab)
		dump_page(slab_page(slab), "slab");
	if (!kernel_tainted_bad_page)
		printk(KERN_ALERT "Disabling lock debugging due to kernel taint\n");
	kernel_tainted_bad_page = true;
}

/* ---- whole caches ---- */

struct count_free {
	struct kmem_cache *s;
	atomic_long_t n;
};

/* This CPU's freelist (only its owner may walk it) and its active slab's remote frees. */
static void count_cpu_free(void *info)
{
	struct count_free *cf = info;
	struct kmem_cache *s = cf->s;
	struct kmem_cache_cpu *c = this_cpu_ptr(&s->cpu_slab);
	long n = 0;

	for (void *obj = c->freelist; obj; obj = get_freepointer(s, obj))
		n++;
	if (c->slab) {		/* other CPUs' frees into it lowered its inuse */
		slab_lock(c->slab);
		n += c->slab->objects - c->slab->inuse;
		slab_unlock(c->slab);
	}
	atomic_long_add(n, &cf->n);
}

unsigned long slab_free_objects(struct kmem_cache *s)
{
	struct count_free cf = { .s = s, .n = ATOMIC_LONG_INIT(0) };
	unsigned long n, flags;

	if (num_online_cpus() > 1) {
		on_each_cpu(count_cpu_free, &cf, true);
	} else {
		local_irq_save(flags);
		count_cpu_free(&cf);
		local_irq_restore(flags);
	}
	n = (unsigned long)atomic_long_read(&cf.n);
	spin_lock_irqsave(&s->lock, flags);
	for (struct page *p = page_list_first(&s->partial); p; p = page_list_next(p)) {
		slab_lock(page_slab(p));	/* the free fast path changes inuse under it */
		n += page_slab(p)->objects - page_slab(p)->inuse;
		slab_unlock(page_slab(p));
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return n;
}

unsigned long slab_empty_slabs(struct kmem_cache *s)
{
	unsigned long n = 0, flags;

	spin_lock_irqsave(&s->lock, flags);
	for (struct page *p = page_list_first(&s->partial); p;
	     p = page_list_next(p))
		n += !page_slab(p)->inuse;
	spin_unlock_irqrestore(&s->lock, flags);
	return n;
}

/*
 * Unlink one empty slab from @s's partial list and return it (NULL: none), found and removed in
 * one hold of s->lock: between two holds another CPU or thread (kswapd, direct reclaim, the
 * owner's allocations) may have put an object in it or discarded it already.  The caller
 * discards it after dropping the lock.
 */
static struct slab *take_empty_slab(struct kmem_cache *s)
{
	struct slab *empty = NULL;
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	for (struct page *p = page_list_first(&s->partial); p && !empty; p = page_list_next(p))
		if (!page_slab(p)->inuse)
			empty = page_slab(p);
	if (empty) {
		remove_slab(s, empty, true);
		s->nr_slabs--;
		s->total_objects -= empty->objects;
	}
	spin_unlock_irqrestore(&s->lock, flags);
	return empty;
}

/* Every empty slab back to the page allocator, a type-safe cache's too: kmem_cache_destroy(). */
void __kmem_cache_discard_empty(struct kmem_cache *s)
{
	struct slab *empty;

	flush_cpu_slab(s);
	while ((empty = take_empty_slab(s)))
		discard_slab(s, empty);
}

/* Give every empty slab back (__kmem_cache_do_shrink ignores min_partial too), but a type-safe
 * cache's (slab.h: SLAB_TYPESAFE_BY_RCU). */
int kmem_cache_shrink(struct kmem_cache *s)
{
	if (s->flags & SLAB_TYPESAFE_BY_RCU)
		flush_cpu_slab(s);
	else
		__kmem_cache_discard_empty(s);
	return 0;
}

/*
 * The slab allocator's own shrinker: empty slabs kept on partial lists (up to min_partial per
 * cache) are what it can give back without touching a live object.  Counted and freed in frames.
 */
static unsigned long empty_slab_frames(struct kmem_cache *s)
{
	unsigned long n = 0, flags;

	if (s->flags & SLAB_TYPESAFE_BY_RCU)
		return 0;
	spin_lock_irqsave(&s->lock, flags);
	for (struct page *p = page_list_first(&s->partial); p; p = page_list_next(p))
		if (!page_slab(p)->inuse)
			n += 1UL << slab_order(page_slab(p));
	spin_unlock_irqrestore(&s->lock, flags);
	return n;
}

/* Both callbacks walk slab_caches under slab_caches_lock, so kmem_cache_destroy() cannot free a
 * cache under them (lock order: slab_caches_lock, then s->lock, then the zone lock that
 * discard_slab's free takes). */
static unsigned long slab_shrink_count(struct shrinker *sh, struct shrink_control *sc)
{
	unsigned long n = 0, flags;

	spin_lock_irqsave(&slab_caches_lock, flags);
	for (struct kmem_cache *s = slab_caches; s; s = s->next)
		n += empty_slab_frames(s);
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	return n ? n : SHRINK_EMPTY;
}

static unsigned long slab_shrink_scan(struct shrinker *sh, struct shrink_control *sc)
{
	unsigned long freed = 0, flags;

	spin_lock_irqsave(&slab_caches_lock, flags);
	for (struct kmem_cache *s = slab_caches; s && freed < sc->nr_to_scan; s = s->next) {
		struct slab *empty;
		if (s->flags & SLAB_TYPESAFE_BY_RCU)
			continue;
		while (freed < sc->nr_to_scan && (empty = take_empty_slab(s))) {
			freed += 1UL << slab_order(empty);
			discard_slab(s, empty);
		}
	}
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	sc->nr_scanned = freed;
	return freed;
}

struct shrinker slab_shrinker = {
	.count_objects = slab_shrink_count, .scan_objects = slab_shrink_scan,
	.seeks = DEFAULT_SEEKS, .name = "slab-empty",
};

/* kmem_cache_init(): a fresh start (again in host tests, whose page allocator restarts too). */
void slub_reset(void)
{
	atomic_long_set(&nr_slab_pages[0], 0);
	atomic_long_set(&nr_slab_pages[1], 0);
}

unsigned long slab_pages_reclaimable(void) { return (unsigned long)atomic_long_read(&nr_slab_pages[1]); }
unsigned long slab_pages_unreclaimable(void) { return (unsigned long)atomic_long_read(&nr_slab_pages[0]); }

const char *slab_cache_name_of(const struct page *page)
{
	const struct page *head = compound_head(page);

	return PageSlab(head) && page_slab(head)->slab_cache ? page_slab(head)->slab_cache->name : NULL;
}

unsigned int kmem_cache_size(const struct kmem_cache *s)
{
	return s->object_size;
}
