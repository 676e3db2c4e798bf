/*
 * usermode_ktest.c - KTAP suite `usermode` (RISC-V; docs/arch-user-riscv.md): real U-mode code.
 * Each case runs in a kthread of its own that becomes a user task by hand (the exec loader
 * does the same for a file): mm_alloc(), current->mm and switch_mm, an anonymous RWX area at
 * 0x10000, a few hand-assembled instructions copied in with copy_to_user (uaccess.S, and the
 * first store demand-pages the area through the extable path), start_thread() and
 * arch_ret_to_user().  The task's end is its wait status (kthread_join): W_EXITCODE for
 * exit_group, the signal number for a kill.  Around every case AnonPages and PageTables must
 * come back to where they were.
 */
#include <string.h>
#include "asm/ptrace.h"
#include "insn.h"
#include "tinymm/cacheflush.h"
#include "tinymm/arch.h"
#include "tinymm/delay.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/uaccess.h"
#include "tinymm/uapi/unistd.h"
#include "tinymm/user_task.h"
#include "tinymm/vmstat.h"

#define UBASE		0x10000UL
#define UPAGES		2
#define UDATA		(UBASE + 0x400)	/* within a 12-bit positive offset */		/* data words the programs read, in the area */
#define WILD		0x40000000UL		/* user space, no area there */
#define SETUP_FAILED	0x7e00			/* a status no program ends with */

struct ucase {
	const uint32_t *code;
	unsigned int ninsn;
	unsigned long data[2];		/* at UDATA */
	struct mm_struct *mm;		/* with a reference for the test, once set up */
	struct task_struct *task;
};

struct counts {
	unsigned long anon, tables;
};

static struct counts counts_now(void)
{
	return (struct counts){ global_node_page_state(NR_ANON_MAPPED),
				global_node_page_state(NR_PAGETABLE) };
}

/* current becomes a user task of @mm (the exec loader's job; here by hand). */
static void enter_mm(struct mm_struct *mm)
{
	kthread_use_mm(mm);
}

/* ...and back to a kernel thread on the kernel's tables (do_exit's order), dropping @mm. */
static void leave_mm(struct mm_struct *mm)
{
	kthread_unuse_mm(mm);
	mmput(mm);
}

static int map_area(struct mm_struct *mm)
{
	long r;

	mutex_lock(&mm->mmap_lock);
	r = mmap_region(mm, UBASE, UPAGES * PAGE_SIZE, VM_READ | VM_WRITE | VM_EXEC, NULL, 0);
	mutex_unlock(&mm->mmap_lock);
	return r == (long)UBASE ? 0 : -1;
}

static int user_thread(void *arg)
{
	struct ucase *c = arg;
	struct mm_struct *mm = mm_alloc();

	if (!mm)
		return SETUP_FAILED;
	enter_mm(mm);
	if (map_area(mm) ||
	    copy_to_user((void __user *)UBASE, c->code, c->ninsn * sizeof(uint32_t)) ||
	    copy_to_user((void __user *)UDATA, c->data, sizeof(c->data)))
		do_exit(SETUP_FAILED);
	/* The code was written as data: fetchable only after FENCE.I (start_thread has none). */
	flush_icache_range(UBASE, UBASE + c->ninsn * sizeof(uint32_t));
	mmget(mm);
	c->mm = mm;
	start_thread(current_pt_regs(), UBASE, UBASE + UPAGES * PAGE_SIZE);
	arch_ret_to_user();
}

/* Run @code as a user task; its wait status.  @c may carry data; c->mm is dropped here. */
static int run_user(struct ktest *t, struct ucase *c, const char *name)
{
	struct counts before = counts_now(), after;
	int status;

	c->task = kthread_run(user_thread, c, name);
	if (!c->task)
		return -1;
	status = kthread_join(c->task);
	if (c->mm)
		mmput(c->mm);
	c->mm = NULL;
	after = counts_now();
	KTEST_EXPECT_EQ(t, after.anon, before.anon);		/* (g): nothing leaked */
	KTEST_EXPECT_EQ(t, after.tables, before.tables);
	return status;
}

