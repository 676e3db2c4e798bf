/*
 * smp.c - RISC-V's side of SMP (include/tinymm/arch.h's SMP section; docs/smp.md, "RISC-V"):
 * starting a hart, its per-hart set-up, and inter-processor interrupts.
 *
 * Starting (arch_cpu_boot): the hart gets a struct riscv_secondary_data (satp of the kernel's
 * tables, the idle task for tp, its stack top, its CPU number) and enters head_smp.S's
 * riscv_secondary_entry at its physical address with a1 = the data's physical address:
 *   - with SBI firmware (RV64 under OpenSBI): HSM hart_start(hartid, entry, data), as v6.10's
 *     cpu_ops_sbi.c; the firmware's refusal (already started, invalid hart) is one line;
 *   - without (RV32, -bios none): every hart started at reset in mstart.S and is parked in
 *     M-mode; its riscv_hart_release[] slot gets {entry, data} and its CLINT MSIP wakes it.
 * IPIs (arch_send_ipi_mask): a pending bit per message type per CPU (ipi_pending), set before
 * the hart's supervisor software interrupt (SSIP) is raised, v6.10's ipi_mux idea:
 *   - RV64: SBI IPI send_ipi (EID "sPI"), which sets the target's SSIP;
 *   - RV32: mstart.S's M-mode forwarder: S-mode writes the target's CLINT MSIP word, the
 *     target's M-mode turns it into SSIP (QEMU 7.2's other option, the ACLINT SSWI device, only
 *     exists with -M virt,aclint=on: not the machine the tests boot).
 * The receiving hart clears SSIP first, then takes its pending bits with one exchange: a
 * message sent after the exchange raises SSIP again, so none is lost; each runs handle_IPI().
 * Per hart (arch_secondary_init): the local controller's lines as the boot hart's, the PLIC
 * context, the timer, a FENCE.I.
 * OpenSBI 1.1's hart_start marks the hart STARTING before it stores the entry address, so the
 * hart can leave early for the boot address (entry.S's late_secondary brings it here; each slot
 * holds its hart id and entry for that).  tinymm.smp_start_at_boot=N (tests) sends logical CPU
 * N there on purpose.
 * tinymm.smp_lost_cpu=N (tests, as ARM's): logical CPU N is started at riscv_secondary_lost, a
 * loop that never answers, so the generic timeout and skip run on a hart the firmware started.
 * Locking: ipi_pending is written with atomic OR by senders and exchanged by its owner; the
 * secondary data is written before the start call and only read by its hart.
 */
#include <stddef.h>
#include "riscv.h"
#include "tinymm/arch.h"
#include "tinymm/barrier.h"
#include "tinymm/cmdline.h"
#include "tinymm/devicetree.h"
#include "tinymm/errno.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/memory.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/smp.h"
#include "tinymm/io.h"
#include "tinymm/cacheflush.h"

#define SBI_EXT_IPI		0x735049
#define SBI_EXT_HSM		0x48534d
#define RISCV_MAX_HARTS		8		/* mstart.S's riscv_hart_release[] slots */

extern char riscv_secondary_entry[], riscv_secondary_lost[];	/* head_smp.S */
extern pgd_t swapper_pg_dir[];

void riscv_asid_smp_init(void);			/* context.c */

struct riscv_secondary_data riscv_secondary_data[NR_CPUS];
/* head_smp.S and entry.S (late_secondary) read the slots by these word offsets. */
_Static_assert(offsetof(struct riscv_secondary_data, cpu) == 3 * sizeof(long), "SD_CPU");
_Static_assert(offsetof(struct riscv_secondary_data, hart_tag) == 4 * sizeof(long), "SD_HART_TAG");
_Static_assert(offsetof(struct riscv_secondary_data, entry) == 5 * sizeof(long), "SD_ENTRY");
_Static_assert(sizeof(struct riscv_secondary_data) == 6 * sizeof(long), "SD_WORDS");
static unsigned long ipi_pending[NR_CPUS];	/* bit n: enum ipi_msg_type n is waiting */
static bool ipi_ready;

static unsigned int smp_lost_cpu;
KPARAM_UINT(smp_lost_cpu, smp_lost_cpu, 0, NR_CPUS - 1,
	    "tests: start this logical CPU (1..) where it never answers (0: none)");

