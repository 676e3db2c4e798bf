/*
 * asm/cacheflush.h - making freshly written instructions visible to instruction fetch (ARMv7-A),
 * Linux's flush_icache_range() (arch/arm/mm/cache-v7.S, v7_coherent_kern_range).
 *
 * Instruction fetch does not look into the data cache: code written through it must be cleaned
 * to the Point of Unification, the instruction cache and branch predictor invalidated over the
 * range, and a DSB + ISB must follow before the new code runs.  The line sizes come from CTR
 * (DminLine, IminLine: log2 of words).  By-address maintenance needs a translation for the range
 * but never faults on permissions, so an execute-never buffer is fine.
 */
#ifndef ASM_ARM_CACHEFLUSH_H
#define ASM_ARM_CACHEFLUSH_H

static inline void flush_icache_range(unsigned long start, unsigned long end)
{
	unsigned int ctr, dline, iline;
	unsigned long a;

	__asm__ __volatile__("mrc p15, 0, %0, c0, c0, 1" : "=r"(ctr));
	dline = 4u << ((ctr >> 16) & 0xf);
	iline = 4u << (ctr & 0xf);
	for (a = start & ~(unsigned long)(dline - 1); a < end; a += dline)
		__asm__ __volatile__("mcr p15, 0, %0, c7, c11, 1" :: "r"(a) : "memory");	/* DCCMVAU */
	__asm__ __volatile__("dsb ish" ::: "memory");
	for (a = start & ~(unsigned long)(iline - 1); a < end; a += iline)
		__asm__ __volatile__("mcr p15, 0, %0, c7, c5, 1" :: "r"(a) : "memory");	/* ICIMVAU */
	__asm__ __volatile__("mcr p15, 0, %0, c7, c5, 6" :: "r"(0) : "memory");		/* BPIALL */
	__asm__ __volatile__("dsb ish\n\tisb" ::: "memory");
}

#endif
