/*
 * arch.c - the ARMv7-A side of include/tinymm/arch.h: the generic timer and semihosting
 * power-off.  Traps are in traps.c, the MMU in mmu.c.
 */
#include "tinymm/arch.h"

const char arch_name[] = "armv7-a";

void arch_early_init(void)
{
	/* VBAR is set in entry.S before C runs, so even a fault here is reported. */
}

uint64_t arch_counter_read(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi));	/* CNTVCT */
	return ((uint64_t)hi << 32) | lo;
}

uint64_t arch_counter_freq(void)
{
	uint32_t f;

	__asm__ __volatile__("mrc p15, 0, %0, c14, c0, 0" : "=r"(f));	/* CNTFRQ */
	return f;
}

/*
 * Semihosting SYS_EXIT_EXTENDED (0x20): r1 points at {ADP_Stopped_ApplicationExit, status}.
 * Plain SYS_EXIT (0x18) cannot carry a status on 32-bit ARM.  QEMU needs -semihosting; without
 * it the SVC reaches our own vector and arm_trap() says so.
 */
void arch_poweroff(int status)
{
	static volatile uint32_t block[2];
	register uint32_t r0 __asm__("r0") = 0x20;
	register volatile uint32_t *r1 __asm__("r1") = block;

	block[0] = 0x20026;
	block[1] = (uint32_t)status;
	__asm__ __volatile__("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
}

void arch_cpu_relax(void)
{
	__asm__ __volatile__("wfi");
}
