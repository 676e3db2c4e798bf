/* time_test.c - counter ticks to nanoseconds without overflow. */
#include "test.h"
#include "tinymm/time.h"

static void conversions(void **state)
{
	assert_int_equal(ticks_to_ns(62500000, 62500000), 1000000000ULL);
	assert_int_equal(ticks_to_ns(1, 10000000), 100);
	assert_int_equal(ticks_to_ns(5, 0), 0);
	/* 10 years at 62.5 MHz: ticks * 1e9 would overflow 64 bits, the split must not. */
	uint64_t ticks = 62500000ULL * 86400 * 3650;
	assert_int_equal(ticks_to_ns(ticks, 62500000), 86400ULL * 3650 * 1000000000ULL);
	time_init(10000000);
	shim_counter = 25;
	assert_int_equal(ktime_get_ns(), 2500);
	assert_int_equal(time_counter_freq(), 10000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(conversions) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
