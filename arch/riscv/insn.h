/*
 * insn.h - hand-assembled RV32I/RV64I instructions for the user programs the kernel builds itself
 * (the `usermode` KTAP suite, the syscall-getpid bench row): the same encodings on both XLENs;
 * REG_LOAD is lw on RV32 and ld on RV64.
 */
#ifndef TINYMM_RISCV_INSN_H
#define TINYMM_RISCV_INSN_H

#include <stdint.h>

/* RV32I/RV64I encodings (the same on both; REG_LOAD is lw or ld). */
#define R_ZERO 0
#define R_T0 5
#define R_T1 6
#define R_T2 7
#define R_A0 10
#define R_A7 17
#define ADDI(rd, rs, imm)	((((uint32_t)(imm) & 0xfff) << 20) | (rs) << 15 | (rd) << 7 | 0x13)
#define ANDI(rd, rs, imm)	((((uint32_t)(imm) & 0xfff) << 20) | (rs) << 15 | 7 << 12 | (rd) << 7 | 0x13)
#define LUI(rd, imm20)		(((uint32_t)(imm20) << 12) | (rd) << 7 | 0x37)
#define AUIPC(rd, imm20)	(((uint32_t)(imm20) << 12) | (rd) << 7 | 0x17)
#define LOAD(w, rd, rs, imm)	((((uint32_t)(imm) & 0xfff) << 20) | (rs) << 15 | (w) << 12 | (rd) << 7 | 0x03)
#define LW(rd, rs, imm)		LOAD(2, rd, rs, imm)
#define REG_LOAD(rd, rs, imm)	LOAD(__riscv_xlen == 64 ? 3 : 2, rd, rs, imm)
#define SW(rs2, rs1, imm)	((((uint32_t)(imm) >> 5 & 0x7f) << 25) | (rs2) << 20 | (rs1) << 15 | \
				 2 << 12 | ((uint32_t)(imm) & 0x1f) << 7 | 0x23)
/* beq rs1, rs2, -off (a backward branch by @off bytes, off < 4096, even) */
#define B_TYPE(off, rs1, rs2, f3)	((((uint32_t)(off) >> 12 & 1) << 31) |			\
					 (((uint32_t)(off) >> 5 & 0x3f) << 25) | (rs2) << 20 |	\
					 (rs1) << 15 | (f3) << 12 |				\
					 (((uint32_t)(off) >> 1 & 0xf) << 8) |			\
					 (((uint32_t)(off) >> 11 & 1) << 7) | 0x63)
#define BEQ_BACK(rs1, rs2, off)	B_TYPE(-(int32_t)(off), rs1, rs2, 0)
#define BNE_BACK(rs1, rs2, off)	B_TYPE(-(int32_t)(off), rs1, rs2, 1)
#define BEQ_FWD(rs1, rs2, off)	B_TYPE((int32_t)(off), rs1, rs2, 0)
#define ECALL			0x00000073u
#define ILLEGAL			0x00000000u	/* all zeros: defined to be illegal */

#endif
