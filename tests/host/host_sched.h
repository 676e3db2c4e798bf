/* host_sched.h - what host tests of the kernel core see of tests/host/host_sched_arch.c. */
#ifndef TINYMM_TEST_HOST_SCHED_H
#define TINYMM_TEST_HOST_SCHED_H
#include <stdbool.h>
#include <stdint.h>

/* Run @fn on the shim's boot stack (__boot_stack_bottom..__boot_stack_top), where sched_init()
 * can make it the idle thread; returns @fn's result once it returns. */
int host_sched_boot(int (*fn)(void));
/* From @fn: back to host_sched_boot()'s (or host_sched_resume()'s) caller, which returns (0);
 * host_sched_resume() continues @fn here.  For a caller that boots once and runs many
 * scenarios, each from a call of its own (tests/fuzz/ext2_fuzz.c). */
void host_sched_pause(void);
void host_sched_resume(void);
/* The idle loop (kernel/sched.c's cpu_idle_loop()) until *@done: runs threads, advances the
 * simulated clock to each programmed deadline when nothing is runnable, aborts on deadlock. */
void host_idle_until(volatile bool *done);
/* Whether the simulated timer is programmed, and for which counter value. */
bool host_timer_armed(uint64_t *counter);
/* Timer interrupts delivered by the idle loop so far. */
unsigned long host_idle_interrupts(void);
#endif
