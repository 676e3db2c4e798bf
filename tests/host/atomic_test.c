/*
 * atomic_test.c - atomics, bitops and barriers on the host's builtins: the in-kernel suite
 * "atomic" run under ASan/UBSan (one set of checks for host and boards), then real concurrency
 * the boards cannot give yet: threads racing on one counter, one word of bits, one cmpxchg loop.
 */
#include <pthread.h>
#include "test.h"
#include "tinymm/atomic.h"
#include "tinymm/bitops.h"
#include "tinymm/ktest.h"

/* The suite itself, compiled into this test (the kernel build globs tests/ktest/). */
#include "../ktest/atomic_ktest.c"

static void ktest_suite_passes(void **state)
{
	shim_console_reset();
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "atomic");

	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	assert_console_has("# totals: pass:11 fail:0 skip:0\n");
}

#define THREADS	2
#define ROUNDS	1000000

static atomic_t counter;
static atomic_long_t long_counter;
static unsigned int cas_counter;
static unsigned long bits[1];

/* Thread @id: ROUNDS increments three ways, and flips its own bit in a word it shares. */
static void *racer(void *arg)
{
	unsigned long id = (unsigned long)arg;

	for (int i = 0; i < ROUNDS; i++) {
		atomic_inc(&counter);
		atomic_long_add(2, &long_counter);
		for (unsigned int old = READ_ONCE(cas_counter), seen;
		     (seen = cmpxchg(&cas_counter, old, old + 1)) != old; old = seen)
			;
		if (test_and_set_bit(id, bits) || !test_and_clear_bit(id, bits))
			return (void *)1;	/* a lost update from the other thread's bit */
		if (i % 64 == 0) {
			set_bit(THREADS + id, bits);
			clear_bit(THREADS + id, bits);
		}
	}
	return NULL;
}

static void threads_lose_no_update(void **state)
{
	pthread_t th[THREADS];
	void *ret;

	for (unsigned long i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, racer, (void *)i), 0);
	for (int i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(th[i], &ret), 0);
		assert_null(ret);
	}
	assert_int_equal(atomic_read(&counter), THREADS * ROUNDS);
	assert_int_equal(atomic_long_read(&long_counter), 2L * THREADS * ROUNDS);
	assert_int_equal(cas_counter, THREADS * ROUNDS);
	assert_int_equal(bits[0], 0);
}

/* dec_and_test fires exactly once across threads: the reference-count pattern. */
static atomic_t refs;
static atomic_t zero_seen;

static void *putter(void *arg)
{
	for (int i = 0; i < ROUNDS / 10; i++)
		if (atomic_dec_and_test(&refs))
			atomic_inc(&zero_seen);
	return NULL;
}

static void dec_and_test_fires_once(void **state)
{
	pthread_t th[THREADS];

	atomic_set(&refs, THREADS * (ROUNDS / 10));
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, putter, NULL), 0);
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(th[i], NULL), 0);
	assert_int_equal(atomic_read(&refs), 0);
	assert_int_equal(atomic_read(&zero_seen), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ktest_suite_passes),
		cmocka_unit_test(threads_lose_no_update),
		cmocka_unit_test(dec_and_test_fires_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
