/*
 * oom_ktest.c - suite `oom`: the OOM killer's rules that hold without a user task to kill
 * (docs/oom.md; /bin/oom's kill is tests/qemu/oom_test.sh): oom_badness() is v6.10's sum, an
 * OOM victim may dip into its reserve and no deeper, and where nothing can be killed (a kernel
 * thread's allocation, no user task at all) the allocation fails with NULL, nobody is killed and
 * nothing hangs; a kernel thread that borrowed an mm is never chosen.  The allocator cases raise the min watermarks with interrupts masked (as suite
 * page_alloc does), with a stand-in direct reclaim that frees nothing, so exhaustion is reached
 * at once and nothing else allocates meanwhile; every case restores what it changed.
 */
#include <limits.h>
#include <string.h>
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/oom.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/sched.h"
#include "tinymm/vmstat.h"
#include "../../mm/internal.h"

static struct mm_struct badness_mm;
static struct task_struct badness_task;

/* v6.10: resident pages of every kind + swap entries + page-table pages; no mm: never. */
static void badness_is_rss_swap_and_page_tables(struct ktest *t)
{
	memset(&badness_mm, 0, sizeof(badness_mm));
	memset(&badness_task, 0, sizeof(badness_task));
	badness_mm.rss_stat[MM_ANONPAGES] = 100;
	badness_mm.rss_stat[MM_FILEPAGES] = 20;
	badness_mm.rss_stat[MM_SWAPENTS] = 5;
	badness_mm.pgtables_bytes = 3 * (long)PAGE_SIZE;
	badness_task.mm = &badness_mm;
	KTEST_EXPECT_EQ(t, oom_badness(&badness_task, totalram_pages()), 128);
	KTEST_EXPECT_EQ(t, get_mm_rss(&badness_mm), 120);
	badness_task.mm = NULL;		/* a kernel thread */
	KTEST_EXPECT_EQ(t, oom_badness(&badness_task, totalram_pages()), LONG_MIN);
}

static unsigned int reclaim_calls, oom_calls;
static bool (*real_oom_hook)(gfp_t, unsigned int);

static long reclaims_nothing(gfp_t gfp, unsigned int order)
{
	(void)gfp, (void)order;
	reclaim_calls++;
	return 0;
}

static bool counting_oom_hook(gfp_t gfp, unsigned int order)
{
	oom_calls++;
	return real_oom_hook(gfp, order);
}

struct exhaust {
	void (*wakeup)(struct zone *, unsigned int, gfp_t);
	long (*reclaim)(gfp_t, unsigned int);
	unsigned long min[MAX_NR_ZONES], flags;
};

/* Every zone's min watermark set to @num/@den of its free frames; interrupts masked. */
static void exhaust_begin(struct exhaust *e, unsigned long num, unsigned long den)
{
	e->wakeup = reclaim_wakeup_hook;
	e->reclaim = direct_reclaim_hook;
	real_oom_hook = alloc_pages_oom_hook;
	reclaim_wakeup_hook = NULL;
	direct_reclaim_hook = reclaims_nothing;
	alloc_pages_oom_hook = real_oom_hook ? counting_oom_hook : NULL;
	reclaim_calls = oom_calls = 0;
	local_irq_save(e->flags);
	drain_all_pages(NULL);
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		e->min[i] = zones[i]._watermark[WMARK_MIN];
		zones[i]._watermark[WMARK_MIN] = zones[i].free_pages * num / den;
	}
}

static void exhaust_end(struct exhaust *e)
{
	for (int i = 0; i < MAX_NR_ZONES; i++)
		zones[i]._watermark[WMARK_MIN] = e->min[i];
	drain_all_pages(NULL);
	local_irq_restore(e->flags);
	reclaim_wakeup_hook = e->wakeup;
	direct_reclaim_hook = e->reclaim;
	alloc_pages_oom_hook = real_oom_hook;
}

/*
 * Free frames at 2/3 of min: an ordinary allocation fails (after MAX_RECLAIM_RETRIES rounds
 * of reclaim and one question to the killer, which kills nobody for a kernel thread); marked
 * as a victim the same thread reaches half of min (ALLOC_OOM) and gets its page at once, but
 * not with __GFP_NOMEMALLOC.
 */
static void victim_dips_into_half_of_min(struct ktest *t)
{
	unsigned long kills = (unsigned long)global_vm_event(OOM_KILL);
	struct page *plain, *victim, *nomemalloc;
	unsigned int asked;
	struct exhaust e;

	KTEST_ASSERT_GT(t, preferred_zone->free_pages, 16);
	KTEST_ASSERT_TRUE(t, !current->mm && !tsk_is_oom_victim(current));
	exhaust_begin(&e, 3, 2);
	plain = alloc_page(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN);
	KTEST_EXPECT_GE(t, reclaim_calls, MAX_RECLAIM_RETRIES);
	asked = oom_calls;
	current->oom_victim = true;
	victim = alloc_page(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN);
	nomemalloc = alloc_page(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN | __GFP_NOMEMALLOC);
	current->oom_victim = false;
	exhaust_end(&e);
	KTEST_EXPECT_TRUE(t, plain == NULL);
	KTEST_EXPECT_TRUE(t, victim != NULL);
	KTEST_EXPECT_TRUE(t, nomemalloc == NULL);
	/* One question each from the plain and the __GFP_NOMEMALLOC allocation (the killer kills
	 * nobody for a kernel thread); none from the victim that found its reserve. */
	KTEST_EXPECT_EQ(t, asked, real_oom_hook ? 1 : 0);
	KTEST_EXPECT_EQ(t, oom_calls, real_oom_hook ? 2 : 0);
	KTEST_EXPECT_EQ(t, (unsigned long)global_vm_event(OOM_KILL), kills);
	if (plain)
		__free_page(plain);
	if (victim)
		__free_page(victim);
	if (nomemalloc)
		__free_page(nomemalloc);
}

