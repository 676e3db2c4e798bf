/*
 * asm/cmo_insn.h - the single-block cache instructions arch/riscv/cmo.c loops over
 * (docs/cacheflush.md).  The host has its own asm/cmo_insn.h that sends each to the cache
 * model, so the same loops run there.
 *   Zicbom, by virtual address: cbo.inval / cbo.clean / cbo.flush (MISC-MEM, funct3 2, the
 *   operation in imm[11:0]: 0, 1, 2; spelled with .insn: binutils needs no Zicbom for it).
 *   XTheadCmo (T-Head C906/C910), by physical address in a0: th.dcache.ipa / .cpa / .cipa,
 *   then th.sync.s to wait for them; the encodings v6.10's errata code emits (.long: the
 *   assembler knows no T-Head mnemonics).
 */
#ifndef ASM_RISCV_CMO_INSN_H
#define ASM_RISCV_CMO_INSN_H

static inline void cbo_inval(unsigned long va)
{
	__asm__ __volatile__(".insn i 0x0f, 2, x0, %0, 0" :: "r"(va) : "memory");
}

static inline void cbo_clean(unsigned long va)
{
	__asm__ __volatile__(".insn i 0x0f, 2, x0, %0, 1" :: "r"(va) : "memory");
}

static inline void cbo_flush(unsigned long va)
{
	__asm__ __volatile__(".insn i 0x0f, 2, x0, %0, 2" :: "r"(va) : "memory");
}

#define THEAD_CMO_A0(insn, pa)								\
	do {										\
		register unsigned long __a0 __asm__("a0") = (pa);			\
		__asm__ __volatile__(insn :: "r"(__a0) : "memory");			\
	} while (0)

static inline void thead_dcache_ipa(unsigned long pa) { THEAD_CMO_A0(".long 0x02a5000b", pa); }
static inline void thead_dcache_cpa(unsigned long pa) { THEAD_CMO_A0(".long 0x0295000b", pa); }
static inline void thead_dcache_cipa(unsigned long pa) { THEAD_CMO_A0(".long 0x02b5000b", pa); }

static inline void thead_sync_s(void)
{
	__asm__ __volatile__(".long 0x0190000b" ::: "memory");
}

#endif
