/*
 * oom_kill.c - the OOM killer (include/tinymm/oom.h, docs/oom.md), v6.10's mm/oom_kill.c
 * reduced.  When an allocation made for a user task finds no memory and reclaim made no
 * progress, the page allocator (__alloc_pages_may_oom, mm/page_alloc.c) calls out_of_memory():
 * the user task with the highest oom_badness() (resident pages + swap entries + page-table
 * pages) is killed with SIGKILL, Linux's "Out of memory: Killed process ..." line is printed
 * and vmstat oom_kill counted.  The victim is marked (tsk_is_oom_victim, v6.10's TIF_MEMDIE):
 * its own allocations may then dip into half of the min reserve (ALLOC_OOM), so it can run to
 * its exit, which frees its memory (do_exit -> mmput -> exit_mmap).  The kill itself is taken
 * on the victim's way back to user mode (the architectures' exit-to-user paths test
 * fatal_signal_pending()); a task faulting meanwhile retries its fault.
 *
 * Invariants:
 *   - only user tasks (an mm) are ever chosen; a kernel thread never is;
 *   - while a victim has not finished exiting, no second task is chosen (select_bad_process
 *     aborts, as v6.10's while its mm lacks MMF_OOM_SKIP), unless OOM_VICTIM_TIMEOUT_MS have
 *     passed since the kill (then it is passed over, the stand-in for the oom reaper's skip);
 *   - nothing here ever panics or waits for the victim: with nothing to kill, out_of_memory()
 *     returns false and the allocation fails with NULL.
 * Locking: oom_lock (a mutex, v6.10's) serialises out_of_memory(); the allocator only
 *   trylocks it (v6.10's __alloc_pages_may_oom), so no lock order is made with the locks its
 *   callers hold (mmap_lock, inode locks).  The task list is walked with interrupts masked
 *   (for_each_task: tasks neither exit nor drop their mm meanwhile, as v6.10's task_lock
 *   guarantees); the victim's numbers are copied out there, so no reference to its mm is kept.
 *   The mm counters are read unlocked, as v6.10's per-CPU sums are: a hint.
 *
 * Where tinymm differs from v6.10, and why: out_of_memory() runs only for allocations in a user
 *   task's context (current->mm): a kernel thread (a shell command such as memhog, a test)
 *   gets NULL at exhaustion as before, and kills nobody.  No oom_score_adj (always 0), no
 *   memcg, cpuset, mempolicy, sysrq or panic_on_oom, no oom notifiers; no UIDs (UID:0).  No oom
 *   reaper thread: the victim frees its own memory on exit, which the reserves make possible;
 *   a victim that has not gone after OOM_VICTIM_TIMEOUT_MS is skipped instead of reaped.  With
 *   nothing killable v6.10 panics ("System is deadlocked on memory"); tinymm warns once and the
 *   allocation fails.  pagefault_out_of_memory() runs the killer itself (v6.10 since 5.16 only
 *   retries the fault): tinymm's allocator gives up after a bounded number of OOM rounds
 *   where v6.10 loops, so the fault path must be able to start a kill of its own.  dump_header
 *   shows buddyinfo where v6.10 shows show_mem().
 */
#include <limits.h>
#include <string.h>
#include "tinymm/bug.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mutex.h"
#include "tinymm/oom.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/swapfile.h"
#include "tinymm/signal.h"
#include "tinymm/timer.h"
#include "tinymm/vmstat.h"
#include "internal.h"

#define K(x)	((unsigned long)(x) << (PAGE_SHIFT - 10))

static DEFINE_MUTEX(oom_lock);

/* What the killer prints of each candidate: copied with interrupts masked, printed after. */
#define OOM_DUMP_TASKS	16
struct oom_task_row {
	int pid;
	unsigned long total_vm, rss, swapents;
	long pgtables_bytes;
	char comm[TASK_COMM_LEN];
};

struct oom_scan {
	struct oom_control *oc;
	uint64_t now_ns;
	/* the chosen task's numbers, for the kill line */
	int pid;
	char comm[TASK_COMM_LEN];
	unsigned long total_vm, anon, file, shmem, pgtables_bytes;
	/* dump_tasks */
	unsigned int nr_rows, nr_more;
	struct oom_task_row rows[OOM_DUMP_TASKS];
};
static struct oom_scan scan;		/* oom_lock: too big for a kernel stack */

/* v6.10's oom_unkillable_task() and find_lock_task_mm(): a kernel thread never dies here, nor
 * one that has borrowed an mm (PF_KTHREAD: a bench or a KTAP case in the shell's thread, as
 * v6.10's kthread_use_mm users), nor a task without an mm; tinymm has no init to protect (the
 * first task is a kernel thread, the shell). */
static bool oom_unkillable_task(const struct task_struct *p)
{
	return (p->flags & PF_KTHREAD) || !READ_ONCE(p->mm);
}

