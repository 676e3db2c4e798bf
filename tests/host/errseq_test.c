/*
 * errseq_test.c - lib/errseq.c under ASan/UBSan against values computed by hand from v6.10's
 * lib/errseq.c rules (error in bits 0-11, SEEN = 0x1000, the counter steps by 0x2000 only when
 * the previous error was seen), including fsync-style cursors, the first-opener rule of
 * errseq_sample(), the counter wrapping at 32 bits and the refused errors (0, beyond MAX_ERRNO).
 */
#include "test.h"
#include "tinymm/errno.h"
#include "tinymm/errseq.h"

static void first_error_and_cursors(void **state)
{
	errseq_t e = 0, a = errseq_sample(&e), b = errseq_sample(&e);

	assert_int_equal(a, 0);
	assert_int_equal(errseq_check(&e, a), 0);
	assert_int_equal(errseq_check_and_advance(&e, &a), 0);	/* nothing happened yet */
	assert_int_equal(errseq_set(&e, -EIO), 0);
	assert_int_equal(e, 0x0005);
	assert_int_equal(errseq_sample(&e), 0);			/* unseen: a new opener hears it */
	assert_int_equal(errseq_check(&e, a), -EIO);
	assert_int_equal(errseq_check_and_advance(&e, &a), -EIO);
	assert_int_equal(e, 0x1005);
	assert_int_equal(a, 0x1005);
	assert_int_equal(errseq_check_and_advance(&e, &a), 0);	/* once per cursor */
	assert_int_equal(errseq_check_and_advance(&e, &b), -EIO);	/* every cursor once */
	assert_int_equal(b, 0x1005);
	assert_int_equal(errseq_check_and_advance(&e, &b), 0);
	assert_int_equal(errseq_sample(&e), 0x1005);		/* seen: a new opener does not */
}

static void counter_steps_only_after_seen(void **state)
{
	errseq_t e = 0x1005, since = 0x1005;

	assert_int_equal(errseq_set(&e, -EIO), 0x1005);
	assert_int_equal(e, 0x2005);
	assert_int_equal(errseq_set(&e, -ENOSPC), 0x2005);		/* unseen: replaced, no step */
	assert_int_equal(e, 0x201c);
	assert_int_equal(errseq_set(&e, -ENOSPC), 0x201c);		/* identical: no change */
	assert_int_equal(e, 0x201c);
	assert_int_equal(errseq_check_and_advance(&e, &since), -ENOSPC);	/* the latest error */
	assert_int_equal(e, 0x301c);
	assert_int_equal(errseq_set(&e, -EIO), 0x301c);
	assert_int_equal(e, 0x4005);
}

static void counter_wraps(void **state)
{
	errseq_t e = 0xfffff005, since = 0x5;

	errseq_set(&e, -EIO);
	assert_int_equal(e, 0x00000005);
	/* the wrapped value equals an old cursor: a 2^19-error-old cursor misses it, as in Linux */
	assert_int_equal(errseq_check(&e, since), 0);
}

static void bad_errors_refused(void **state)
{
	errseq_t e = 0x1005;

	shim_console_reset();
	assert_int_equal(errseq_set(&e, 0), 0x1005);
	assert_int_equal(errseq_set(&e, -4096), 0x1005);
	assert_int_equal(e, 0x1005);
	assert_console_has("WARNING");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_error_and_cursors),
		cmocka_unit_test(counter_steps_only_after_seen),
		cmocka_unit_test(counter_wraps),
		cmocka_unit_test(bad_errors_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
