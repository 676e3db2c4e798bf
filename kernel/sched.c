/*
 * sched.c - the scheduler: run queues, schedule(), wake-ups, preemption, might_sleep().
 *
 * One run queue per priority (FIFO lists) and a bitmap of the non-empty ones; the highest
 * non-empty priority runs.  Round-robin among equals: a thread's turn lasts SCHED_SLICE_NS,
 * then it goes to the tail of its queue; the clock event is programmed for the turn's end only
 * when an equal-priority thread is waiting (sched_next_preempt_ns()).  A wake-up of a higher
 * priority thread sets __need_resched; the switch happens at the next preempt_enable() that
 * reaches 0, at interrupt exit, or at once when the waker is preemptible.
 *
 * Invariants:
 *   - current is never on a run queue; on_rq <=> on a run queue; the idle thread never is.
 *   - a thread is switched out only with interrupts masked, and gets its interrupt state back
 *     when it resumes (schedule() restores the flags it saved); its preempt_count and
 *     need_resched are its own (thread_info), so nothing else is saved.
 *   - current (asm/current.h) is set for next just before the switch: from then on this CPU
 *     runs next's code, on next's stack.
 *   - a thread's stack canary is intact whenever it is switched out (checked; else panic).
 *   - a TASK_DEAD thread's stack is freed by the next thread to run (finish_task_switch()),
 *     never while it is still on it.
 * Locking: everything here runs with interrupts masked (one CPU), which is the run-queue lock.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bug.h"
#include "tinymm/irqflags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/power.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/sections.h"
#include "tinymm/stacktrace.h"
#include "tinymm/timer.h"

/* The boot CPU's idle thread (v6.10's init_task, pid 0): the boot context, current from the
 * first instruction of kmain; its stack is the boot stack. */
struct task_struct init_task = {
	.thread_info.stack_lo = (unsigned long)__boot_stack_bottom,
	.comm = "idle", .prio = IDLE_PRIO,
};
#define idle_task	init_task

_Static_assert(offsetof(struct task_struct, thread_info) == 0, "asm finds thread_info at current");
_Static_assert(offsetof(struct thread_info, kernel_sp) == TI_KERNEL_SP, "thread_info.h");
_Static_assert(offsetof(struct thread_info, user_sp) == TI_USER_SP, "thread_info.h");
_Static_assert(offsetof(struct thread_info, stack_lo) == TI_STACK_LO, "thread_info.h");
_Static_assert(offsetof(struct thread_info, preempt_count) == TI_PREEMPT_COUNT, "thread_info.h");
_Static_assert(offsetof(struct thread_info, exit_work) == TI_EXIT_WORK, "thread_info.h");
_Static_assert(offsetof(struct thread_info, cpu) == TI_CPU, "thread_info.h");
_Static_assert(sizeof(struct exit_work) == 2 && _Alignof(struct exit_work) == 2,
	       "RISC-V's entry tests exit_work with one lhu");
static struct list_head runqueue[MAX_PRIO];
static uint32_t rq_bitmap;			/* bit p: runqueue[p] not empty */
/* The mm whose user half is live (switch_mm): the last user task's, while kernel threads run. */
struct mm_struct *__active_mm[NR_CPUS] = { [0 ... NR_CPUS - 1] = &init_mm };
/* Per CPU: prev of its last switch, for finish_task_switch. */
static struct task_struct *switched_from[NR_CPUS];
static unsigned long nr_switches, sleep_warnings;
static uint64_t last_sleep_warning_ns;

LIST_HEAD(sched_all_tasks);

static void enqueue_task(struct task_struct *p, bool head)
{
	if (head)
		list_add(&p->run_list, &runqueue[p->prio]);
	else
		list_add_tail(&p->run_list, &runqueue[p->prio]);
	rq_bitmap |= 1u << p->prio;
	p->on_rq = true;
}

static void dequeue_task(struct task_struct *p)
{
	list_del_init(&p->run_list);
	if (list_empty(&runqueue[p->prio]))
		rq_bitmap &= ~(1u << p->prio);
	p->on_rq = false;
}

static int highest_runnable_prio(void)
{
	return rq_bitmap ? 31 - __builtin_clz(rq_bitmap) : -1;
}

