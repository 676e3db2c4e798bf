/*
 * mm/slab.h - what mm/slub.c, mm/slub_debug.c and mm/slab_common.c share: struct kmem_cache and
 * struct slab (v6.10's mm/slab.h, in miniature).
 *
 * A slab is a (possibly compound) page run of 2^order frames cut into `objects` equal slots of
 * s->size bytes.  A slot is [left red zone: red_left_pad][object: object_size][right red zone
 * up to inuse][free pointer, if kept outside the object][padding to size]; without debugging
 * only the object (and an outside free pointer for caches with a constructor) remain.
 *
 * Every slab is in exactly one place: this CPU's active slab (frozen: its free objects are on
 * cpu_slab->freelist, and slab->inuse counts them as used), s->partial (some objects free, on
 * slab->freelist) or s->full (none free).  A debug cache never uses the active slab: every
 * allocation and free goes through its lists under s->lock, with the checks.
 *
 * Locking: s->lock (irqs masked) guards the lists, which slab is each CPU's active one (every
 * cpu_slab[].slab changes under it) and the frozen bit.  A slab's freelist and counters change
 * under slab_lock() (a bit lock on its page's PG_locked, irqs masked), inside s->lock where
 * the slab changes lists or CPUs; the free fast path takes slab_lock() alone for a slab that
 * stays where it is (partial, or another CPU's frozen one).  cpu_slab[cpu].freelist is that
 * CPU's alone, touched with irqs masked on it; another CPU reaches it by a cross-CPU call
 * (flush_cpu_slab()).  The list of caches is guarded by slab_caches_lock.  Order: s->lock,
 * then slab_lock.
 *
 * Where tinymm differs from v6.10, and why: one node and one lock per cache (s->lock; v6.10 has
 * a list_lock per node) and a full list kept always (v6.10 keeps it only for debug caches).
 * struct slab's fields sit differently (below).  A free to a slab that stays where it is
 * changes its freelist and inuse under slab_lock(), v6.10's way where the CPU has no
 * cmpxchg_double (none of tinymm's 32-bit ARM and RISC-V or RV64 without Zacas may rely on one);
 * v6.10's cpu_slab fast path is a this_cpu_cmpxchg_double with a transaction id, here
 * interrupts are masked around a pop or push.  Free pointers are hardened without the byte
 * swap of CONFIG_SLAB_FREELIST_HARDENED.
 */
#ifndef TINYMM_MM_SLAB_H
#define TINYMM_MM_SLAB_H

#include "tinymm/irqflags.h"
#include "tinymm/slab.h"
#include "tinymm/spinlock.h"
#include "internal.h"

struct kmem_cache_cpu {
	void *freelist;			/* the active slab's free objects, for this CPU alone */
	struct slab *slab;		/* the active slab, or NULL; changed under s->lock */
};
_Static_assert(sizeof(struct kmem_cache_cpu) == CPU_SLAB_STRIDE, "smp.h: this_cpu_slab_off()");
/* This CPU's entry of @s's cpu_slab[]: the running task's offset (smp.h), no CPU-number scaling. */
#define this_cpu_slab(s)						\
	((struct kmem_cache_cpu *)((char *)(s)->cpu_slab + this_cpu_slab_off()))

struct kmem_cache {
	DEFINE_PER_CPU(struct kmem_cache_cpu, cpu_slab);	/* first: the fast path's loads */
	unsigned int offset;		/* of the free pointer in a free object */
	slab_flags_t flags;
	unsigned long random;		/* free pointer hardening: stored = ptr ^ random ^ &stored */
	unsigned int size;		/* slot stride */
	unsigned int object_size;	/* as asked */
	unsigned int inuse;		/* object + right red zone: where metadata starts */
	unsigned int red_left_pad;
	unsigned int align;
	unsigned int order, min_order;	/* preferred slab order, and the one that fits one object */
	unsigned int objects;		/* per slab of @order */
	unsigned int min_partial;	/* empty slabs kept on the partial list at most */
	/* kfree's start-of-object test: size - 1 for power-of-two slots, ~0 for a debug cache
	 * (always the slow path), 0 for the division test. */
	unsigned long free_mask;
	bool debug;			/* any of SLAB_DEBUG_FLAGS: every call takes the slow path */
	gfp_t allocflags;		/* __GFP_DMA / __GFP_RECLAIMABLE / __GFP_COMP for its pages */
	void (*ctor)(void *);
	const char *name;
	spinlock_t lock;
	struct page_list partial, full;
	unsigned long nr_partial, nr_full, nr_slabs, total_objects;
	struct kmem_cache *next;	/* on slab_caches */
};

