/*
 * asid_ktest.c - KTAP suites for RISC-V's ASID allocator across harts (arch/riscv/context.c;
 * docs/arch-user-riscv.md, "ASIDs"; docs/smp-riscv.md).  With tinymm.asid_bits=3 (7 user
 * ASIDs) every few address spaces roll the generation over; the cases then also require
 * rollovers to have happened.  With one CPU online the "other" hart is this one.
 *
 *   asid_rollover     address_spaces_apart_across_rollovers: on every online hart a driver
 *                     starts, round after round, two user tasks pinned there, each in a fresh
 *                     mm whose data page at the same address holds a value of its own (written
 *                     by the kernel through the frame's direct mapping, not through the user
 *                     address); they yield to each other, so a hart switches from one user mm
 *                     straight to another, and each rereads its word after every yield and
 *                     exits with it.  A stale translation (another mm's frame under a reused
 *                     ASID) exits with the wrong value.  The mms stay alive to the end, so a
 *                     stale translation could only ever reach a live frame.
 *                     reserved_asid_flushed_on_other_hart: a user loop storing to its data page
 *                     runs on the other hart while this one rolls the generation over again and
 *                     again (the loop's hart keeps its context, reserved, of an old generation;
 *                     with many ASIDs, 64 new mms a time: a rollover only with few)
 *                     and then makes the page's pte old with ptep_clear_flush_young(): the
 *                     loop's next store must make it young again, which it does only if that
 *                     hart's TLB entry went (QEMU sets A on a walk only).  A flush that skipped
 *                     an mm of an older generation as "holding no ASID" would leave it there.
 *   asid_rollover_noshootdown  (explicit only: exists to fail) the second case with the remote
 *                     flushes off (tinymm.tlb_shootdown's variable): the pte stays old, the case
 *                     fails.
 */
#include <string.h>
#include "asm/ptrace.h"
#include "insn.h"
#include "tinymm/arch.h"
#include "tinymm/cacheflush.h"
#include "tinymm/delay.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/smp.h"
#include "tinymm/uaccess.h"
#include "tinymm/uapi/unistd.h"
#include "tinymm/user_task.h"

#define UBASE		0x10000UL
#define UPAGES		2
#define UDATA		(UBASE + PAGE_SIZE)	/* the data page: the same address in every mm */
#define R_S0		8
#define BNE_FWD(rs1, rs2, off)	B_TYPE((int32_t)(off), rs1, rs2, 1)
#define YIELDS		8
#define BAD_READ	0xee		/* exit code: a reread saw another value than the first */
#define SETUP_FAILED	0x7e00		/* a status no program ends with */
#define ROUNDS		12
#define MAX_DRIVERS	4
#define MAX_MMS		(MAX_DRIVERS * ROUNDS * 2)

extern unsigned long riscv_asid_bits, riscv_asid_rollovers;
extern bool riscv_tlb_shootdown;
bool riscv_asids_in_use(void);

/* Reads its word, then YIELDS times: yield, reread, compare; exits with the word. */
static const uint32_t apart_code[] = {
	LUI(R_T0, UDATA >> 12), LW(R_S0, R_T0, 0), ADDI(R_T1, R_ZERO, YIELDS),
	/* loop (3): */
	ADDI(R_A7, R_ZERO, __NR_sched_yield), ECALL, LW(R_A0, R_T0, 0),
	BNE_FWD(R_A0, R_S0, 6 * 4),
	ADDI(R_T1, R_T1, -1), BNE_BACK(R_T1, R_ZERO, 5 * 4),
	ADDI(R_A0, R_S0, 0), ADDI(R_A7, R_ZERO, __NR_exit_group), ECALL,
	/* bad (12): */
	ADDI(R_A0, R_ZERO, BAD_READ), ADDI(R_A7, R_ZERO, __NR_exit_group), ECALL,
};

/* Counts in the data page's third word until its first word is non-zero; exits with it. */
static const uint32_t loop_code[] = {
	LUI(R_T0, UDATA >> 12),
	/* loop: */
	ADDI(R_T2, R_T2, 1), SW(R_T2, R_T0, 8), LW(R_A0, R_T0, 0), BEQ_BACK(R_A0, R_ZERO, 12),
	ADDI(R_A7, R_ZERO, __NR_exit_group), ECALL,
};

struct utask {
	const uint32_t *code;
	unsigned int ninsn;
	unsigned int value;		/* the data word, written through the frame */
	struct mm_struct *mm;		/* with a reference for the test, once set up */
	struct task_struct *task;
};

static void enter_mm(struct mm_struct *mm)
{
	kthread_use_mm(mm);
}

/* ...and back on the kernel's tables, dropping @mm. */
static void leave_mm(struct mm_struct *mm)
{
	kthread_unuse_mm(mm);
	mmput(mm);
}

