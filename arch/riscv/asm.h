/* asm.h - register-width helpers and the trap frame layout shared by the RISC-V assembly and C
 * files (RV32 and RV64). */
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

/*
 * The trap frame riscv_trap_entry pushes on the interrupted stack, in words: slot n (1..31) is
 * register xn (slot 2 the interrupted sp), slot 0 stval, then sstatus and scause.  The last two
 * words are a frame record (caller's s0, then sepc as the "return address") and the frame's top
 * is the interrupted sp, which is what s0 points to while riscv_trap() runs: a backtrace from
 * inside a handler goes on through the interrupted function.  36 words keep sp 16-byte aligned
 * on both XLENs.  sepc and sstatus are restored from here (the thread may have been switched out
 * and other traps taken meanwhile).
 */
#define FRAME_STVAL	0
#define FRAME_SSTATUS	32
#define FRAME_SCAUSE	33
#define FRAME_FP	34
#define FRAME_EPC	35
#define FRAME_WORDS	36

/* sstatus bits the entry code uses (asm/ptrace.h names them for C too). */
#ifndef SR_SUM
#define SR_SPIE		0x20
#define SR_SPP		0x100
#define SR_SUM		0x40000
#endif

/* The stack the trap entry moves to when the thread's stack has no room (traps.c). */
#define OVERFLOW_STACK_SIZE	4096	/* v6.10's SZ_4K */
#endif