long oom_badness(struct task_struct *p, unsigned long totalpages)
{
	struct mm_struct *mm = READ_ONCE(p->mm);

	(void)totalpages;	/* what v6.10 scales oom_score_adj by: adj is always 0 here */
	if (!mm || oom_unkillable_task(p))
		return LONG_MIN;
	return (long)(get_mm_rss(mm) + (unsigned long)get_mm_counter(mm, MM_SWAPENTS) +
		      mm_pgtables_bytes(mm) / PAGE_SIZE);
}

/* A victim that has not finished exiting: wait for it (abort), unless it is past its time. */
static bool oom_victim_pending(const struct task_struct *p, uint64_t now_ns)
{
	if (!tsk_is_oom_victim(p) || READ_ONCE(p->exited))
		return false;
	return now_ns - p->oom_kill_ns < (uint64_t)OOM_VICTIM_TIMEOUT_MS * NSEC_PER_MSEC;
}

/* v6.10's oom_evaluate_task(), for_each_task's callback: interrupts masked, must not sleep. */
static void oom_evaluate_task(struct task_struct *p, void *arg)
{
	struct oom_scan *s = arg;
	struct oom_control *oc = s->oc;
	struct mm_struct *mm = p->mm;
	long points;

	if (oc->chosen == OOM_ABORT)
		return;
	if (oom_victim_pending(p, s->now_ns)) {
		oc->chosen = OOM_ABORT;
		return;
	}
	if (tsk_is_oom_victim(p))
		return;			/* passed over: v6.10's MMF_OOM_SKIP */
	points = oom_badness(p, oc->totalpages);
	if (points == LONG_MIN)
		return;
	if (s->nr_rows < OOM_DUMP_TASKS) {
		struct oom_task_row *r = &s->rows[s->nr_rows++];

		r->pid = p->pid;
		r->total_vm = mm->total_vm;
		r->rss = get_mm_rss(mm);
		r->pgtables_bytes = (long)mm_pgtables_bytes(mm);
		r->swapents = (unsigned long)get_mm_counter(mm, MM_SWAPENTS);
		memcpy(r->comm, p->comm, sizeof(r->comm));
	} else {
		s->nr_more++;
	}
	if (points < oc->chosen_points)
		return;
	/* Ties go to the later task, as v6.10's "points < chosen_points" test does. */
	oc->chosen = p;
	oc->chosen_points = points;
	s->pid = p->pid;
	memcpy(s->comm, p->comm, sizeof(s->comm));
	s->total_vm = mm->total_vm;
	s->anon = (unsigned long)get_mm_counter(mm, MM_ANONPAGES);
	s->file = (unsigned long)get_mm_counter(mm, MM_FILEPAGES);
	s->shmem = (unsigned long)get_mm_counter(mm, MM_SHMEMPAGES);
	s->pgtables_bytes = mm_pgtables_bytes(mm);
}

static void select_bad_process(struct oom_control *oc)
{
	memset(&scan, 0, sizeof(scan));
	scan.oc = oc;
	scan.now_ns = ktime_get_ns();
	oc->chosen = NULL;
	oc->chosen_points = LONG_MIN;
	for_each_task(oom_evaluate_task, &scan);
}

/* v6.10's dump_header(): at most 10 in 5 s (oom_rs), like warn_alloc's reports. */
static void dump_header(struct oom_control *oc, bool victim)
{
	static uint64_t window_start;
	static unsigned int in_window;
	char names[160];

	if (!in_window || scan.now_ns - window_start >= 5000000000ULL) {
		window_start = scan.now_ns;
		in_window = 0;
	}
	if (++in_window > 10)
		return;
	format_gfp_flags(names, sizeof(names), oc->gfp_mask);
	pr_warn("%s invoked oom-killer: gfp_mask=%#x(%s), order=%d, oom_score_adj=0\n",
		current->comm, oc->gfp_mask, names, oc->order);
	dump_stack();
	show_buddyinfo(printk);
	/* v6.10's __show_mem tail: the page cache, then show_swap_cache_info() (an OOM kill with
	 * swap on comes only once swap is full: "Free swap  = 0kB"). */
	pr_info("%lu total pagecache pages\n", global_node_page_state(NR_FILE_PAGES));
	pr_info("%lu pages in swap cache\n", total_swapcache_pages());
	pr_info("Free swap  = %ldkB\n", get_nr_swap_pages() << (PAGE_SHIFT - 10));
	pr_info("Total swap = %lukB\n", (unsigned long)total_swap_pages << (PAGE_SHIFT - 10));
	pr_info("Tasks state (memory values in pages):\n");
	pr_info("[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name\n");
	for (unsigned int i = 0; i < scan.nr_rows; i++) {
		const struct oom_task_row *r = &scan.rows[i];

		pr_info("[%7d] %5d %5d %8lu %8lu %8ld %8lu         %5d %s\n", r->pid, 0, r->pid,
			r->total_vm, r->rss, r->pgtables_bytes, r->swapents, 0, r->comm);
	}
	if (scan.nr_more)
		pr_info("(%u more tasks not shown)\n", scan.nr_more);
	if (victim)
		pr_info("oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),task=%s,pid=%d,uid=0\n",
			scan.comm, scan.pid);
}

