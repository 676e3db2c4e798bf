/*
 * host_sched_arch.c - the host "architecture" for the kernel core (kernel/sched.c, timer.c,
 * irq.c, ...): threads as ucontexts, a simulated one-shot timer, an empty interrupt-controller
 * table.  Only host tests that link the core (host_core in cmake/host.cmake) link this.
 *
 *   Threads: arch_context_init() is makecontext() on the thread's own stack (from the page
 *     allocator, bounds taken from its task_struct); arch_context_switch() is swapcontext(),
 *     annotated for AddressSanitizer (__sanitizer_{start,finish}_switch_fiber) so it knows which
 *     stack is live.  The idle thread runs on the shim's boot stack (host_sched_boot()).
 *   Time: shim_counter is the clock and never moves by itself.  arch_timer_set_next() records
 *     the deadline; arch_cpu_idle() (idle loop, interrupts masked, nothing runnable) jumps the
 *     clock to it and delivers the timer interrupt: irq_enter(); timer_interrupt(); irq_exit().
 *     Nothing programmed and nothing runnable is a deadlock: the task list is printed and the
 *     test aborts.  Everything is deterministic and takes no wall-clock time.
 */
#include <stdio.h>
#include <stdlib.h>
#include "host_sched.h"
#include "shim.h"
#include "tinymm/arch.h"
#include "tinymm/irq.h"
#include "tinymm/irqflags.h"
#include "tinymm/sched.h"
#include "tinymm/sections.h"
#include "tinymm/timer.h"

#if defined(__SANITIZE_ADDRESS__)
#define HOST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HOST_ASAN 1
#endif
#endif
#ifdef HOST_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* No interrupt-controller drivers on the host: an empty table. */
__asm__(".section .rodata\n"
	".balign 16\n"
	".globl __irqchip_table_start\n"
	".globl __irqchip_table_end\n"
	"__irqchip_table_start:\n"
	"__irqchip_table_end:\n"
	".previous\n");

void arch_irq_init(const struct dt *dt) { (void)dt; }

/* ---- threads ---- */

static struct arch_context *starting;	/* the context a switch goes to, for its trampoline */

static void fiber_start(struct arch_context *prev, struct arch_context *next)
{
#ifdef HOST_ASAN
	struct task_struct *p = container_of(prev, struct task_struct, ctx);
	const void *lo = next->stack_lo ? next->stack_lo : __boot_stack_bottom;
	size_t size = next->stack_lo ? next->stack_size
				     : (size_t)(__boot_stack_top - __boot_stack_bottom);

	if (p->__state == TASK_DEAD && prev->stack_lo) {
		/* Never resumed: forget its frames' red zones before its pages go back to the page
		 * allocator (nothing instrumented runs on this stack after this point). */
		__asan_unpoison_memory_region(prev->stack_lo, prev->stack_size);
		__sanitizer_start_switch_fiber(NULL, lo, size);
	} else {
		__sanitizer_start_switch_fiber(&prev->asan_fake_stack, lo, size);
	}
#else
	(void)prev;
	(void)next;
#endif
}

static void fiber_finish(void *fake_stack)
{
#ifdef HOST_ASAN
	__sanitizer_finish_switch_fiber(fake_stack, NULL, NULL);
#else
	(void)fake_stack;
#endif
}

static void thread_trampoline(void)
{
	struct arch_context *me = starting;

	fiber_finish(NULL);
	me->entry();
	fprintf(stderr, "host_sched_arch: a thread's entry function returned\n");
	abort();
}

/* No page tables on the host: thread stacks come from the page allocator (kernel/kthread.c). */
bool arch_vmap_stack_usable(void)
{
	return false;
}

void arch_context_init(struct arch_context *ctx, uintptr_t stack_lo, uintptr_t stack_top,
		       void (*entry)(void))
{
	/* Only kthread_create_opts() makes contexts, with the task's stack already set. */
	struct task_struct *p = container_of(ctx, struct task_struct, ctx);

	if ((uintptr_t)p->stack != stack_lo || (uintptr_t)p->stack + p->stack_size != stack_top ||
	    stack_top % 16) {
		fprintf(stderr, "host_sched_arch: stack top %#lx is not the end of %s's stack\n",
			(unsigned long)stack_top, p->comm);
		abort();
	}
	if (getcontext(&ctx->uc)) {
		perror("getcontext");
		abort();
	}
	ctx->uc.uc_stack.ss_sp = p->stack;
	ctx->uc.uc_stack.ss_size = p->stack_size;
	ctx->uc.uc_link = NULL;
	ctx->entry = entry;
	ctx->stack_lo = p->stack;
	ctx->stack_size = p->stack_size;
	ctx->asan_fake_stack = NULL;
	makecontext(&ctx->uc, thread_trampoline, 0);
}

void arch_context_switch(struct arch_context *prev, struct arch_context *next)
{
	if (!irqs_disabled()) {
		fprintf(stderr, "host_sched_arch: context switch with interrupts enabled\n");
		abort();
	}
	fiber_start(prev, next);
	starting = next;
	if (swapcontext(&prev->uc, &next->uc)) {
		perror("swapcontext");
		abort();
	}
	fiber_finish(prev->asan_fake_stack);
}