/* @v into the frame @mm maps at @addr, through the kernel's mapping of it; false if unmapped. */
static bool write_frame(struct mm_struct *mm, unsigned long addr, unsigned int v)
{
	pte_t *ptep;
	bool ok = false;

	spin_lock(&mm->page_table_lock);
	ptep = user_pte_lookup(mm, addr);
	if (ptep && pte_present(ptep_get(ptep))) {
		*(uint32_t *)((char *)page_address(pfn_to_page(pte_pfn(ptep_get(ptep)))) +
			      (addr & ~PAGE_MASK)) = v;
		ok = true;
	}
	spin_unlock(&mm->page_table_lock);
	return ok;
}

static int user_thread(void *arg)
{
	struct utask *u = arg;
	struct mm_struct *mm = mm_alloc();
	uint32_t zero = 0;
	long r;

	if (!mm)
		return SETUP_FAILED;
	enter_mm(mm);
	mutex_lock(&mm->mmap_lock);
	r = mmap_region(mm, UBASE, UPAGES * PAGE_SIZE, VM_READ | VM_WRITE | VM_EXEC, NULL, 0);
	mutex_unlock(&mm->mmap_lock);
	/* The data page faulted in through its user address, then written through its frame: a
	 * store that went through a stale translation leaves this mm's pte empty. */
	if (r != (long)UBASE ||
	    copy_to_user((void __user *)UBASE, u->code, u->ninsn * sizeof(uint32_t)) ||
	    copy_to_user((void __user *)UDATA, &zero, sizeof(zero)) ||
	    !write_frame(mm, UDATA, u->value))
		do_exit(SETUP_FAILED);
	flush_icache_range(UBASE, UBASE + u->ninsn * sizeof(uint32_t));
	mmget(mm);
	WRITE_ONCE(u->mm, mm);
	start_thread(current_pt_regs(), UBASE, UBASE + UPAGES * PAGE_SIZE);
	arch_ret_to_user();
}

static struct task_struct *start_on(struct utask *u, unsigned int cpu, const char *name)
{
	struct cpumask m = { 1UL << cpu };
	struct task_struct *p = kthread_create(user_thread, u, "%s", name);

	if (p) {
		set_cpus_allowed_ptr(p, &m);
		wake_up_process(p);
	}
	return p;
}

struct driver {
	unsigned int cpu;
	struct utask u[ROUNDS][2];
	int bad, setup_failed;
	unsigned int bad_want, bad_got;
};

static atomic_t next_value;

/* On its hart: ROUNDS rounds of two user tasks yielding to each other. */
static int driver_fn(void *arg)
{
	struct driver *d = arg;

	for (int r = 0; r < ROUNDS; r++) {
		for (int k = 0; k < 2; k++) {
			struct utask *u = &d->u[r][k];

			u->code = apart_code;
			u->ninsn = ARRAY_SIZE(apart_code);
			/* 1..0xec, distinct among the case's tasks, never BAD_READ */
			u->value = 1 + (unsigned int)atomic_inc_return(&next_value) % 0xec;
			u->task = start_on(u, d->cpu, k ? "asid-b" : "asid-a");
		}
		for (int k = 0; k < 2; k++) {
			struct utask *u = &d->u[r][k];
			int status;

			if (!u->task) {
				d->setup_failed++;
				continue;
			}
			status = kthread_join(u->task);
			if (status == SETUP_FAILED) {
				d->setup_failed++;
			} else if (status != (int)W_EXITCODE(u->value, 0) && !d->bad++) {
				d->bad_want = u->value;
				d->bad_got = (unsigned int)status;
			}
		}
	}
	return 0;
}

static void address_spaces_apart_across_rollovers(struct ktest *t)
{
	static struct driver drivers[MAX_DRIVERS];
	struct task_struct *dt[MAX_DRIVERS] = { 0 };
	unsigned long rollovers = riscv_asid_rollovers;
	unsigned int cpu, n = 0;

	memset(drivers, 0, sizeof(drivers));
	for_each_online_cpu(cpu) {
		struct cpumask m = { 1UL << cpu };

		if (n == MAX_DRIVERS)
			break;
		drivers[n].cpu = cpu;
		dt[n] = kthread_create(driver_fn, &drivers[n], "asid-drv/%u", cpu);
		KTEST_ASSERT_TRUE(t, dt[n] != NULL);
		set_cpus_allowed_ptr(dt[n], &m);
		wake_up_process(dt[n]);
		n++;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct driver *d = &drivers[i];

		KTEST_EXPECT_EQ(t, kthread_join(dt[i]), 0);
		KTEST_EXPECT_EQ(t, d->setup_failed, 0);
		KTEST_EXPECT_EQ(t, d->bad, 0);
		if (d->bad)
			kprintf("    # asid_rollover: CPU%u: a task of value %#x ended with status %#x\n",
				d->cpu, d->bad_want, d->bad_got);
		for (int r = 0; r < ROUNDS; r++)
			for (int k = 0; k < 2; k++)
				if (d->u[r][k].mm)
					mmput(d->u[r][k].mm);
	}
	kprintf("    # asid_rollover: %u harts, %u address spaces, %lu rollovers (%lu-bit ASIDs%s)\n",
		n, n * ROUNDS * 2, riscv_asid_rollovers - rollovers, riscv_asid_bits,
		riscv_asids_in_use() ? "" : ", off");
	if (riscv_asids_in_use() && riscv_asid_bits <= 4)
		KTEST_EXPECT_GT(t, riscv_asid_rollovers - rollovers, 2UL);
}

