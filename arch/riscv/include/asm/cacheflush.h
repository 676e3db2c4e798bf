/*
 * asm/cacheflush.h - making freshly written instructions visible to instruction fetch (RISC-V),
 * Linux's flush_icache_range() (arch/riscv/include/asm/cacheflush.h: flush_icache_all()).
 *
 * The only architectural way is FENCE.I (Zifencei): it orders this hart's earlier stores before
 * its later instruction fetches, whatever the range.  One hart, so there is no remote
 * FENCE.I to ask the SBI for (v6.10's sbi_remote_fence_i()).
 */
#ifndef ASM_RISCV_CACHEFLUSH_H
#define ASM_RISCV_CACHEFLUSH_H

static inline void flush_icache_range(unsigned long start, unsigned long end)
{
	(void)start;
	(void)end;
	__asm__ __volatile__("fence.i" ::: "memory");
}

#endif
