/*
 * slub_debug.c - what a debug cache checks (as v6.10's SLUB_DEBUG: red zones, poisoning,
 * consistency checks), and tinymm.slub_debug.
 *
 * A debug cache's slot: [left red zone][object][right red zone][free pointer][pad].  The red
 * zones read SLUB_RED_ACTIVE (0xcc) while the object is allocated and SLUB_RED_INACTIVE (0xbb)
 * while it is free; with SLAB_POISON a free object is POISON_FREE (0x6b) with a last byte of
 * POISON_END (0xa5), and a new one keeps that pattern until written.  Checked:
 *   at allocation: the free pointer points into the slab at an object; red zones inactive;
 *                  poison intact (a write after free)  -> report, and every object of the slab
 *                  is marked used ("Marking all objects used"): nothing of it is reused
 *   at free:       the address is an object of this slab and cache; it is not already free
 *                  (on the slab's freelist); red zones active (an overflow)  -> report, and the
 *                  object is not freed
 * A report is Linux's shape: `BUG <cache>: <what>`, the place, the slab and its page dump, and
 * the kernel is tainted (B) and keeps running.  Locking: s->lock held, irqs masked (mm/slab.h).
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/printk.h"
#include "slab.h"

#ifdef CONFIG_SLUB_DEBUG_ON
slab_flags_t slub_debug = SLAB_DEBUG_FLAGS;	/* debug builds: every cache */
#else
slab_flags_t slub_debug;
#endif

/* tinymm.slub_debug: "1" / "0", or Linux's letters F (checks), Z (red zones), P (poison), "-".
 * A setter of its own (KPARAM): the letters make a flag set, no number. */
static int set_slub_debug(const char *v)
{
	slab_flags_t f = 0;

	if (!strcmp(v, "1"))
		f = SLAB_DEBUG_FLAGS;
	else if (strcmp(v, "0") && strcmp(v, "-"))
		for (const char *p = v; *p; p++) {
			if (*p == 'F' || *p == 'f')
				f |= SLAB_CONSISTENCY_CHECKS;
			else if (*p == 'Z' || *p == 'z')
				f |= SLAB_RED_ZONE;
			else if (*p == 'P' || *p == 'p')
				f |= SLAB_POISON;
			else
				return -1;
		}
	slub_debug = f;
	return 0;
}
KPARAM(slub_debug, set_slub_debug, "slab debugging for caches made after boot: 1, 0, or letters F Z P");

static void red_zones(struct kmem_cache *s, void *obj, int val)
{
	if (!(s->flags & SLAB_RED_ZONE))
		return;
	memset((char *)obj - s->red_left_pad, val, s->red_left_pad);
	memset((char *)obj + s->object_size, val, s->inuse - s->object_size);
}

static bool poisons(const struct kmem_cache *s)
{
	return (s->flags & SLAB_POISON) && !s->ctor;	/* __OBJECT_POISON */
}

static void poison(struct kmem_cache *s, void *obj)
{
	if (poisons(s)) {
		memset(obj, POISON_FREE, s->object_size - 1);
		((unsigned char *)obj)[s->object_size - 1] = POISON_END;
	}
}

/* A new slab's object, before the constructor: free-state red zones and poison. */
void setup_object_debug(struct kmem_cache *s, void *obj)
{
	red_zones(s, obj, SLUB_RED_INACTIVE);
	poison(s, obj);
}

/* The first byte of [start, start + n) that is not @val, or NULL. */
static const unsigned char *first_mismatch(const void *start, unsigned int n, int val)
{
	const unsigned char *p = start;

	for (unsigned int i = 0; i < n; i++)
		if (p[i] != (unsigned char)val)
			return p + i;
	return NULL;
}

static bool check_bytes(struct kmem_cache *s, struct slab *slab, void *obj, const char *what,
			const void *start, unsigned int n, int val)
{
	const unsigned char *bad = first_mismatch(start, n, val);
	char msg[48];

	if (!bad)
		return true;
	ksnprintf(msg, sizeof(msg), "%s overwritten", what);
	slab_bug(s, msg);
	const unsigned char *end = bad;
	while (end + 1 < (const unsigned char *)start + n && end[1] != (unsigned char)val)
		end++;
	printk(KERN_ERR "0x%lx-0x%lx @offset=%ld. First byte 0x%x instead of 0x%x\n",
	       (unsigned long)bad, (unsigned long)end,
	       (long)((uintptr_t)bad - (uintptr_t)slab_address(slab)), *bad, (unsigned int)(val & 0xff));
	slab_bug_end(s, slab, obj);
	/* restore_bytes(): the guard reads right again, so later checks see only new damage. */
	printk(KERN_ERR "FIX %s: Restoring %s 0x%lx-0x%lx=0x%x\n", s->name, what,
	       (unsigned long)bad, (unsigned long)end, (unsigned int)(val & 0xff));
	memset((void *)bad, val, (size_t)(end - bad) + 1);
	return false;
}