/* (a) getpid through ecall, then exit_group(pid & 0xff). */
static void ecall_getpid_then_exit(struct ktest *t)
{
	const uint32_t code[] = {
		ADDI(R_A7, R_ZERO, __NR_getpid), ECALL,
		ANDI(R_A0, R_A0, 0xff), ADDI(R_A7, R_ZERO, __NR_exit_group), ECALL,
	};
	struct ucase c = { .code = code, .ninsn = ARRAY_SIZE(code), .data = { 0 } };
	struct counts before = counts_now();
	int status, pid;

	c.task = kthread_run(user_thread, &c, "usr-getpid");
	KTEST_ASSERT_TRUE(t, c.task != NULL);
	pid = c.task->pid;
	status = kthread_join(c.task);
	if (c.mm)
		mmput(c.mm);
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(pid & 0xff, 0));
	KTEST_EXPECT_TRUE(t, WIFEXITED(status));
	KTEST_EXPECT_EQ(t, counts_now().anon, before.anon);
	KTEST_EXPECT_EQ(t, counts_now().tables, before.tables);
}

/* (b) a store where no area is: SIGSEGV (the console gets the unhandled-signal line). */
static void store_outside_any_area_is_sigsegv(struct ktest *t)
{
	const uint32_t code[] = { LUI(R_T0, WILD >> 12), SW(R_ZERO, R_T0, 0), ECALL };
	struct ucase c = { .code = code, .ninsn = ARRAY_SIZE(code), .data = { 0 } };

	KTEST_EXPECT_EQ(t, run_user(t, &c, "usr-segv"), SIGSEGV);
}

/* (c) an illegal instruction: SIGILL. */
static void illegal_instruction_is_sigill(struct ktest *t)
{
	const uint32_t code[] = { ADDI(R_T0, R_ZERO, 1), ILLEGAL, ECALL };
	struct ucase c = { .code = code, .ninsn = ARRAY_SIZE(code), .data = { 0 } };

	KTEST_EXPECT_EQ(t, run_user(t, &c, "usr-ill"), SIGILL);
}

/* (d) a load from the kernel's direct map (PAGE_OFFSET, loaded from UDATA): SIGSEGV. */
static void load_from_kernel_address_is_sigsegv(struct ktest *t)
{
	const uint32_t code[] = {
		LUI(R_T0, UDATA >> 12), REG_LOAD(R_T1, R_T0, UDATA & 0xfff), LW(R_T2, R_T1, 0),
		ADDI(R_A0, R_ZERO, 0), ADDI(R_A7, R_ZERO, __NR_exit_group), ECALL,
	};
	struct ucase c = { .code = code, .ninsn = ARRAY_SIZE(code), .data = { PAGE_OFFSET } };

	KTEST_EXPECT_EQ(t, run_user(t, &c, "usr-kaddr"), SIGSEGV);
}

/* A breakpoint in U-mode: SIGTRAP (v6.10's do_trap_break). */
static void ebreak_is_sigtrap(struct ktest *t)
{
	const uint32_t code[] = { 0x00100073u /* ebreak */, ECALL };
	struct ucase c = { .code = code, .ninsn = ARRAY_SIZE(code), .data = { 0 } };

	KTEST_EXPECT_EQ(t, run_user(t, &c, "usr-trap"), SIGTRAP);
}

/*
 * (e) uaccess from the kernel side, in this thread with a user mm of its own: a copy from a
 * hole returns all of it (the fault resumes at the fixup), one that runs off the end of the
 * area returns exactly the rest and zero-fills it, a kernel pointer is refused, get_user on a
 * hole is -EFAULT, and copy_to_user demand-pages an untouched page.  SUM is clear outside the
 * copies: a plain kernel load from a mapped user page traps.
 */
