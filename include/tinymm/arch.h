/*
 * arch.h - the whole interface the portable kernel (boot/, kernel/, mm/, drivers/) needs from
 * an architecture.  Each arch/<arch>/ implements it; nothing else in arch/ is visible.
 */
#ifndef TINYMM_ARCH_H
#define TINYMM_ARCH_H

#include "kernel.h"

/* Name printed in the banner ("armv7-a", "rv64", "rv32"). */
extern const char arch_name[];

/* Called once, first thing in kmain(), before the console: exception vectors, CPU features. */
void arch_early_init(void);

/*
 * Called once the memory map (memblock) is known, before the first atomic or lock: ARM turns
 * on the MMU and caches here (exclusives need Normal memory); RISC-V has nothing to do.
 */
void arch_mm_init(void);

/*
 * Called once the slab allocator is up (Linux's paging_init, later here because tinymm's page
 * tables come from the buddy allocator and vmalloc's bookkeeping from the slab): ARM builds its
 * LPAE tables, switches to them and starts vmalloc (arch/arm/mmu_lpae.c); RISC-V reads the
 * CPU's page-table extensions (Svpbmt) from the device tree and starts vmalloc's bookkeeping,
 * paging staying off until the address-space step (arch/riscv/pgtable.c).
 */
struct dt;
void paging_init(const struct dt *dt);

/*
 * True once vmalloc() memory can be used by the CPU: translation is on and vmalloc_init() ran.
 * Kernel thread stacks come from vmalloc, with the unmapped guard page below them, exactly when
 * this is true at kthread_create() (kernel/kthread.c; v6.10's CONFIG_VMAP_STACK as a run-time
 * switch).  ARM: once paging_init() switched to the LPAE tables.  RISC-V: once satp is not Bare
 * and vmalloc_init() ran, which today is only inside the riscv_pgtable suite's windows (interrupts
 * masked: no thread is created there); when paging goes on for good it is true with no other
 * change.  False before paging_init() (the boot context keeps the boot stack).
 */
bool arch_vmap_stack_usable(void);

/* Free-running architected counter (ARM CNTVCT, RISC-V `time`) and its frequency in Hz if the
 * CPU knows it (ARM CNTFRQ); 0 means "ask the device tree" (RISC-V timebase-frequency). */
uint64_t arch_counter_read(void);
uint64_t arch_counter_freq(void);

/* Instructions retired on this CPU since some fixed point, for `make bench` (kernel/bench.c):
 * RISC-V `instret`, ARM PMU event 0x08 (INST_RETIRED).  Only differences mean anything.  Under
 * QEMU exact only with -icount (ARM: 0 without it). */
uint64_t arch_instret(void);

/* Power off with @status if the architecture has its own way (ARM semihosting); returns if not. */
void arch_poweroff(int status);

/* Wait for an interrupt or just spin: used by idle polling loops. */
void arch_cpu_relax(void);

/*
 * Threads (kernel/sched.c).  <asm/context.h> defines struct arch_context: the registers a C
 * function must preserve, and the stack pointer.
 *   arch_context_init(): a context that, when switched to, runs @entry() on the stack
 *     [@stack_lo, @stack_top) (@stack_top 16-byte aligned) with interrupts masked, frame-pointer
 *     chain ended.  @entry never returns.  @stack_lo is for an architecture whose trap entry
 *     checks the stack pointer (RISC-V: an sp below it is a stack overflow).
 *   arch_context_switch(): save the caller's registers in @prev, resume @next where it was.
 *     Called with interrupts masked; returns when something switches back to @prev.
 */
struct arch_context;
void arch_context_init(struct arch_context *ctx, uintptr_t stack_lo, uintptr_t stack_top,
		       void (*entry)(void));
void arch_context_switch(struct arch_context *prev, struct arch_context *next);