static struct task_struct *pick_next_task(void)
{
	int prio = highest_runnable_prio();

	if (prio < 0)
		return &idle_task;
	struct task_struct *p = list_first_entry(&runqueue[prio], struct task_struct, run_list);
	dequeue_task(p);
	return p;
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

void finish_task_switch(void);
void finish_task_switch(void)
{
	unsigned int cpu = smp_processor_id();
	struct task_struct *prev = switched_from[cpu];

	switched_from[cpu] = NULL;
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
	uint64_t now = ktime_get_ns();

	/*
	 * A preempted thread stays runnable whatever its state: it may have been caught between
	 * set_current_state(TASK_UNINTERRUPTIBLE) and its condition check, and taking it off the
	 * run queue there could lose a wake-up that already happened (Linux's rule too).
	 * Preempted before its turn ended: keep its place at the head; else round-robin.
	 */
	if ((prev->__state == TASK_RUNNING || preempt) && prev != &idle_task)
		enqueue_task(prev, preempt && now < prev->slice_end_ns);
	next = pick_next_task();
	__need_resched = false;
	if (next == prev) {
		if (now >= prev->slice_end_ns)
			prev->slice_end_ns = now + SCHED_SLICE_NS;
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
	switched_from[smp_processor_id()] = prev;
	nr_switches++;
	if (next->mm && next->mm != active_mm) {
		switch_mm(active_mm, next->mm);
		active_mm = next->mm;
	}
	next->thread_info.cpu = prev->thread_info.cpu;
	set_current(next);
	arch_context_switch(&prev->ctx, &next->ctx);
	finish_task_switch();	/* we are prev again, someone switched back */
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

int try_to_wake_up(struct task_struct *p, unsigned int state)
{
	unsigned long flags;
	int woken = 0;

	preempt_disable();
	local_irq_save(flags);
	if (p->__state & state) {
		p->__state = TASK_RUNNING;
		woken = 1;
		if (p != current && !p->on_rq) {
			enqueue_task(p, false);
			if (p->prio > current->prio)
				__need_resched = true;
			else if (p->prio == current->prio)
				clockevent_update();	/* arm the end of current's turn */
		}
	}
	local_irq_restore(flags);
	preempt_enable();
	return woken;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL | TASK_NEW);
}

void sched_tick(uint64_t now_ns)
{
	struct task_struct *p = current;

	if (p == &idle_task) {
		if (rq_bitmap)
			__need_resched = true;
		return;
	}
	if (now_ns >= p->slice_end_ns && highest_runnable_prio() >= p->prio)
		__need_resched = true;
}

uint64_t sched_next_preempt_ns(void)
{
	struct task_struct *p = current;

	if (p == &idle_task || highest_runnable_prio() < p->prio)
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

	if (prio <= IDLE_PRIO || prio >= MAX_PRIO || p == &idle_task)
		return;
	preempt_disable();
	local_irq_save(flags);
	if (p->on_rq) {
		dequeue_task(p);
		p->prio = prio;
		enqueue_task(p, false);
	} else {
		p->prio = prio;
	}
	if (highest_runnable_prio() > current->prio)
		__need_resched = true;
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
	return nr_switches;
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

	local_irq_save(flags);
	list_for_each_entry(p, &sched_all_tasks, tasks)
		fn(p, arg);
	local_irq_restore(flags);
}

const char *task_state_name(const struct task_struct *p)
{
	if (p == current)
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
	idle_task.stack = (unsigned long *)__boot_stack_bottom;
	idle_task.stack_size = (size_t)(__boot_stack_top - __boot_stack_bottom);
	unsigned long *sp = (unsigned long *)__builtin_frame_address(0);
	for (unsigned long *w = idle_task.stack; w < sp - 64; w++)
		*w = STACK_FILL;
	for (int i = 0; i < STACK_CANARY_WORDS; i++)
		idle_task.stack[i] = STACK_END_MAGIC;
	atomic_set(&idle_task.usage, 1);
	INIT_LIST_HEAD(&idle_task.run_list);
	list_add_tail(&idle_task.tasks, &sched_all_tasks);
	idle_task.exec_start_ns = ktime_get_ns();
	set_current(&idle_task);	/* already so on a target (its entry); host tests start here */
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