static void uaccess_faults_are_fixed_up(struct ktest *t)
{
	struct counts before = counts_now();
	struct mm_struct *mm = mm_alloc();
	unsigned char buf[32];
	uint32_t word = 0x12345678, got = 0;
	int v = 1;

	KTEST_ASSERT_TRUE(t, mm != NULL);
	enter_mm(mm);
	KTEST_EXPECT_EQ(t, map_area(mm), 0);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), before.anon);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(UBASE + PAGE_SIZE), &word, 4), 0UL);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), before.anon + 1);
	KTEST_EXPECT_EQ(t, get_user(got, (uint32_t __user *)(UBASE + PAGE_SIZE)), 0);
	KTEST_EXPECT_EQ(t, got, word);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (const void __user *)WILD, sizeof(buf)), sizeof(buf));
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(WILD + 3), buf, 5), 5UL);
	memset(buf, 0xaa, sizeof(buf));
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (const void __user *)(UBASE + UPAGES * PAGE_SIZE - 16),
					  sizeof(buf)), 16UL);
	KTEST_EXPECT_EQ(t, buf[15], 0);		/* read: the fresh page is zero */
	KTEST_EXPECT_EQ(t, buf[16], 0);		/* not read: zero-filled, not 0xaa */
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (const void __user *)PAGE_OFFSET, 8), 8UL);
	KTEST_EXPECT_EQ(t, raw_copy_from_user(buf, (const void __user *)(WILD + 1), 7), 7UL);
	KTEST_EXPECT_EQ(t, get_user(v, (int __user *)WILD), -EFAULT);
	KTEST_EXPECT_EQ(t, v, 0);
	KTEST_EXPECT_EQ(t, put_user(1, (int __user *)WILD), -EFAULT);
	KTEST_EXPECT_BUG(t, (void)*(volatile uint32_t *)(UBASE + PAGE_SIZE));
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "load page fault") != NULL);
	leave_mm(mm);
	KTEST_EXPECT_EQ(t, counts_now().anon, before.anon);
	KTEST_EXPECT_EQ(t, counts_now().tables, before.tables);
}

/*
 * Cases (f) and (g) need the user loop time-sliced with this thread on one hart: on SMP it would
 * run beside it on another.  Pin this thread where it is and start the loop's thread there
 * (unpin_self() gives this thread back the CPUs it had: the runner's pin, kernel/ktest.c).
 */
static unsigned long pinned_from;

static struct task_struct *run_pinned_here(struct ucase *c, const char *name)
{
	struct cpumask here = { 1UL << raw_smp_processor_id() };
	struct task_struct *p;

	pinned_from = current->cpus_mask;
	set_cpus_allowed_ptr(current, &here);
	p = kthread_create(user_thread, c, "%s", name);
	if (p) {
		set_cpus_allowed_ptr(p, &here);
		wake_up_process(p);
	}
	return p;
}

static void unpin_self(void)
{
	struct cpumask was = { pinned_from };

	set_cpus_allowed_ptr(current, &was);
}

/*
 * (f) a user loop that never enters the kernel by itself: it counts in UDATA+8 (data[1]) and
 * exits with the word at UDATA (data[0]) once that is non-zero.  This thread, at the same
 * priority, sleeps meanwhile: it can only get the CPU back by the timer preempting the task in
 * U-mode.  It then sees the count moving, writes the word through the task's mm and the task
 * exits with it.
 */
static void timer_preempts_a_user_loop(struct ktest *t)
{
	const uint32_t code[] = {
		LUI(R_T0, UDATA >> 12),
		/* loop: */
		ADDI(R_T2, R_T2, 1), SW(R_T2, R_T0, (UDATA & 0xfff) + sizeof(long)),
		LW(R_A0, R_T0, UDATA & 0xfff), BEQ_BACK(R_A0, R_ZERO, 12),
		ADDI(R_A7, R_ZERO, __NR_exit_group), ECALL,
	};
	struct ucase c = { .code = code, .ninsn = ARRAY_SIZE(code), .data = { 0 } };
	struct counts before = counts_now();
	uint32_t n1 = 0, n2 = 0;
	unsigned long nivcsw;
	int status;

	c.task = run_pinned_here(&c, "usr-spin");
	if (!c.task)
		unpin_self();
	KTEST_ASSERT_TRUE(t, c.task != NULL);
	msleep(30);
	KTEST_ASSERT_TRUE(t, c.mm != NULL);		/* it got to U-mode */
	enter_mm(c.mm);
	mmget(c.mm);					/* leave_mm drops this one */
	KTEST_EXPECT_EQ(t, get_user(n1, (uint32_t __user *)(UDATA + sizeof(long))), 0);
	msleep(30);
	KTEST_EXPECT_EQ(t, get_user(n2, (uint32_t __user *)(UDATA + sizeof(long))), 0);
	KTEST_EXPECT_GT(t, n1, 0u);
	KTEST_EXPECT_GT(t, n2, n1);			/* it ran between our two sleeps */
	nivcsw = c.task->nivcsw;
	KTEST_EXPECT_GT(t, nivcsw, 0UL);		/* preempted, never yielded */
	KTEST_EXPECT_EQ(t, put_user(0x5a, (uint32_t __user *)UDATA), 0);
	leave_mm(c.mm);
	status = kthread_join(c.task);
	unpin_self();
	mmput(c.mm);
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0x5a, 0));
	KTEST_EXPECT_EQ(t, counts_now().anon, before.anon);
	KTEST_EXPECT_EQ(t, counts_now().tables, before.tables);
}

