/* riscv.h - what the files of arch/riscv/ share among themselves (not part of arch.h). */
#ifndef TINYMM_RISCV_H
#define TINYMM_RISCV_H

#include "tinymm/kernel.h"

struct dt;
struct irq_domain;

/* Local interrupt causes (scause codes with the top bit set; bits of sie/sip). */
#define IRQ_S_SOFT	1
#define IRQ_S_TIMER	5
#define IRQ_S_EXT	9

#define CSR_STIMECMP	0x14d
#define CSR_STIMECMPH	0x15d

/* The per-hart local interrupt controller's domain (arch/riscv/irq.c); NULL before it exists. */
extern struct irq_domain *riscv_intc_domain;
/* An interrupt with cause @code arrived (riscv_trap, interrupts masked). */
void riscv_handle_irq(unsigned long code);
/* The boot hart's /cpus node (reg = the hart id in a0, boot_cpu_hwid), or -1. */
int riscv_boot_cpu_node(const struct dt *dt);
/* The boot CPU @cpu has the multi-letter extension @ext ("sstc", "svpbmt"; cpufeature.c). */
bool riscv_isa_extension(const struct dt *dt, int cpu, const char *ext);
/* The machine's mvendorid, marchid and mimpid from the SBI base extension (timer.c, which
 * talks to the SBI): false where tinymm starts in M-mode itself (no SBI to ask). */
bool riscv_sbi_machine_ids(unsigned long *mvendorid, unsigned long *marchid,
			   unsigned long *mimpid);
/* A breakpoint at the semihosting ebreak (no debugger: a real board): step over it, true. */
bool riscv_semihost_trap(unsigned long *epc);

/* Is there SBI firmware to call (OpenSBI), or did tinymm start in M-mode itself (mstart.S)? */
#ifdef TINYMM_MSTART
#define RISCV_HAVE_SBI	0
#else
#define RISCV_HAVE_SBI	1
#endif

/* sbi.c: an ecall to the SBI firmware; without firmware every call is SBI_ERR_NOT_SUPPORTED. */
struct sbiret {
	long error;
	long value;
};
#define SBI_ERR_NOT_SUPPORTED	(-2)
struct sbiret sbi_ecall(unsigned long eid, unsigned long fid, unsigned long arg0,
			unsigned long arg1, unsigned long arg2);
bool sbi_probe_extension(unsigned long eid);
long sbi_hart_start(unsigned long hartid, unsigned long start_pa, unsigned long opaque);
long sbi_send_ipi(unsigned long hart_mask, unsigned long hart_mask_base);
long sbi_remote_sfence_vma(unsigned long hart_mask, unsigned long hart_mask_base,
			   unsigned long start, unsigned long size);
long sbi_remote_fence_i(unsigned long hart_mask, unsigned long hart_mask_base);
const char *sbi_err_name(long err);

/*
 * SMP (smp.c, head_smp.S): what a starting hart reads at its physical address before paging is
 * on (the layout head_smp.S's SD_* offsets use), and the per-hart set-up each driver gives it.
 */
struct riscv_secondary_data {
	unsigned long satp;		/* the kernel's tables */
	unsigned long task;		/* tp: the idle task */
	unsigned long stack_top;	/* sp */
	unsigned long cpu;		/* its logical number */
	unsigned long hart_tag;		/* hart id + 1 (0: unused slot) */
	unsigned long entry;		/* physical address the hart was started at */
};
/* Every slot, for entry.S's late_secondary (a hart OpenSBI sent to _start by mistake). */
extern struct riscv_secondary_data riscv_secondary_data[];
/*
 * The fences @what (RISCV_RFENCE_SFENCE_VMA: the whole TLB; RISCV_RFENCE_FENCE_I) on every hart
 * in @mask, below S-mode's interrupts (the SBI's RFENCE, or mstart.S's M-mode forwarder):
 * usable with interrupts masked, where smp_call_function_many() is not.  Returns once they ran.
 */
#define RISCV_RFENCE_SFENCE_VMA	1
#define RISCV_RFENCE_FENCE_I	2
struct cpumask;
void riscv_remote_fence(const struct cpumask *mask, unsigned int what);
/* The local interrupt controller on a starting hart: `sie` as the boot hart's (irq.c). */
void riscv_intc_starting_cpu(void);
/* Its timer: no deadline yet, the interrupt enabled (timer.c). */
void riscv_timer_starting_cpu(void);
/* Its PLIC supervisor context: no sources enabled, threshold 0 (drivers/irq-plic.c); false if
 * the PLIC has no context for @hartid. */
bool plic_starting_cpu(unsigned long hartid);

#endif
