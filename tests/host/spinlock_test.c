/*
 * spinlock_test.c - spinlocks and irq masking on the host: the in-kernel suite "spinlock" run
 * under ASan/UBSan with the simulated irq flag, the debug reports' exact text, and threads
 * (each playing a CPU) contending for one lock.
 */
#include <pthread.h>
#include <asm/processor.h>
#include "test.h"
#include "tinymm/irqflags.h"
#include "tinymm/kallsyms.h"
#include "tinymm/printk.h"
#include "tinymm/ktest.h"
#include "tinymm/spinlock.h"

/* The suite itself, compiled into this test (the kernel build globs tests/ktest/). */
#include "../ktest/spinlock_ktest.c"

static void ktest_suite_passes(void **state)
{
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "spinlock");

	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	assert_console_has("# totals: pass:8 fail:0 skip:0\n");
	assert_false(irqs_disabled());		/* every case put the flag back */
}

/* The report names the bug, the CPU, the lock and the holder (a bare pc on the host, which
 * has no symbol table; "lock_here+0x.." on the boards). */
static void recursion_report(void **state)
{
	DEFINE_SPINLOCK(my_lock);
	struct ktest_recovery rec;
	char want[160], owner[96];

	shim_console_reset();
	lock_here(&my_lock);
	sprint_symbol(owner, sizeof(owner), (unsigned long)my_lock.owner);
	ktest_recovery_push(&rec);
	if (!setjmp(rec.jb))
		spin_lock(&my_lock);
	assert_true(ktest_recovery_pop(&rec));
	ksnprintf(want, sizeof(want), "BUG: spinlock recursion on CPU#0, lock: my_lock/%p, "
		  ".magic: dead4ead, .owner: %s, .owner_cpu: 0\n", (void *)&my_lock, owner);
	assert_console_has(want);
	assert_console_has("kernel BUG at kernel/spinlock.c:");
	spin_unlock(&my_lock);
}

static void misuse_reports(void **state)
{
	DEFINE_SPINLOCK(free_lock);
	spinlock_t junk = { .magic = 0x12345678 };

	shim_console_reset();
	spin_unlock(&free_lock);
	assert_console_has("BUG: spinlock already unlocked on CPU#0, lock: free_lock/");
	assert_console_has(".magic: dead4ead, .owner: <none>, .owner_cpu: -1\n");
	spin_lock(&junk);
	assert_console_has("BUG: spinlock bad magic on CPU#0, lock: ?/");
	assert_console_has(".magic: 12345678, ");
	assert_false(spin_is_locked(&junk));
}

/* The flag is per CPU: masking on one thread leaves another's alone. */
static void *other_cpu_irqs(void *arg)
{
	return (void *)(unsigned long)irqs_disabled();
}

static void irq_mask_is_per_cpu(void **state)
{
	unsigned long flags;
	pthread_t th;
	void *ret;

	local_irq_save(flags);
	assert_int_equal(pthread_create(&th, NULL, other_cpu_irqs, NULL), 0);
	assert_int_equal(pthread_join(th, &ret), 0);
	assert_null(ret);
	assert_true(irqs_disabled());
	local_irq_restore(flags);
	assert_false(irqs_disabled());
}

#define THREADS	2
#define ROUNDS	100000

static DEFINE_SPINLOCK(contended);
static unsigned long in_section, total;

static void *contender(void *arg)
{
	unsigned long flags;

	host_cpu_id = (int)(unsigned long)arg;
	for (int i = 0; i < ROUNDS; i++) {
		if (i % 2) {
			spin_lock_irqsave(&contended, flags);
		} else {
			while (!spin_trylock(&contended))
				cpu_relax();
			flags = 0;
		}
		if (in_section++ != 0)		/* plain accesses: only the lock protects them */
			return (void *)1;
		if (contended.owner_cpu != host_cpu_id)
			return (void *)2;
		total++;
		in_section--;
		if (i % 2)
			spin_unlock_irqrestore(&contended, flags);
		else
			spin_unlock(&contended);
	}
	return NULL;
}

static void threads_are_excluded(void **state)
{
	pthread_t th[THREADS];
	void *ret;

	for (unsigned long i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, contender, (void *)(i + 1)), 0);
	for (int i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(th[i], &ret), 0);
		assert_null(ret);
	}
	assert_int_equal(total, THREADS * ROUNDS);
	assert_false(spin_is_locked(&contended));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ktest_suite_passes),
		cmocka_unit_test(recursion_report),
		cmocka_unit_test(misuse_reports),
		cmocka_unit_test(irq_mask_is_per_cpu),
		cmocka_unit_test(threads_are_excluded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
