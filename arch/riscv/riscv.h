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

#endif
