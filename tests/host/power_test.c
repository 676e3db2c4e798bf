/* power_test.c - power-off goes to the registered device, else to the architecture. */
#include "test.h"
#include "tinymm/power.h"

static int dev_status = -1;
static uintptr_t dev_base;
static void fake_device(uintptr_t base, int status)
{
	dev_base = base;
	dev_status = status;
	/* a real device stops the machine here; falling through reaches arch_poweroff */
}

static void arch_fallback(void **state)
{
	shim_poweroff_armed = 1;
	if (!setjmp(shim_poweroff_jmp))
		machine_poweroff(3);
	assert_int_equal(shim_poweroff_status, 3);
	assert_int_equal(dev_status, -1);
}

static void registered_device_first(void **state)
{
	poweroff_register(fake_device, 0x100000);
	shim_poweroff_armed = 1;
	if (!setjmp(shim_poweroff_jmp))
		machine_poweroff(5);
	assert_int_equal(dev_status, 5);
	assert_int_equal(dev_base, 0x100000);
}

static void sifive_test_encoding(void **state)
{
	uint32_t reg = 0;

	sifive_test_poweroff((uintptr_t)&reg, 0);
	assert_int_equal(reg, 0x5555);
	sifive_test_poweroff((uintptr_t)&reg, 1);
	assert_int_equal(reg, 0x13333);
	sifive_test_poweroff((uintptr_t)&reg, 255);
	assert_int_equal(reg, 0xff3333);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arch_fallback),
		cmocka_unit_test(registered_device_first),
		cmocka_unit_test(sifive_test_encoding),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
