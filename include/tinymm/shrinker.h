/*
 * shrinker.h - caches that can give memory back when reclaim asks (v6.10's include/linux/
 * shrinker.h, without memcg or NUMA awareness).  A cache registers count_objects() (how many it
 * could free) and scan_objects() (free up to sc->nr_to_scan, return how many it freed, or
 * SHRINK_STOP); shrink_slab() asks every registered shrinker for a share that grows as
 * @priority falls (DEF_PRIORITY 12: 1/4096 of the freeable, scaled by 4 / seeks; 0: all).
 * Reclaim (mm/vmscan.c's shrink_node, for kswapd and direct reclaim) calls shrink_slab(), as
 * v6.10 does; so do the `shrink` command and tests.
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
/* v6.10 writes seeks = 0 for objects that cost no I/O to recreate (shadow nodes): half of the
 * freeable at every priority.  tinymm's 0 means DEFAULT_SEEKS (static initialisers), so that
 * case has its own value. */
#define SHRINKER_NOSEEKS	(-1)

struct shrinker {
	unsigned long (*count_objects)(struct shrinker *, struct shrink_control *sc);
	unsigned long (*scan_objects)(struct shrinker *, struct shrink_control *sc);
	long batch;		/* 0: SHRINK_BATCH */
	int seeks;		/* the cost to recreate an object; 0: DEFAULT_SEEKS;
				 * SHRINKER_NOSEEKS: no I/O to recreate (v6.10's seeks 0) */
	const char *name;
	void *private_data;
	struct shrinker *next;
};

/* v6.10's shrinker_alloc() allocates; tinymm's shrinkers are the caller's (usually static). */
void shrinker_register(struct shrinker *shrinker);
void shrinker_unregister(struct shrinker *shrinker);
/* Ask every shrinker; returns the objects freed.  @memcg is v6.10's and must be NULL. */
unsigned long shrink_slab(gfp_t gfp_mask, int nid, void *memcg, int priority);

#endif