#if RISCV_HAVE_SBI
/* Firmware only: entry.S's late_secondary, which OpenSBI 1.1's hart_start race exercises. */
static unsigned int smp_start_at_boot;
KPARAM_UINT(smp_start_at_boot, smp_start_at_boot, 0, NR_CPUS - 1,
	    "tests: start this logical CPU (1..) at the boot entry _sstart, as OpenSBI 1.1 can");
extern char _sstart[];
#endif

#if !RISCV_HAVE_SBI
extern unsigned long riscv_hart_release[RISCV_MAX_HARTS][2];	/* mstart.S: {entry, argument} */
extern unsigned long riscv_clint_base;	/* mstart.S reads it: the CLINT's physical address */
extern unsigned long riscv_hart_rfence[RISCV_MAX_HARTS];	/* mstart.S: fences asked of M-mode */
static uintptr_t clint;			/* the same registers, mapped for S-mode */

/* The CLINT from the device tree: its MSIP words, one per hart, start at offset 0. */
static int clint_init(void)
{
	const struct dt *dt = boot_dt();
	int node = dt_find_compatible(dt, -1, "sifive,clint0");
	uint64_t base, size;

	if (node < 0)
		node = dt_find_compatible(dt, -1, "riscv,clint0");
	if (node < 0 || dt_address(dt, node, 0, &base, &size) || size < 4 * RISCV_MAX_HARTS) {
		pr_err("smp: no usable sifive,clint0 in the device tree: no IPIs, no secondary harts\n");
		return -ENODEV;
	}
	clint = (uintptr_t)ioremap((phys_addr_t)base, 4 * RISCV_MAX_HARTS);
	if (!clint) {
		pr_err("smp: cannot map the CLINT: no IPIs, no secondary harts\n");
		return -ENOMEM;
	}
	WRITE_ONCE(riscv_clint_base, (unsigned long)base);
	smp_mb();		/* before any MSIP makes a hart read it */
	return 0;
}

static void raise_ipi(unsigned long hartid)
{
	mb();			/* the pending bit (memory) before the MSIP store (I/O) */
	writel(1, clint + 4 * hartid);
}
#else
static void raise_ipi(unsigned long hartid)
{
	static bool reported;
	long err = sbi_send_ipi(1, hartid);

	if (err && !reported) {
		reported = true;
		pr_err("smp: SBI send_ipi to hart %lu refused: %s\n", hartid, sbi_err_name(err));
	}
}
#endif

/*
 * Below S-mode's interrupts: with SBI firmware its RFENCE calls (each waits for the harts it
 * names); without, each hart's riscv_hart_rfence word and an MSIP, which its M-mode answers
 * whatever S-mode masks (mstart.S), waiting for every word to read 0 again.
 */
void riscv_remote_fence(const struct cpumask *mask, unsigned int what)
{
	unsigned int cpu;

	if (!ipi_ready)
		return;
#if RISCV_HAVE_SBI
	for_each_cpu(cpu, mask) {
		long err = 0;
		if (what & RISCV_RFENCE_SFENCE_VMA)
			err = sbi_remote_sfence_vma(1, cpu_logical_map(cpu), 0, ~0UL);
		if (!err && (what & RISCV_RFENCE_FENCE_I))
			err = sbi_remote_fence_i(1, cpu_logical_map(cpu));
		if (err)
			pr_err("smp: SBI remote fence on hart %lu refused: %s\n", cpu_logical_map(cpu),
			       sbi_err_name(err));
	}
#else
	for_each_cpu(cpu, mask) {
		unsigned long hart = cpu_logical_map(cpu);
		__atomic_fetch_or(&riscv_hart_rfence[hart], what | RISCV_RFENCE_FENCE_I,
				  __ATOMIC_SEQ_CST);	/* the M-mode code fences i-side always */
		mb();
		writel(1, clint + 4 * hart);
	}
	for_each_cpu(cpu, mask)
		while (__atomic_load_n(&riscv_hart_rfence[cpu_logical_map(cpu)], __ATOMIC_ACQUIRE))
			cpu_relax();
#endif
}

static irqreturn_t ipi_handler(int irq, void *dev_id)
{
	unsigned long pending;

	(void)irq;
	(void)dev_id;
	__asm__ __volatile__("csrc sip, %0" : : "r"(1UL << IRQ_S_SOFT) : "memory");
	pending = __atomic_exchange_n(&ipi_pending[smp_processor_id()], 0, __ATOMIC_ACQUIRE);
	for (unsigned int ipi = 0; pending; ipi++, pending >>= 1)
		if (pending & 1)
			handle_IPI(ipi);
	return IRQ_HANDLED;
}

