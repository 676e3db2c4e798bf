/*
 * timer.c - the RISC-V CPU timer as a one-shot clock event (include/tinymm/arch.h, "CPU timer").
 *
 * Two ways to program the supervisor timer interrupt (cause 5, STIP) for when `time` reaches a
 * deadline:
 *   - Sstc: S-mode writes its own compare register, stimecmp (CSR 0x14d; on RV32 the high half
 *     is stimecmph, 0x15d).  Used when the boot cpu's device-tree ISA names it ("_sstc" in
 *     riscv,isa, or "sstc" in riscv,isa-extensions); M-mode must have set menvcfg.STCE
 *     (OpenSBI does; on RV32 so does mstart.S) and mcounteren.TM.
 *   - SBI: the TIME extension's set_timer (EID 0x54494d45 "TIME", FID 0), or the legacy
 *     set_timer (EID 0) when the firmware lacks TIME.  Only with firmware: on the boards that
 *     start in M-mode themselves (mstart.S) there is nobody to answer an ecall.
 * tinymm.timer=sbi|sstc|auto (default auto: Sstc when the ISA has it) forces one of them, so the
 * SBI path is exercised on a CPU with Sstc too.
 * The interrupt handler first pushes the deadline to "never" (which is what clears STIP: it is
 * not writable from S-mode), then calls timer_interrupt(), which programs the next one.
 * Locking: the compare register is written with interrupts masked (arch.h's rule), one hart.
 */
#include <string.h>
#include "riscv.h"
#include "tinymm/arch.h"
#include "tinymm/cmdline.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/printk.h"
#include "tinymm/timer.h"

#define HAVE_SBI_FIRMWARE	RISCV_HAVE_SBI

#define SBI_EXT_BASE		0x10
#define SBI_BASE_GET_MVENDORID	4
#define SBI_BASE_GET_MARCHID	5
#define SBI_BASE_GET_MIMPID	6
#define SBI_EXT_TIME		0x54494d45
#define SBI_EXT_0_1_SET_TIMER	0x0

enum timer_mode { TIMER_AUTO, TIMER_SBI, TIMER_SSTC };
static enum timer_mode timer_param = TIMER_AUTO;
static bool use_sstc;
static bool sbi_legacy;

/* A setter of its own: the value is one of three words. */
static int set_timer_mode(const char *val)
{
	if (!strcmp(val, "auto"))
		timer_param = TIMER_AUTO;
	else if (!strcmp(val, "sbi"))
		timer_param = TIMER_SBI;
	else if (!strcmp(val, "sstc"))
		timer_param = TIMER_SSTC;
	else
		return -1;
	return 0;
}
KPARAM(timer, set_timer_mode, "RISC-V timer: auto (default: Sstc if the ISA has it), sbi or sstc");

#if HAVE_SBI_FIRMWARE
static void sbi_set_timer(uint64_t deadline)
{
#if __riscv_xlen == 64
	sbi_ecall(sbi_legacy ? SBI_EXT_0_1_SET_TIMER : SBI_EXT_TIME, 0, deadline, 0, 0);
#else
	sbi_ecall(sbi_legacy ? SBI_EXT_0_1_SET_TIMER : SBI_EXT_TIME, 0, (uint32_t)deadline,
		  (uint32_t)(deadline >> 32), 0);
#endif
}
#else
static void sbi_set_timer(uint64_t deadline)
{
	(void)deadline;		/* never chosen without firmware */
}
#endif

static void sstc_set(uint64_t deadline)
{
#if __riscv_xlen == 64
	__asm__ __volatile__("csrw 0x14d, %0" : : "r"(deadline) : "memory");
#else
	/* Low half to all-ones first: no intermediate value is earlier than both old and new. */
	__asm__ __volatile__("csrw 0x14d, %0" : : "r"(~0UL) : "memory");
	__asm__ __volatile__("csrw 0x15d, %0" : : "r"((unsigned long)(deadline >> 32)) : "memory");
	__asm__ __volatile__("csrw 0x14d, %0" : : "r"((unsigned long)deadline) : "memory");
#endif
}

void arch_timer_set_next(uint64_t counter)
{
	if (use_sstc)
		sstc_set(counter);
	else
		sbi_set_timer(counter);
}

static void timer_stop(void)
{
	arch_timer_set_next(~0ULL);
}

const char *arch_timer_name(void)
{
	return use_sstc ? "riscv-timer (sstc)" : "riscv-timer (sbi)";
}

static irqreturn_t riscv_timer_irq(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	timer_stop();
	timer_interrupt();
	return IRQ_HANDLED;
}

/* A secondary hart (smp.c): its own compare register to "never", then its STIE, as the boot
 * hart's request_irq() above did there.  The clock event's next deadline programs it. */
void riscv_timer_starting_cpu(void)
{
	timer_stop();
	__asm__ __volatile__("csrs sie, %0" : : "r"(1UL << IRQ_S_TIMER) : "memory");
}

bool riscv_sbi_machine_ids(unsigned long *mvendorid, unsigned long *marchid,
			   unsigned long *mimpid)
{
#if HAVE_SBI_FIRMWARE
	*mvendorid = (unsigned long)sbi_ecall(SBI_EXT_BASE, SBI_BASE_GET_MVENDORID, 0, 0, 0).value;
	*marchid = (unsigned long)sbi_ecall(SBI_EXT_BASE, SBI_BASE_GET_MARCHID, 0, 0, 0).value;
	*mimpid = (unsigned long)sbi_ecall(SBI_EXT_BASE, SBI_BASE_GET_MIMPID, 0, 0, 0).value;
	return true;
#else
	*mvendorid = *marchid = *mimpid = 0;
	return false;
#endif
}

int arch_timer_init(const struct dt *dt)
{
	int cpu = riscv_boot_cpu_node(dt);
	bool sstc = cpu >= 0 && riscv_isa_extension(dt, cpu, "sstc");

	if (timer_param == TIMER_SBI && !HAVE_SBI_FIRMWARE)
		pr_warn("riscv-timer: tinymm.timer=sbi ignored: no SBI firmware on this board "
			"(tinymm starts in M-mode itself), using Sstc\n");
	if (timer_param == TIMER_SSTC && !sstc)
		pr_warn("riscv-timer: tinymm.timer=sstc ignored: the device tree's ISA has no Sstc\n");
	use_sstc = sstc && (timer_param != TIMER_SBI || !HAVE_SBI_FIRMWARE);
	if (!use_sstc) {
#if HAVE_SBI_FIRMWARE
		sbi_legacy = !sbi_probe_extension(SBI_EXT_TIME);
		if (sbi_legacy)
			pr_info("riscv-timer: SBI has no TIME extension, using the legacy set_timer\n");
#else
		pr_err("riscv-timer: no Sstc in the device tree's ISA and no SBI firmware: no timer\n");
		return -1;
#endif
	}
	if (!riscv_intc_domain) {
		pr_err("riscv-timer: no local interrupt controller: no timer\n");
		return -1;
	}
	unsigned int virq = irq_find_mapping(riscv_intc_domain, IRQ_S_TIMER);
	timer_stop();		/* stimecmp's reset value may be in the past */
	if (request_irq(virq, riscv_timer_irq, 0, "riscv-timer", NULL)) {
		pr_err("riscv-timer: interrupt %u unavailable: no timer\n", virq);
		return -1;
	}
	pr_info("riscv-timer: %s, one-shot, irq %u\n",
		use_sstc ? "Sstc stimecmp" : sbi_legacy ? "SBI v0.1 set_timer" : "SBI TIME set_timer", virq);
	return 0;
}