/*
 * (g) docs/young.md: a user loop storing to the area's second page (demand-paged by its first
 * store) and exiting with its first word once that is non-zero.  That page's pte and the code
 * page's are made old twice while the loop runs; each time the loop's next store and fetch make
 * them young again, set by the hart in the pte (QEMU 7.2) or, on a core that traps on A = 0, by
 * the page fault's handle_mm_fault(); the diagnostic line says which, for the board's CTest.
 */
static void user_access_makes_old_pte_young(struct ktest *t)
{
	const unsigned long page2 = UBASE + PAGE_SIZE;
	const uint32_t code[] = {
		LUI(R_T0, page2 >> 12),
		/* loop: */
		ADDI(R_T2, R_T2, 1), SW(R_T2, R_T0, 8),
		LW(R_A0, R_T0, 0), BEQ_BACK(R_A0, R_ZERO, 12),
		ADDI(R_A7, R_ZERO, __NR_exit_group), ECALL,
	};
	struct ucase c = { .code = code, .ninsn = ARRAY_SIZE(code), .data = { 0 } };
	struct counts before = counts_now();
	unsigned long faulted = 0;
	int status;

	c.task = run_pinned_here(&c, "usr-young");
	if (!c.task)
		unpin_self();
	KTEST_ASSERT_TRUE(t, c.task != NULL);
	/* Until the loop's first store has mapped page2 (up to 2 s, as below). */
	for (int i = 0; i < 200; i++) {
		if (READ_ONCE(c.mm) && ktest_clear_flush_young(c.mm, page2, true) == 1)
			break;
		msleep(10);
	}
	KTEST_ASSERT_TRUE(t, c.mm != NULL);		/* it got to U-mode */
	for (int round = 0; round < 2; round++) {
		unsigned long faults = global_vm_event(PGFAULT);

		KTEST_EXPECT_EQ(t, ktest_clear_flush_young(c.mm, page2, false), 1);
		KTEST_EXPECT_EQ(t, ktest_clear_flush_young(c.mm, UBASE, false), 1);	/* the code */
		/* The loop runs while this thread sleeps.  Under a loaded host QEMU's clock can run
		 * on without the guest, and a sleep end before the loop ran at all: look again,
		 * for up to 2 s. */
		for (int i = 0; i < 200; i++) {
			msleep(10);
			if (ktest_clear_flush_young(c.mm, page2, true) == 1 &&
			    ktest_clear_flush_young(c.mm, UBASE, true) == 1)
				break;
		}
		KTEST_EXPECT_EQ(t, ktest_clear_flush_young(c.mm, page2, true), 1);
		KTEST_EXPECT_EQ(t, ktest_clear_flush_young(c.mm, UBASE, true), 1);	/* fetched */
		faulted += global_vm_event(PGFAULT) - faults;
	}
	kprintf("    # usermode: an old pte made young by %s\n",
		faulted ? "a fault (handle_mm_fault)" : "the hardware");
	enter_mm(c.mm);
	mmget(c.mm);					/* leave_mm drops this one */
	KTEST_EXPECT_EQ(t, put_user(0x5b, (uint32_t __user *)page2), 0);
	leave_mm(c.mm);
	status = kthread_join(c.task);
	unpin_self();
	mmput(c.mm);
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(0x5b, 0));
	KTEST_EXPECT_EQ(t, counts_now().anon, before.anon);
	KTEST_EXPECT_EQ(t, counts_now().tables, before.tables);
}

/* Two user tasks that sched_yield() to each other N times: both finish with the right
 * status, each in its own address space (ASIDs, or the flush, keep them apart). */
