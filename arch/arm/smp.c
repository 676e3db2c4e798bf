/*
 * smp.c - ARMv7-A's side of SMP (include/tinymm/arch.h "SMP", docs/smp.md): starting a CPU
 * with PSCI CPU_ON, its C entry, its per-CPU set-up, and IPIs through the root interrupt
 * controller (the GIC's SGIs, drivers/irq-gic.c).
 *
 * PSCI (the device tree's psci node, v6.10's drivers/firmware/psci): "arm,psci-0.2" and later
 * have the standard function ids (CPU_ON 0x84000003, SMC32); "arm,psci" (0.1) names its own in
 * the node's cpu_on.  The conduit is the node's method: "hvc" (QEMU's virt, whose PSCI is
 * QEMU's own) or "smc" (a secure monitor, U-Boot's on the Orange Pi PC).  CPU_ON(target MPIDR,
 * entry, context): the CPU starts at the physical address @entry, MMU off, with r0 = context:
 * here the physical address of its struct arm_secondary_data, which entry.S's secondary_entry
 * reads with the MMU and caches off, so arch_cpu_boot() cleans it to the point of coherency.
 * The firmware's refusal (an hwid it does not know: -2 INVALID_PARAMETERS) is one line and the
 * CPU is skipped by the generic code.
 *
 * Each CPU has its own exception-mode stack (entry.S, EXC_STACK_SIZE apart) and sets VBAR to
 * the one vector table.  Its GIC CPU interface and banked SGI/PPI state come from
 * irq_secondary_init(); its virtual timer starts masked (timer.c) and its PPI unmasked.
 * TLB and I-cache maintenance is broadcast by hardware (TLBIMVAAIS/TLBIALLIS, ICIALLUIS,
 * BPIALLIS: asm/pgtable.h, asm/cacheflush.h, asid.c), as v6.10's ARMv7 SMP kernel does, so no
 * shootdown IPIs are needed.  ACTLR.SMP (coherency of this core's L1) is the firmware's job, as
 * v6.10 assumes for a kernel entered in non-secure state: PSCI sets it before the entry point.
 *
 * tinymm.smp_lost_cpu=N (tests): logical CPU N is started at a loop that never answers, so the
 * generic code's timeout and the skip are exercised on a CPU the firmware did start.
 * Locking: arm_secondary_data[cpu] is written by the boot CPU before CPU_ON and read by that
 * CPU only; PSCI calls are made from smp_init() alone.
 */
#include <asm/cacheflush.h>
#include <asm/ptrace.h>
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bug.h"
#include "tinymm/cmdline.h"
#include "tinymm/devicetree.h"
#include "tinymm/errno.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/mm.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/smp.h"
#include <asm/current.h>

#define EXC_STACK_SIZE		8192	/* entry.S: the same */

#define PSCI_0_2_FN_CPU_ON	0x84000003u
/* PSCI return codes (DEN0022) */
#define PSCI_RET_NOT_SUPPORTED		-1
#define PSCI_RET_INVALID_PARAMS		-2
#define PSCI_RET_DENIED			-3
#define PSCI_RET_ALREADY_ON		-4
#define PSCI_RET_ON_PENDING		-5
#define PSCI_RET_INTERNAL_FAILURE	-6
#define PSCI_RET_NOT_PRESENT		-7
#define PSCI_RET_DISABLED		-8
#define PSCI_RET_INVALID_ADDRESS	-9

/* entry.S reads it by offset: keep the order. */
struct arm_secondary_data {
	uint32_t sctlr;
	uint32_t exc_stack_top;
	uint32_t stack_top;
	struct task_struct *idle;
};

static struct arm_secondary_data secondary_data[NR_CPUS] __attribute__((aligned(64)));

static struct {
	bool probed, smc;
	uint32_t cpu_on;	/* 0: no PSCI CPU_ON */
} psci;

static unsigned int smp_lost_cpu;
KPARAM_UINT(smp_lost_cpu, smp_lost_cpu, 0, NR_CPUS - 1,
	    "tests: start this logical CPU (1..) where it never answers (0: none)");

extern char secondary_entry[], arm_secondary_lost[], __exc_stack_top[];
uint32_t arm_read_sctlr(void);			/* mmu.c */
void paging_switch(void);			/* mmu_lpae.c */
extern bool arm_lpae_on;

static int32_t psci_call(uint32_t fn, uint32_t a1, uint32_t a2, uint32_t a3)
{
	register uint32_t r0 __asm__("r0") = fn;
	register uint32_t r1 __asm__("r1") = a1;
	register uint32_t r2 __asm__("r2") = a2;
	register uint32_t r3 __asm__("r3") = a3;

	if (psci.smc)
		__asm__ __volatile__(".arch_extension sec\n\tsmc #0"
				     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) :: "memory");
	else
		__asm__ __volatile__(".arch_extension virt\n\thvc #0"
				     : "+r"(r0), "+r"(r1), "+r"(r2), "+r"(r3) :: "memory");
	return (int32_t)r0;
}

