/*
 * thread_info.h - what the running task's own code, its interrupt entry and its return to user
 * mode need at a fixed place: the first member of every task_struct (v6.10's
 * CONFIG_THREAD_INFO_IN_TASK), found from the CPU's current-task register (asm/current.h).
 *
 *   preempt_count   preemption and hard-interrupt nesting (preempt.h); per task, as v6.10 keeps
 *                   it on ARM and RISC-V, so a task that moves to another CPU takes it along
 *   exit_work       what a return to user mode must act on: a reschedule request (v6.10's
 *                   TIF_NEED_RESCHED) and a pending SIGKILL (TIF_SIGPENDING for the one signal
 *                   tinymm delivers); two bytes of one halfword so RISC-V's system-call fast
 *                   path tests both with one load
 *   cpu             the CPU the task runs on (or last ran on): smp_processor_id()
 *   cpu_fast        that CPU's struct cpu_fast (smp.h): the per-CPU pointers the allocators'
 *                   fast paths want, one load from the task register (v6.10 keeps a per-CPU
 *                   offset in a register for the same reason); set with cpu (thread_set_cpu())
 *   pcp_fast        a copy of cpu_fast->pcp_fast, set with it: the page allocation fast path's
 *                   lists in one load (mm refreshes the boot task's when it fills the table)
 *   cpu_slab_off    cpu * CPU_SLAB_STRIDE (smp.h): where this CPU's entry of a slab cache's
 *                   cpu_slab[] lies, so the slab fast paths add it instead of scaling the CPU
 *   kernel_sp, user_sp, stack_lo   RISC-V's trap entry (arch/riscv/entry.S): the pt_regs of a
 *                   task in U-mode, the user's sp while it is being saved, and the stack bottom
 *                   a kernel sp is checked against (0: unchecked)
 * Assembly uses the TI_* offsets below; kernel/sched.c asserts them.
 * Locking: a task's fields are written by the task itself on its CPU, except need_resched,
 * which a waker on another CPU may set (WRITE_ONCE, then an IPI), and cpu, cpu_fast, pcp_fast
 * and cpu_slab_off, written by the scheduler while the task is not running.
 */
#ifndef TINYMM_THREAD_INFO_H
#define TINYMM_THREAD_INFO_H

#define TI_KERNEL_SP		0
#define TI_USER_SP		(1 * __SIZEOF_POINTER__)
#define TI_STACK_LO		(2 * __SIZEOF_POINTER__)
#define TI_PREEMPT_COUNT	(3 * __SIZEOF_POINTER__)
#define TI_EXIT_WORK		(3 * __SIZEOF_POINTER__ + 4)
#define TI_CPU			(3 * __SIZEOF_POINTER__ + 8)

#ifndef __ASSEMBLER__
struct exit_work {
	_Alignas(2) volatile unsigned char need_resched;
	volatile unsigned char sigkill;
};

struct cpu_fast;
struct per_cpu_pages;
struct thread_info {
	unsigned long kernel_sp;
	unsigned long user_sp;
	unsigned long stack_lo;
	volatile unsigned int preempt_count;
	struct exit_work exit_work;
	unsigned int cpu;
	struct cpu_fast *cpu_fast;
	struct per_cpu_pages *pcp_fast;
	unsigned long cpu_slab_off;
};
#endif

#endif
