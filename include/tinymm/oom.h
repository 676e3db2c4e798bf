/*
 * oom.h - the OOM killer (mm/oom_kill.c, docs/oom.md), v6.10's include/linux/oom.h reduced.
 *
 *   out_of_memory(oc)      memory ran out for @oc's allocation and reclaim could not help: kill
 *                          the user task with the highest oom_badness() (SIGKILL, Linux's
 *                          "Out of memory: Killed process ..." line, vmstat oom_kill).  true
 *                          when that made progress (a task was killed, or a victim is still on
 *                          its way out: retry); false when nothing could be killed (the
 *                          allocation then fails with NULL: tinymm never panics here).
 *                          Its callers serialise on mm/oom_kill.c's oom_lock (the two entries
 *                          below take it; a KTAP case with no user task may call it bare).
 *   oom_badness(p, total)  @p's weight: its resident pages, swap entries and page-table pages
 *                          (v6.10's, oom_score_adj always 0); LONG_MIN when @p cannot be killed.
 *   pagefault_out_of_memory()  a user fault's VM_FAULT_OOM (mm/user_fault.c).
 *   alloc_pages_oom_hook   set by oom_init(): how the page allocator (portable, host-built without
 *                          the task list) reaches out_of_memory().
 */
#ifndef TINYMM_OOM_H
#define TINYMM_OOM_H

#include "gfp.h"
#include "kernel.h"

struct task_struct;

struct oom_control {
	gfp_t gfp_mask;		/* the allocation's; 0 from the page-fault path */
	int order;
	unsigned long totalpages;	/* what the adj scales with: RAM (no swap) */
	struct task_struct *chosen;	/* the victim, or OOM_ABORT: one is already dying */
	long chosen_points;
};
#define OOM_ABORT	((struct task_struct *)-1L)

/* A victim that has not freed its memory this long after the kill is passed over (v6.10's oom
 * reaper sets MMF_OOM_SKIP on its mm after about as long; see docs/oom.md). */
#define OOM_VICTIM_TIMEOUT_MS	3000

bool out_of_memory(struct oom_control *oc);
long oom_badness(struct task_struct *p, unsigned long totalpages);
void pagefault_out_of_memory(void);
void oom_init(void);

/* The page allocator's way to out_of_memory() (mm/page_alloc.c's __alloc_pages_may_oom); NULL
 * means no OOM killer (host tests of the allocator alone): the allocation fails as before. */
extern bool (*alloc_pages_oom_hook)(gfp_t gfp, unsigned int order);

#endif
