/*
 * user.c - the C half of ARM user mode (include/tinymm/arch.h "User mode"; docs/user-arm.md):
 * the task's struct pt_regs, entering user mode, system calls, and what an exception taken in
 * USR mode does.  entry-user.S saves the registers and calls these in SVC mode on the task's
 * own stack, interrupts masked; each handler unmasks them while it works (a system call or a
 * fault may sleep) and returns to ret_to_user, which masks them again.
 *
 * A fault the task cannot survive is reported in v6.10's words (arch/arm/mm/fault.c
 * __do_user_fault and show_pte, arch/arm/kernel/traps.c do_undefinstr: there only with
 * CONFIG_DEBUG_USER and user_debug set, here always, for the tests and the reader) and the task
 * ends with the signal as its status (do_exit): tinymm has no signal delivery, and the kernel
 * never dies of a user fault.
 * Locking: none here; do_user_addr_fault() takes the mm's mmap_lock.
 */
#include <string.h>
#include <asm/ptrace.h>
#include "tinymm/arch.h"
#include "tinymm/cacheflush.h"
#include "tinymm/errno.h"
#include "tinymm/extable.h"
#include "tinymm/irqflags.h"
#include "tinymm/mm_fault.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/syscalls.h"
#include "tinymm/user_task.h"

void arm_syscall(struct pt_regs *regs);
void arm_exit_to_user_mode(struct pt_regs *regs);
void arm_user_dabt(struct pt_regs *regs);
void arm_user_pabt(struct pt_regs *regs);
void arm_user_undef(struct pt_regs *regs);
__noreturn void arm_ret_to_user_regs(struct pt_regs *regs);

/* Long-descriptor FSR (ARM ARM B3.13.3): LPAE format, write-not-read, cache maintenance. */
#define FSR_LPAE	(1u << 9)
#define FSR_WRITE	(1u << 11)
#define FSR_CM		(1u << 13)
#define FSR_STATUS(f)	((f) & 0x3f)

struct pt_regs *current_pt_regs(void)
{
	return (struct pt_regs *)((unsigned long)current->stack + current->stack_size) - 1;
}

/* v6.10's start_thread (arch/arm/include/asm/processor.h): USR mode, Thumb if the entry's bit
 * 0 says so, every other register 0; a new program has no thread pointer yet. */
void start_thread(struct pt_regs *regs, unsigned long pc, unsigned long sp)
{
	memset(regs, 0, sizeof(*regs));
	regs->ARM_cpsr = USR_MODE;
	if (pc & 1)
		regs->ARM_cpsr |= PSR_T_BIT;
	regs->ARM_pc = pc & ~1UL;
	regs->ARM_sp = sp;
	regs->ARM_ORIG_r0 = ~0UL;
	current->ctx.tp_value = 0;
	__asm__ __volatile__("mcr p15, 0, %0, c13, c0, 3" :: "r"(0UL));	/* TPIDRURO */
}

/* fork's child: the parent's registers as the svc left them (pc past it), r0 = 0: clone()
 * and fork() return 0 there; its thread pointer the parent's (switch.S loads TPIDRURO from the
 * context at every switch to it). */
void arch_dup_task_regs(struct task_struct *p)
{
	struct pt_regs *child = (struct pt_regs *)((unsigned long)p->stack + p->stack_size) - 1;

	*child = *current_pt_regs();
	child->ARM_r0 = 0;
	p->ctx.tp_value = current->ctx.tp_value;
}

__noreturn void arch_ret_to_user(void)
{
	local_irq_disable();
	arm_ret_to_user_regs(current_pt_regs());
}

/*
 * ret_to_user's last C step, interrupts masked: switch while a wake-up asked for it (the task
 * is preemptible here whatever it was doing: its kernel stack holds nothing but pt_regs), end
 * the task if the OOM killer chose it, then
 * make sure the CPSR goes back to USR with interrupts and aborts unmasked, whatever was stored
 * in pt_regs (v6.10's valid_user_regs): user mode can never be left at PL1 or with IRQs off.
 */
