/* meminfo_test.c - /proc/meminfo's exact line format. */
#include "test.h"
#include "tinymm/memblock.h"
#include "tinymm/meminfo.h"
#include "tinymm/shell.h"

static void format_matches_linux(void **state)
{
	char line[] = "meminfo", bad[] = "meminfo -a";

	memblock_reset();
	memblock_add(0x80000000, 0x20000000, NULL);
	memblock_reserve(0x80000000, 0x11000, MEMBLOCK_KERNEL);
	meminfo_set_total(memblock_size_of(MEMBLOCK_USABLE));
	memblock_alloc(0x4000, 0x1000, MEMBLOCK_MEMMAP);	/* allocated after boot: only MemFree drops */
	shim_console_reset();
	assert_int_equal(shell_exec(__shell_cmds_start, __shell_cmds_end, line), 0);
	assert_string_equal(shim_console, "MemTotal:         524220 kB\n"
					  "MemFree:          524204 kB\n");
	assert_int_equal(shell_exec(__shell_cmds_start, __shell_cmds_end, bad), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(format_matches_linux) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
