/*
 * tlb_remap.h - the fixture the architectures' tlb_shootdown suites share
 * (arch/arm/smp_ktest.c, arch/riscv/smp_ktest.c): a kernel page read on another CPU, so its TLB
 * holds the translation, then pointed at another frame and flushed by the suite's own call,
 * then read there again.  With one CPU online the "other" CPU is this one (the cross-CPU call
 * runs on the caller), so the cases check the local flushes and nothing is skipped.
 */
#ifndef TINYMM_TESTS_TLB_REMAP_H
#define TINYMM_TESTS_TLB_REMAP_H

#include <stdbool.h>
#include "tinymm/ktest.h"
#include "tinymm/pgtable.h"

struct tlb_remap {
	struct page *old, *new;	/* holding TLB_REMAP_OLD and TLB_REMAP_NEW */
	unsigned long va;	/* vmap() of old, then of new */
	pte_t *ptep;
	int cpu;		/* where it is read: another online CPU, or this one alone */
};

#define TLB_REMAP_OLD	0x01d01d01UL
#define TLB_REMAP_NEW	0x0e00e00eUL

/*
 * One case: set up, read on r->cpu, remap, @flush(r), read there again; expects TLB_REMAP_OLD
 * then TLB_REMAP_NEW (TLB_REMAP_OLD the second time: a stale TLB entry was used).  @shootdown
 * is the architecture's debug switch: on for the teardown's own flush, whatever the case set.
 */
void tlb_remap_case(struct ktest *t, void (*flush)(struct tlb_remap *r), bool *shootdown);

/* Another online CPU than this one, or this one if it is alone.  Preemption is off. */
int tlb_remap_other_cpu(void);

#endif
