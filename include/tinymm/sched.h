/*
 * sched.h - kernel threads and the scheduler (kernel/sched.c, kernel/kthread.c).
 *
 * A thread is a struct task_struct (from the slab) and a stack with a canary at its low end
 * checked at every switch.  The stack comes from vmalloc where the architecture runs on page
 * tables (arch_vmap_stack_usable(): v6.10's CONFIG_VMAP_STACK, decided at boot): the page below
 * it is then never mapped, so an overflow faults there and the trap handler reports `Kernel stack
 * overflow` naming the thread; elsewhere (RISC-V until paging is on) from the page allocator, where
 * only the canary can tell.  Priorities run 0..MAX_PRIO-1 and a higher
 * number runs first (as SCHED_RR's sched_priority; Linux's kernel prio numbers run the other
 * way); equal priorities take turns every SCHED_SLICE_NS.  Priority 0 belongs to the idle
 * thread, which runs only when nothing else can and waits for interrupts with wfi.
 *
 * States as Linux's: TASK_RUNNING (on the run queue or on the CPU), TASK_UNINTERRUPTIBLE /
 * TASK_INTERRUPTIBLE (asleep; tinymm has no signals, so both sleep until woken), TASK_DEAD.
 * The sleep idiom is Linux's: set_current_state(TASK_UNINTERRUPTIBLE); check the condition;
 * schedule(); a wake-up between the two leaves the task running, so nothing is lost.
 *
 * Lifetime: kthread_create() returns a new, not yet running thread holding two references, its
 * own and the creator's.  wake_up_process() starts it.  The creator then either joins it
 * (kthread_join: waits for it to exit, returns its exit code, drops the reference) or detaches
 * (kthread_detach).  A thread ends by kthread_exit(code) or by returning from its function; its
 * stack is freed by the next thread to run (a vmalloc stack through a work item, since vfree()
 * may sleep and the switch runs with interrupts masked), its task_struct with the last
 * reference.
 * Locking: the run queue and every task's state are changed with interrupts masked (one CPU).
 */
#ifndef TINYMM_SCHED_H
#define TINYMM_SCHED_H

#include <asm/context.h>
#include "atomic.h"
#include "barrier.h"
#include "kernel.h"
#include "list.h"
#include "irqflags.h"
#include "preempt.h"
#include "smp.h"
#include "thread_info.h"

#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_DEAD		0x0080
#define TASK_NEW		0x0800		/* created, not yet woken */
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

#define MAX_PRIO		32
#define IDLE_PRIO		0
#define DEFAULT_PRIO		16
#define WORKER_PRIO		20
#define TASK_COMM_LEN		16

#define THREAD_SIZE_ORDER	1		/* 8 KiB stacks, as 32-bit ARM Linux */
#define THREAD_SIZE		(PAGE_SIZE << THREAD_SIZE_ORDER)
#define STACK_CANARY_WORDS	8		/* at the low end: overwritten = overflow */
#define STACK_END_MAGIC		0x57ac6e9dUL	/* Linux's, as a word pattern */
#define STACK_FILL		0xbdbdbdbdUL	/* untouched stack, for the high-water mark */

/* task_struct.flags, Linux's values: PF_MEMALLOC marks a task inside reclaim (its own
 * allocations must not recurse into reclaim), PF_KSWAPD the kswapd thread, PF_WQ_WORKER a
 * workqueue's worker (reclaim must not make it wait for writeback it may be the one to start),
 * PF_KTHREAD a kernel thread: every task starts as one (kthread_create) and stops being one when
 * it becomes a user task, by exec (exec_mmap) or as fork's child (kernel_clone).  A kernel
 * thread that borrows an mm (a bench, a KTAP case) keeps it: the OOM killer never chooses it. */
#define PF_IDLE			0x00000002	/* a CPU's idle thread */
#define PF_WQ_WORKER		0x00000020
#define PF_MEMALLOC		0x00000800
#define PF_KSWAPD		0x00020000
#define PF_KTHREAD		0x00200000
#define current_is_kswapd()	(current && (current->flags & PF_KSWAPD))

#define SCHED_SLICE_NS		10000000ULL	/* 10 ms round-robin quantum */

struct vm_struct;
struct mm_struct;
struct files_struct;

