/*
 * traps.c - every RISC-V S-mode trap lands in riscv_trap() with the frame entry.S pushed.
 *
 * An interrupt (scause's top bit) goes to the local interrupt controller between irq_enter()
 * and irq_exit(), and returns: irq_exit() may switch threads, and this frame is resumed when the
 * thread next runs.  An exception is unexpected: it prints the cause in words with scause,
 * stval and sepc, all 31 registers by ABI name, and a named backtrace; then power-off with
 * status 1 (or, inside a KTAP case, back to the test runner).
 * A page fault at a user-copy instruction (uaccess.S's exception table) is a user fault done on
 * the task's behalf: riscv_uaccess_fault() below.  Traps from U-mode never come here: entry.S
 * sends them to user.c.
 * A trap that finds no room on the thread's stack (entry.S compares sp with thread_info.stack_lo)
 * comes to handle_bad_stack() on the overflow stack instead: v6.10's report, `Kernel stack
 * overflow` naming the thread, and power-off with status 1 (no KTAP recovery: the case's stack
 * is the broken one).
 * Locking: none; sstatus.SIE is clear while this runs (the hardware cleared it on entry).
 */
#include <setjmp.h>
#include "asm.h"
#include "riscv.h"
#include "tinymm/arch.h"
#include "tinymm/extable.h"
#include "tinymm/irq.h"
#include "tinymm/irqflags.h"
#include "tinymm/kallsyms.h"
#include "tinymm/mm_fault.h"
#include "tinymm/ktest.h"
#include "tinymm/power.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/sections.h"
#include "tinymm/stacktrace.h"
#include "tinymm/user_task.h"

#define W (int)(sizeof(long) * 2)

static const char *const exc_names[] = {
	"instruction address misaligned", "instruction access fault", "illegal instruction",
	"breakpoint", "load address misaligned", "load access fault",
	"store/AMO address misaligned", "store/AMO access fault", "environment call from U-mode",
	"environment call from S-mode", "reserved", "environment call from M-mode",
	"instruction page fault", "load page fault", "reserved", "store/AMO page fault",
};

static const char *const reg_names[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
	"a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
	"t5", "t6",
};

const char *riscv_cause_name(unsigned long cause);
const char *riscv_cause_name(unsigned long cause)
{
	unsigned long code = cause << 1 >> 1;

	if (cause >> (__riscv_xlen - 1))
		return code == 1 ? "supervisor software interrupt" :
		       code == 5 ? "supervisor timer interrupt" :
		       code == 9 ? "supervisor external interrupt" : "interrupt";
	return code < ARRAY_SIZE(exc_names) ? exc_names[code] : "unknown exception";
}

static void print_sym(const char *label, unsigned long addr)
{
	char sym[96];

	sprint_symbol(sym, sizeof(sym), addr);
	printk(KERN_EMERG "%s[<%0*lx>] %s\n", label, W, addr, sym);
}

/* The stack the trap entry moves to when its check of sp against the running thread's
 * thread_info.stack_lo fails.  One for all harts: an overflow ends in a panic, and two at once
 * would garble only the report. */
unsigned long riscv_overflow_stack[OVERFLOW_STACK_SIZE / sizeof(long)] __attribute__((aligned(16)));

static void show_regs(const unsigned long *regs)
{
	unsigned long scause = regs[FRAME_SCAUSE], stval = regs[FRAME_STVAL], sepc = regs[FRAME_EPC];

	printk(KERN_EMERG "scause 0x%0*lx stval 0x%0*lx sepc 0x%0*lx\n", W, scause, W, stval, W, sepc);
	print_sym("epc : ", sepc);
	print_sym(" ra : ", regs[1]);
	for (int i = 1; i < 32; i++)
		printk(KERN_EMERG "%4s: %0*lx%s", reg_names[i], W, regs[i],
		       (i % 4 == 3 || i == 31) ? "\n" : "  ");

	struct stackframe sf = { .fp = regs[8], .pc = sepc, .ra_hint = regs[1] };
	show_stack(&sf);
}

/* v6.10 arch/riscv/kernel/traps.c's handle_bad_stack(), with the thread named (its
 * __show_regs() line "CPU: 0 PID: <pid> Comm: <name>"). */
