/*
 * sched.c - the scheduler: the run queue, schedule(), wake-ups, preemption, CPU affinity,
 * might_sleep().
 *
 * One run queue for all CPUs: a FIFO list per priority and a bitmap of the non-empty ones; a
 * CPU runs the highest-priority runnable task its affinity (cpus_mask) allows, its idle thread
 * when there is none.  Round-robin among equals: a turn lasts SCHED_SLICE_NS, then the task
 * goes to the tail of its queue; a CPU's clock event is programmed for its turn's end only when
 * an equal-priority task waits (sched_next_preempt_ns()).  A wake-up puts the task on the queue
 * and asks one CPU to reschedule (resched_cpu(): the flag on its running task, an IPI if it is
 * another CPU): an idle CPU the task may use (its last CPU first), else the one running the
 * lowest priority below the task's.  The switch happens at the next preempt_enable() that
 * reaches 0, at interrupt exit, or at once when the waker is preemptible.
 * v6.10 has a run queue per CPU and balances load between them; tinymm keeps one queue (at
 * most a few CPUs, and short critical sections), so placement is by choice of CPU at wake-up
 * and every CPU takes the best task when it reschedules: no balancing is needed.
 *
 * Invariants:
 *   - a task is on the run queue <=> on_rq; a task running on a CPU (cpu_rq(cpu)->curr) is
 *     never on it; an idle thread (PF_IDLE) never is.
 *   - a thread is switched out only with interrupts masked, and gets its interrupt state back
 *     when it resumes (schedule() restores the flags it saved); its preempt_count and
 *     need_resched are its own (thread_info), so nothing else is saved.
 *   - current (asm/current.h) is set for next just before the switch: from then on this CPU
 *     runs next's code, on next's stack.
 *   - a thread's stack canary is intact whenever it is switched out (checked; else panic).
 *   - a TASK_DEAD thread's stack is freed by the next thread to run on its CPU
 *     (finish_task_switch()), never while it is still on it.
 * Locking: rq_lock (a bare ticket lock, interrupts masked) guards the queue, every CPU's curr,
 * and each task's on_rq, cpu and cpus_mask and its wake-up (__state to TASK_RUNNING).  It is
 * held across the switch and released by the task switched to (finish_task_switch()), as
 * v6.10's rq->lock: another CPU can pick prev only once its registers are saved.  It is not a
 * spinlock_t because the lock-order checker keeps held locks per task and this one is taken by
 * one task and released by another; nothing is ever taken inside it (assert_rq_locked()), and
 * it nests inside a timer base's lock (the tick and the clock event ask what waits to run).
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bug.h"
#include "tinymm/errno.h"
#include "tinymm/irqflags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/power.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/sections.h"
#include "tinymm/smp.h"
#include "tinymm/stacktrace.h"
#include "tinymm/timer.h"

/* The boot CPU's idle thread (v6.10's init_task, pid 0): the boot context, current from the
 * first instruction of kmain; its stack is the boot stack. */
struct task_struct init_task = {
	.thread_info.stack_lo = (unsigned long)__boot_stack_bottom,
	.flags = PF_KTHREAD | PF_IDLE,
	.comm = "idle", .prio = IDLE_PRIO,
	.cpus_mask = ~0UL,
};

_Static_assert(offsetof(struct task_struct, thread_info) == 0, "asm finds thread_info at current");
_Static_assert(offsetof(struct thread_info, kernel_sp) == TI_KERNEL_SP, "thread_info.h");
_Static_assert(offsetof(struct thread_info, user_sp) == TI_USER_SP, "thread_info.h");
_Static_assert(offsetof(struct thread_info, stack_lo) == TI_STACK_LO, "thread_info.h");
_Static_assert(offsetof(struct thread_info, preempt_count) == TI_PREEMPT_COUNT, "thread_info.h");
_Static_assert(offsetof(struct thread_info, exit_work) == TI_EXIT_WORK, "thread_info.h");
_Static_assert(offsetof(struct thread_info, cpu) == TI_CPU, "thread_info.h");
_Static_assert(sizeof(struct exit_work) == 2 && _Alignof(struct exit_work) == 2,
	       "RISC-V's entry tests exit_work with one lhu");

