/*
 * time.c - nanoseconds since reset from the architected counter (ARM CNTVCT, RISC-V `time`).
 * The frequency comes from the CPU (CNTFRQ) or the device tree (timebase-frequency).
 * Locking: none; the frequency is written once at boot before anything reads time.
 */
#include "tinymm/arch.h"
#include "tinymm/time.h"

static uint64_t counter_freq;
/* NSEC_PER_SEC / freq when that is a whole number (QEMU: 62.5 MHz -> 16, 10 MHz -> 100): then
 * a tick count becomes nanoseconds by one multiplication instead of two 64-bit divisions, which
 * 32-bit CPUs do in software, slowly, on every clock read (docs/benchmarks.md). */
static uint32_t ns_per_tick;

void time_init(uint64_t freq_hz)
{
	counter_freq = freq_hz;
	ns_per_tick = freq_hz && NSEC_PER_SEC % freq_hz == 0 ? (uint32_t)(NSEC_PER_SEC / freq_hz) : 0;
}

uint32_t time_ns_per_tick(void)
{
	return ns_per_tick;
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
	if (likely(ns_per_tick))
		return arch_counter_read() * ns_per_tick;
	return ticks_to_ns(arch_counter_read(), counter_freq);
}
