/* time.h - monotonic time from the architected counter (kernel/time.c). */
#ifndef TINYMM_TIME_H
#define TINYMM_TIME_H
#include "kernel.h"

#define NSEC_PER_SEC	1000000000ULL

/* Set the counter frequency (Hz); before this, time reads as 0. */
void time_init(uint64_t freq_hz);
uint64_t time_counter_freq(void);
/* Nanoseconds per counter tick if the frequency divides 1e9 exactly, else 0. */
uint32_t time_ns_per_tick(void);
uint64_t ktime_get_ns(void);
/* Counter ticks to nanoseconds, without overflow for any 64-bit tick count below 2^64 / 1e9 s. */
uint64_t ticks_to_ns(uint64_t ticks, uint64_t freq_hz);
#endif