void arm_exit_to_user_mode(struct pt_regs *regs)
{
	WARN_ON_ONCE(preempt_count());
	preempt_schedule_irq();
	/* The OOM killer's SIGKILL (mm/oom_kill.c): the only signal tinymm sends to another
	 * task; v6.10 takes it here too (exit_to_user_mode_loop -> get_signal -> do_group_exit). */
	if (unlikely(fatal_signal_pending(current))) {
		local_irq_enable();
		do_exit(SIGKILL);
	}
	regs->ARM_cpsr &= ~(unsigned long)(MODE_MASK | PSR_I_BIT | PSR_F_BIT | PSR_A_BIT | PSR_J_BIT);
	regs->ARM_cpsr |= USR_MODE;
}

/*
 * ARM's private calls (v6.10 arch/arm/kernel/traps.c arm_syscall): set_tls writes TPIDRURO,
 * the thread pointer user mode reads with `mrc p15, 0, rX, c13, c0, 3` (picolibc's
 * __aeabi_read_tp), and keeps it in the task for switch.S; cacheflush (start, end, flags) makes
 * code the task rewrote fetchable (arch/arm/cacheflush.c, docs/cacheflush.md).  The rest of
 * the range (breakpoint, usr26/usr32, get_tls) is not implemented: -ENOSYS, as v6.10 returns
 * for the numbers up to 0x7ff it does not know.
 */
static long arm_private_syscall(unsigned long nr, struct pt_regs *regs)
{
	if (nr == __ARM_NR_set_tls) {
		current->ctx.tp_value = regs->ARM_r0;
		__asm__ __volatile__("mcr p15, 0, %0, c13, c0, 3" :: "r"(regs->ARM_r0));
		return 0;
	}
	if (nr == __ARM_NR_cacheflush)
		return arm_cacheflush(current->mm, regs->ARM_r0, regs->ARM_r1, regs->ARM_r2);
	return -ENOSYS;
}

/* EABI: the number in r7, six arguments in r0-r5, the result in r0.  Interrupts on. */
void arm_syscall(struct pt_regs *regs)
{
	unsigned long nr = regs->ARM_r7;
	long ret;

	if ((nr >> 16) == (__ARM_NR_BASE >> 16))
		ret = arm_private_syscall(nr, regs);
	else
		ret = invoke_syscall(nr, regs->uregs[0], regs->uregs[1], regs->uregs[2],
				     regs->uregs[3], regs->uregs[4], regs->uregs[5]);
	regs->ARM_r0 = (unsigned long)ret;
}

/* v6.10's show_pte(): the root and the entries on the way to @addr, long-descriptor values. */
static void show_pte(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgd;
	pmd_t *pmd;

	if (!mm)
		mm = &init_mm;
	printk(KERN_ERR "pgd = %08lx\n", (unsigned long)mm->pgd);
	pgd = pgd_offset(mm, addr);
	printk(KERN_ERR "[%08lx] *pgd=%016llx", addr, (unsigned long long)pgd_val(*pgd));
	do {
		if (pgd_none(*pgd))
			break;
		if (pgd_bad(*pgd)) {
			printk(KERN_CONT "(bad)");
			break;
		}
		pmd = pmd_offset(pgd, addr);
		printk(KERN_CONT ", *pmd=%016llx", (unsigned long long)pmd_val(*pmd));
		if (pmd_none(*pmd) || pmd_leaf(*pmd))
			break;
		if (pmd_bad(*pmd)) {
			printk(KERN_CONT "(bad)");
			break;
		}
		printk(KERN_CONT ", *pte=%016llx",
		       (unsigned long long)pte_val(*pte_offset_kernel(pmd, addr)));
	} while (0);
	printk(KERN_CONT "\n");
}

/* v6.10's __do_user_fault() report (CONFIG_DEBUG_USER's), then the task ends by @sig. */
static __noreturn void do_user_fault_kill(unsigned long addr, unsigned int fsr, int sig)
{
	struct task_struct *tsk = current;

	pr_err("8<--- cut here ---\n");
	pr_err("%s: unhandled page fault (%d) at 0x%08lx, code 0x%03x\n", tsk->comm, sig, addr, fsr);
	show_pte(tsk->mm, addr);
	do_exit(sig);
}

