/*
 * user.c - RISC-V user mode (include/tinymm/arch.h, "User mode"; docs/arch-user-riscv.md): a
 * user task's registers (struct pt_regs at the top of its kernel stack), entering U-mode, and
 * every trap taken from U-mode, which entry.S hands to riscv_user_trap() on the task's kernel
 * stack:
 *   - interrupts: irq_enter(), the local controller, irq_exit(), which preempts (U-mode runs at
 *     preempt_count 0, so an interrupted user task is always preemptible);
 *   - scause 8, ecall from U-mode: sepc past the ecall, interrupts on, invoke_syscall(a7,
 *     a0..a5) into a0 (entry.S does it itself, the hot path; this C one serves the irqsoff
 *     tracer's builds);
 *   - page faults (12, 13, 15): do_user_addr_fault() with interrupts on; a signal kills;
 *   - every other exception: v6.10's do_trap_* choice of signal (below), which kills.
 * A signal kills the task (tinymm has no handlers; include/tinymm/signal.h): v6.10's
 * show_unhandled_signals line, then do_exit(signal).  The kernel never dies of a user fault.
 * Before the return to U-mode: interrupts masked, a pending reschedule taken first, and the OOM
 * killer's SIGKILL (v6.10's exit_to_user_mode_loop, without other signals or notify-resume
 * work).
 */
#include <string.h>
#include "asm/ptrace.h"
#include "riscv.h"
#include "tinymm/arch.h"
#include "tinymm/bug.h"
#include "tinymm/irq.h"
#include "tinymm/irqflags.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/syscalls.h"
#include "tinymm/user_task.h"
#include "tinymm/vfs.h"

#ifndef ILL_ILLTRP
#define ILL_ILLTRP	4	/* illegal trap (Linux's uapi/asm-generic/siginfo.h) */
#endif
#ifndef TRAP_BRKPT
#define TRAP_BRKPT	1	/* process breakpoint */
#endif

#define REG_W	(int)(sizeof(long) * 2)	/* v6.10's REG_FMT: %016lx / %08lx */

_Static_assert(sizeof(struct pt_regs) == 36 * sizeof(long), "pt_regs is the trap frame (asm.h)");
_Static_assert(offsetof(struct pt_regs, status) == 32 * sizeof(long), "FRAME_SSTATUS");
_Static_assert(offsetof(struct pt_regs, cause) == 33 * sizeof(long), "FRAME_SCAUSE");
_Static_assert(offsetof(struct pt_regs, epc) == 35 * sizeof(long), "FRAME_EPC");
_Static_assert(offsetof(struct pt_regs, a0) == 10 * sizeof(long), "x10");
_Static_assert(offsetof(struct exit_work, sigkill) == 1 && sizeof(struct exit_work) == 2 &&
	       _Alignof(struct exit_work) == 2, "entry.S tests exit_work with one lhu");

/* entry.S: restore @regs (at the top of the current stack) and sret; interrupts masked. */
__noreturn void riscv_ret_to_user_regs(struct pt_regs *regs);
void riscv_user_trap(struct pt_regs *regs);

struct pt_regs *current_pt_regs(void)
{
	return (struct pt_regs *)((unsigned long)current->stack + current->stack_size) - 1;
}

/* The ABI's start: every register zero but pc and sp; U-mode (SPP 0) with interrupts on once
 * there (SPIE), SUM clear.  No FENCE.I here (v6.10 has none either): a program's code reaches
 * it through executable ptes of page-cache folios, and flush_icache_pte() fences each folio
 * the kernel wrote since its last fence (PG_dcache_clean, docs/cacheflush.md). */
void start_thread(struct pt_regs *regs, unsigned long pc, unsigned long sp)
{
	memset(regs, 0, sizeof(*regs));
	regs->epc = pc;
	regs->sp = sp;
	regs->status = SR_SPIE;
}

/* fork's child: the parent's registers as the ecall left them (sepc already past it; tp and
 * gp, the thread pointer and global pointer, included), a0 = 0: clone() returns 0 there. */
void arch_dup_task_regs(struct task_struct *p)
{
	struct pt_regs *child = (struct pt_regs *)((unsigned long)p->stack + p->stack_size) - 1;

	*child = *current_pt_regs();
	child->a0 = 0;
}

/* Masked from here to the sret; a reschedule asked for meanwhile is taken first. */
static void exit_to_user_mode(void)
{
	local_irq_disable();
	while (need_resched()) {
		local_irq_enable();
		schedule();
		local_irq_disable();
	}
	/* A lock or preempt_disable() leaked by a system call would stop preemption for good. */
	WARN_ON_ONCE(preempt_count() != 0);
	/* The OOM killer's SIGKILL (mm/oom_kill.c), as v6.10's exit_to_user_mode_loop takes a
	 * fatal signal.  Every return to U-mode comes here: traps through riscv_user_trap, new
	 * tasks through arch_ret_to_user, and entry.S's system-call fast path whenever
	 * thread_info's exit_work says a reschedule is due or the task has a SIGKILL pending, so a victim
	 * chosen while it was in a system call, or while another task ran, dies at the end of
	 * that call. */
	if (unlikely(fatal_signal_pending(current))) {
		local_irq_enable();
		do_exit(SIGKILL);
	}
}

/* entry.S's system-call fast path, when a reschedule is due or preempt_count is off. */
void riscv_user_exit_slow(void);
void riscv_user_exit_slow(void)
{
	exit_to_user_mode();
}

