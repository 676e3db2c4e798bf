/*
 * kthread.c - creating, ending and joining kernel threads.
 *
 * A new thread: task_struct from the "task_struct" slab cache, a stack of 2^order pages filled
 * with STACK_FILL (for the high-water mark) under a canary of STACK_END_MAGIC words at its low
 * end.  Its first switch-in runs kthread_entry(), which unmasks interrupts and calls the thread
 * function; returning from it is kthread_exit(ret).
 * References: the thread's own (dropped when the next thread frees its stack) and the
 * creator's (dropped by kthread_join or kthread_detach); the last one frees the task_struct.
 *
 * Stacks (v6.10 kernel/fork.c's alloc_thread_stack_node / free_thread_stack with
 * CONFIG_VMAP_STACK): from vmalloc when arch_vmap_stack_usable() says the CPU can use vmalloc
 * memory, else from the page allocator (RISC-V until paging is on).  A vmalloc area is followed
 * by an unmapped guard page and preceded by the previous area's guard or an unmapped gap, so
 * the page below a vmalloc stack is never mapped and an overflow faults there
 * (task_stack_guard(), the trap handlers).  A dead thread's stack is freed by the next thread
 * to run, inside the switch with interrupts masked, where vfree() (it may sleep) cannot run:
 * the stack is pushed on dead_stacks, its own first word the link (v6.10 likewise keeps its
 * rcu_head in the dead stack), and vfree()d by whichever comes first of kthread_join() (so a
 * joined thread's stack is gone when the join returns, as a page-allocator stack is), the next
 * kthread_create() and a work item (a detached thread's).  v6.10's per-CPU cache of two stacks
 * is left out (docs/kernel-core.md gives the cost).
 * Locking: the task list, states and dead_stacks change with interrupts masked.
 */
#include <stdarg.h>
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bug.h"
#include "tinymm/gfp.h"
#include "tinymm/irqflags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/vmalloc.h"
#include "tinymm/workqueue.h"

extern struct list_head sched_all_tasks;
void finish_task_switch(void);

static struct kmem_cache *task_cache;
static int next_pid = 1;
/* sched_all_tasks, pids, every task's parent/children/sibling links (v6.10's tasklist_lock,
 * a spinlock here: no readers to favour). */
DEFINE_SPINLOCK(tasklist_lock);

/* A dead vmalloc stack waiting for thread_stack_free_work; the link sits in the stack itself. */
struct vm_stack {
	struct vm_stack *next;
};

static struct vm_stack *dead_stacks;
/* Threads past kthread_exit()'s `exited` whose stack is not yet handed back (on SMP they may
 * still be on another CPU): flush_thread_stack_frees() waits for them. */
static atomic_t nr_exiting = ATOMIC_INIT(0);
static DEFINE_SPINLOCK(dead_stacks_lock);	/* dead_stacks; also taken from the switch */

/* vfree() every queued dead stack; process context (vfree() may sleep). */
static void reap_dead_stacks(void)
{
	unsigned long flags;
	struct vm_stack *vs, *next;

	if (!READ_ONCE(dead_stacks))
		return;
	spin_lock_irqsave(&dead_stacks_lock, flags);
	vs = dead_stacks;
	dead_stacks = NULL;
	spin_unlock_irqrestore(&dead_stacks_lock, flags);
	for (; vs; vs = next) {
		next = vs->next;
		vfree(vs);
	}
}

static void thread_stack_free_fn(struct work_struct *work)
{
	reap_dead_stacks();
}

static struct work_struct thread_stack_free_work = {
	.entry = LIST_HEAD_INIT(thread_stack_free_work.entry), .func = thread_stack_free_fn,
};

/* noinline: __builtin_return_address(0) is then the creator, which vmallocinfo shows (v6.10's
 * shows dup_task_struct). */
static __attribute__((noinline)) int alloc_thread_stack_node(struct task_struct *p,
							     unsigned int order)
{
	size_t size = PAGE_SIZE << order;
	void *stack;

	if (arch_vmap_stack_usable()) {
		stack = __vmalloc_node(size, PAGE_SIZE, GFP_KERNEL, 0, __builtin_return_address(0));
		if (!stack)
			return -1;
		p->stack_vm_area = find_vm_area(stack);
	} else {
		stack = (void *)__get_free_pages(GFP_KERNEL, order);
		if (!stack)
			return -1;
	}
	p->stack = stack;
	p->stack_size = size;
	p->thread_info.stack_lo = (unsigned long)stack;	/* RISC-V's trap entry checks sp */
	return 0;
}