/* A CPU's share of the scheduler's state (v6.10's struct rq, without the queue). */
struct rq {
	struct task_struct *curr;		/* running here; rq_lock */
	struct task_struct *idle;
	struct task_struct *switched_from;	/* prev of the last switch, for finish_task_switch */
	bool kicked;		/* idle, asked to reschedule for a woken task it has not taken yet */
	unsigned long nr_switches;
} __attribute__((aligned(64)));

static struct rq runqueues[NR_CPUS] = { [0] = { .curr = &init_task, .idle = &init_task } };
#define cpu_rq(cpu)	(&runqueues[(cpu)])

static arch_spinlock_t rq_lock = __ARCH_SPIN_LOCK_UNLOCKED;
static int rq_lock_owner = -1;		/* the holder's CPU: assert_rq_locked() */
static struct list_head runqueue[MAX_PRIO];
static uint32_t rq_bitmap;			/* bit p: runqueue[p] not empty */
/* The mm whose user half is live (switch_mm): the last user task's, while kernel threads run. */
struct mm_struct *__active_mm[NR_CPUS] = { [0 ... NR_CPUS - 1] = &init_mm };
static unsigned long sleep_warnings;
static uint64_t last_sleep_warning_ns;

LIST_HEAD(sched_all_tasks);

static inline bool is_idle_task(const struct task_struct *p)
{
	return p->flags & PF_IDLE;
}

/* Interrupts masked. */
static void rq_lock_acquire(void)
{
	arch_spin_lock(&rq_lock);
	rq_lock_owner = smp_processor_id();
}

static void rq_lock_release(void)
{
	rq_lock_owner = -1;
	arch_spin_unlock(&rq_lock);
}

static inline void assert_rq_locked(void)
{
	BUG_ON(rq_lock_owner != smp_processor_id());
}

static void enqueue_task(struct task_struct *p, bool head)
{
	assert_rq_locked();
	if (head)
		list_add(&p->run_list, &runqueue[p->prio]);
	else
		list_add_tail(&p->run_list, &runqueue[p->prio]);
	rq_bitmap |= 1u << p->prio;
	p->on_rq = true;
}

static void dequeue_task(struct task_struct *p)
{
	assert_rq_locked();
	list_del_init(&p->run_list);
	if (list_empty(&runqueue[p->prio]))
		rq_bitmap &= ~(1u << p->prio);
	p->on_rq = false;
}

static inline bool task_allowed_on(const struct task_struct *p, unsigned int cpu)
{
	return (p->cpus_mask >> cpu) & 1;
}

/* The best runnable task @cpu may run, left on the queue; NULL if none.  rq_lock held: the
 * lists change under another CPU's dequeue (list_del_init() points an entry at itself, so an
 * unlocked walk standing on it would spin there for ever). */
static struct task_struct *peek_task(unsigned int cpu)
{
	uint32_t bits = READ_ONCE(rq_bitmap);

	while (bits) {
		int prio = 31 - __builtin_clz(bits);
		struct task_struct *p;

		list_for_each_entry(p, &runqueue[prio], run_list)
			if (task_allowed_on(p, cpu))
				return p;
		bits &= ~(1u << prio);
	}
	return NULL;
}

/* The highest priority @cpu could run now, -1 if nothing is runnable there.  rq_lock held. */
static int highest_runnable_prio(unsigned int cpu)
{
	assert_rq_locked();
	if (!rq_bitmap)
		return -1;
	/* Common case: every task may run anywhere, the head of the top list is it. */
	struct task_struct *p = peek_task(cpu);
	return p ? p->prio : -1;
}

/*
 * The same from the tick, the reschedule IPI and the clock event (interrupts masked, rq_lock
 * not held; a timer base's lock may be: rq_lock nests inside it, never around it).  An empty
 * queue is read without the lock: a task queued just after is placed by its waker
 * (check_preempt_wakeup()), which kicks this CPU if it should run here.
 */
