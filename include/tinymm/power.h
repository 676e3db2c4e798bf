/* power.h - power off with an exit status (kernel/power.c). */
#ifndef TINYMM_POWER_H
#define TINYMM_POWER_H
#include "kernel.h"

/* Register the board's power-off device (e.g. sifive,test); later registrations win. */
void poweroff_register(void (*fn)(uintptr_t base, int status), uintptr_t base);
/* Power off with @status (0 = everything asked for succeeded).  Never returns. */
__noreturn void machine_poweroff(int status);
/* The board's power controller when it carries no exit status (the Raspberry Pi's watchdog
 * halt): Linux's hook, which arch_poweroff() calls after the ways that carry one. */
extern void (*pm_power_off)(void);
struct dt;
/* drivers/bcm2835_wdt.c: set pm_power_off from a "system-power-controller" PM node; 0 or -1. */
int bcm2835_wdt_init(const struct dt *dt);
/* sifive,test (QEMU's test finisher): status 0 passes, anything else fails with that code. */
void sifive_test_poweroff(uintptr_t base, int status);
#endif
