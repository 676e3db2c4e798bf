/*
 * asm/ptrace.h - struct pt_regs on RISC-V (include/tinymm/arch.h, "User mode"): a user task's
 * registers, saved by riscv_trap_entry (arch/riscv/entry.S) at the top of its kernel stack on
 * every trap from U-mode and restored from there by the return to U-mode.
 *
 * The layout is the trap frame's (arch/riscv/asm.h, FRAME_*), so one C handler reads both a
 * kernel frame and a user one: slot n (1..31) is register xn, slot 0 (x0's, always zero) holds
 * stval, then sstatus, scause, a frame-record word and sepc.  v6.10 orders its pt_regs epc, ra,
 * sp, ...: tinymm keeps the frame's order instead (and its frame record, {0, sepc} for a user
 * frame, so a backtrace from a handler ends at the user pc).  Names are v6.10's.
 */
#ifndef ASM_RISCV_PTRACE_H
#define ASM_RISCV_PTRACE_H

struct pt_regs {
	unsigned long badaddr;		/* stval (slot 0) */
	unsigned long ra, sp, gp, tp, t0, t1, t2, s0, s1;
	unsigned long a0, a1, a2, a3, a4, a5, a6, a7;
	unsigned long s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;
	unsigned long t3, t4, t5, t6;
	unsigned long status;		/* sstatus */
	unsigned long cause;		/* scause */
	unsigned long frame_fp;		/* frame record: 0 for a user frame (ends a backtrace) */
	unsigned long epc;		/* sepc */
};

#ifndef SR_SUM			/* the same values as arch/riscv/asm.h's, for the assembly */
#define SR_SPIE		0x20
#define SR_SPP		0x100
#define SR_SUM		0x40000
#endif

/* The trap came from U-mode (sstatus.SPP clear at the trap). */
static inline int user_mode(const struct pt_regs *regs)
{
	return !(regs->status & SR_SPP);
}

static inline unsigned long instruction_pointer(const struct pt_regs *regs)
{
	return regs->epc;
}

#endif