struct task_struct {
	struct thread_info thread_info;	/* first: found from the current-task register */
	struct arch_context ctx;	/* saved registers while not on the CPU */
	volatile long __state;		/* TASK_* */
	unsigned int flags;		/* PF_* */
	int prio;
	int pid;
	unsigned long cpus_mask;	/* the CPUs it may run on (bit n: CPU n); rq_lock */
	struct list_head run_list;	/* on a run queue while runnable and not current */
	struct list_head tasks;		/* on the list of every task (ps) */
	atomic_t usage;			/* references: the thread itself, its creator's handle */
	unsigned long *stack;		/* lowest address (the boot stack for idle); NULL once freed */
	size_t stack_size;
	struct vm_struct *stack_vm_area;	/* the stack's vmalloc area; NULL: page allocator */
	int (*threadfn)(void *);
	void *data;
	int exit_code;
	bool on_rq;
	bool exited;
	/* The OOM killer (mm/oom_kill.c): a SIGKILL waiting to be taken on the way back to user
	 * mode (v6.10's fatal_signal_pending), and v6.10's TIF_MEMDIE / signal->oom_mm: this task
	 * was chosen to die and may use memory reserves until it has.  Set once, never cleared. */
	bool sigkill_pending;
	bool oom_victim;
	/* The lock-order checker's stack of held locks, while it holds any (kernel/lockdep.c):
	 * 1 + its index, 0 for none.  A byte in padding: the struct's size is unchanged. */
	unsigned char lockdep_slot;
	struct task_struct *joiner;	/* the thread in kthread_join(), if any */
	uint64_t oom_kill_ns;		/* when the OOM killer chose it (oom_victim) */
	uint64_t sum_exec_ns;		/* CPU time */
	uint64_t exec_start_ns;		/* when it last got the CPU */
	uint64_t slice_end_ns;		/* round-robin: when its turn ends */
	unsigned long nvcsw, nivcsw;	/* voluntary and involuntary switches */
	char comm[TASK_COMM_LEN];
	/* A user task's (issue 33): its address space (NULL for a kernel thread, which runs on
	 * whatever tables are active: only the kernel half is used) and its open files.  Changed
	 * only by the task itself (exec, exit). */
	struct mm_struct *mm;
	struct files_struct *files;
	/* fork (kernel/fork.c, docs/fork.md): the task that will reap this one (NULL: nobody, the
	 * kernel does when it ends), the children it must reap, and its link on its parent's list.
	 * Changed with interrupts masked. */
	struct task_struct *parent;
	struct list_head children;
	struct list_head sibling;
	/* issue 35 (hwpoison): a SIGBUS memory_failure() raised for this task while it ran a
	 * system call (force_sig_mceerr), delivered when that call ends: the si_code (0: none)
	 * and si_addr.  Set and read only by the task itself. */
	int mce_code;
	unsigned long mce_addr;
};

/* v6.10's names for the two flags above (a task here is its own thread group). */
static inline bool fatal_signal_pending(const struct task_struct *p)
{
	return READ_ONCE(p->sigkill_pending);
}

static inline bool tsk_is_oom_victim(const struct task_struct *p)
{
	return READ_ONCE(p->oom_victim);
}

#define current		get_current()
/* The boot CPU's idle task, the boot context (v6.10's name): current from the first instruction
 * of kmain on (the architecture's entry sets it). */
extern struct task_struct init_task;
#define task_cpu(p)	((p)->thread_info.cpu)
/* Whose user half this CPU's MMU has (kernel/sched.c): the last user task's while kernel threads
 * run.  Per CPU; read and written by that CPU only, with interrupts masked or preemption off. */
extern struct mm_struct *__active_mm[NR_CPUS];
#define active_mm	(__active_mm[smp_processor_id()])

/* @p has a SIGKILL to take on its way back to user mode (the OOM killer's); interrupts masked.
 * The return path tests the task's exit_work (thread_info.h), which says so too. */
static inline void set_sigkill_pending(struct task_struct *p)
{
	WRITE_ONCE(p->sigkill_pending, true);
	WRITE_ONCE(p->thread_info.exit_work.sigkill, 1);
}

#define get_current_state()	READ_ONCE(current->__state)
#define __set_current_state(s)	WRITE_ONCE(current->__state, (s))
#define set_current_state(s)	do { WRITE_ONCE(current->__state, (s)); smp_mb(); } while (0)

/* Bring-up: the boot context becomes the idle thread (call once, after the slab is up). */
void sched_init(void);
/* The idle loop: never returns.  kmain ends here once the first threads exist. */
__noreturn void cpu_idle_loop(void);

/* Give up the CPU: if current is still TASK_RUNNING it stays runnable (at its queue's tail). */
void schedule(void);
/* Sleep until woken or @timeout jiffies pass (MAX_SCHEDULE_TIMEOUT: no limit); returns the
 * jiffies left (0 when the time ran out).  Set the task state first, as with schedule(). */