__noreturn void handle_bad_stack(unsigned long *regs);
__noreturn void handle_bad_stack(unsigned long *regs)
{
	unsigned long tsk_stk = (unsigned long)__boot_stack_bottom, tsk_end = (unsigned long)__boot_stack_top;
	unsigned long ovf_stk = (unsigned long)riscv_overflow_stack;

	current_thread_info()->stack_lo = 0;	/* a fault from here on is reported as any other, on this stack */
	if (current && current->stack) {
		tsk_stk = (unsigned long)current->stack;
		tsk_end = tsk_stk + current->stack_size;
	}
	printk(KERN_EMERG "Insufficient stack space to handle exception!\n");
	printk(KERN_EMERG "Task stack:     [0x%0*lx..0x%0*lx]\n", W, tsk_stk, W, tsk_end);
	printk(KERN_EMERG "Overflow stack: [0x%0*lx..0x%0*lx]\n", W, ovf_stk, W,
	       ovf_stk + OVERFLOW_STACK_SIZE);
	printk(KERN_EMERG "CPU: %d PID: %d Comm: %s\n", raw_smp_processor_id(),
	       current ? current->pid : 0,
	       current ? current->comm : "swapper");
	printk(KERN_EMERG "Unhandled trap: %s at 0x%0*lx, sp 0x%0*lx\n",
	       riscv_cause_name(regs[FRAME_SCAUSE]), W, regs[FRAME_STVAL], W, regs[2]);
	show_regs(regs);
	printk(KERN_EMERG "Kernel panic - not syncing: Kernel stack overflow\n");
	machine_poweroff(1);
}

/* An exception: report it, then back to the KTAP case that caused it or power off. */
static __noreturn __attribute__((noinline)) void riscv_exception(unsigned long *regs)
{
	static bool in_trap_on[NR_CPUS];	/* per CPU: two CPUs may fault at once */
	bool *in_trap = &in_trap_on[raw_smp_processor_id()];
	unsigned long scause = regs[FRAME_SCAUSE], stval = regs[FRAME_STVAL], sepc = regs[FRAME_EPC];
	char reason[128];

	if (*in_trap) {		/* a fault while reporting a fault: say the least and stop */
		printk(KERN_EMERG "Unhandled trap inside the trap handler, sepc 0x%lx\n", sepc);
		machine_poweroff(1);
	}
	*in_trap = true;
	ksnprintf(reason, sizeof(reason), "Unhandled trap: %s at 0x%0*lx", riscv_cause_name(scause),
		  W, stval);
	printk(KERN_EMERG "%s\n", reason);
	show_regs(regs);
	struct ktest_recovery *r = ktest_recovery_take(reason);
	*in_trap = false;
	if (r)
		longjmp(r->jb, 1);	/* same stack and privilege: a plain longjmp returns to the case */
	printk(KERN_EMERG "Kernel panic - not syncing: Fatal exception\n");
	machine_poweroff(1);
}

/*
 * A page fault taken in the kernel at an instruction of the exception table (a user copy,
 * uaccess.S): a user address of the current mm is faulted in as the task's own access would be
 * (do_user_addr_fault, without FAULT_FLAG_USER: copy_to_user into an untouched bss page works)
 * and the instruction retried; anything else (no mm, a kernel address, no area, a protection)
 * resumes at the fixup, which returns the bytes not copied.  v6.10's do_page_fault does the
 * same through fixup_exception().  Interrupts are enabled around the fault if the copy ran with
 * them (it must: it may sleep), as v6.10's local_irq_enable() on a kernel fault does.
 */
static bool riscv_uaccess_fault(unsigned long *regs)
{
	const struct exception_table_entry *e = search_exception_tables(regs[FRAME_EPC]);
	unsigned long scause = regs[FRAME_SCAUSE], addr = regs[FRAME_STVAL];

	if (!e)
		return false;
	if (addr < TASK_SIZE && current && current->mm) {
		unsigned int flags = scause == 15 ? FAULT_FLAG_WRITE :
				     scause == 12 ? FAULT_FLAG_INSTRUCTION : 0;
		int sig, code;

		if (regs[FRAME_SSTATUS] & SR_SPIE)
			local_irq_enable();
		sig = do_user_addr_fault(addr, flags, &code);
		local_irq_disable();
		if (!sig)
			return true;
	}
	regs[FRAME_EPC] = e->fixup;
	return true;
}

void riscv_trap(unsigned long *regs);
void riscv_trap(unsigned long *regs)
{
	unsigned long scause = regs[FRAME_SCAUSE];

	if (!(scause >> (__riscv_xlen - 1))) {
		/* A page fault on a kernel pte whose A (or, for a store, D) bit is clear, on a core
		 * that traps instead of updating them (Svade): set them and retry (sepc is the
		 * faulting instruction).  12 instruction, 13 load, 15 store/AMO page fault. */
		if ((scause == 12 || scause == 13 || scause == 15) &&
		    kernel_access_fault(regs[FRAME_STVAL], scause == 15, scause == 12))
			return;
		if ((scause == 13 || scause == 15) && riscv_uaccess_fault(regs))
			return;
		if (scause == 3 && riscv_semihost_trap(&regs[FRAME_EPC]))
			return;
		riscv_exception(regs);
	}
	irq_enter();
	riscv_handle_irq(scause << 1 >> 1);
	irq_exit();
}