/* Once, on the boot hart, before the first start: the IPI's line and how to raise it. */
static int ipi_init(void)
{
	unsigned int virq;

	if (ipi_ready)
		return 0;
#if RISCV_HAVE_SBI
	if (!sbi_probe_extension(SBI_EXT_HSM) || !sbi_probe_extension(SBI_EXT_IPI)) {
		pr_err("smp: the SBI firmware lacks HSM or IPI: no secondary harts\n");
		return -ENODEV;
	}
#else
	int err = clint_init();
	if (err)
		return err;
#endif
	virq = riscv_intc_domain ? irq_find_mapping(riscv_intc_domain, IRQ_S_SOFT) : 0;
	if (!virq || request_irq(virq, ipi_handler, 0, "IPI", NULL)) {
		pr_err("smp: the supervisor software interrupt is unavailable: no IPIs\n");
		return -ENODEV;
	}
	ipi_ready = true;
	return 0;
}

void arch_send_ipi_mask(const struct cpumask *mask, unsigned int ipi)
{
	unsigned int cpu;

	if (ipi >= NR_IPI || !ipi_ready)
		return;
	for_each_cpu(cpu, mask) {
		__atomic_fetch_or(&ipi_pending[cpu], 1UL << ipi, __ATOMIC_RELEASE);
		raise_ipi(cpu_logical_map(cpu));
	}
}

int arch_cpu_boot(unsigned int cpu, unsigned long hwid, struct task_struct *idle)
{
	struct riscv_secondary_data *d = &riscv_secondary_data[cpu];
	unsigned long entry;
	int err = ipi_init();

	if (err)
		return err;
	riscv_asid_smp_init();
	entry = (unsigned long)__pa(smp_lost_cpu && cpu == smp_lost_cpu ? riscv_secondary_lost :
				    riscv_secondary_entry);
	d->satp = riscv_satp_for(swapper_pg_dir);
	d->task = (unsigned long)idle;
	d->stack_top = (unsigned long)idle->stack + idle->stack_size;
	d->cpu = cpu;
	d->entry = entry;
#if RISCV_HAVE_SBI
	if (smp_start_at_boot && cpu == smp_start_at_boot)
		entry = (unsigned long)__pa(_sstart);	/* d->entry: where it should have gone */
#endif
	d->hart_tag = hwid + 1;
	smp_mb();		/* the data before the hart can run */
#if RISCV_HAVE_SBI
	long e = sbi_hart_start(hwid, entry, (unsigned long)__pa(d));
	if (e) {
		pr_err("smp: SBI HSM hart_start(hart %lu) failed: %s (%ld)\n", hwid, sbi_err_name(e), e);
		return -EIO;
	}
#else
	if (hwid >= RISCV_MAX_HARTS) {
		pr_err("smp: hart %lu: tinymm's M-mode start parks harts 0-%d only\n", hwid,
		       RISCV_MAX_HARTS - 1);
		return -EINVAL;
	}
	WRITE_ONCE(riscv_hart_release[hwid][1], (unsigned long)__pa(d));
	__atomic_store_n(&riscv_hart_release[hwid][0], entry, __ATOMIC_RELEASE);
	raise_ipi(hwid);
#endif
	return 0;
}

/* head_smp.S, paging on, on the idle task's stack, interrupts masked. */
__noreturn void riscv_secondary_start(unsigned long cpu);
__noreturn void riscv_secondary_start(unsigned long cpu)
{
	(void)cpu;
	/* The trap entry's overflow check for the idle stack (fork_idle leaves it 0: unchecked). */
	if (!current_thread_info()->stack_lo)
		current_thread_info()->stack_lo = (unsigned long)current->stack;
	secondary_start_kernel();
}

void arch_secondary_init(unsigned int cpu)
{
	riscv_intc_starting_cpu();
	if (!plic_starting_cpu(cpu_logical_map(cpu)))
		pr_info("smp: hart %lu has no PLIC supervisor context: no device interrupts there\n",
			cpu_logical_map(cpu));
	riscv_timer_starting_cpu();
	local_flush_icache_all();	/* whatever the boot hart wrote before this one fetched */
	local_flush_tlb_all();
}