/* Red zones (and, for a free object, poison) as @val says they should be. */
static bool check_object(struct kmem_cache *s, struct slab *slab, void *obj, int val)
{
	if (s->flags & SLAB_RED_ZONE) {
		if (!check_bytes(s, slab, obj, "Left Redzone", (char *)obj - s->red_left_pad,
				 s->red_left_pad, val))
			return false;
		if (!check_bytes(s, slab, obj, "Right Redzone", (char *)obj + s->object_size,
				 s->inuse - s->object_size, val))
			return false;
	}
	if (val == SLUB_RED_INACTIVE && poisons(s)) {
		if (!check_bytes(s, slab, obj, "Poison", obj, s->object_size - 1, POISON_FREE) ||
		    !check_bytes(s, slab, obj, "End Poison", (char *)obj + s->object_size - 1, 1, POISON_END))
			return false;
	}
	return true;
}

static bool valid_pointer(struct kmem_cache *s, struct slab *slab, const void *p)
{
	return !p || slab_object_at(s, slab, p);
}

/* Nothing of a corrupt slab is handed out again: its free objects count as used from now on
 * (their red zones say so too, for slab_check). */
static void mark_all_used(struct kmem_cache *s, struct slab *slab)
{
	unsigned int n = 0;

	printk(KERN_ERR "FIX %s: Marking all objects used\n", s->name);
	for (void *p = slab->freelist; p && slab_object_at(s, slab, p) && n++ < slab->objects;
	     p = get_freepointer(s, p))
		red_zones(s, p, SLUB_RED_ACTIVE);
	slab->inuse = slab->objects;
	slab->freelist = NULL;
}

bool alloc_debug_processing(struct kmem_cache *s, struct slab *slab, void *obj)
{
	const char *what = NULL;

	lockdep_assert_held(&s->lock);
	if ((s->flags & SLAB_CONSISTENCY_CHECKS) && !slab_object_at(s, slab, obj))
		what = "Freelist Pointer check fails";
	else if (!check_object(s, slab, obj, SLUB_RED_INACTIVE))
		what = "";		/* reported by check_object */
	else if ((s->flags & SLAB_CONSISTENCY_CHECKS) && !valid_pointer(s, slab, get_freepointer(s, obj)))
		what = "Freepointer corrupt";
	if (what) {
		if (*what) {
			slab_bug(s, what);
			slab_bug_end(s, slab, obj);
		}
		mark_all_used(s, slab);
		return false;
	}
	red_zones(s, obj, SLUB_RED_ACTIVE);
	return true;
}

/* Is @obj on @slab's freelist?  (The walk stops at a corrupt pointer or after every object.) */
static bool on_freelist(struct kmem_cache *s, struct slab *slab, const void *obj)
{
	unsigned int n = 0;

	for (void *p = slab->freelist; p && n <= slab->objects; p = get_freepointer(s, p), n++) {
		if (p == obj)
			return true;
		if (!slab_object_at(s, slab, p))
			break;
	}
	return false;
}

bool free_debug_processing(struct kmem_cache *s, struct slab *slab, void *obj)
{
	lockdep_assert_held(&s->lock);
	if (s->flags & SLAB_CONSISTENCY_CHECKS) {
		if (!slab_object_at(s, slab, obj)) {
			slab_bug(s, "Invalid object pointer");
			slab_bug_end(s, slab, obj);
			return false;
		}
		if (on_freelist(s, slab, obj)) {
			slab_bug(s, "Object already free");
			slab_bug_end(s, slab, obj);
			return false;
		}
	}
	if (!check_object(s, slab, obj, SLUB_RED_ACTIVE))
		return false;		/* an overflow: the object stays allocated, never reused */
	red_zones(s, obj, SLUB_RED_INACTIVE);
	poison(s, obj);
	return true;
}

/* slab_check()'s part for one slab: every free object's state, every red zone.  s->lock held. */
int check_slab_objects(struct kmem_cache *s, struct slab *slab, int (*pr)(const char *fmt, ...))
{
	int errors = 0;
	unsigned int nfree = 0;

	lockdep_assert_held(&s->lock);
	for (void *p = slab->freelist; p; p = get_freepointer(s, p)) {
		if (!slab_object_at(s, slab, p) || ++nfree > slab->objects) {
			if (pr)
				pr("slabcheck: %s slab 0x%lx: free list corrupt at 0x%lx\n", s->name,
				   (unsigned long)slab, (unsigned long)p);
			return errors + 1;
		}
	}
	if (!slab->frozen && nfree != (unsigned int)(slab->objects - slab->inuse)) {
		if (pr)
			pr("slabcheck: %s slab 0x%lx: %u free objects, counters say %u\n", s->name,
			   (unsigned long)slab, nfree, (unsigned int)(slab->objects - slab->inuse));
		errors++;
	}
	if (!(s->flags & SLAB_RED_ZONE))
		return errors;
	char *base = slab_address(slab);
	for (unsigned int i = 0; i < slab->objects; i++) {
		char *obj = base + (size_t)i * s->size + s->red_left_pad;
		int val = on_freelist(s, slab, obj) ? SLUB_RED_INACTIVE : SLUB_RED_ACTIVE;
		if (first_mismatch(obj - s->red_left_pad, s->red_left_pad, val) ||
		    first_mismatch(obj + s->object_size, s->inuse - s->object_size, val)) {
			if (pr)
				pr("slabcheck: %s object 0x%lx: red zone overwritten\n", s->name,
				   (unsigned long)obj);
			errors++;
		}
	}
	return errors;
}