static void two_tasks_yield_to_each_other(struct ktest *t)
{
	const uint32_t code_a[] = {
		LUI(R_T0, UDATA >> 12), REG_LOAD(R_T1, R_T0, UDATA & 0xfff),
		/* loop: */
		ADDI(R_A7, R_ZERO, __NR_sched_yield), ECALL, ADDI(R_T1, R_T1, -1),
		BNE_BACK(R_T1, R_ZERO, 12),
		REG_LOAD(R_A0, R_T0, (UDATA & 0xfff) + sizeof(long)),
		ADDI(R_A7, R_ZERO, __NR_exit_group), ECALL,
	};
	struct ucase a = { .code = code_a, .ninsn = ARRAY_SIZE(code_a), .data = { 50, 0x11 } };
	struct ucase b = { .code = code_a, .ninsn = ARRAY_SIZE(code_a), .data = { 50, 0x22 } };
	struct counts before = counts_now();

	a.task = kthread_run(user_thread, &a, "usr-yield-a");
	b.task = kthread_run(user_thread, &b, "usr-yield-b");
	KTEST_ASSERT_TRUE(t, a.task && b.task);
	KTEST_EXPECT_EQ(t, kthread_join(a.task), W_EXITCODE(0x11, 0));
	KTEST_EXPECT_EQ(t, kthread_join(b.task), W_EXITCODE(0x22, 0));
	if (a.mm)
		mmput(a.mm);
	if (b.mm)
		mmput(b.mm);
	KTEST_EXPECT_EQ(t, counts_now().anon, before.anon);
	KTEST_EXPECT_EQ(t, counts_now().tables, before.tables);
}

extern unsigned long riscv_asid_bits, riscv_asid_rollovers;
bool riscv_asids_in_use(void);		/* context.c: off without enough ASIDs for the harts */
unsigned long riscv_mm_asid(const struct mm_struct *mm);

static unsigned long satp_asid(void)
{
	unsigned long satp;

	__asm__ __volatile__("csrr %0, satp" : "=r"(satp));
	return __riscv_xlen == 64 ? satp >> 44 & 0xffff : satp >> 22 & 0x1ff;
}

/* switch_mm gives each mm its own ASID in satp (0 for the kernel's); once they run out, a
 * rollover starts a new generation (RV32's 511: exercised here; RV64's 65535: not). */
static void asids_per_mm_and_rollover(struct ktest *t)
{
	struct mm_struct *a = mm_alloc(), *b = mm_alloc();
	unsigned long asid_a, rollovers = riscv_asid_rollovers;

	KTEST_ASSERT_TRUE(t, a && b);
	if (riscv_asid_bits < 2 || !riscv_asids_in_use()) {
		mmput(a);
		mmput(b);
		ktest_skip(t, riscv_asid_bits < 2 ? "no ASIDs on this hart" :
			   "ASIDs off: not more than twice as many as harts");
		return;
	}
	enter_mm(a);
	asid_a = satp_asid();
	KTEST_EXPECT_NE(t, asid_a, 0UL);
	KTEST_EXPECT_EQ(t, asid_a, riscv_mm_asid(a));
	leave_mm(a);
	KTEST_EXPECT_EQ(t, satp_asid(), 0UL);
	enter_mm(b);
	KTEST_EXPECT_NE(t, satp_asid(), 0UL);
	KTEST_EXPECT_NE(t, satp_asid(), asid_a);
	leave_mm(b);
	if (riscv_asid_bits > 10)
		return;
	/* More mms than ASIDs: the generation must roll over at least once. */
	for (unsigned long i = 0; i < (1UL << riscv_asid_bits) + 1; i++) {
		struct mm_struct *m = mm_alloc();

		KTEST_ASSERT_TRUE(t, m != NULL);
		enter_mm(m);
		KTEST_EXPECT_NE(t, satp_asid(), 0UL);
		leave_mm(m);
	}
	KTEST_EXPECT_GT(t, riscv_asid_rollovers, rollovers);
}

static const struct ktest_case usermode_cases[] = {
	KTEST_CASE(ecall_getpid_then_exit),
	KTEST_CASE(store_outside_any_area_is_sigsegv),
	KTEST_CASE(illegal_instruction_is_sigill),
	KTEST_CASE(load_from_kernel_address_is_sigsegv),
	KTEST_CASE(ebreak_is_sigtrap),
	KTEST_CASE(uaccess_faults_are_fixed_up),
	KTEST_CASE(timer_preempts_a_user_loop),
	KTEST_CASE(two_tasks_yield_to_each_other),
	KTEST_CASE(asids_per_mm_and_rollover),
	KTEST_CASE(user_access_makes_old_pte_young),
	{}
};
KTEST_SUITE(usermode, usermode_cases);
