/* power.h - power off with an exit status (kernel/power.c). */
#ifndef TINYMM_POWER_H
#define TINYMM_POWER_H
#include "kernel.h"

/* Register the board's power-off device (e.g. sifive,test); later registrations win. */
void poweroff_register(void (*fn)(uintptr_t base, int status), uintptr_t base);
/* Power off with @status (0 = everything asked for succeeded).  Never returns. */
__noreturn void machine_poweroff(int status);
/* sifive,test (QEMU's test finisher): status 0 passes, anything else fails with that code. */
void sifive_test_poweroff(uintptr_t base, int status);
#endif