/* New mms switched to and dropped here until the generation has moved on (at most one more
 * than there are ASIDs, and 64; 2 without ASIDs: nothing rolls over then). */
static void roll_over_here(void)
{
	unsigned long before = riscv_asid_rollovers, n = 2;

	if (riscv_asids_in_use())
		n = riscv_asid_bits < 6 ? (1UL << riscv_asid_bits) + 1 : 64;
	for (unsigned long i = 0; i < n && riscv_asid_rollovers == before; i++) {
		struct mm_struct *m = mm_alloc();

		if (!m)
			return;
		enter_mm(m);
		leave_mm(m);
	}
}

static int pte_young_at(struct mm_struct *mm, unsigned long addr)
{
	return ktest_clear_flush_young(mm, addr, true);
}

static void reserved_asid_flushed_on_other_hart(struct ktest *t)
{
	struct utask u = { .code = loop_code, .ninsn = ARRAY_SIZE(loop_code) };
	unsigned long was = current->cpus_mask, rollovers = riscv_asid_rollovers;
	unsigned int here, there;
	struct cpumask m;
	int status, young = 0;

	preempt_disable();
	here = there = (unsigned int)smp_processor_id();
	for_each_online_cpu(there)
		if (there != here)
			break;
	if (there >= NR_CPUS || !cpu_online(there))
		there = here;
	preempt_enable();
	m.bits = 1UL << here;
	set_cpus_allowed_ptr(current, &m);
	u.task = start_on(&u, there, "asid-loop");
	KTEST_ASSERT_TRUE(t, u.task != NULL);
	/* Until the loop runs and has stored (up to 2 s). */
	for (int i = 0; i < 200 && !(READ_ONCE(u.mm) && pte_young_at(u.mm, UDATA) == 1); i++)
		msleep(10);
	KTEST_EXPECT_TRUE(t, READ_ONCE(u.mm) != NULL);
	for (int round = 0; u.mm && round < 3; round++) {
		roll_over_here();
		roll_over_here();
		/* 2: young again at once, the loop's hart already walked again (SMP). */
		KTEST_EXPECT_GE(t, ktest_clear_flush_young(u.mm, UDATA, false), 1);
		young = 0;
		for (int i = 0; i < 100 && young != 1; i++) {	/* up to 1 s */
			msleep(10);
			young = pte_young_at(u.mm, UDATA);
		}
		KTEST_EXPECT_EQ(t, young, 1);	/* 0: the loop's hart kept its old entry */
	}
	if (u.mm) {
		/* Stop it: through its mm here (the old number again: it runs there, reserved). */
		enter_mm(u.mm);
		mmget(u.mm);				/* leave_mm drops this one */
		KTEST_EXPECT_EQ(t, put_user(0x5c, (uint32_t __user *)UDATA), 0);
		leave_mm(u.mm);
	}
	status = kthread_join(u.task);
	m.bits = was;
	set_cpus_allowed_ptr(current, &m);
	if (u.mm)
		mmput(u.mm);
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0x5c, 0));
	if (riscv_asids_in_use() && riscv_asid_bits <= 4)
		KTEST_EXPECT_GT(t, riscv_asid_rollovers - rollovers, 5UL);
}

static const struct ktest_case asid_rollover_cases[] = {
	KTEST_CASE(address_spaces_apart_across_rollovers),
	KTEST_CASE(reserved_asid_flushed_on_other_hart),
	{}
};
KTEST_SUITE_SMP(asid_rollover, asid_rollover_cases);

/* The remote flushes off: the loop's hart keeps the old entry, the case fails.  Only when
 * named (tinymm.test=asid_rollover_noshootdown). */
static void reserved_asid_stale_without_shootdown(struct ktest *t)
{
	bool was = riscv_tlb_shootdown;

	riscv_tlb_shootdown = false;
	reserved_asid_flushed_on_other_hart(t);
	riscv_tlb_shootdown = was;
}

static const struct ktest_case asid_rollover_noshootdown_cases[] = {
	KTEST_CASE(reserved_asid_stale_without_shootdown),
	{}
};
KTEST_SUITE_EXPLICIT(asid_rollover_noshootdown, asid_rollover_noshootdown_cases);