void free_thread_stack(struct task_struct *p)
{
	unsigned long flags;

	if (!p->stack)
		return;
	if (p->stack_vm_area) {
		struct vm_stack *vs = (struct vm_stack *)p->stack;

		spin_lock_irqsave(&dead_stacks_lock, flags);
		vs->next = dead_stacks;
		dead_stacks = vs;
		spin_unlock_irqrestore(&dead_stacks_lock, flags);
		if (system_wq)		/* before workqueue_init(): the next join or creation */
			schedule_work(&thread_stack_free_work);
	} else {
		free_pages((unsigned long)p->stack, (unsigned int)__builtin_ctzl(p->stack_size >> PAGE_SHIFT));
	}
	p->stack_vm_area = NULL;
	if (READ_ONCE(p->exited))
		atomic_dec(&nr_exiting);	/* fully ordered: after the queueing */
	/* Last: kthread_join() on another CPU waits for this store, then finds the stack queued. */
	smp_store_release(&p->stack, NULL);
}

void flush_thread_stack_frees(void)
{
	might_sleep();
	/* Every thread that has exited has left its CPU (bounded: they run masked to the end). */
	while (atomic_read_acquire(&nr_exiting))
		schedule_timeout_uninterruptible(1);
	reap_dead_stacks();
	if (system_wq)		/* a run of the work item may hold stacks it took before us */
		flush_work(&thread_stack_free_work);
}

static __noreturn void kthread_entry(void)
{
	finish_task_switch();
	local_irq_enable();
	kthread_exit(current->threadfn(current->data));
}

/* A zeroed task_struct with its stack (canary and fill pattern) and empty lists; NULL: no memory. */
/* Inlined: vmallocinfo names the stack by its caller (kthread_create_opts, fork_idle). */
static inline __attribute__((always_inline)) struct task_struct *task_alloc(unsigned int stack_order)
{
	if (!task_cache)
		task_cache = kmem_cache_create("task_struct", sizeof(struct task_struct),
					       __alignof__(struct task_struct), 0, NULL);
	struct task_struct *p = task_cache ? kmem_cache_alloc(task_cache, GFP_KERNEL) : NULL;
	if (!p)
		return NULL;
	memset(p, 0, sizeof(*p));
	if (alloc_thread_stack_node(p, stack_order)) {
		kmem_cache_free(task_cache, p);
		return NULL;
	}
	for (size_t i = 0; i < p->stack_size / sizeof(long); i++)
		p->stack[i] = i < STACK_CANARY_WORDS ? STACK_END_MAGIC : STACK_FILL;
	INIT_LIST_HEAD(&p->run_list);
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	return p;
}

struct task_struct *kthread_create_opts(int (*fn)(void *), void *data, const char *name,
					int prio, unsigned int stack_order)
{
	unsigned long flags;

	if (prio <= IDLE_PRIO || prio >= MAX_PRIO)
		return NULL;
	reap_dead_stacks();
	struct task_struct *p = task_alloc(stack_order);
	if (!p)
		return NULL;
	p->threadfn = fn;
	p->data = data;
	p->prio = prio;
	p->flags = PF_KTHREAD;		/* until exec or fork makes it a user task */
	p->__state = TASK_NEW;
	atomic_set(&p->usage, 2);
	strncpy(p->comm, name, TASK_COMM_LEN - 1);
	arch_context_init(&p->ctx, (uintptr_t)p->stack, (uintptr_t)p->stack + p->stack_size,
			  kthread_entry);
	/* The creator's CPUs (v6.10's fork inherits them; its kthreads take kthreadd's, all):
	 * a test pinned to one CPU keeps the threads it makes there (kernel/ktest.c). */
	p->cpus_mask = current ? current->cpus_mask : ~0UL;
	spin_lock_irqsave(&tasklist_lock, flags);
	p->pid = next_pid++;
	list_add_tail(&p->tasks, &sched_all_tasks);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return p;
}

