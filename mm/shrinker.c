/*
 * shrinker.c - the registry of shrinkers and shrink_slab(), as v6.10's mm/shrinker.c.
 * Locking: shrinker_lock guards changes to the list; shrink_slab() walks it
 * without the lock and calls the callbacks unlocked (they may sleep).  That is safe because a
 * shrinker is only ever prepended (the new entry's ->next is set before it is published) and
 * tinymm's shrinkers are static objects registered for the kernel's lifetime; unregister exists
 * for tests, which call it while no reclaim runs.
 *
 * Where tinymm differs from v6.10, and why: no memcg, NUMA awareness or deferred work (a share
 * that could not be scanned is not carried over to the next call).  v6.10 pins each shrinker
 * with a refcount under RCU, because modules come and go; tinymm has no modules.
 */
#include "tinymm/shrinker.h"
#include "tinymm/cmdline.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/spinlock.h"

static struct shrinker *shrinkers;
static DEFINE_SPINLOCK(shrinker_lock);

void shrinker_register(struct shrinker *s)
{
	unsigned long flags;

	spin_lock_irqsave(&shrinker_lock, flags);
	bool known = false;
	for (struct shrinker *p = shrinkers; p; p = p->next)
		known |= p == s;
	if (!known) {			/* registering twice is a no-op */
		s->next = shrinkers;
		shrinkers = s;
	}
	spin_unlock_irqrestore(&shrinker_lock, flags);
}

void shrinker_unregister(struct shrinker *s)
{
	unsigned long flags;

	spin_lock_irqsave(&shrinker_lock, flags);
	for (struct shrinker **pp = &shrinkers; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	spin_unlock_irqrestore(&shrinker_lock, flags);
}

/* Scan (freeable >> priority) * 4 / seeks objects, in batches. */
static unsigned long do_shrink_slab(struct shrink_control *sc, struct shrinker *s, int priority)
{
	unsigned long batch = s->batch > 0 ? (unsigned long)s->batch : SHRINK_BATCH, freed = 0;
	unsigned long freeable = s->count_objects(s, sc);

	if (!freeable || freeable == SHRINK_EMPTY)
		return 0;
	unsigned long total;
	if (s->seeks == SHRINKER_NOSEEKS)
		total = (freeable + 1) / 2;	/* freeable / 2, rounded up: one left goes too */
	else
		total = (freeable >> priority) * 4 / (unsigned long)(s->seeks ? s->seeks : DEFAULT_SEEKS);
	total = min(total, 2 * freeable);
	while (total >= batch || total >= freeable) {
		unsigned long n = min(batch, total);
		sc->nr_to_scan = n;
		sc->nr_scanned = n;
		unsigned long ret = s->scan_objects(s, sc);
		if (ret == SHRINK_STOP)
			break;
		freed += ret;
		/* A shrinker that frees in bigger units (slab-empty: whole slabs) may scan more than
		 * it was asked: that ends the pass rather than wrapping the count. */
		if (!sc->nr_scanned || sc->nr_scanned >= total)
			break;
		total -= sc->nr_scanned;
	}
	return freed;
}

unsigned long shrink_slab(gfp_t gfp_mask, int nid, void *memcg, int priority)
{
	unsigned long freed = 0;

	if (memcg || priority < 0)
		return 0;
	for (struct shrinker *s = shrinkers; s; s = s->next) {
		struct shrink_control sc = { .gfp_mask = gfp_mask, .nid = nid };
		freed += do_shrink_slab(&sc, s, priority);
	}
	return freed;
}

static int cmd_shrink(int argc, char **argv)
{
	unsigned long long prio = 0;

	if (argc > 2 || (argc == 2 && (kstrtoull(argv[1], &prio) || prio > DEF_PRIORITY)))
		return shell_usage_error(argv[0], "usage: shrink [priority 0..12]");
	for (struct shrinker *s = shrinkers; s; s = s->next) {
		struct shrink_control sc = { .gfp_mask = GFP_KERNEL };
		unsigned long n = s->count_objects(s, &sc);
		kprintf("shrink: %s: %lu freeable\n", s->name, n == SHRINK_EMPTY ? 0 : n);
	}
	kprintf("shrink: freed %lu\n", shrink_slab(GFP_KERNEL, 0, NULL, (int)prio));
	return 0;
}
SHELL_COMMAND(shrink, "[priority]", "ask every shrinker to give memory back (0: all it can)", cmd_shrink);
