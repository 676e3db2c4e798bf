/*
 * power.c - machine_poweroff(status): the registered device (drivers/), else the
 * architecture's own way (ARM semihosting; RISC-V semihosting or SBI SRST on boards without an
 * exit device, arch/riscv/poweroff.c), else a loud message and a halt.
 * Locking: none (called once, at the very end).
 */
#include "tinymm/arch.h"
#include "tinymm/power.h"
#include "tinymm/printk.h"

void (*pm_power_off)(void);
static void (*poweroff_fn)(uintptr_t, int);
static uintptr_t poweroff_base;

void poweroff_register(void (*fn)(uintptr_t base, int status), uintptr_t base)
{
	poweroff_fn = fn;
	poweroff_base = base;
}

void machine_poweroff(int status)
{
	if (poweroff_fn)
		poweroff_fn(poweroff_base, status);
	arch_poweroff(status);
	printk(KERN_EMERG "poweroff: no way to power off this machine; halting (status %d)\n", status);
	for (;;)
		arch_cpu_relax();
}