static int highest_runnable_prio_unlocked(unsigned int cpu)
{
	int prio;

	if (!READ_ONCE(rq_bitmap))
		return -1;
	rq_lock_acquire();
	prio = highest_runnable_prio(cpu);
	rq_lock_release();
	return prio;
}

static struct task_struct *pick_next_task(unsigned int cpu)
{
	struct task_struct *p = peek_task(cpu);

	if (!p)
		return cpu_rq(cpu)->idle;
	dequeue_task(p);
	return p;
}

/* Ask @cpu to reschedule: its running task's flag, and an IPI if it is not this CPU. */
static void resched_cpu(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	assert_rq_locked();
	WRITE_ONCE(rq->curr->thread_info.exit_work.need_resched, 1);
	if (is_idle_task(rq->curr))
		rq->kicked = true;
	if (NR_CPUS > 1 && cpu != (unsigned int)smp_processor_id())
		smp_send_reschedule(cpu);
}

/*
 * @p was just queued: find it a CPU.  An idle CPU it may use that nobody has kicked yet (its
 * last CPU first, for its caches), else the allowed CPU running the lowest priority below
 * @p's; an equal priority gets its turn's end armed (the round-robin).  rq_lock held.
 */
static void check_preempt_wakeup(struct task_struct *p)
{
	unsigned int this_cpu = smp_processor_id(), prev_cpu = task_cpu(p), cpu;
	int victim = -1, victim_prio = p->prio, equal = -1;

	if (prev_cpu < NR_CPUS && cpu_online(prev_cpu) && task_allowed_on(p, prev_cpu) &&
	    is_idle_task(cpu_rq(prev_cpu)->curr) && !cpu_rq(prev_cpu)->kicked) {
		resched_cpu(prev_cpu);
		return;
	}
	for_each_online_cpu(cpu) {
		struct rq *rq = cpu_rq(cpu);

		if (!task_allowed_on(p, cpu))
			continue;
		if (is_idle_task(rq->curr)) {
			if (!rq->kicked) {
				resched_cpu(cpu);
				return;
			}
			continue;
		}
		if (rq->curr->prio < victim_prio) {
			victim = (int)cpu;
			victim_prio = rq->curr->prio;
		} else if (rq->curr->prio == p->prio && (equal < 0 || cpu == this_cpu)) {
			equal = (int)cpu;
		}
	}
	if (victim >= 0)
		resched_cpu((unsigned int)victim);
	else if (NR_CPUS > 1 && equal >= 0 && (unsigned int)equal != this_cpu)
		smp_send_reschedule((unsigned int)equal);	/* it re-arms its turn's end */
}

/* Overflow is fatal and not a test failure to recover from: the overflowing thread may have
 * damaged whatever lies below its stack, so the machine stops here, naming it. */
static void check_stack_canary(struct task_struct *p)
{
	if (!p->stack)
		return;
	for (int i = 0; i < STACK_CANARY_WORDS; i++)
		if (p->stack[i] != STACK_END_MAGIC) {
			printk(KERN_EMERG "Kernel panic - not syncing: stack overflow in thread '%s' "
			       "(pid %d): canary at 0x%lx overwritten\n", p->comm, p->pid,
			       (unsigned long)&p->stack[i]);
			machine_poweroff(1);
		}
}

/* The first thing a task does once switched to (new threads: their entry), rq_lock held. */
void finish_task_switch(void);
void finish_task_switch(void)
{
	struct rq *rq = cpu_rq(smp_processor_id());
	struct task_struct *prev = rq->switched_from;

	rq->switched_from = NULL;
	rq_lock_release();
	if (prev && prev->__state == TASK_DEAD && prev != current) {
		free_thread_stack(prev);
		put_task_struct(prev);	/* the thread's own reference */
	}
	clockevent_update();
}