/*
 * A secondary CPU's idle thread (v6.10's fork_idle): its own stack, pid 0, already "running"
 * on @cpu; the architecture starts the CPU on it (arch_cpu_boot(), sp at the stack's top) and
 * the CPU ends in cpu_idle_loop().  Never freed: a CPU that fails to come online keeps it.
 */
struct task_struct *fork_idle(unsigned int cpu)
{
	unsigned long flags;
	struct task_struct *p = task_alloc(THREAD_SIZE_ORDER);

	if (!p)
		return NULL;
	thread_set_cpu(&p->thread_info, cpu);
	p->prio = IDLE_PRIO;
	p->flags = PF_KTHREAD | PF_IDLE;
	p->__state = TASK_RUNNING;
	atomic_set(&p->usage, 1);
	ksnprintf(p->comm, TASK_COMM_LEN, "idle/%u", cpu);
	init_idle(p, cpu);
	spin_lock_irqsave(&tasklist_lock, flags);
	list_add_tail(&p->tasks, &sched_all_tasks);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return p;
}

struct task_struct *kthread_create(int (*fn)(void *), void *data, const char *namefmt, ...)
{
	char name[TASK_COMM_LEN];
	va_list ap;

	va_start(ap, namefmt);
	kvsnprintf(name, sizeof(name), namefmt, ap);
	va_end(ap);
	return kthread_create_opts(fn, data, name, DEFAULT_PRIO, THREAD_SIZE_ORDER);
}

void kthread_use_mm(struct mm_struct *mm)
{
	unsigned long flags;

	WARN_ON_ONCE(current->mm);
	local_irq_save(flags);		/* the switch and this CPU's active_mm as one */
	current->mm = mm;
	switch_mm(active_mm, mm);
	active_mm = mm;
	local_irq_restore(flags);
}

void kthread_unuse_mm(struct mm_struct *mm)
{
	unsigned long flags;

	WARN_ON_ONCE(current->mm != mm);
	local_irq_save(flags);
	current->mm = NULL;
	switch_mm(mm, &init_mm);
	active_mm = &init_mm;
	local_irq_restore(flags);
}

struct task_struct *kthread_run(int (*fn)(void *), void *data, const char *name)
{
	struct task_struct *p = kthread_create_opts(fn, data, name, DEFAULT_PRIO, THREAD_SIZE_ORDER);

	if (p)
		wake_up_process(p);
	return p;
}

void kthread_exit(int code)
{
	struct task_struct *me = current;

	local_irq_disable();
	me->exit_code = code;
	atomic_inc(&nr_exiting);	/* before exited: whoever sees exited sees us counted */
	/* Ordered against kthread_join(), which stores joiner then reads exited: one of the two
	 * sees the other's store (each side a full barrier), and the code is visible first. */
	smp_mb();
	WRITE_ONCE(me->exited, true);
	smp_mb();
	struct task_struct *joiner = READ_ONCE(me->joiner);
	if (joiner)
		wake_up_process(joiner);
	me->__state = TASK_DEAD;
	schedule();		/* never comes back: the next thread frees our stack */
	for (;;)
		;
}

int kthread_join(struct task_struct *p)
{
	might_sleep();
	WRITE_ONCE(p->joiner, current);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);	/* a full barrier after the store */
		if (READ_ONCE(p->exited))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	smp_rmb();		/* exit_code was written before exited */
	/*
	 * On another CPU @p may still be on its way out (exited is set before its last
	 * schedule()).  It runs there with interrupts masked until the next thread queues its
	 * stack (finish_task_switch()), so this wait is short and never on this CPU's account
	 * (with one CPU it never spins: we run only once @p is switched out).
	 */
	while (smp_load_acquire(&p->stack))
		cpu_relax();
	reap_dead_stacks();	/* @p is off its CPU: its stack was queued at that switch */
	int code = p->exit_code;
	put_task_struct(p);
	return code;
}

void kthread_detach(struct task_struct *p)
{
	put_task_struct(p);
}

void get_task_struct(struct task_struct *p)
{
	atomic_inc(&p->usage);
}

void put_task_struct(struct task_struct *p)
{
	unsigned long flags;

	if (!atomic_dec_and_test(&p->usage))
		return;
	spin_lock_irqsave(&tasklist_lock, flags);
	list_del_init(&p->tasks);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	kmem_cache_free(task_cache, p);
}
