/*
 * kthread.c - creating, ending and joining kernel threads.
 *
 * A new thread: task_struct from the "task_struct" slab cache, stack of 2^order pages from the
 * page allocator, filled with STACK_FILL (for the high-water mark) under a canary of
 * STACK_END_MAGIC words at its low end.  Its first switch-in runs kthread_entry(), which
 * unmasks interrupts and calls the thread function; returning from it is kthread_exit(ret).
 * References: the thread's own (dropped when the next thread frees its stack) and the
 * creator's (dropped by kthread_join or kthread_detach); the last one frees the task_struct.
 * Locking: the task list and states change with interrupts masked.
 */
#include <stdarg.h>
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/gfp.h"
#include "tinymm/irqflags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"

extern struct list_head sched_all_tasks;
void finish_task_switch(void);

static struct kmem_cache *task_cache;
static int next_pid = 1;

static __noreturn void kthread_entry(void)
{
	finish_task_switch();
	local_irq_enable();
	kthread_exit(current->threadfn(current->data));
}

struct task_struct *kthread_create_opts(int (*fn)(void *), void *data, const char *name,
					int prio, unsigned int stack_order)
{
	unsigned long flags;

	if (!task_cache)
		task_cache = kmem_cache_create("task_struct", sizeof(struct task_struct),
					       __alignof__(struct task_struct), 0, NULL);
	if (!task_cache || prio <= IDLE_PRIO || prio >= MAX_PRIO)
		return NULL;
	struct task_struct *p = kmem_cache_alloc(task_cache, GFP_KERNEL);
	if (!p)
		return NULL;
	unsigned long stack = __get_free_pages(GFP_KERNEL, stack_order);
	if (!stack) {
		kmem_cache_free(task_cache, p);
		return NULL;
	}
	memset(p, 0, sizeof(*p));
	p->stack = (unsigned long *)stack;
	p->stack_size = PAGE_SIZE << stack_order;
	for (size_t i = 0; i < p->stack_size / sizeof(long); i++)
		p->stack[i] = i < STACK_CANARY_WORDS ? STACK_END_MAGIC : STACK_FILL;
	p->threadfn = fn;
	p->data = data;
	p->prio = prio;
	p->__state = TASK_NEW;
	atomic_set(&p->usage, 2);
	INIT_LIST_HEAD(&p->run_list);
	strncpy(p->comm, name, TASK_COMM_LEN - 1);
	arch_context_init(&p->ctx, stack + p->stack_size, kthread_entry);
	local_irq_save(flags);
	p->pid = next_pid++;
	list_add_tail(&p->tasks, &sched_all_tasks);
	local_irq_restore(flags);
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
	me->exited = true;
	if (me->joiner)
		wake_up_process(me->joiner);
	me->__state = TASK_DEAD;
	schedule();		/* never comes back: the next thread frees our stack */
	for (;;)
		;
}

int kthread_join(struct task_struct *p)
{
	might_sleep();
	p->joiner = current;
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(p->exited))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
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
	local_irq_save(flags);
	list_del_init(&p->tasks);
	local_irq_restore(flags);
	kmem_cache_free(task_cache, p);
}
