/*
 * cmo.c - RISC-V's D-cache operations (docs/cacheflush.md): Zicbom's cbo.clean/flush/inval
 * by virtual address, or T-Head's vendor operations (XTheadCmo: th.dcache.cpa/cipa/ipa by
 * physical address, then th.sync.s) on C906/C910 cores such as the Allwinner D1 and the
 * Milk-V Duo, chosen as v6.10 chooses them:
 *   - T-Head: mvendorid THEAD_VENDOR_ID (0x5b7) with marchid 0 and mimpid 0 (v6.10's
 *     errata_probe_cmo), 64-byte blocks (L1_CACHE_BYTES); it wins over Zicbom, as v6.10's
 *     registered non-standard cache ops do;
 *   - Zicbom: named in the ISA string or riscv,isa-extensions, with riscv,cbom-block-size a
 *     power of two; without a block size, or with one that is not a power of two, it is
 *     disabled with v6.10's line (cpufeature.c's riscv_ext_zicbom_validate), never guessed;
 *   - neither (every hart QEMU 7.2 models): the operations do nothing, as v6.10's: such a hart
 *     is coherent with DMA.
 * riscv_dcache_op() rounds the range out to blocks; an empty range does nothing.  The
 * instructions themselves are <asm/cmo_insn.h>'s; the host cache model has its own, so the
 * same selection and loops run there (tests/host/cachemodel_test.c).
 * Where tinymm differs from v6.10: one hart reads its own device-tree node (v6.10 checks that
 * every hart agrees on the block size); no Zicboz/Zicbop.
 */
#include <stdint.h>
#include <asm/cmo_insn.h>
#include "tinymm/cacheops.h"
#include "tinymm/memory.h"
#include "tinymm/printk.h"
#include "asm/cmo.h"

#define THEAD_VENDOR_ID		0x5b7
#define THEAD_BLOCK_SIZE	64	/* v6.10: L1_CACHE_BYTES */

enum riscv_cmo riscv_cmo;
unsigned int riscv_cbom_block_size;

enum riscv_cmo riscv_cmo_select(bool zicbom, uint32_t block_size, unsigned long mvendorid,
				unsigned long marchid, unsigned long mimpid)
{
	riscv_cmo = RISCV_CMO_NONE;
	riscv_cbom_block_size = 0;
	if (mvendorid == THEAD_VENDOR_ID && marchid == 0 && mimpid == 0) {
		riscv_cmo = RISCV_CMO_THEAD;
		riscv_cbom_block_size = THEAD_BLOCK_SIZE;
	} else if (zicbom) {
		if (!block_size) {
			pr_err("Zicbom detected in ISA string, disabling as no cbom-block-size found\n");
		} else if (block_size & (block_size - 1)) {
			pr_err("Zicbom disabled as cbom-block-size present, but is not a power-of-2\n");
		} else {
			riscv_cmo = RISCV_CMO_ZICBOM;
			riscv_cbom_block_size = block_size;
		}
	}
	return riscv_cmo;
}

void riscv_dcache_op(enum riscv_cmo_op op, unsigned long start, unsigned long end)
{
	unsigned long bs = riscv_cbom_block_size;

	if (riscv_cmo == RISCV_CMO_NONE || start >= end)
		return;
	count_cacheop(op == CMO_CLEAN ? CACHEOP_DCACHE_CLEAN :
		      op == CMO_INVAL ? CACHEOP_DCACHE_INVAL : CACHEOP_DCACHE_FLUSH);
	for (unsigned long a = start & ~(bs - 1); a < end; a += bs) {
		if (riscv_cmo == RISCV_CMO_ZICBOM) {
			if (op == CMO_CLEAN)
				cbo_clean(a);
			else if (op == CMO_INVAL)
				cbo_inval(a);
			else
				cbo_flush(a);
		} else {
			unsigned long pa = (unsigned long)__pa((const void *)a);

			if (op == CMO_CLEAN)
				thead_dcache_cpa(pa);
			else if (op == CMO_INVAL)
				thead_dcache_ipa(pa);
			else
				thead_dcache_cipa(pa);
		}
	}
	if (riscv_cmo == RISCV_CMO_THEAD)
		thead_sync_s();
}
