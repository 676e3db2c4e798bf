/*
 * traps.c - what an unexpected ARM exception prints: the cause in words and its raw registers
 * (mode, DFSR/DFAR or IFSR/IFAR), every general register with the interrupted mode's sp and lr,
 * and a named backtrace; then the machine powers off with status 1 (or a KTAP case fails).
 * A data abort in the guard page just below the running thread's vmalloc stack is a kernel
 * stack overflow: v6.10's handle_bad_stack() lines (its "Overflow stack" is the exception
 * stack this runs on: entry.S never pushes on the overflowed SVC stack), its die() line, the
 * thread's name, the usual report, then `Kernel panic - not syncing: Kernel stack overflow`
 * and power-off with status 1, never a KTAP recovery (the case's stack is the broken one).
 * Locking: none; exceptions are masked while this runs.
 */
#include <setjmp.h>
#include "tinymm/arch.h"
#include "tinymm/bug.h"
#include "tinymm/kallsyms.h"
#include "tinymm/ktest.h"
#include "tinymm/power.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/smp.h"
#include "tinymm/stacktrace.h"

/* Saved by the vector entry code in entry.S, lowest address first. */
struct arm_trap_frame {
	unsigned int spsr;
	unsigned int pad;
	unsigned int r[13];
	unsigned int pc;
};

/* IRQs never come here: entry.S hands them to arm_irq_handler() and returns. */
enum { TRAP_UNDEF = 1, TRAP_SVC, TRAP_PABT, TRAP_DABT, TRAP_FIQ = 7 };

extern char __exc_stack_bottom[], __exc_stack_top[];
void arm_banked_sp_lr(unsigned int mode, unsigned long out[2]);
__noreturn void arm_longjmp_svc(jmp_buf jb);
void arm_trap(struct arm_trap_frame *f, int kind);

static const char *mode_name(unsigned int m)
{
	switch (m & 0x1f) {
	case 0x10: return "USR";
	case 0x11: return "FIQ";
	case 0x12: return "IRQ";
	case 0x13: return "SVC";
	case 0x16: return "MON";
	case 0x17: return "ABT";
	case 0x1a: return "HYP";
	case 0x1b: return "UND";
	case 0x1f: return "SYS";
	default: return "???";
	}
}

/*
 * Long-descriptor fault status, FSR.STATUS = FSR[5:0], reported when FSR.LPAE (bit 9) is set:
 * once mmu_lpae.c switched TTBCR.EAE on (ARM ARM B3.13.3, Table B3-24).  The low two bits of
 * the walk faults are the lookup level (1 pgd, 2 pmd, 3 pte; level 0 is the TTBR itself).
 */
static const char *lpae_fault_status(unsigned int fsr)
{
	static const char *const kind[] = {
		[0x0] = "address size fault", [0x1] = "translation fault",
		[0x2] = "access flag fault", [0x3] = "permission fault",
		[0x5] = "external abort on translation table walk",
		[0x7] = "parity error on translation table walk",
	};
	static const char *const level[] = { "(TTBR)", "(level 1)", "(level 2)", "(level 3)" };
	static char buf[64];	/* exceptions are masked and in_trap stops nesting: one user */
	unsigned int status = fsr & 0x3f;

	switch (status) {
	case 0x10: return "synchronous external abort";
	case 0x11: return "asynchronous external abort";
	case 0x18: return "synchronous parity error";
	case 0x19: return "asynchronous parity error";
	case 0x21: return "alignment fault";
	case 0x22: return "debug event";
	case 0x30: return "TLB conflict abort";
	}
	if (status < 0x20 && (status >> 2) < ARRAY_SIZE(kind) && kind[status >> 2]) {
		ksnprintf(buf, sizeof(buf), "%s %s", kind[status >> 2], level[status & 3]);
		return buf;
	}
	return "unknown fault status";
}

/* Short-descriptor fault status, FS = FSR[10] : FSR[3:0] (ARM ARM B3.13.3): before the switch. */
static const char *fault_status(unsigned int fsr)
{
	if (fsr & (1u << 9))
		return lpae_fault_status(fsr);
	switch (((fsr >> 6) & 0x10) | (fsr & 0xf)) {
	case 0x01: return "alignment fault";
	case 0x02: return "debug event";
	case 0x03: return "access flag fault (section)";
	case 0x04: return "instruction cache maintenance fault";
	case 0x05: return "translation fault (section)";
	case 0x06: return "access flag fault (page)";
	case 0x07: return "translation fault (page)";
	case 0x08: return "synchronous external abort";
	case 0x09: return "domain fault (section)";
	case 0x0b: return "domain fault (page)";
	case 0x0c: return "external abort on translation table walk (level 1)";
	case 0x0d: return "permission fault (section)";
	case 0x0e: return "external abort on translation table walk (level 2)";
	case 0x0f: return "permission fault (page)";
	case 0x16: return "asynchronous external abort";
	case 0x18: return "asynchronous parity error";
	case 0x19: return "synchronous parity error";
	default: return "unknown fault status";
	}
}

static void print_sym(const char *label, unsigned long addr)
{
	char sym[96];

	sprint_symbol(sym, sizeof(sym), addr);
	printk(KERN_EMERG "%s[<%08lx>] %s\n", label, addr, sym);
}