/* The boot stack: main() switches here, sched_init() makes the context the idle thread. */
static ucontext_t main_uc, boot_uc;
static int (*boot_fn)(void);
static int boot_ret;
#ifdef HOST_ASAN
static const void *main_lo;		/* the caller's stack, for the switches back to it */
static size_t main_size;
#endif

static void boot_trampoline(void)
{
#ifdef HOST_ASAN
	__sanitizer_finish_switch_fiber(NULL, &main_lo, &main_size);	/* from main's stack */
#endif
	boot_ret = boot_fn();
#ifdef HOST_ASAN
	__sanitizer_start_switch_fiber(NULL, main_lo, main_size);	/* never resumed */
#endif
	swapcontext(&boot_uc, &main_uc);
	abort();
}

int host_sched_boot(int (*fn)(void))
{
	getcontext(&boot_uc);
	boot_uc.uc_stack.ss_sp = __boot_stack_bottom;
	boot_uc.uc_stack.ss_size = (size_t)(__boot_stack_top - __boot_stack_bottom);
	boot_uc.uc_link = NULL;
	makecontext(&boot_uc, boot_trampoline, 0);
	boot_fn = fn;
#ifdef HOST_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, __boot_stack_bottom, boot_uc.uc_stack.ss_size);
#endif
	swapcontext(&main_uc, &boot_uc);
#ifdef HOST_ASAN
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
	return boot_ret;
}

/* A boot that outlives one call (a libFuzzer target runs one input per call on main's stack,
 * the kernel on the boot stack between them): back to the caller of host_sched_boot() or
 * host_sched_resume(), which returns 0; this returns at the next host_sched_resume(). */
void host_sched_pause(void)
{
#ifdef HOST_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, main_lo, main_size);
#endif
	swapcontext(&boot_uc, &main_uc);
#ifdef HOST_ASAN
	__sanitizer_finish_switch_fiber(fake, &main_lo, &main_size);
#endif
}

void host_sched_resume(void)
{
#ifdef HOST_ASAN
	void *fake = NULL;
	__sanitizer_start_switch_fiber(&fake, __boot_stack_bottom,
				       (size_t)(__boot_stack_top - __boot_stack_bottom));
#endif
	swapcontext(&main_uc, &boot_uc);
#ifdef HOST_ASAN
	__sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

/* ---- the simulated clock event ---- */

static bool timer_armed;
static uint64_t timer_deadline;		/* in counter ticks */
static unsigned long idle_interrupts;

int arch_timer_init(const struct dt *dt)
{
	(void)dt;
	return 0;
}

void arch_timer_set_next(uint64_t counter)
{
	timer_armed = counter != UINT64_MAX;
	timer_deadline = counter;
}

const char *arch_timer_name(void)
{
	return "host-simulated";
}

bool host_timer_armed(uint64_t *counter)
{
	if (counter)
		*counter = timer_deadline;
	return timer_armed;
}

unsigned long host_idle_interrupts(void)
{
	return idle_interrupts;
}

static void print_task(struct task_struct *p, void *arg)
{
	(void)arg;
	fprintf(stderr, "  pid %d %-16s prio %2d %s\n", p->pid, p->comm, p->prio, task_state_name(p));
}

/* No simulated time beyond this: a periodic timer keeping a stuck scenario alive. */
#define HOST_TIME_LIMIT_NS	(3600 * NSEC_PER_SEC)

void arch_cpu_idle(void)
{
	if (!irqs_disabled()) {
		fprintf(stderr, "host_sched_arch: arch_cpu_idle() with interrupts enabled\n");
		abort();
	}
	if (!timer_armed) {
		fprintf(stderr, "host_sched_arch: DEADLOCK at %llu ns: nothing runnable and no timer "
			"programmed.  Tasks:\n", (unsigned long long)ktime_get_ns());
		for_each_task(print_task, NULL);
		abort();
	}
	if (timer_deadline > shim_counter)
		shim_counter = timer_deadline;
	if (ktime_get_ns() > HOST_TIME_LIMIT_NS) {
		fprintf(stderr, "host_sched_arch: simulated time passed an hour: livelock?\n");
		for_each_task(print_task, NULL);
		abort();
	}
	timer_armed = false;		/* one-shot: it fired */
	idle_interrupts++;
	irq_enter();
	timer_interrupt();
	irq_exit();
}

void host_idle_until(volatile bool *done)
{
	/* kernel/sched.c's cpu_idle_loop(), with a way out. */
	while (!*done) {
		local_irq_disable();
		if (!need_resched())
			arch_cpu_idle();
		local_irq_enable();
		if (need_resched())
			schedule();
	}
}

/* switch_mm (include/tinymm/arch.h): the host has no MMU; its uaccess walks current->mm's
 * tables in software, so there is nothing to load. */
void switch_mm(struct mm_struct *prev, struct mm_struct *next)
{
	(void)prev;
	(void)next;
}
