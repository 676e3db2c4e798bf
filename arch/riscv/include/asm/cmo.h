/*
 * asm/cmo.h - RISC-V's D-cache operations (arch/riscv/cmo.c): which kind this hart has and the
 * operation over a range of kernel virtual addresses.
 */
#ifndef ASM_RISCV_CMO_H
#define ASM_RISCV_CMO_H

#include <stdbool.h>
#include <stdint.h>

enum riscv_cmo { RISCV_CMO_NONE, RISCV_CMO_ZICBOM, RISCV_CMO_THEAD };
enum riscv_cmo_op { CMO_CLEAN, CMO_INVAL, CMO_FLUSH };

extern enum riscv_cmo riscv_cmo;
extern unsigned int riscv_cbom_block_size;

/* Choose from what the device tree and the machine ids say (v6.10's rules; one line when the
 * tree claims Zicbom without a usable block size). */
enum riscv_cmo riscv_cmo_select(bool zicbom, uint32_t block_size, unsigned long mvendorid,
				unsigned long marchid, unsigned long mimpid);
void riscv_dcache_op(enum riscv_cmo_op op, unsigned long start, unsigned long end);

#endif
