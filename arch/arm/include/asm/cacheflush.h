/*
 * asm/cacheflush.h - ARMv7-A cache maintenance primitives (include/tinymm/cacheflush.h lists
 * them; docs/cacheflush.md).  v6.10's arch/arm/mm/cache-v7.S by-MVA loops, in C:
 *   DCCMVAC (c7,c10,1) clean to PoC, DCCMVAU (c7,c11,1) clean to PoU, DCIMVAC (c7,c6,1)
 *   invalidate to PoC, DCCIMVAC (c7,c14,1) clean+invalidate to PoC, ICIALLUIS (c7,c1,0) and
 *   BPIALLIS (c7,c1,6) the whole I-cache and branch predictor of every CPU in the inner
 *   shareable domain, ICIMVAU (c7,c5,1) one I line (broadcast by the multiprocessing
 *   extensions, as the by-MVA D-cache operations are).
 * Line sizes come from CTR (DminLine, IminLine: log2 of words), read each time (one MRC;
 * v6.10 does the same in dcache_line_size).  A DSB ends every D-cache loop, so the maintenance
 * is complete before anything that depends on it (DSB SY for PoC: a device may be next); an ISB follows I-cache invalidation so the
 * next instructions are fetched afresh.  Inner-shareable forms (ICIALLUIS, BPIALLIS): another CPU
 * may run the code next (v6.10's SMP ARMv7 choice: no IPI needed).  By-MVA operations need a translation for the address
 * but never fault on permissions.
 * An invalidate of a range whose ends are not line-aligned cleans and invalidates the partial
 * lines at the ends instead (v7_dma_inv_range's rule): their other bytes may be someone
 * else's dirty data.
 */
#ifndef ASM_ARM_CACHEFLUSH_H
#define ASM_ARM_CACHEFLUSH_H

#include "tinymm/cacheops.h"

struct mm_struct;
/* ARM's private cacheflush call (arch/arm/cacheflush.c): 0, -EINVAL or -EFAULT. */
long arm_cacheflush(struct mm_struct *mm, unsigned long start, unsigned long end,
		    unsigned long flags);

static inline unsigned int read_ctr(void)
{
	unsigned int ctr;

	__asm__ __volatile__("mrc p15, 0, %0, c0, c0, 1" : "=r"(ctr));
	return ctr;
}

static inline unsigned long dcache_line_size(void)
{
	return 4UL << ((read_ctr() >> 16) & 0xf);
}

static inline unsigned long icache_line_size(void)
{
	return 4UL << (read_ctr() & 0xf);
}

/* One by-MVA operation over every line of [start, end), then @dsb: "sy" where a device must
 * see the result (PoC), "ish" where only this CPU's instruction side must (PoU). */
#define __ARM_DCACHE_LOOP(start, end, crm, op2, dsb)					\
	do {										\
		unsigned long __l = dcache_line_size();					\
		for (unsigned long __a = (start) & ~(__l - 1); __a < (end); __a += __l)	\
			__asm__ __volatile__("mcr p15, 0, %0, c7, " #crm ", " #op2		\
					     :: "r"(__a) : "memory");			\
		__asm__ __volatile__("dsb " dsb ::: "memory");				\
	} while (0)

static inline void dcache_clean_poc(unsigned long start, unsigned long end)
{
	if (start >= end)
		return;
	count_cacheop(CACHEOP_DCACHE_CLEAN);
	__ARM_DCACHE_LOOP(start, end, c10, 1, "sy");		/* DCCMVAC */
}

static inline void dcache_clean_pou(unsigned long start, unsigned long end)
{
	if (start >= end)
		return;
	count_cacheop(CACHEOP_DCACHE_CLEAN);
	__ARM_DCACHE_LOOP(start, end, c11, 1, "ish");		/* DCCMVAU */
}

static inline void dcache_clean_inval_poc(unsigned long start, unsigned long end)
{
	if (start >= end)
		return;
	count_cacheop(CACHEOP_DCACHE_FLUSH);
	__ARM_DCACHE_LOOP(start, end, c14, 1, "sy");		/* DCCIMVAC */
}

static inline void dcache_inval_poc(unsigned long start, unsigned long end)
{
	unsigned long l = dcache_line_size(), s = start, e = end;

	if (start >= end)
		return;
	count_cacheop(CACHEOP_DCACHE_INVAL);
	if (s & (l - 1)) {	/* a partial first line: cleaned too */
		__asm__ __volatile__("mcr p15, 0, %0, c7, c14, 1" :: "r"(s & ~(l - 1)) : "memory");
		s = (s & ~(l - 1)) + l;
	}
	if ((e & (l - 1)) && e > s) {	/* a partial last line */
		__asm__ __volatile__("mcr p15, 0, %0, c7, c14, 1" :: "r"(e & ~(l - 1)) : "memory");
		e &= ~(l - 1);
	}
	for (unsigned long a = s; a < e; a += l)
		__asm__ __volatile__("mcr p15, 0, %0, c7, c6, 1" :: "r"(a) : "memory");	/* DCIMVAC */
	__asm__ __volatile__("dsb sy" ::: "memory");
}

static inline void icache_inval_all(void)
{
	count_cacheop(CACHEOP_ICACHE_INVAL);
	__asm__ __volatile__("mcr p15, 0, %0, c7, c1, 0\n\t"	/* ICIALLUIS */
			     "mcr p15, 0, %0, c7, c1, 6\n\t"	/* BPIALLIS */
			     "dsb ish\n\tisb" :: "r"(0) : "memory");
}

/* Code the kernel wrote, made fetchable (v6.10's flush_icache_range, v7_coherent_kern_range):
 * clean to PoU, then invalidate the I lines and the branch predictor. */
static inline void flush_icache_range(unsigned long start, unsigned long end)
{
	unsigned long il = icache_line_size();

	if (start >= end)
		return;
	dcache_clean_pou(start, end);
	count_cacheop(CACHEOP_ICACHE_INVAL);
	for (unsigned long a = start & ~(il - 1); a < end; a += il)
		__asm__ __volatile__("mcr p15, 0, %0, c7, c5, 1" :: "r"(a) : "memory");	/* ICIMVAU */
	__asm__ __volatile__("mcr p15, 0, %0, c7, c1, 6\n\tdsb ish\n\tisb" :: "r"(0) : "memory");	/* BPIALLIS */
}

#endif