__noreturn void arch_ret_to_user(void)
{
	exit_to_user_mode();
	riscv_ret_to_user_regs(current_pt_regs());
}

/*
 * v6.10's print_vma_addr(" in ", ip): the file-backed area at or after @ip as
 * "<basename>[<start>+<size>]"; nothing for an anonymous one or none.  The name is the
 * dentry's (tinymm has no d_path; v6.10 prints the path's basename, the same thing).
 */
static void print_vma_addr(const char *prefix, unsigned long ip)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;

	if (!mm || !mutex_trylock(&mm->mmap_lock))
		return;
	vma = find_vma(mm, ip);
	if (vma && vma->vm_file) {
		const struct dentry *d = vma->vm_file->f_path.dentry;
		const char *name = d && d->d_name.name ? d->d_name.name : "?";

		printk(KERN_CONT "%s%s[%lx+%lx]", prefix, name, vma->vm_start,
		       vma->vm_end - vma->vm_start);
	}
	mutex_unlock(&mm->mmap_lock);
}

static const char *const user_reg_names[32] = {
	"epc", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
	"a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
	"t5", "t6",
};

/* v6.10's __show_regs() for a user frame: three registers a line, epc first. */
static void show_user_regs(const struct pt_regs *regs)
{
	const unsigned long *r = (const unsigned long *)regs;
	char line[128];
	int len = 0;

	printk(KERN_INFO "CPU: %d PID: %d Comm: %s\n", raw_smp_processor_id(), current->pid,
	       current->comm);
	for (int i = 0; i < 32; i++) {
		const char *n = user_reg_names[i];
		unsigned long v = i ? r[i] : regs->epc;

		len += ksnprintf(line + len, sizeof(line) - (size_t)len,
				 !i ? "%s : %0*lx" : strlen(n) == 2 ? " %s : %0*lx" : " %s: %0*lx",
				 n, REG_W, v);
		if (i % 3 == 2 || i == 31) {
			printk(KERN_INFO "%s\n", line);
			len = 0;
		}
	}
	printk(KERN_INFO "status: %0*lx badaddr: %0*lx cause: %0*lx\n", REG_W, regs->status, REG_W,
	       regs->badaddr, REG_W, regs->cause);
}

/*
 * v6.10's do_trap() for a signal that kills (tinymm delivers none to a handler):
 * "<comm>[<pid>]: unhandled signal <sig> code 0x<code> at 0x<addr>[ in <file>[<start>+<len>]]"
 * and the registers, then the task ends with the signal as its wait status.  @addr is what
 * v6.10 reports: the faulting address for a page fault, the pc otherwise.
 */
static __noreturn void user_force_sig(struct pt_regs *regs, int sig, int code, unsigned long addr)
{
	local_irq_enable();
	printk(KERN_INFO "%s[%d]: unhandled signal %d code 0x%x at 0x%0*lx", current->comm,
	       current->pid, sig, code, REG_W, addr);
	print_vma_addr(" in ", instruction_pointer(regs));
	printk(KERN_CONT "\n");
	show_user_regs(regs);
	do_exit(sig);
}

static void user_page_fault(struct pt_regs *regs)
{
	unsigned long cause = regs->cause;
	unsigned int flags = FAULT_FLAG_USER;
	int sig, code;

	if (cause == 15)
		flags |= FAULT_FLAG_WRITE;
	else if (cause == 12)
		flags |= FAULT_FLAG_INSTRUCTION;
	sig = do_user_addr_fault(regs->badaddr, flags, &code);
	if (sig)
		user_force_sig(regs, sig, code, regs->badaddr);
}

/* Every synchronous exception but ecall and page faults: v6.10's do_trap_* signals. */
static __noreturn void user_exception(struct pt_regs *regs)
{
	switch (regs->cause) {
	case 0:		/* instruction address misaligned */
	case 4:		/* load address misaligned (v6.10 emulates it first; tinymm does not) */
	case 6:		/* store/AMO address misaligned */
		user_force_sig(regs, SIGBUS, BUS_ADRALN, regs->epc);
	case 1:		/* instruction access fault */
	case 5:		/* load access fault */
	case 7:		/* store/AMO access fault */
		user_force_sig(regs, SIGSEGV, SEGV_ACCERR, regs->epc);
	case 2:		/* illegal instruction */
		user_force_sig(regs, SIGILL, ILL_ILLOPC, regs->epc);
	case 3:		/* breakpoint */
		user_force_sig(regs, SIGTRAP, TRAP_BRKPT, regs->epc);
	default:	/* ecall from S/M (cannot come from U) and the reserved causes */
		user_force_sig(regs, SIGILL, ILL_ILLTRP, regs->epc);
	}
}

void riscv_user_trap(struct pt_regs *regs)
{
	unsigned long cause = regs->cause;

	if (cause >> (__riscv_xlen - 1)) {
		irq_enter();
		riscv_handle_irq(cause << 1 >> 1);
		irq_exit();
	} else if (cause == 8) {
		regs->epc += 4;
		local_irq_enable();
		regs->a0 = (unsigned long)invoke_syscall(regs->a7, regs->a0, regs->a1, regs->a2,
							 regs->a3, regs->a4, regs->a5);
	} else if (cause == 12 || cause == 13 || cause == 15) {
		local_irq_enable();
		user_page_fault(regs);
	} else {
		user_exception(regs);
	}
	exit_to_user_mode();
}
