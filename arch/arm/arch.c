/*
 * arch.c - the ARMv7-A side of include/tinymm/arch.h: the generic timer's counter, semihosting
 * power-off, new thread contexts, the C half of the IRQ entry and the idle wait.  Traps are in
 * traps.c, the MMU in mmu.c, the thread switch in switch.S, the timer interrupt in timer.c.
 */
#include <asm/context.h>
#include <asm/ptrace.h>
#include "tinymm/arch.h"
#include "tinymm/irq.h"
#include "tinymm/power.h"
#include "tinymm/printk.h"

const char arch_name[] = "armv7-a";

/* The mode the boot loader entered _start in (CPSR.M): entry.S stores it. */
unsigned int arm_boot_mode;

void arch_early_init(void)
{
	/* VBAR is set in entry.S before C runs, so even a fault here is reported.  Linux's
	 * hyp_mode_check() words; tinymm installs no HYP vectors, so HYP is left unused afterwards. */
	if (arm_boot_mode == 0x1a)
		pr_info("CPU: All CPU(s) started in HYP mode: running in SVC, HYP left unused\n");
	else
		pr_info("CPU: All CPU(s) started in SVC mode.\n");
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
 * Plain SYS_EXIT (0x18) cannot carry a status on 32-bit ARM.  With no semihosting host (a real
 * board, or QEMU without -semihosting) the SVC reaches our own vector, which steps over it with
 * r0 = -1 (arm_trap); then the board's power controller if it has one (pm_power_off: the
 * Raspberry Pi's watchdog halt, which carries no status), else nothing can power the machine
 * off: the boards tinymm knows have no PSCI SYSTEM_OFF (the Orange Pi PC's U-Boot implements
 * PSCI 0.1 only), so say so and halt.
 */
void arch_poweroff(int status)
{
	static volatile uint32_t block[2];
	register uint32_t r0 __asm__("r0") = 0x20;
	register volatile uint32_t *r1 __asm__("r1") = block;

	block[0] = 0x20026;
	block[1] = (uint32_t)status;
	__asm__ __volatile__("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory");
	if (pm_power_off) {
		/* The board's own (the Raspberry Pi's watchdog halt): it cannot carry the status. */
		printk(KERN_EMERG "poweroff: no semihosting host: the board's power controller, status %d not carried\n",
		       status);
		printk(KERN_EMERG "reboot: Power down\n");
		pm_power_off();
	}
	printk(KERN_EMERG "poweroff: no semihosting host and no PSCI SYSTEM_OFF, status %d\n", status);
	printk(KERN_EMERG "reboot: System halted\n");
	for (;;)
		arch_cpu_relax();
}

void arch_cpu_relax(void)
{
	__asm__ __volatile__("wfi");
}

/* switch.S: calls r4() with fp = 0. */
void arm_thread_start(void);

/*
 * The first arch_context_switch() to @ctx "returns" into arm_thread_start with r4 = @entry and
 * sp just below the struct pt_regs at @stack_top (asm/ptrace.h: every thread can become a user
 * task, whose user registers live there; 72 bytes keep sp 8-byte aligned as AAPCS wants, the
 * caller passes a 16-byte aligned top).  IRQs stay masked: the switch is made with them masked.
 */
void arch_context_init(struct arch_context *ctx, uintptr_t stack_lo, uintptr_t stack_top,
		       void (*entry)(void))
{
	(void)stack_lo;		/* an overflow is caught by its fault address (traps.c) */
	*ctx = (struct arch_context){
		.r4 = (unsigned long)entry,
		.fp = 0,
		.sp = (stack_top - sizeof(struct pt_regs)) & ~(uintptr_t)7,
		.lr = (unsigned long)arm_thread_start,
	};
}

/* The GIC is a device-tree driver (drivers/irq-gic.c): the CPU itself has nothing to set up. */
void arch_irq_init(const struct dt *dt)
{
	(void)dt;
}

/* Called by entry.S's vec_irq in SVC mode on the interrupted thread's stack, IRQs masked. */
void arm_irq_handler(void);
void arm_irq_handler(void)
{
	irq_enter();
	handle_arch_irq();
	irq_exit();
}

/*
 * WFI wakes on a pending interrupt even with CPSR.I set (ARM ARM B1.8.13), so the caller can
 * unmask afterwards and take it.  DSB first: everything written before sleeping is visible.
 */
void arch_cpu_idle(void)
{
	__asm__ __volatile__("dsb sy\n\twfi" ::: "memory");
}