/* Interrupts masked.  @preempt: current did not give up the CPU itself. */
static void __schedule(bool preempt)
{
	struct task_struct *prev = current, *next;
	unsigned int cpu = smp_processor_id();
	struct rq *rq = cpu_rq(cpu);
	uint64_t now = ktime_get_ns();

	rq_lock_acquire();
	/*
	 * A preempted thread stays runnable whatever its state: it may have been caught between
	 * set_current_state(TASK_UNINTERRUPTIBLE) and its condition check, and taking it off the
	 * run queue there could lose a wake-up that already happened (Linux's rule too).
	 * Preempted before its turn ended: keep its place at the head; else round-robin.
	 */
	if ((prev->__state == TASK_RUNNING || preempt) && !is_idle_task(prev)) {
		enqueue_task(prev, preempt && now < prev->slice_end_ns);
		if (!task_allowed_on(prev, cpu))
			check_preempt_wakeup(prev);	/* its affinity moved it: find it a CPU */
	}
	next = pick_next_task(cpu);
	__need_resched = false;
	rq->kicked = false;
	if (next == prev) {
		if (now >= prev->slice_end_ns)
			prev->slice_end_ns = now + SCHED_SLICE_NS;
		rq_lock_release();
		return;
	}
	check_stack_canary(prev);
	if (preempt)
		prev->nivcsw++;
	else
		prev->nvcsw++;
	prev->sum_exec_ns += now - prev->exec_start_ns;
	next->exec_start_ns = now;
	next->slice_end_ns = now + SCHED_SLICE_NS;
	rq->switched_from = prev;
	rq->curr = next;
	rq->nr_switches++;
	thread_set_cpu(&next->thread_info, cpu);
	if (next->mm && next->mm != active_mm) {
		switch_mm(active_mm, next->mm);
		active_mm = next->mm;
	}
	set_current(next);
	arch_context_switch(&prev->ctx, &next->ctx);
	finish_task_switch();	/* we are prev again, someone switched back (on any CPU) */
}

void schedule(void)
{
	unsigned long flags;

	if (unlikely(preempt_count())) {
		printk(KERN_ERR "BUG: scheduling while atomic: %s/%d/0x%08x\n", current->comm,
		       current->pid, preempt_count());
		dump_stack();
	}
	local_irq_save(flags);
	__schedule(false);
	local_irq_restore(flags);
}

void yield(void)
{
	unsigned long flags;

	local_irq_save(flags);
	current->slice_end_ns = 0;	/* to the tail of its queue */
	__schedule(false);
	local_irq_restore(flags);
}

void preempt_schedule(void)
{
	unsigned long flags;

	local_save_flags(flags);
	if (preempt_count() || irqs_disabled_flags(flags))
		return;		/* the interrupt exit or next preempt_enable() will do it */
	local_irq_disable();
	while (__need_resched)
		__schedule(true);
	local_irq_enable();
}

void preempt_schedule_irq(void)
{
	while (__need_resched && !preempt_count())
		__schedule(true);
}

/* IPI_RESCHEDULE (kernel/smp.c), interrupts masked: the waker set the flag on whatever ran
 * here; the interrupt's exit switches.  Also re-arm this CPU's turn end for a new equal. */
void scheduler_ipi(void)
{
	struct task_struct *p = current;

	if (!is_idle_task(p) && highest_runnable_prio_unlocked(smp_processor_id()) > p->prio)
		__need_resched = true;
	clockevent_update();
}

/* Running on a CPU now (rq_lock held). */
static bool task_on_cpu(const struct task_struct *p)
{
	unsigned int cpu = task_cpu(p);

	return cpu < NR_CPUS && cpu_rq(cpu)->curr == p;
}

int try_to_wake_up(struct task_struct *p, unsigned int state)
{
	unsigned long flags;
	int woken = 0;

	preempt_disable();
	local_irq_save(flags);
	rq_lock_acquire();
	if (p->__state & state) {
		p->__state = TASK_RUNNING;
		woken = 1;
		if (!task_on_cpu(p) && !p->on_rq) {
			enqueue_task(p, false);
			check_preempt_wakeup(p);
		}
	}
	rq_lock_release();
	if (woken && !__need_resched)
		clockevent_update();	/* an equal may now wait here: arm the end of current's turn */
	local_irq_restore(flags);
	preempt_enable();
	return woken;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL | TASK_NEW);
}

