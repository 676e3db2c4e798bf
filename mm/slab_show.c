/*
 * slab_show.c - looking at the slab allocator: slab_check(), and the `slabinfo` and `slabcheck`
 * commands (`kmalloc` and `kfree` are slab_cmd.c's).
 *
 * slabinfo prints /proc/slabinfo as v6.10 does (version 2.1, its columns and widths; SLUB's
 * tunables and shared columns are 0).  Where tinymm differs from v6.10, and why: v6.10 counts
 * the free objects of a CPU's active slab as active (it only counts the partial lists' free
 * objects); tinymm counts every free object as free, so active_objs is exactly what is
 * allocated.
 * Locking: each cache is read under its own lock (a snapshot per cache; so the frames total
 * across caches is exact only while no other CPU allocates or frees slabs), each listed slab
 * under its slab_lock; other CPUs' active slabs are counted, not walked (their freelists are
 * their CPUs' alone); the list of caches under slab_caches_lock.
 */
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "slab.h"

#define FAIL(...) do { errors++; if (pr) pr(__VA_ARGS__); } while (0)

/* One list of @s: every slab is a slab of @s, partial or full as the list says. */
static int check_list(struct kmem_cache *s, struct page_list *list, bool partial,
		      unsigned long *nr, unsigned long *objects, int (*pr)(const char *fmt, ...))
{
	int errors = 0;

	for (struct page *p = page_list_first(list); p; p = page_list_next(p)) {
		struct slab *slab = page_slab(p);
		if (!PageSlab(p) || slab->slab_cache != s || slab->frozen) {
			FAIL("slabcheck: %s: page 0x%lx on its %s list is not its slab\n", s->name,
			     (unsigned long)p, partial ? "partial" : "full");
			return errors;
		}
		slab_lock(slab);	/* another CPU's free fast path may push onto it */
		if (partial ? !slab->freelist || slab->inuse >= slab->objects :
			      slab->freelist || slab->inuse != slab->objects)
			FAIL("slabcheck: %s: slab 0x%lx (inuse %u of %u) on the wrong list (%s)\n",
			     s->name, (unsigned long)slab, slab->inuse, slab->objects,
			     partial ? "partial" : "full");
		errors += check_slab_objects(s, slab, pr);
		slab_unlock(slab);
		(*nr)++;
		*objects += slab->objects;
		if (*nr > s->nr_slabs + 1) {
			FAIL("slabcheck: %s: a list loops\n", s->name);
			break;
		}
	}
	return errors;
}

static int check_cache(struct kmem_cache *s, int (*pr)(const char *fmt, ...), unsigned long *pages)
{
	unsigned long flags, np = 0, nf = 0, objects = 0;
	int errors = 0;

	local_irq_save(flags);
	spin_lock(&s->lock);
	/* Every CPU's active slab is set under s->lock: counted for all; only this CPU's own
	 * freelist can be walked (the others are their CPUs' alone). */
	unsigned int active = 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct slab *other = per_cpu(s->cpu_slab, cpu).slab;
		if (other && cpu != smp_processor_id()) {
			if (!other->frozen || other->slab_cache != s)
				FAIL("slabcheck: %s: CPU %d's active slab 0x%lx is not frozen in this "
				     "cache\n", s->name, cpu, (unsigned long)other);
			active++;
			objects += other->objects;
			*pages += 1UL << slab_order(other);
		}
	}
	struct kmem_cache_cpu *c = this_cpu_ptr(&s->cpu_slab);
	if (c->slab) {
		unsigned int n = 0;
		if (!c->slab->frozen || c->slab->slab_cache != s || kmem_cache_debug(s))
			FAIL("slabcheck: %s: active slab 0x%lx is not frozen in this cache\n", s->name,
			     (unsigned long)c->slab);
		for (void *p = c->freelist; p; p = get_freepointer(s, p))
			if (!slab_object_at(s, c->slab, p) || ++n > c->slab->objects) {
				FAIL("slabcheck: %s: CPU freelist corrupt at 0x%lx\n", s->name, (unsigned long)p);
				break;
			}
		objects += c->slab->objects;
		*pages += 1UL << slab_order(c->slab);
	} else if (c->freelist) {
		FAIL("slabcheck: %s: CPU freelist without an active slab\n", s->name);
	}
	errors += check_list(s, &s->partial, true, &np, &objects, pr);
	errors += check_list(s, &s->full, false, &nf, &objects, pr);
	active += !!c->slab;
	if (np != s->nr_partial || nf != s->nr_full || np + nf + active != s->nr_slabs ||
	    objects != s->total_objects)
		FAIL("slabcheck: %s: %lu partial + %lu full + %u active slabs, %lu objects; counters "
		     "say %lu + %lu of %lu, %lu objects\n", s->name, np, nf, active, objects,
		     s->nr_partial, s->nr_full, s->nr_slabs, s->total_objects);
	for (struct page *p = page_list_first(&s->partial); p; p = page_list_next(p))
		*pages += 1UL << slab_order(page_slab(p));
	for (struct page *p = page_list_first(&s->full); p; p = page_list_next(p))
		*pages += 1UL << slab_order(page_slab(p));
	spin_unlock(&s->lock);
	local_irq_restore(flags);
	return errors;
}

int slab_check(int (*pr)(const char *fmt, ...))
{
	unsigned long pages = 0;
	int errors = 0;

	for (struct kmem_cache *s = slab_caches; s; s = s->next)
		errors += check_cache(s, pr, &pages);
	if (pages != slab_pages_reclaimable() + slab_pages_unreclaimable())
		FAIL("slabcheck: %lu frames in slabs, %lu accounted\n", pages,
		     slab_pages_reclaimable() + slab_pages_unreclaimable());
	return errors;
}

static int cmd_slabcheck(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	int errors = slab_check(kprintf);
	kprintf("slabcheck: %s (%d problem%s)\n", errors ? "FAILED" : "ok", errors, errors == 1 ? "" : "s");
	return errors ? 1 : 0;
}
SHELL_COMMAND(slabcheck, "", "verify every slab cache's lists, counters and red zones", cmd_slabcheck);

static int cmd_slabinfo(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	kprintf("slabinfo - version: 2.1\n");
	kprintf("# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab>"
		" : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs>"
		" <sharedavail>\n");
	for (struct kmem_cache *s = slab_caches; s; s = s->next) {
		unsigned long total = s->total_objects, active = total - slab_free_objects(s);
		kprintf("%-17s %6lu %6lu %6u %4u %4d : tunables %4u %4u %4u : slabdata %6lu %6lu %6lu\n",
			s->name, active, total, s->size, s->objects, 1 << s->order, 0u, 0u, 0u,
			s->nr_slabs, s->nr_slabs, 0UL);
	}
	return 0;
}
SHELL_COMMAND(slabinfo, "", "the slab caches, in /proc/slabinfo's format", cmd_slabinfo);