void arm_trap(struct arm_trap_frame *f, int kind)
{
	static bool in_trap;
	unsigned int dfsr, dfar, ifsr, ifar;
	unsigned long banked[2];
	char reason[128];

	__asm__ __volatile__("mrc p15, 0, %0, c5, c0, 0" : "=r"(dfsr));
	__asm__ __volatile__("mrc p15, 0, %0, c6, c0, 0" : "=r"(dfar));
	__asm__ __volatile__("mrc p15, 0, %0, c5, c0, 1" : "=r"(ifsr));
	__asm__ __volatile__("mrc p15, 0, %0, c6, c0, 2" : "=r"(ifar));
	/* An Access flag fault (long-descriptor STATUS 0b0010LL) on a kernel pte: set AF, retry. */
	if (!in_trap && kind == TRAP_DABT && (dfsr & (1u << 9)) && (dfsr & 0x3c) == 0x08 &&
	    kernel_access_fault(dfar, dfsr & (1u << 11), false))
		return;
	if (!in_trap && kind == TRAP_PABT && (ifsr & (1u << 9)) && (ifsr & 0x3c) == 0x08 &&
	    kernel_access_fault(ifar, false, true))
		return;
	/* The semihosting call (`svc 0x123456`, arch_poweroff()) with no host to answer it (a real
	 * board; QEMU without -semihosting): step over it with r0 = -1, as a refusing host would;
	 * arch_poweroff() then says so and halts.  Before in_trap: a fault report powers off too. */
	if (kind == TRAP_SVC && (*(const volatile uint32_t *)f->pc & 0x0fffffff) == 0x0f123456) {
		f->r[0] = (uint32_t)-1;
		f->pc += 4;
		return;
	}
	if (in_trap) {		/* a fault while reporting a fault: say the least and stop */
		printk(KERN_EMERG "Unhandled exception inside the trap handler, pc 0x%08x\n", f->pc);
		machine_poweroff(1);
	}
	in_trap = true;
	arm_banked_sp_lr(f->spsr, banked);

	bool overflow = kind == TRAP_DABT && current && task_stack_guard(current, dfar);
	if (overflow) {
		/* v6.10 arch/arm/kernel/traps.c handle_bad_stack(), then its die() line. */
		unsigned long stk = (unsigned long)current->stack;

		printk(KERN_EMERG "Insufficient stack space to handle exception!\n");
		printk(KERN_EMERG "Task stack:     [0x%08lx..0x%08lx]\n", stk, stk + current->stack_size);
		/* This CPU's exception stack: CPU n's is n stacks above CPU 0's (entry.S). */
		unsigned long exc_size = (unsigned long)(__exc_stack_top - __exc_stack_bottom);
		unsigned long exc_lo = (unsigned long)__exc_stack_bottom +
				       (unsigned long)raw_smp_processor_id() * exc_size;

		printk(KERN_EMERG "Overflow stack: [0x%08lx..0x%08lx]\n", exc_lo, exc_lo + exc_size);
		printk(KERN_EMERG "Internal error: kernel stack overflow: 0 [#1] ARM\n");
		printk(KERN_EMERG "CPU: %d PID: %d Comm: %s\n", raw_smp_processor_id(), current->pid,
		       current->comm);
	}
	switch (kind) {
	case TRAP_DABT:
		ksnprintf(reason, sizeof(reason), "Unhandled exception: data abort: %s on %s at 0x%08x",
			  fault_status(dfsr), dfsr & (1u << 11) ? "write" : "read", dfar);
		break;
	case TRAP_PABT:
		ksnprintf(reason, sizeof(reason), "Unhandled exception: prefetch abort: %s at 0x%08x",
			  fault_status(ifsr), ifar);
		break;
	case TRAP_UNDEF:
		ksnprintf(reason, sizeof(reason), "Unhandled exception: undefined instruction at 0x%08x",
			  f->pc);
		break;
	case TRAP_SVC:
		ksnprintf(reason, sizeof(reason), "Unhandled exception: supervisor call at 0x%08x",
			  f->pc);
		break;
	default:
		ksnprintf(reason, sizeof(reason), "Unhandled exception: %s with nothing to handle it",
			  kind == TRAP_FIQ ? "FIQ" : "unknown vector");
		break;
	}
	printk(KERN_EMERG "%s\n", reason);
	printk(KERN_EMERG "CPU mode %s (spsr 0x%08x)  DFSR 0x%08x DFAR 0x%08x  IFSR 0x%08x IFAR 0x%08x\n",
	       mode_name(f->spsr), f->spsr, dfsr, dfar, ifsr, ifar);
	print_sym("pc : ", f->pc);
	print_sym("lr : ", banked[1]);
	printk(KERN_EMERG "sp : %08lx  fp : %08x  ip : %08x\n", banked[0], f->r[11], f->r[12]);
	for (int i = 0; i < 11; i++)
		printk(KERN_EMERG "r%-2d: %08x%s", i, f->r[i], (i % 4 == 3 || i == 10) ? "\n" : "  ");

	struct stackframe sf = { .fp = f->r[11], .pc = f->pc, .ra_hint = banked[1] };
	show_stack(&sf);
	if (overflow) {
		printk(KERN_EMERG "Kernel panic - not syncing: Kernel stack overflow\n");
		smp_send_stop();
		machine_poweroff(1);
	}
	struct ktest_recovery *r = ktest_recovery_take(reason);
	in_trap = false;
	if (r)
		arm_longjmp_svc(r->jb);
	printk(KERN_EMERG "Kernel panic - not syncing: Fatal exception\n");
	smp_send_stop();	/* the other CPUs stop; their state is printed */
	machine_poweroff(1);
}