int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *new_mask)
{
	unsigned long flags, mask = new_mask->bits & cpu_possible_mask->bits;
	bool move_self = false;

	if (!mask)
		return -EINVAL;
	local_irq_save(flags);
	rq_lock_acquire();
	p->cpus_mask = mask;
	if (task_on_cpu(p) && !task_allowed_on(p, task_cpu(p))) {
		if (p == current)
			move_self = true;
		else
			resched_cpu(task_cpu(p));	/* it goes back on the queue, for another CPU */
	} else if (p->on_rq) {
		check_preempt_wakeup(p);
	}
	rq_lock_release();
	local_irq_restore(flags);
	if (move_self)
		schedule();	/* TASK_RUNNING: queued, and picked by an allowed CPU */
	return 0;
}

void sched_tick(uint64_t now_ns)
{
	struct task_struct *p = current;
	unsigned int cpu = smp_processor_id();

	if (is_idle_task(p)) {
		if (highest_runnable_prio_unlocked(cpu) >= 0)
			__need_resched = true;
		return;
	}
	if (now_ns >= p->slice_end_ns && highest_runnable_prio_unlocked(cpu) >= p->prio)
		__need_resched = true;
}

uint64_t sched_next_preempt_ns(void)
{
	struct task_struct *p = current;

	if (is_idle_task(p) || highest_runnable_prio_unlocked(smp_processor_id()) < p->prio)
		return 0;
	/* Already over (preemption was not possible): a backstop, never a deadline in the past,
	 * which would interrupt again at once, forever, while the thread cannot be preempted. */
	uint64_t now = ktime_get_ns();
	if (p->slice_end_ns <= now)
		return now + NSEC_PER_MSEC;
	return p->slice_end_ns;
}

struct process_timer {
	struct timer_list timer;
	struct task_struct *task;
};

static void process_timeout(struct timer_list *t)
{
	struct process_timer *pt = from_timer(pt, t, timer);

	wake_up_process(pt->task);
}

