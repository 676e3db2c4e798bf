/*
 * time.c - nanoseconds since reset from the architected counter (ARM CNTVCT, RISC-V `time`).
 * The frequency comes from the CPU (CNTFRQ) or the device tree (timebase-frequency).
 * Locking: none; the frequency is written once at boot before anything reads time.
 */
#include "tinymm/arch.h"
#include "tinymm/time.h"

static uint64_t counter_freq;

void time_init(uint64_t freq_hz)
{
	counter_freq = freq_hz;
}

uint64_t time_counter_freq(void)
{
	return counter_freq;
}

uint64_t ticks_to_ns(uint64_t ticks, uint64_t freq)
{
	if (!freq)
		return 0;
	/* Split so ticks * 1e9 never overflows: whole seconds, then the remainder. */
	return ticks / freq * NSEC_PER_SEC + ticks % freq * NSEC_PER_SEC / freq;
}

uint64_t ktime_get_ns(void)
{
	return ticks_to_ns(arch_counter_read(), counter_freq);
}
