/*
 * sifive_test.c - QEMU's "sifive,test0" finisher: one 32-bit register that ends the machine.
 * 0x5555 = pass (exit 0); (code << 16) | 0x3333 = fail with exit status @code.
 */
#include "tinymm/arch.h"
#include "tinymm/power.h"

#define FINISHER_FAIL	0x3333
#define FINISHER_PASS	0x5555

void sifive_test_poweroff(uintptr_t base, int status)
{
	if (status == 0)
		writel(FINISHER_PASS, base);
	else
		writel(((uint32_t)status << 16) | FINISHER_FAIL, base);
}