/*
 * struct slab overlays a slab's head struct page, as in Linux, but slab_cache sits where
 * mapping is: the word Linux gives it (compound_head's) holds the compressed list links the
 * page_list helpers use.
 */
struct slab {
	unsigned long __page_flags;
	struct page_link slab_list;		/* on s->partial or s->full */
	struct kmem_cache *slab_cache;
	void *freelist;				/* first free object not given to a CPU */
	union {
		unsigned long counters;
		struct {
			unsigned int inuse:16;	/* Linux's layout: inuse is the low halfword */
			unsigned int objects:15;
			unsigned int frozen:1;	/* this CPU's active slab */
		};
	};
	unsigned int __page_type;
	atomic_t __page_refcount;
};
#define SLAB_MATCH(pg, sl) \
	_Static_assert(offsetof(struct page, pg) == offsetof(struct slab, sl), #pg " vs " #sl)
SLAB_MATCH(flags, __page_flags);
SLAB_MATCH(lru, slab_list);
SLAB_MATCH(mapping, slab_cache);
SLAB_MATCH(index, freelist);
SLAB_MATCH(private, counters);
SLAB_MATCH(page_type, __page_type);
SLAB_MATCH(_refcount, __page_refcount);
_Static_assert(sizeof(struct slab) == sizeof(struct page), "struct slab is a struct page");

static inline struct page *slab_page(const struct slab *slab) { return (struct page *)slab; }
static inline struct slab *page_slab(const struct page *page) { return (struct slab *)page; }

static inline unsigned int slab_order(const struct slab *slab)
{
	const struct page *page = slab_page(slab);

	return PageHead(page) ? folio_order((const struct folio *)page) : 0;
}

/* The slab holding @obj, or NULL if @obj is in no slab page.  Never trusts @obj. */
struct slab *virt_to_slab(const void *obj);

static inline void *slab_address(const struct slab *slab)
{
	return page_address(slab_page(slab));
}

/* Hardened free pointers (CONFIG_SLAB_FREELIST_HARDENED, without its byte swap). */
static inline void *get_freepointer(const struct kmem_cache *s, void *obj)
{
	uintptr_t at = (uintptr_t)obj + s->offset;

	return (void *)(*(uintptr_t *)at ^ s->random ^ at);
}

static inline void set_freepointer(const struct kmem_cache *s, void *obj, void *fp)
{
	uintptr_t at = (uintptr_t)obj + s->offset;

	*(uintptr_t *)at = (uintptr_t)fp ^ s->random ^ at;
}

/* Is @p the start of an object of @slab (not just inside it)? */
static inline bool slab_object_at(const struct kmem_cache *s, const struct slab *slab,
				  const void *p)
{
	uintptr_t base = (uintptr_t)slab_address(slab) + s->red_left_pad;

	return (uintptr_t)p >= base && (uintptr_t)p - base < (uintptr_t)slab->objects * s->size &&
	       ((uintptr_t)p - base) % s->size == 0;
}

static inline bool kmem_cache_debug(const struct kmem_cache *s)
{
	return s->debug;
}

/*
 * The fast paths, inline in kmalloc / kmem_cache_alloc / kfree / kmem_cache_free (slab_common.c)
 * for caches without debugging: a pop or push on this CPU's freelist with interrupts masked.
 * Anything else leaves by a tail call, so the callers need no stack frame.
 */
void *slab_alloc_refill(struct kmem_cache *s, gfp_t gfp, unsigned long irqflags);
void slab_free_other(struct kmem_cache *s, struct slab *slab, void *obj, unsigned long irqflags);

/* v6.10's slab_lock() for a CPU without cmpxchg_double: PG_locked of the slab's page as a bit
 * spinlock; interrupts masked by the caller. */
static inline void slab_lock(struct slab *slab)
{
	while (unlikely(test_and_set_bit(PG_locked, &slab->__page_flags)))
		while (test_bit(PG_locked, &slab->__page_flags))
			cpu_relax();
}

static inline void slab_unlock(struct slab *slab)
{
	smp_mb__before_atomic();	/* release: the freelist and counters written first */
	clear_bit(PG_locked, &slab->__page_flags);
}

static inline void *slab_alloc_fast(struct kmem_cache *s, gfp_t gfp)
{
	struct kmem_cache_cpu *c;
	unsigned long flags;
	void *obj;

	local_irq_save(flags);
	c = this_cpu_slab(s);
	obj = c->freelist;
	if (unlikely(!obj))
		return slab_alloc_refill(s, gfp, flags);
	c->freelist = get_freepointer(s, obj);
	local_irq_restore_unchanged(flags);	/* loads and stores since the save */
	return obj;
}

static inline void slab_free_fast(struct kmem_cache *s, struct slab *slab, void *obj)
{
	struct kmem_cache_cpu *c;
	unsigned long flags;

	local_irq_save(flags);
	c = this_cpu_slab(s);
	if (likely(slab == c->slab)) {
		set_freepointer(s, obj, c->freelist);
		c->freelist = obj;
		local_irq_restore_unchanged(flags);	/* loads and stores since the save */
		return;
	}
	slab_lock(slab);
	if (likely(slab->freelist && slab->inuse >= 2)) {
		/* A slab that stays where it is: partial (it keeps a free object and a used one),
		 * or another CPU's frozen slab with others' frees already.  Only its freelist and
		 * inuse change, under slab_lock (the header). */
		unsigned int inuse = slab->inuse;
		set_freepointer(s, obj, slab->freelist);
		slab->freelist = obj;
		slab->inuse = inuse - 1;
		slab_unlock(slab);
		local_irq_restore_unchanged(flags);	/* loads, stores and atomics since the save */
		return;
	}
	slab_unlock(slab);
	slab_free_other(s, slab, obj, flags);
}

extern struct kmem_cache *slab_caches;		/* newest first, as Linux's list */
extern spinlock_t slab_caches_lock;
extern slab_flags_t slub_debug;			/* tinymm.slub_debug: debug flags for new caches */
extern struct shrinker slab_shrinker;		/* empty slabs, for reclaim (slub.c) */

/* slub.c */
void slub_reset(void);
int kmem_cache_open(struct kmem_cache *s, const char *name, unsigned int size,
		    unsigned int align, slab_flags_t flags, void (*ctor)(void *));
void *slab_alloc(struct kmem_cache *s, gfp_t gfp);
void slab_free(struct kmem_cache *s, struct slab *slab, void *obj);
void flush_cpu_slab(struct kmem_cache *s);
/* Every empty slab back, a type-safe cache's too (kmem_cache_destroy). */
void __kmem_cache_discard_empty(struct kmem_cache *s);
unsigned long slab_free_objects(struct kmem_cache *s);	/* free objects in all its slabs */
unsigned long slab_empty_slabs(struct kmem_cache *s);	/* empty slabs on its partial list */
void slab_bug(const struct kmem_cache *s, const char *what);	/* the report's first lines */
void slab_bug_end(const struct kmem_cache *s, const struct slab *slab, const void *obj);

/* slub_debug.c: the debug cache paths (s->lock held, irqs masked) */
void setup_object_debug(struct kmem_cache *s, void *obj);
bool alloc_debug_processing(struct kmem_cache *s, struct slab *slab, void *obj);
bool free_debug_processing(struct kmem_cache *s, struct slab *slab, void *obj);
int check_slab_objects(struct kmem_cache *s, struct slab *slab, int (*pr)(const char *fmt, ...));

#define POISON_FREE		0x6b	/* include/linux/poison.h */
#define POISON_END		0xa5
#define SLUB_RED_INACTIVE	0xbb
#define SLUB_RED_ACTIVE		0xcc

#endif
