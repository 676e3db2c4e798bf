/* kallsyms_test.c - symbol lookup against a hand-made table in tools/gen-kallsyms's layout. */
#include <stdarg.h>
#include "test.h"
#include "tinymm/kallsyms.h"
#include "tinymm/printk.h"

/* A table as tools/gen-kallsyms lays it out: three functions, the last without a size. */
const uint32_t kallsyms_num = 3;
const unsigned long kallsyms_addrs[] = { 0x1000, 0x1040, 0x1100 };
const uint32_t kallsyms_sizes[] = { 0x20, 0xc0, 0 };
const uint32_t kallsyms_offs[] = { 0, 6, 13 };
const char kallsyms_names[] = "alpha\0middle\0last_asm";

/* printk, unused by kallsyms.c but pulled in by nothing else here. */
static char out[4096];
int printk(const char *fmt, ...)
{
	va_list ap;
	size_t n = strlen(out);

	va_start(ap, fmt);
	int r = kvsnprintf(out + n, sizeof(out) - n, fmt + 2, ap);	/* skip the level */
	va_end(ap);
	return r;
}

static void lookup(void **state)
{
	unsigned long off, size;
	char buf[64];

	assert_string_equal(kallsyms_lookup(0x1000, &off, &size), "alpha");
	assert_int_equal(off, 0);
	assert_int_equal(size, 0x20);
	assert_null(kallsyms_lookup(0x1020, NULL, NULL));	/* padding between alpha and middle */
	assert_string_equal(kallsyms_lookup(0x10ff, &off, NULL), "middle");
	assert_int_equal(off, 0xbf);
	assert_null(kallsyms_lookup(0xfff, NULL, NULL));
	assert_null(kallsyms_lookup(0x1100, NULL, NULL));	/* no size and no next symbol */
	sprint_symbol(buf, sizeof(buf), 0x1044);
	assert_string_equal(buf, "middle+0x4/0xc0");
	sprint_symbol(buf, sizeof(buf), 0x5000);
	assert_string_equal(buf, "0x5000");
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(lookup) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