static const char *psci_error(int32_t ret)
{
	switch (ret) {
	case PSCI_RET_NOT_SUPPORTED:	return "NOT_SUPPORTED";
	case PSCI_RET_INVALID_PARAMS:	return "INVALID_PARAMETERS";
	case PSCI_RET_DENIED:		return "DENIED";
	case PSCI_RET_ALREADY_ON:	return "ALREADY_ON";
	case PSCI_RET_ON_PENDING:	return "ON_PENDING";
	case PSCI_RET_INTERNAL_FAILURE:	return "INTERNAL_FAILURE";
	case PSCI_RET_NOT_PRESENT:	return "NOT_PRESENT";
	case PSCI_RET_DISABLED:		return "DISABLED";
	case PSCI_RET_INVALID_ADDRESS:	return "INVALID_ADDRESS";
	default:			return "unknown error";
	}
}

/* v6.10's psci_to_linux_errno() */
static int psci_errno(int32_t ret)
{
	switch (ret) {
	case PSCI_RET_NOT_SUPPORTED:	return -EOPNOTSUPP;
	case PSCI_RET_DENIED:		return -EPERM;
	default:			return -EINVAL;
	}
}

static void psci_probe(void)
{
	const struct dt *dt = boot_dt();
	int node = dt_find_compatible(dt, -1, "arm,psci-0.2");
	bool v01 = false;

	psci.probed = true;
	if (node < 0)
		node = dt_find_compatible(dt, -1, "arm,psci-1.0");
	if (node < 0) {
		node = dt_find_compatible(dt, -1, "arm,psci");
		v01 = true;
	}
	if (node < 0) {
		pr_err("psci: no psci node in the device tree: secondary CPUs cannot be started\n");
		return;
	}
	const char *method = dt_getprop_str(dt, node, "method");
	if (!method || (strcmp(method, "hvc") && strcmp(method, "smc"))) {
		pr_err("psci: method '%s' is neither hvc nor smc: secondary CPUs cannot be started\n",
		       method ? method : "(none)");
		return;
	}
	psci.smc = !strcmp(method, "smc");
	psci.cpu_on = v01 ? dt_getprop_u32(dt, node, "cpu_on", 0) : PSCI_0_2_FN_CPU_ON;
	if (!psci.cpu_on)
		pr_err("psci: 0.1 node without cpu_on: secondary CPUs cannot be started\n");
	else
		pr_info("psci: %s, CPU_ON %#x through %s\n", v01 ? "PSCI 0.1" : "PSCI 0.2 or later",
			(unsigned)psci.cpu_on, method);
}

int arch_cpu_boot(unsigned int cpu, unsigned long hwid, struct task_struct *idle)
{
	struct arm_secondary_data *sd = &secondary_data[cpu];
	uintptr_t entry = (uintptr_t)(smp_lost_cpu && cpu == smp_lost_cpu ? arm_secondary_lost
									 : secondary_entry);
	int32_t ret;

	if (!psci.probed)
		psci_probe();
	if (!psci.cpu_on)
		return -ENODEV;
	*sd = (struct arm_secondary_data){
		.sctlr = arm_read_sctlr(),
		.exc_stack_top = (uint32_t)(uintptr_t)__exc_stack_top + cpu * EXC_STACK_SIZE,
		/* below a struct pt_regs, 8-byte aligned, as arch_context_init() leaves a thread */
		.stack_top = (uint32_t)(((uintptr_t)idle->stack + idle->stack_size -
					 sizeof(struct pt_regs)) & ~(uintptr_t)7),
		.idle = idle,
	};
	/* Read with the MMU off (uncached) by the new CPU. */
	dcache_clean_poc((unsigned long)sd, (unsigned long)(sd + 1));
	ret = psci_call(psci.cpu_on, (uint32_t)hwid, (uint32_t)__pa((void *)entry),
			(uint32_t)__pa(sd));
	if (ret) {
		pr_err("psci: CPU_ON of CPU%u (hwid 0x%lx) refused: %s (%d)\n", cpu, hwid,
		       psci_error(ret), (int)ret);
		return psci_errno(ret);
	}
	return 0;
}

/* entry.S, on the new CPU's exception stack: the final tables, as the boot CPU switched. */
void arm_secondary_paging(void);
void arm_secondary_paging(void)
{
	if (arm_lpae_on)
		paging_switch();
}

/* entry.S, on the idle task's stack, interrupts masked. */
__noreturn void arm_secondary_start(struct arm_secondary_data *sd);
void arm_secondary_start(struct arm_secondary_data *sd)
{
	set_current(sd->idle);
	secondary_start_kernel();
}

void arm_timer_secondary_init(void);		/* timer.c */

void arch_secondary_init(unsigned int cpu)
{
	(void)cpu;
	irq_secondary_init();
	arm_timer_secondary_init();
}

void arch_send_ipi_mask(const struct cpumask *mask, unsigned int ipi)
{
	WARN_ON_ONCE(irq_send_ipi(mask, ipi));	/* a root controller without IPIs */
}
