/*
 * pmu.c - arch_instret() on ARMv7-A: PMU event counter 0 counting INST_RETIRED (event 0x08) at
 * every privilege level, programmed on the first call (PMSELR stays 0, so a read is one MRC of
 * PMXEVCNTR).  The counter is 32 bits wide; its overflow flag (PMOVSR bit 0) carries into a
 * software high word, so the result is monotonic as long as it is read at least once per 2^32
 * instructions.  PMCEID0 is never read (QEMU 7.2 traps it).  QEMU counts INST_RETIRED only
 * under `-icount`; without it the counter stays at 0 (see docs/benchmarks.md).
 */
#include "tinymm/arch.h"

static bool pmu_enabled;
static uint32_t instret_hi;

static void pmu_enable(void)
{
	uint32_t pmcr;

	__asm__ __volatile__("mrc p15, 0, %0, c9, c12, 0" : "=r"(pmcr));	/* PMCR */
	__asm__ __volatile__("mcr p15, 0, %0, c9, c12, 2" : : "r"(1u));		/* PMCNTENCLR: stop #0 */
	__asm__ __volatile__("mcr p15, 0, %0, c9, c12, 5" : : "r"(0u));		/* PMSELR: select #0 */
	__asm__ __volatile__("mcr p15, 0, %0, c9, c13, 1" : : "r"(0x08u));	/* PMXEVTYPER: INST_RETIRED,
										   no P/U filter: all PLs */
	__asm__ __volatile__("mcr p15, 0, %0, c9, c13, 2" : : "r"(0u));		/* PMXEVCNTR = 0 */
	__asm__ __volatile__("mcr p15, 0, %0, c9, c12, 3" : : "r"(1u));		/* PMOVSR: clear #0 */
	__asm__ __volatile__("mcr p15, 0, %0, c9, c12, 0" : : "r"(pmcr | 1u));	/* PMCR.E */
	__asm__ __volatile__("mcr p15, 0, %0, c9, c12, 1" : : "r"(1u));		/* PMCNTENSET: run #0 */
	__asm__ __volatile__("isb" : : : "memory");
	pmu_enabled = true;
}

static inline uint32_t pmxevcntr(void)
{
	uint32_t v;

	__asm__ __volatile__("isb\n\tmrc p15, 0, %0, c9, c13, 2" : "=r"(v));
	return v;
}

uint64_t arch_instret(void)
{
	uint32_t lo, ovs;

	if (unlikely(!pmu_enabled))
		pmu_enable();
	lo = pmxevcntr();
	__asm__ __volatile__("mrc p15, 0, %0, c9, c12, 3" : "=r"(ovs));		/* PMOVSR */
	if (unlikely(ovs & 1)) {
		/* It wrapped before the flag was read: count it, take a value from after the wrap. */
		__asm__ __volatile__("mcr p15, 0, %0, c9, c12, 3" : : "r"(1u));
		instret_hi++;
		lo = pmxevcntr();
	}
	return ((uint64_t)instret_hi << 32) | lo;
}