/*
 * User mode (docs/user.md).  <asm/ptrace.h> defines struct pt_regs: a task's user registers,
 * saved at the top of its kernel stack on every entry from user mode (arch_context_init()
 * leaves room for it there, so every thread can become a user task).
 *   current_pt_regs(): the current task's.
 *   start_thread(): user mode will resume at @pc with stack pointer @sp and every other
 *     register zero (the ABI's process start state; exec).
 *   arch_ret_to_user(): a kernel thread that has just become a user task (kernel_execve())
 *     enters user mode with current_pt_regs(); never returns.
 *   arch_dup_task_regs(): fork's child @p (not yet run) gets a copy of the current task's
 *     user registers and thread pointer (RISC-V tp is in pt_regs, ARM's TPIDRURO in the
 *     context), with the system call's result register 0 (kernel/fork.c).
 *   switch_mm(): make @next's user half current (RISC-V satp, ARM TTBR0, with ASIDs or a
 *     flush: docs/user.md).  Interrupts masked.  The scheduler calls it when the task it
 *     switches to has an mm other than the active one (a kernel thread keeps the last one:
 *     Linux's lazy TLB); do_exit() switches to &init_mm before it frees its own.
 */
struct pt_regs;
struct mm_struct;
struct pt_regs *current_pt_regs(void);
void start_thread(struct pt_regs *regs, unsigned long pc, unsigned long sp);
__noreturn void arch_ret_to_user(void);
struct task_struct;
void arch_dup_task_regs(struct task_struct *p);
void switch_mm(struct mm_struct *prev, struct mm_struct *next);

/*
 * Interrupts.  arch_irq_init() registers the CPU's own interrupt controller if it has one
 * (RISC-V's per-hart local interrupts; nothing on ARM, whose GIC is a driver); the external
 * controllers come after it from the device tree.  The arch's exception entry calls
 * irq_enter(), then the root controller's handler (handle_arch_irq(), or on RISC-V its own
 * dispatch by scause), then irq_exit(), on the interrupted thread's stack.
 */
struct dt;
void arch_irq_init(const struct dt *dt);

/*
 * The CPU timer as a one-shot clock event (kernel/timer.c drives it).
 *   arch_timer_init(): after irq_init(); finds and requests the timer interrupt, which calls
 *     timer_interrupt(); 0, or -1 if there is no usable timer (printed).
 *   arch_timer_set_next(): interrupt once arch_counter_read() >= @counter (a value in the past
 *     interrupts at once); replaces any earlier setting.  Interrupts masked.
 *   arch_timer_name(): for the boot log and `irqs` ("arch_timer", "riscv-timer (sstc)").
 */
int arch_timer_init(const struct dt *dt);
void arch_timer_set_next(uint64_t counter);
const char *arch_timer_name(void);

/* Wait for an interrupt with interrupts masked: returns once one is pending (the idle loop then
 * unmasks and takes it). */
void arch_cpu_idle(void);

/* MMIO accessors: the single place device registers are touched. */
static inline uint32_t readl(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void writel(uint32_t v, uintptr_t a) { *(volatile uint32_t *)a = v; }
static inline uint8_t readb(uintptr_t a) { return *(volatile uint8_t *)a; }
static inline void writeb(uint8_t v, uintptr_t a) { *(volatile uint8_t *)a = v; }

/*
 * SMP (kernel/smp.c, docs/smp.md).  The generic code reads the device tree's cpus node and asks
 * the architecture to start each other CPU; the architecture runs it into the generic
 * secondary_start_kernel().
 *   arch_cpu_boot(): start the CPU with hardware id @hwid (MPIDR affinity, hart id) as logical
 *     CPU @cpu, running as @idle: the new CPU's current is @idle (set_current(), asm/current.h),
 *     its stack pointer idle->stack + idle->stack_size, the kernel's page tables, vectors and
 *     caches as the boot CPU has them; then it calls secondary_start_kernel() with interrupts
 *     masked.  Returns 0 once the start was requested (the caller times out a CPU that never
 *     comes online), or -errno with the firmware's refusal reported in one line.
 *   arch_secondary_init(): on the new CPU, interrupts masked: its interrupt-controller
 *     interface (ARM GIC CPU interface, RISC-V its PLIC context), its timer and anything else
 *     per CPU, before it is marked online.
 *   arch_send_ipi_mask(): raise software interrupt @ipi (enum ipi_msg_type, kernel/smp.h) on
 *     every CPU in @mask; the receiving CPU's interrupt entry calls handle_IPI(ipi).
 */
struct task_struct;
struct cpumask;
int arch_cpu_boot(unsigned int cpu, unsigned long hwid, struct task_struct *idle);
void arch_secondary_init(unsigned int cpu);
void arch_send_ipi_mask(const struct cpumask *mask, unsigned int ipi);
__noreturn void secondary_start_kernel(void);
void handle_IPI(unsigned int ipi);

#endif
