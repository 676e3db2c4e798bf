/* asm.h - register-width helpers shared by the RISC-V assembly files (RV32 and RV64). */
#ifndef TINYMM_RISCV_ASM_H
#define TINYMM_RISCV_ASM_H
#if __riscv_xlen == 64
#define REG_S	sd
#define REG_L	ld
#define SZREG	8
#else
#define REG_S	sw
#define REG_L	lw
#define SZREG	4
#endif
#endif
