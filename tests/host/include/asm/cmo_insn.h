/*
 * asm/cmo_insn.h - the host's: RISC-V's single-block cache instructions (arch/riscv/cmo.c
 * loops over them) sent to the cache model (tests/host/cachemodel.c), a block of
 * riscv_cbom_block_size bytes each, so the model sees exactly the blocks a real hart would
 * touch.  T-Head's take a physical address, as on the hart; th.sync.s is counted.
 */
#ifndef ASM_HOST_CMO_INSN_H
#define ASM_HOST_CMO_INSN_H

#include <asm/cacheflush.h>
#include "asm/cmo.h"
#include "tinymm/memory.h"

extern unsigned long fake_thead_syncs;

static inline void fake_cmo(void (*op)(unsigned long, unsigned long), unsigned long va)
{
	if (fake_cache)
		op(va, va + riscv_cbom_block_size);
}

static inline void cbo_inval(unsigned long va) { if (fake_cache) fake_cmo(fake_cache->dcache_inval, va); }
static inline void cbo_clean(unsigned long va) { if (fake_cache) fake_cmo(fake_cache->dcache_clean, va); }
static inline void cbo_flush(unsigned long va) { if (fake_cache) fake_cmo(fake_cache->dcache_flush, va); }
static inline void thead_dcache_ipa(unsigned long pa)
{
	if (fake_cache)
		fake_cmo(fake_cache->dcache_inval, (unsigned long)__va((phys_addr_t)pa));
}
static inline void thead_dcache_cpa(unsigned long pa)
{
	if (fake_cache)
		fake_cmo(fake_cache->dcache_clean, (unsigned long)__va((phys_addr_t)pa));
}
static inline void thead_dcache_cipa(unsigned long pa)
{
	if (fake_cache)
		fake_cmo(fake_cache->dcache_flush, (unsigned long)__va((phys_addr_t)pa));
}
static inline void thead_sync_s(void) { fake_thead_syncs++; }

#endif
