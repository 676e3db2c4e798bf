/*
 * poweroff.c - arch_poweroff() on RISC-V, after the board's device (sifive,test0) if any:
 *   - semihosting SYS_EXIT, on boards QEMU runs with -semihosting (BOARD_SEMIHOSTING, the
 *     HiFive Unleashed's model: it has no sifive,test0), so the status reaches QEMU's exit code;
 *   - SBI SRST shutdown, on boards with firmware and no exit device of their own;
 *   - else "reboot: System halted" and wfi forever: never a silent hang.
 * The semihosting call is the RISC-V one (the RISC-V Semihosting spec, as QEMU's
 * target/riscv implements it): the uncompressed sequence `slli x0,x0,0x1f; ebreak;
 * srai x0,x0,7`, a0 = the operation, a1 = its argument.  On RV64 SYS_EXIT's argument points
 * to {reason, status}; with ADP_Stopped_ApplicationExit the status is QEMU's exit code.  On a
 * real board (or QEMU without -semihosting) that ebreak is a breakpoint exception:
 * riscv_semihost_trap() steps over it and the SRST path follows.
 * Locking: none (called once, at the very end).
 */
#include "riscv.h"
#include "tinymm/arch.h"
#include "tinymm/board_config.h"
#include "tinymm/printk.h"

#define SEMIHOST_SYS_EXIT		0x18
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

#define SBI_EXT_SRST			0x53525354
#define SBI_SRST_RESET_TYPE_SHUTDOWN	0
#define SBI_SRST_REASON_NONE		0
#define SBI_SRST_REASON_SYSFAIL		1

long riscv_semihost(long op, void *arg);
extern const char riscv_semihost_ebreak[];
/* 16-byte aligned so the three marker instructions never straddle a page (QEMU reads them). */
__asm__(".section .text.riscv_semihost, \"ax\"\n"
	".balign 16\n"
	".global riscv_semihost\n"
	".global riscv_semihost_ebreak\n"
	".option push\n"
	".option norvc\n"
	"riscv_semihost:\n"
	"	slli x0, x0, 0x1f\n"
	"riscv_semihost_ebreak:\n"
	"	ebreak\n"
	"	srai x0, x0, 7\n"
	"	ret\n"
	".option pop\n"
	".previous\n");

bool riscv_semihost_trap(unsigned long *epc)
{
	if (*epc != (unsigned long)riscv_semihost_ebreak)
		return false;
	*epc += 4;		/* no debugger behind the ebreak: carry on as if it returned */
	return true;
}

#ifndef TINYMM_MSTART
static long sbi_srst(unsigned long type, unsigned long reason)
{
	register unsigned long a0 __asm__("a0") = type;
	register unsigned long a1 __asm__("a1") = reason;
	register unsigned long a6 __asm__("a6") = 0;		/* sbi_system_reset */
	register unsigned long a7 __asm__("a7") = SBI_EXT_SRST;

	__asm__ __volatile__("ecall" : "+r"(a0), "+r"(a1) : "r"(a6), "r"(a7) : "memory");
	return (long)a0;	/* only on failure: -2 not supported (QEMU's sifive_u) */
}
#endif

void arch_poweroff(int status)
{
	if (BOARD_SEMIHOSTING) {
		unsigned long block[2] = { ADP_STOPPED_APPLICATION_EXIT, (unsigned long)status };
#if __riscv_xlen == 64
		riscv_semihost(SEMIHOST_SYS_EXIT, block);
#else
		/* RV32 SYS_EXIT takes the reason alone: 0 for status 0, else QEMU exits 1. */
		riscv_semihost(SEMIHOST_SYS_EXIT, (void *)(status ? 0x20023UL : block[0]));
#endif
	}
#ifndef TINYMM_MSTART
	if (!BOARD_EXIT_BASE) {
		/* The board has no exit device of its own: SBI's, else say so and stop. */
		long err = sbi_srst(SBI_SRST_RESET_TYPE_SHUTDOWN,
				    status ? SBI_SRST_REASON_SYSFAIL : SBI_SRST_REASON_NONE);
		printk(KERN_EMERG "poweroff: SBI system reset failed (error %ld), status %d\n", err,
		       status);
		printk(KERN_EMERG "reboot: System halted\n");
		for (;;)
			arch_cpu_idle();
	}
#endif
}
