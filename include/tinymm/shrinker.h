/*
 * shrinker.h - caches that can give memory back when reclaim asks (v6.10's include/linux/
 * shrinker.h).  A cache registers count_objects() (how many it could free) and scan_objects()
 * (free up to sc->nr_to_scan, return how many it freed, or SHRINK_STOP); shrink_slab() asks
 * every registered shrinker for a share that grows as @priority falls (DEF_PRIORITY 12: 1/4096
 * of the freeable, scaled by 4 / seeks; 0: all).
 * Reclaim (mm/vmscan.c's shrink_node, for kswapd and direct reclaim) calls shrink_slab(), as
 * Linux does; so do the `shrink` command and tests.
 *
 * Where tinymm differs from v6.10, and why: no memcg or NUMA awareness (one node, no memcg;
 * shrink_slab()'s @memcg must be NULL).  Shrinkers are the caller's, usually static, where v6.10's
 * shrinker_alloc() allocates them.  Static initialisers leave seeks 0, so 0 means DEFAULT_SEEKS and
 * objects that cost no I/O to recreate (v6.10's seeks 0: half of the freeable at every priority)
 * say SHRINKER_NOSEEKS.
 */
#ifndef TINYMM_SHRINKER_H
#define TINYMM_SHRINKER_H

#include "gfp.h"
#include "kernel.h"

struct shrink_control {
	gfp_t gfp_mask;
	int nid;
	unsigned long nr_to_scan;	/* in: how many to scan this call */
	unsigned long nr_scanned;	/* out, optional: how many were scanned */
};

#define SHRINK_STOP	(~0UL - 1)	/* scan_objects: cannot make progress now */
#define SHRINK_EMPTY	(~0UL - 2)	/* count_objects: nothing at all */
#define DEFAULT_SEEKS	2
#define SHRINK_BATCH	128
#define DEF_PRIORITY	12
/* Objects that cost no I/O to recreate (shadow nodes): half of the freeable at every priority
 * (Linux's seeks 0; see the header). */
#define SHRINKER_NOSEEKS	(-1)

struct shrinker {
	unsigned long (*count_objects)(struct shrinker *, struct shrink_control *sc);
	unsigned long (*scan_objects)(struct shrinker *, struct shrink_control *sc);
	long batch;		/* 0: SHRINK_BATCH */
	int seeks;		/* the cost to recreate an object; 0: DEFAULT_SEEKS;
				 * SHRINKER_NOSEEKS: no I/O to recreate */
	const char *name;
	void *private_data;
	struct shrinker *next;
};

void shrinker_register(struct shrinker *shrinker);
void shrinker_unregister(struct shrinker *shrinker);
/* Ask every shrinker; returns the objects freed.  @memcg must be NULL. */
unsigned long shrink_slab(gfp_t gfp_mask, int nid, void *memcg, int priority);

#endif