#define MAX_SCHEDULE_TIMEOUT	((long)(~0UL >> 1))
long schedule_timeout(long timeout);
long schedule_timeout_uninterruptible(long timeout);
/* A wait for I/O: the same as schedule() here (Linux accounts it as iowait). */
#define io_schedule()		schedule()
void yield(void);
/* Make @p runnable if it sleeps in one of @state; 1 if it was woken (0: it was running). */
int try_to_wake_up(struct task_struct *p, unsigned int state);
int wake_up_process(struct task_struct *p);
/* Called with interrupts masked when the current thread's turn may be over (timer interrupt). */
void sched_tick(uint64_t now_ns);
/* When the current thread's round-robin turn ends, or 0 if nobody is waiting for the CPU. */
uint64_t sched_next_preempt_ns(void);
/* Interrupt exit: switch if a wake-up asked for it and the interrupted code allows it. */
void preempt_schedule_irq(void);

void set_task_prio(struct task_struct *p, int prio);

struct task_struct *kthread_create(int (*fn)(void *), void *data, const char *namefmt, ...)
	__printf(3, 4);
struct task_struct *kthread_create_opts(int (*fn)(void *), void *data, const char *name,
					int prio, unsigned int stack_order);
/* kthread_create + wake_up_process; NULL on failure (no memory). */
struct task_struct *kthread_run(int (*fn)(void *), void *data, const char *name);
/* v6.10's: the running kernel thread works in @mm's address space (current->mm, this CPU's
 * tables) until kthread_unuse_mm(@mm), which puts it back on init_mm's at once (v6.10 enters
 * lazy TLB mode and keeps @mm's tables).  The caller keeps its reference to @mm throughout. */
struct mm_struct;
void kthread_use_mm(struct mm_struct *mm);
void kthread_unuse_mm(struct mm_struct *mm);
/* A secondary CPU's idle thread, with its stack (kernel/kthread.c); NULL on ENOMEM. */
struct task_struct *fork_idle(unsigned int cpu);
/* @idle becomes @cpu's idle thread (fork_idle() calls it). */
void init_idle(struct task_struct *idle, unsigned int cpu);
/* Run @p only on the CPUs in @mask (those possible); -EINVAL if none.  If @p runs on a CPU it
 * may no longer use it moves at its next switch (at once when it is the caller). */
int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *mask);
/* IPI_RESCHEDULE's handler (kernel/smp.c calls it), interrupts masked. */
void scheduler_ipi(void);
/* @p is running on some CPU now (a snapshot). */
bool task_curr(const struct task_struct *p);
struct spinlock;
extern struct spinlock tasklist_lock;
__noreturn void kthread_exit(int code);
/* Wait for @p to exit; its exit code.  Drops the creator's reference: @p is gone afterwards. */
int kthread_join(struct task_struct *p);
/* Drop the creator's reference: the thread cleans itself up when it ends. */
void kthread_detach(struct task_struct *p);
void get_task_struct(struct task_struct *p);
void put_task_struct(struct task_struct *p);

/*
 * Thread stacks (kernel/kthread.c).  free_thread_stack(): called by the next thread to run once
 * @p is dead, interrupts masked; a vmalloc stack is queued and vfree()d by a work item.
 * flush_thread_stack_frees(): wait until every stack queued so far is freed (may sleep; tests).
 * task_stack_guard(): @addr lies in the unmapped page just below @p's vmalloc stack, where an
 * overflow faults (the trap handlers' test for `Kernel stack overflow`).
 */
void free_thread_stack(struct task_struct *p);
void flush_thread_stack_frees(void);
static inline bool task_stack_guard(const struct task_struct *p, unsigned long addr)
{
	unsigned long lo = (unsigned long)p->stack;

	return p->stack_vm_area && addr < lo && addr >= lo - PAGE_SIZE;
}

/* Bytes of @p's stack ever used (the deepest point the fill pattern was overwritten). */
size_t task_stack_high_water(const struct task_struct *p);
/* Calls @fn for each task, in creation order, with interrupts masked: @fn must not sleep. */
void for_each_task(void (*fn)(struct task_struct *p, void *arg), void *arg);
const char *task_state_name(const struct task_struct *p);
/* Switches so far (for tests and `ps`). */
unsigned long sched_nr_switches(void);

/*
 * might_sleep(): BUG report if the caller may not sleep (interrupts masked, a spinlock held,
 * interrupt context).  Every warning is counted; the report is printed at most once a second,
 * as Linux's __might_sleep.  Call at the top of everything that may sleep.
 */
void __might_sleep(const char *file, int line);
/* The test inline (a load and a csr read), the report out of line: it is on every mutex_lock. */
#define might_sleep()								\
	do {									\
		if (unlikely(preempt_count() || irqs_disabled()))		\
			__might_sleep(__FILE__, __LINE__);			\
	} while (0)
unsigned long might_sleep_warnings(void);

#endif
