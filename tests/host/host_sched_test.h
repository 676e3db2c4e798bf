/*
 * host_sched_test.h - what the kernel-core host tests share (tests/host/sched_test.c,
 * tests/host/timer_test.c): checks that work inside threads, the scenario runner (a "ctl" thread
 * while the idle thread drives the simulated clock), and the boot over a fake RAM.
 */
#ifndef TINYMM_TEST_HOST_SCHED_TEST_H
#define TINYMM_TEST_HOST_SCHED_TEST_H
#include "tinymm/workingset.h"
#include "test.h"
#include "fake_ram.h"
#include "host_sched.h"
#include "tinymm/completion.h"
#include "tinymm/delay.h"
#include "tinymm/irqflags.h"
#include "tinymm/memblock.h"
#include "tinymm/mutex.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/slab.h"
#include "tinymm/spinlock.h"
#include "tinymm/time.h"
#include "tinymm/timer.h"
#include "tinymm/wait.h"
#include "tinymm/workqueue.h"

#define MIB		(1UL << 20)
#define RAM_SIZE	(16 * MIB)
/* 3 MHz: a jiffy is exactly 3000 ticks, most nanosecond deadlines fall between two ticks, and
 * 1e9 / 3e6 is not whole (the timer code's general path).  One test repeats at QEMU ARM's
 * 62.5 MHz (16 ns a tick: the one-multiply path of kernel/time.c). */
#define FREQ		3000000ULL
static uint64_t freq = FREQ;
#define STACK_ORDER	2		/* test threads: 16 KiB (ASan's frames are larger) */

static char *ram;

/* ---- checks inside threads ---- */

static int failures;

#define CHECK(c)									\
	do {										\
		if (!(c)) {								\
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
			failures++;							\
		}									\
	} while (0)
#define CHECK_EQ(a, b)									\
	do {										\
		long long __a = (long long)(a), __b = (long long)(b);			\
		if (__a != __b) {							\
			fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld != %lld)\n",	\
				__FILE__, __LINE__, #a, #b, __a, __b);			\
			failures++;							\
		}									\
	} while (0)

/* The time a deadline of @ns is met: the first counter tick at or after it, in ns. */
static uint64_t tick_ceil(uint64_t ns)
{
	uint64_t c = ns / NSEC_PER_SEC * freq + (ns % NSEC_PER_SEC * freq + NSEC_PER_SEC - 1) / NSEC_PER_SEC;

	return ticks_to_ns(c, freq);
}

static uint64_t jiffy_deadline(unsigned long j)
{
	return tick_ceil((uint64_t)j * NSEC_PER_JIFFY);
}

static struct task_struct *start(int (*fn)(void *), void *arg, const char *name)
{
	struct task_struct *p = kthread_create_opts(fn, arg, name, DEFAULT_PRIO, STACK_ORDER);

	CHECK(p != NULL);
	wake_up_process(p);
	return p;
}

/* ---- scenarios: run in a thread while the idle thread drives the clock ---- */

static volatile bool scenario_done;

struct scenario {
	int (*fn)(void);
	int ret;
};

static int controller(void *arg)
{
	struct scenario *s = arg;

	s->ret = s->fn();
	scenario_done = true;
	return 0;
}

static void run_scenario(int (*fn)(void))
{
	struct scenario s = { .fn = fn, .ret = -1 };
	struct task_struct *ctl;

	failures = 0;
	scenario_done = false;
	ctl = kthread_create_opts(controller, &s, "ctl", DEFAULT_PRIO, STACK_ORDER);
	assert_non_null(ctl);
	kthread_detach(ctl);
	wake_up_process(ctl);
	host_idle_until(&scenario_done);
	assert_int_equal(s.ret, 0);
	assert_int_equal(failures, 0);
	assert_int_equal(preempt_count(), 0);
	assert_false(irqs_disabled());
}


/* ---- boot ---- */

static void boot_memory(void)
{
	if (fake_ram_one_bank(__pa(ram), RAM_SIZE))
		abort();
	fake_ram_reserve_kernel(__pa(ram));
	if (memmap_init() || page_alloc_init())
		abort();
	kmem_cache_init();
	time_init(freq);
	shim_counter_freq = freq;
	shim_counter = 1234567;		/* not on a jiffy */
	console_loglevel = 7;
}

/* main(): boot the allocators, then run @tests on the boot stack, which becomes the idle thread. */
static const struct CMUnitTest *host_sched_tests;
static size_t host_sched_ntests;

static int host_sched_on_boot_stack(void)
{
	sched_init();			/* this context becomes the idle thread */
	pagecache_init();		/* the folio wait table */
	workingset_init();		/* the shadow-node shrinker, as boot/main.c */
	timers_init(NULL);
	workqueue_init();		/* the worker runs at once, then sleeps */
	return _cmocka_run_group_tests("tests", host_sched_tests, host_sched_ntests, NULL, NULL);
}

static int host_sched_main(const struct CMUnitTest *tests, size_t n)
{
	ram = fake_ram_alloc(RAM_SIZE);
	if (!ram)
		return 1;
	host_sched_tests = tests;
	host_sched_ntests = n;
	boot_memory();
	int ret = host_sched_boot(host_sched_on_boot_stack);
	free(ram);
	return ret;
}
#endif
