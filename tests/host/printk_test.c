/* printk_test.c - log levels, the timestamp prefix, bare kprintf, the log ring. */
#include "test.h"
#include "tinymm/printk.h"
#include "tinymm/time.h"

void log_buf_dump(void (*out)(const char *s, size_t n));

static void timestamps_and_levels(void **state)
{
	time_init(1000000);		/* 1 MHz */
	shim_counter = 3141593;		/* 3.141593 s */
	console_loglevel = 7;
	shim_console_reset();
	pr_info("hello %d\n", 1);
	pr_debug("hidden\n");
	printk("no level, part one ");
	printk("and two\n");
	pr_err("err\n");
	assert_string_equal(shim_console,
		"[    3.141593] hello 1\n"
		"[    3.141593] no level, part one and two\n"
		"[    3.141593] err\n");
	console_loglevel = 4;		/* only below warning */
	shim_console_reset();
	pr_warn("warn\n");
	pr_err("err2\n");
	assert_string_equal(shim_console, "[    3.141593] err2\n");
	console_loglevel = 7;
}

static void kprintf_is_bare(void **state)
{
	shim_console_reset();
	kprintf("ok %d %s\n", 1, "x");
	assert_string_equal(shim_console, "ok 1 x\n");
}

static char dumped[16384];
static void dump_cb(const char *s, size_t n) { strncat(dumped, s, n); }

static void log_ring_keeps_hidden_messages(void **state)
{
	console_loglevel = 1;
	pr_debug("secret %d\n", 42);
	console_loglevel = 7;
	dumped[0] = '\0';
	log_buf_dump(dump_cb);
	assert_non_null(strstr(dumped, "] secret 42\n"));
	/* Overfill the ring: the newest bytes are kept, the oldest dropped. */
	for (int i = 0; i < 400; i++) {
		console_loglevel = 0;
		pr_info("line %03d ..............\n", i);
	}
	console_loglevel = 7;
	dumped[0] = '\0';
	log_buf_dump(dump_cb);
	assert_null(strstr(dumped, "secret"));
	assert_non_null(strstr(dumped, "] line 399 ..............\n"));
	assert_true(strlen(dumped) <= 8192);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(timestamps_and_levels),
		cmocka_unit_test(kprintf_is_bare),
		cmocka_unit_test(log_ring_keeps_hidden_messages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