/* Below half of min too: even a victim gets NULL after its rounds, asks the killer at most
 * once and kills nobody (no endless loop on reserves that are not there). */
static void victim_past_its_reserve_gets_null(struct ktest *t)
{
	unsigned long kills = (unsigned long)global_vm_event(OOM_KILL);
	struct page *page;
	struct exhaust e;

	KTEST_ASSERT_GT(t, preferred_zone->free_pages, 16);
	exhaust_begin(&e, 3, 1);
	current->oom_victim = true;
	page = alloc_page(GFP_KERNEL | __GFP_NOWARN);
	current->oom_victim = false;
	exhaust_end(&e);
	KTEST_EXPECT_TRUE(t, page == NULL);
	KTEST_EXPECT_LE(t, oom_calls, 1);
	KTEST_EXPECT_EQ(t, (unsigned long)global_vm_event(OOM_KILL), kills);
	if (page)
		__free_page(page);
}

static void count_user_tasks(struct task_struct *p, void *arg)
{
	if (p->mm)
		++*(unsigned int *)arg;
}

/* No user task at all: out_of_memory() says so (false), kills nothing, marks nobody; v6.10
 * would panic here ("System is deadlocked on memory"). */
static void nothing_to_kill_is_false_not_panic(struct ktest *t)
{
	struct oom_control oc = { .gfp_mask = GFP_KERNEL, .order = 0 };
	unsigned long kills = (unsigned long)global_vm_event(OOM_KILL);
	unsigned int users = 0;

	for_each_task(count_user_tasks, &users);
	if (users) {
		ktest_skip(t, "user tasks are running");
		return;
	}
	KTEST_EXPECT_FALSE(t, out_of_memory(&oc));
	KTEST_EXPECT_TRUE(t, oc.chosen == NULL);
	KTEST_EXPECT_EQ(t, (unsigned long)global_vm_event(OOM_KILL), kills);
	KTEST_EXPECT_FALSE(t, fatal_signal_pending(current));
	/* The fault path's entry too: returns, with nobody to kill. */
	pagefault_out_of_memory();
	KTEST_EXPECT_EQ(t, (unsigned long)global_vm_event(OOM_KILL), kills);
}

/* A kernel thread that borrowed an mm (a bench, a KTAP case: PF_KTHREAD with ->mm set, v6.10's
 * kthread_use_mm) is never the victim, however big: with no user task besides it, out_of_memory()
 * finds nobody to kill, and this thread is not marked. */
static void kernel_thread_with_an_mm_is_not_chosen(struct ktest *t)
{
	struct oom_control oc = { .gfp_mask = GFP_KERNEL, .order = 0 };
	unsigned long kills = (unsigned long)global_vm_event(OOM_KILL);
	unsigned int users = 0;

	for_each_task(count_user_tasks, &users);
	if (users) {
		ktest_skip(t, "user tasks are running");
		return;
	}
	KTEST_ASSERT_TRUE(t, current->flags & PF_KTHREAD);
	memset(&badness_mm, 0, sizeof(badness_mm));
	badness_mm.rss_stat[MM_ANONPAGES] = 100000;	/* the biggest there could be */
	current->mm = &badness_mm;	/* only counted, never switched to */
	KTEST_EXPECT_EQ(t, oom_badness(current, totalram_pages()), LONG_MIN);
	KTEST_EXPECT_FALSE(t, out_of_memory(&oc));
	current->mm = NULL;
	KTEST_EXPECT_TRUE(t, oc.chosen == NULL);
	KTEST_EXPECT_EQ(t, (unsigned long)global_vm_event(OOM_KILL), kills);
	KTEST_EXPECT_FALSE(t, fatal_signal_pending(current));
	KTEST_EXPECT_FALSE(t, tsk_is_oom_victim(current));
}

static const struct ktest_case oom_cases[] = {
	KTEST_CASE(badness_is_rss_swap_and_page_tables),
	KTEST_CASE(victim_dips_into_half_of_min),
	KTEST_CASE(victim_past_its_reserve_gets_null),
	KTEST_CASE(nothing_to_kill_is_false_not_panic),
	KTEST_CASE(kernel_thread_with_an_mm_is_not_chosen),
	{}
};
KTEST_SUITE(oom, oom_cases);