/*
 * A data or prefetch abort from USR mode, interrupts on.  The long-descriptor status says
 * what happened: translation, access flag and permission faults (at any level) go to the fault
 * core, which maps the page, copies it (a write to a present read-only private page: COW), or
 * returns the signal; an alignment fault is SIGBUS (BUS_ADRALN; SCTLR.A is off, so only
 * LDREX/LDRD-class accesses raise it); anything else (external aborts, TLB conflicts) is
 * SIGBUS, as v6.10's do_bad entries of fsr_info.
 */
static void user_abort(unsigned long addr, unsigned int fsr, unsigned int flags)
{
	unsigned int status = FSR_STATUS(fsr);
	int sig = SIGBUS, code;

	local_irq_enable();
	if ((fsr & FSR_LPAE) && status >= 0x04 && status <= 0x0f) {
		sig = do_user_addr_fault(addr, FAULT_FLAG_USER | flags, &code);
		if (!sig)
			return;
	}
	do_user_fault_kill(addr, fsr, sig);
}

void arm_user_dabt(struct pt_regs *regs)
{
	unsigned int dfsr, dfar;

	(void)regs;
	__asm__ __volatile__("mrc p15, 0, %0, c5, c0, 0" : "=r"(dfsr));
	__asm__ __volatile__("mrc p15, 0, %0, c6, c0, 0" : "=r"(dfar));
	user_abort(dfar, dfsr, (dfsr & FSR_WRITE) && !(dfsr & FSR_CM) ? FAULT_FLAG_WRITE : 0);
}

void arm_user_pabt(struct pt_regs *regs)
{
	unsigned int ifsr, ifar;

	(void)regs;
	__asm__ __volatile__("mrc p15, 0, %0, c5, c0, 1" : "=r"(ifsr));
	__asm__ __volatile__("mrc p15, 0, %0, c6, c0, 2" : "=r"(ifar));
	user_abort(ifar, ifsr, FAULT_FLAG_INSTRUCTION);
}

/* v6.10's do_undefinstr: no undef hooks here (no VFP lazy switching, no kprobes), so SIGILL. */
void arm_user_undef(struct pt_regs *regs)
{
	if (thumb_mode(regs))
		regs->ARM_pc += 2;	/* entry-user.S took 4: a Thumb instruction's lr is + 2 */
	local_irq_enable();
	pr_info("%s (%d): undefined instruction: pc=%08lx\n", current->comm, current->pid,
		regs->ARM_pc);
	do_exit(SIGILL);
}

/*
 * A data abort on a uaccess instruction (entry-user.S's __dabt_uaccess; the exception table
 * names it).  A translation, access flag or permission fault at a user address of the current
 * mm, with the interrupted code able to sleep, is the task's fault: resolved (retry: pc
 * unchanged) unless it cannot be, then the fixup returns the bytes left.  A kernel address
 * (LDRT/STRT refused it: no AP[1]), no mm, an atomic caller, any other fault status: the
 * fixup at once.  Interrupts masked on return (the RFE restores the caller's state).
 */
struct arm_uaccess_frame {
	unsigned long r[13];
	unsigned long lr;
	unsigned long pc;
	unsigned long cpsr;
};
void arm_uaccess_abort(struct arm_uaccess_frame *f);
void arm_uaccess_abort(struct arm_uaccess_frame *f)
{
	const struct exception_table_entry *e = search_exception_tables(f->pc);
	unsigned int dfsr, dfar, status;
	int code;

	__asm__ __volatile__("mrc p15, 0, %0, c5, c0, 0" : "=r"(dfsr));
	__asm__ __volatile__("mrc p15, 0, %0, c6, c0, 0" : "=r"(dfar));
	status = FSR_STATUS(dfsr);
	if ((dfsr & FSR_LPAE) && status >= 0x04 && status <= 0x0f && dfar < TASK_SIZE &&
	    current && current->mm && !(f->cpsr & PSR_I_BIT) && !preempt_count()) {
		int sig;

		local_irq_enable();
		sig = do_user_addr_fault(dfar, dfsr & FSR_WRITE ? FAULT_FLAG_WRITE : 0, &code);
		local_irq_disable();
		if (!sig)
			return;
	}
	f->pc = e->fixup;
}