/* v6.10's mark_oom_victim() with the SIGKILL of __oom_kill_process(): the victim may now use
 * reserves and dies on its way back to user mode.  Interrupts masked (for_each_task). */
static void mark_oom_victim(struct task_struct *p)
{
	if (tsk_is_oom_victim(p))
		return;
	p->oom_kill_ns = ktime_get_ns();
	set_sigkill_pending(p);
	WRITE_ONCE(p->oom_victim, true);
	/* v6.10's signal_wake_up() sets TIF_SIGPENDING, which every return to user mode tests;
	 * here sigkill_pending is that flag: both architectures test it on every return, the
	 * system-call fast paths included (arch/riscv/entry.S, arch/arm/user.c), so a victim
	 * running system calls dies at the end of the one it is in.  A victim asleep is not
	 * woken: every sleep here is uninterruptible (include/tinymm/sched.h) but nanosleep's,
	 * which tests the flag; it dies when it returns. */
}

struct oom_mark {
	struct task_struct *victim;
	int pid;
	bool found;
};

/* The chosen task, if it is still there (same task_struct, same pid, still an mm): marked. */
static void oom_mark_chosen(struct task_struct *p, void *arg)
{
	struct oom_mark *m = arg;

	if (p == m->victim && p->pid == m->pid && p->mm) {
		mark_oom_victim(p);
		m->found = true;
	}
}

/* v6.10's oom_kill_process() + __oom_kill_process(), one task per process. */
static void oom_kill_process(struct oom_control *oc, const char *message)
{
	struct oom_mark m = { .victim = oc->chosen, .pid = scan.pid };

	dump_header(oc, true);
	for_each_task(oom_mark_chosen, &m);
	if (!m.found) {
		pr_info("%s: OOM victim %d (%s) is already exiting. Skip killing the task\n",
			message, scan.pid, scan.comm);
		return;
	}
	count_vm_events(OOM_KILL, 1);
	pr_err("%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, file-rss:%lukB, "
	       "shmem-rss:%lukB, UID:%u pgtables:%lukB oom_score_adj:%d\n",
	       message, scan.pid, scan.comm, K(scan.total_vm), K(scan.anon), K(scan.file),
	       K(scan.shmem), 0u, scan.pgtables_bytes >> 10, 0);
}

bool out_of_memory(struct oom_control *oc)
{
	/* v6.10's task_will_free_mem(current): a task already dying needs no one else killed,
	 * only the reserves to get out. */
	if (current->mm && fatal_signal_pending(current)) {
		unsigned long flags;

		local_irq_save(flags);
		mark_oom_victim(current);
		local_irq_restore(flags);
		return true;
	}
	/* A GFP_NOFS allocation may fail for want of the filesystem reclaim it forbade: no kill
	 * (v6.10's "the OOM killer does not compensate for IO-less reclaim"). */
	if (oc->gfp_mask && !(oc->gfp_mask & __GFP_FS))
		return true;
	oc->totalpages = totalram_pages();
	select_bad_process(oc);
	if (!oc->chosen) {
		dump_header(oc, false);
		pr_warn("Out of memory and no killable processes...\n");
		return false;
	}
	if (oc->chosen != OOM_ABORT)
		oom_kill_process(oc, "Out of memory");
	oc->chosen = NULL;		/* no reference is kept: see the header */
	return true;
}

/*
 * The allocator's hook (mm/page_alloc.c's __alloc_pages_may_oom, after reclaim failed): only in
 * a user task's context (see the header).  oom_lock is only tried: another task is killing
 * already, so this one waits a tick and retries, as v6.10 does.  A victim other than the
 * caller needs the CPU to exit: the caller gives it a tick (one CPU; v6.10 relies on the
 * reaper and other CPUs instead).
 */
static bool alloc_pages_may_oom(gfp_t gfp, unsigned int order)
{
	struct oom_control oc = { .gfp_mask = gfp, .order = (int)order };
	bool progress;

	if (!current || !current->mm)
		return false;
	if (!mutex_trylock(&oom_lock)) {
		schedule_timeout_uninterruptible(1);
		return true;
	}
	progress = out_of_memory(&oc);
	mutex_unlock(&oom_lock);
	if (progress && !fatal_signal_pending(current))
		schedule_timeout_uninterruptible(1);
	return progress;
}

/*
 * A user fault that ended in VM_FAULT_OOM (mm/user_fault.c): a task already killed just goes
 * (its kill is taken on the way out); otherwise the killer runs, with no gfp (every mask
 * allowed, as v6.10's before 5.16), and the fault is retried.
 */
void pagefault_out_of_memory(void)
{
	struct oom_control oc = { .gfp_mask = 0, .order = 0 };

	if (fatal_signal_pending(current))
		return;
	mutex_lock(&oom_lock);
	out_of_memory(&oc);
	mutex_unlock(&oom_lock);
	if (!fatal_signal_pending(current))
		schedule_timeout_uninterruptible(1);
}

void oom_init(void)
{
	alloc_pages_oom_hook = alloc_pages_may_oom;
}
