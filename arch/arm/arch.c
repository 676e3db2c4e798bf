/*
 * arch.c - the ARMv7-A side of include/tinymm/arch.h: the generic timer, semihosting
 * power-off, and the report for an unexpected exception.
 */
#include "tinymm/arch.h"
#include "tinymm/power.h"
#include "tinymm/printk.h"

const char arch_name[] = "armv7-a";

void arch_early_init(void)
{
	/* VBAR is set in entry.S before C runs, so even a fault here is reported. */
}

uint64_t arch_counter_read(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi));	/* CNTVCT */
	return ((uint64_t)hi << 32) | lo;
}

uint64_t arch_counter_freq(void)
{
	uint32_t f;

	__asm__ __volatile__("mrc p15, 0, %0, c14, c0, 0" : "=r"(f));	/* CNTFRQ */
	return f;
}

/*
 * Semihosting SYS_EXIT_EXTENDED (0x20): r1 points at {ADP_Stopped_ApplicationExit, status}.
 * Plain SYS_EXIT (0x18) cannot carry a status on 32-bit ARM.  QEMU needs -semihosting; without
 * it the SVC reaches our own vector and arm_trap() says so.
 */
void arch_poweroff(int status)
{
	static volatile uint32_t block[2];
	register uint32_t r0 __asm__("r0") = 0x20;
	register volatile uint32_t *r1 __asm__("r1") = block;

	block[0] = 0x20026;
	block[1] = (uint32_t)status;
	__asm__ __volatile__("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
}

void arch_cpu_relax(void)
{
	__asm__ __volatile__("wfi");
}

/* Saved by the vector stubs in entry.S. */
struct arm_trap_frame {
	unsigned int spsr;
	unsigned int r[13];
	unsigned int pc;
};

static const char *const trap_names[] = {
	[1] = "undefined instruction", [2] = "supervisor call", [3] = "prefetch abort",
	[4] = "data abort", [6] = "IRQ", [7] = "FIQ",
};

void arm_trap(struct arm_trap_frame *f, int kind);
void arm_trap(struct arm_trap_frame *f, int kind)
{
	unsigned int dfsr, dfar, ifsr, ifar;

	__asm__ __volatile__("mrc p15, 0, %0, c5, c0, 0" : "=r"(dfsr));
	__asm__ __volatile__("mrc p15, 0, %0, c6, c0, 0" : "=r"(dfar));
	__asm__ __volatile__("mrc p15, 0, %0, c5, c0, 1" : "=r"(ifsr));
	__asm__ __volatile__("mrc p15, 0, %0, c6, c0, 2" : "=r"(ifar));
	printk(KERN_EMERG "Unhandled exception: %s at pc 0x%08x (spsr 0x%08x)\n",
	       trap_names[kind] ? trap_names[kind] : "unknown", f->pc, f->spsr);
	if (kind == 2)
		printk(KERN_EMERG "(an SVC: if this was a semihosting power-off, QEMU lacks -semihosting)\n");
	printk(KERN_EMERG "DFSR 0x%08x DFAR 0x%08x IFSR 0x%08x IFAR 0x%08x\n", dfsr, dfar, ifsr, ifar);
	for (int i = 0; i < 13; i++)
		printk(KERN_EMERG "r%-2d 0x%08x%s", i, f->r[i], (i % 4 == 3 || i == 12) ? "\n" : "  ");
	if (kind != 2)
		machine_poweroff(1);
	for (;;)
		arch_cpu_relax();
}