long schedule_timeout(long timeout)
{
	struct process_timer t;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		printk(KERN_ERR "schedule_timeout: wrong timeout value %lx\n", (unsigned long)timeout);
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	unsigned long expire = jiffies + (unsigned long)timeout;
	t.task = current;
	timer_setup(&t.timer, process_timeout, 0);
	mod_timer(&t.timer, expire);
	schedule();
	del_timer_sync(&t.timer);
	long left = (long)(expire - jiffies);
	return left < 0 ? 0 : left;
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

void set_task_prio(struct task_struct *p, int prio)
{
	unsigned long flags;

	if (prio <= IDLE_PRIO || prio >= MAX_PRIO || is_idle_task(p))
		return;
	preempt_disable();
	local_irq_save(flags);
	rq_lock_acquire();
	if (p->on_rq) {
		dequeue_task(p);
		p->prio = prio;
		enqueue_task(p, false);
		check_preempt_wakeup(p);
	} else {
		p->prio = prio;
	}
	if (highest_runnable_prio(smp_processor_id()) > current->prio)
		__need_resched = true;
	rq_lock_release();
	local_irq_restore(flags);
	preempt_enable();
}

void __might_sleep(const char *file, int line)
{
	unsigned long flags;

	local_save_flags(flags);
	if (!preempt_count() && !irqs_disabled_flags(flags))
		return;
	sleep_warnings++;
	uint64_t now = ktime_get_ns();
	if (last_sleep_warning_ns && now - last_sleep_warning_ns < NSEC_PER_SEC)
		return;		/* Linux prints at most one a second */
	last_sleep_warning_ns = now ? now : 1;
	printk(KERN_ERR "BUG: sleeping function called from invalid context at %s:%d\n", file, line);
	printk(KERN_ERR "in_atomic(): %d, irqs_disabled(): %d, pid: %d, name: %s\n",
	       preempt_count() != 0, irqs_disabled_flags(flags), current->pid, current->comm);
	printk(KERN_ERR "preempt_count: %x\n", preempt_count());
	dump_stack();
}

unsigned long might_sleep_warnings(void)
{
	return sleep_warnings;
}

unsigned long sched_nr_switches(void)
{
	unsigned long n = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		n += READ_ONCE(cpu_rq(cpu)->nr_switches);
	return n;
}

size_t task_stack_high_water(const struct task_struct *p)
{
	if (!p->stack)
		return 0;
	size_t words = p->stack_size / sizeof(long), i = STACK_CANARY_WORDS;
	while (i < words && p->stack[i] == STACK_FILL)
		i++;
	return (words - i) * sizeof(long);
}

void for_each_task(void (*fn)(struct task_struct *p, void *arg), void *arg)
{
	unsigned long flags;
	struct task_struct *p;

	spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(p, &sched_all_tasks, tasks)
		fn(p, arg);
	spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* Running on some CPU right now (a snapshot). */
bool task_curr(const struct task_struct *p)
{
	unsigned int cpu = READ_ONCE(p->thread_info.cpu);

	return cpu < NR_CPUS && READ_ONCE(cpu_rq(cpu)->curr) == p;
}

const char *task_state_name(const struct task_struct *p)
{
	if (task_curr(p))
		return "R (running)";
	switch (p->__state) {
	case TASK_RUNNING: return "R (runnable)";
	case TASK_INTERRUPTIBLE: return "S (sleeping)";
	case TASK_UNINTERRUPTIBLE: return "D (disk sleep)";
	case TASK_DEAD: return "X (dead)";
	case TASK_NEW: return "N (new)";
	default: return "? (unknown)";
	}
}

/* The boot context becomes the idle thread: its stack is the boot stack, whose unused low part
 * gets the canary and the fill pattern now. */
void sched_init(void)
{
	for (int i = 0; i < MAX_PRIO; i++)
		INIT_LIST_HEAD(&runqueue[i]);
	init_task.cpus_mask = ~0UL;
	init_task.stack = (unsigned long *)__boot_stack_bottom;
	init_task.stack_size = (size_t)(__boot_stack_top - __boot_stack_bottom);
	unsigned long *sp = (unsigned long *)__builtin_frame_address(0);
	for (unsigned long *w = init_task.stack; w < sp - 64; w++)
		*w = STACK_FILL;
	for (int i = 0; i < STACK_CANARY_WORDS; i++)
		init_task.stack[i] = STACK_END_MAGIC;
	atomic_set(&init_task.usage, 1);
	INIT_LIST_HEAD(&init_task.run_list);
	list_add_tail(&init_task.tasks, &sched_all_tasks);
	init_task.exec_start_ns = ktime_get_ns();
	thread_set_cpu(&init_task.thread_info, 0);	/* the fast paths' pointers (smp.h) */
	set_current(&init_task);	/* already so on a target (its entry); host tests start here */
}

void cpu_idle_loop(void)
{
	for (;;) {
		local_irq_disable();
		if (!need_resched()) {
			stop_critical_timings();	/* waiting masked is no irqs-off stretch */
			arch_cpu_idle();	/* returns with an interrupt pending */
			start_critical_timings();
		}
		local_irq_enable();		/* ... which is taken here */
		if (need_resched())
			schedule();
	}
}

/* @idle becomes @cpu's idle thread, before the CPU starts (fork_idle()). */
void init_idle(struct task_struct *idle, unsigned int cpu)
{
	unsigned long flags;

	local_irq_save(flags);
	rq_lock_acquire();
	thread_set_cpu(&idle->thread_info, cpu);
	idle->cpus_mask = 1UL << cpu;
	cpu_rq(cpu)->idle = idle;
	cpu_rq(cpu)->curr = idle;
	rq_lock_release();
	local_irq_restore(flags);
}
