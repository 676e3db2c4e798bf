/*
 * usermode_ktest.c - ARM user mode end to end (suite `usermode`, ARM images only;
 * docs/user-arm.md): each case runs a kernel thread that becomes a user task by hand, as exec
 * will (usermode_run.c: mm_alloc(), current->mm and switch_mm(), anonymous areas, one of
 * usermode_progs.S's programs copied in with copy_to_user() and so demand-paged through an
 * STRT fault, made R+X, the caches made coherent for it), then start_thread() and
 * arch_ret_to_user().  The thread's join status is the task's wait status.  Every case checks
 * that AnonPages and PageTables are back where they were once the task is gone, and that no
 * WARNING was printed.
 */
#include <string.h>
#include <asm/ptrace.h>
#include "tinymm/arch.h"
#include "tinymm/bug.h"
#include "tinymm/delay.h"
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/mm_fault.h"
#include "tinymm/mmap.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/swap.h"
#include "tinymm/timer.h"
#include "tinymm/uaccess.h"
#include "tinymm/user_task.h"
#include "tinymm/vmstat.h"
#include "usermode_progs.h"

#define UM_RO		USERMODE_RO
#define UM_DATA2	USERMODE_DATA2
#define UM_SETUP_FAILED	(-100)		/* a join status no user task can give */

long arm_mm_asid(const struct mm_struct *mm);

struct um_case {
	struct ktest *t;
	const unsigned char *code, *code_end;
	void (*before_user)(struct um_case *c);	/* in the task, its mm live: uaccess checks */
	volatile bool in_user;			/* about to enter USR mode */
	volatile uint32_t *data_alias;		/* the kernel's alias of the page at USERMODE_DATA */
	uint32_t data0;				/* the data page's first word */
	long asid;				/* the mm's ASID when it entered USR mode */
	struct mm_struct *mm;			/* keep_mm: the task's mm, referenced */
	bool keep_mm;
};

static int um_task(void *arg)
{
	struct um_case *c = arg;
	int ret = arm_usermode_setup(c->code, c->code_end, c->data0, &c->data_alias);

	KTEST_EXPECT_EQ(c->t, ret, 0);
	if (ret)
		do_exit(UM_SETUP_FAILED);
	if (c->before_user)
		c->before_user(c);
	c->asid = arm_mm_asid(current->mm);
	if (c->keep_mm) {
		mmget(current->mm);
		c->mm = current->mm;
	}
	c->in_user = true;
	arm_usermode_enter();
}

static struct {
	unsigned long anon, pagetables, warnings;
} before;

static void snapshot(void)
{
	lru_add_drain();
	flush_thread_stack_frees();
	before.anon = global_node_page_state(NR_ANON_MAPPED);
	before.pagetables = global_node_page_state(NR_PAGETABLE);
	before.warnings = nr_warnings();
}

/* No page or table of the gone task's mm left, nor of its kernel stack. */
static void check_nothing_left(struct ktest *t)
{
	lru_add_drain();
	flush_thread_stack_frees();
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_ANON_MAPPED), before.anon);
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_PAGETABLE), before.pagetables);
	KTEST_EXPECT_TRUE(t, active_mm == &init_mm || active_mm->pgd != NULL);
	KTEST_EXPECT_EQ(t, nr_warnings(), before.warnings);	/* no WARNING on the way */
}

static struct task_struct *start(struct um_case *c, const char *name)
{
	struct task_struct *p = kthread_create(um_task, c, "%s", name);

	if (p)
		wake_up_process(p);
	return p;
}

/* Run @c as task @name to its end: its wait status, *@pid its pid. */
static int run(struct ktest *t, struct um_case *c, const char *name, int *pid)
{
	struct task_struct *p;

	c->t = t;
	snapshot();
	p = start(c, name);
	KTEST_EXPECT_TRUE(t, p != NULL);
	if (!p)
		return UM_SETUP_FAILED;
	if (pid)
		*pid = p->pid;
	int status = kthread_join(p);
	check_nothing_left(t);
	return status;
}

/* (a) getpid through svc, then exit_group(pid & 0xff). */
static void getpid_then_exit_group(struct ktest *t)
{
	struct um_case c = { .code = um_getpid_exit, .code_end = um_getpid_exit_end };
	int pid = 0, status = run(t, &c, "um-getpid", &pid);

	KTEST_EXPECT_NE(t, pid & 0xff, 0);	/* the status would not tell exit(0) apart */
	KTEST_EXPECT_EQ(t, status, W_EXITCODE(pid & 0xff, 0));
	KTEST_EXPECT_TRUE(t, WIFEXITED(status));
	KTEST_EXPECT_TRUE(t, c.asid > 0);
}

/* (b) a store below every area: SIGSEGV, the kernel goes on. */
static void store_outside_any_area_is_sigsegv(struct ktest *t)
{
	struct um_case c = { .code = um_store_unmapped, .code_end = um_store_unmapped_end };

	KTEST_EXPECT_EQ(t, run(t, &c, "um-store", NULL), SIGSEGV);
}

/* (c) udf #0: SIGILL. */
static void undefined_instruction_is_sigill(struct ktest *t)
{
	struct um_case c = { .code = um_udf, .code_end = um_udf_end };

	KTEST_EXPECT_EQ(t, run(t, &c, "um-udf", NULL), SIGILL);
}

/* (d) a load from the kernel image's address: a permission fault (no AP[1]), SIGSEGV. */
static void load_from_kernel_address_is_sigsegv(struct ktest *t)
{
	struct um_case c = { .code = um_load_kernel, .code_end = um_load_kernel_end };

	KTEST_EXPECT_EQ(t, run(t, &c, "um-kload", NULL), SIGSEGV);
}

/* (e) two tasks at once, each with its thread pointer and address space (um_tls). */
static void tls_and_address_space_per_task(struct ktest *t)
{
	struct um_case a = { .t = t, .code = um_tls, .code_end = um_tls_end };
	struct um_case b = a;
	unsigned long tp;

	snapshot();
	struct task_struct *pa = start(&a, "um-tls-a"), *pb = start(&b, "um-tls-b");
	KTEST_ASSERT_TRUE(t, pa && pb);
	KTEST_EXPECT_EQ(t, kthread_join(pa), W_EXITCODE(42, 0));
	KTEST_EXPECT_EQ(t, kthread_join(pb), W_EXITCODE(42, 0));
	check_nothing_left(t);
	/* Two live mms, two ASIDs (neither init_mm's 0). */
	KTEST_EXPECT_TRUE(t, a.asid > 0 && b.asid > 0);
	KTEST_EXPECT_NE(t, a.asid, b.asid);
	/* This kernel thread's own thread pointer (0) is back in the register. */
	__asm__ __volatile__("mrc p15, 0, %0, c13, c0, 3" : "=r"(tp));
	KTEST_EXPECT_EQ(t, tp, current->ctx.tp_value);
	KTEST_EXPECT_EQ(t, tp, 0);
}

/* A kernel word STRT must never write, whatever pointer it is given. */
static volatile uint32_t kernel_victim = 0x11111111;

/* (f) the uaccess calls against bad pointers, in the task with its mm live. */
static void uaccess_checks(struct um_case *c)
{
	struct ktest *t = c->t;
	uint8_t buf[8];
	uint32_t v = 0x22222222, x;
	int ix;

	/* A kernel pointer: access_ok refuses it, the buffer is zero-filled. */
	memset(buf, 0x5a, sizeof(buf));
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (const void __user *)(PAGE_OFFSET + 0x100000), 8), 8);
	KTEST_EXPECT_EQ(t, buf[0] | buf[7], 0);
	/* The same past access_ok: LDRT itself refuses (USR has no access to kernel pages). */
	KTEST_EXPECT_EQ(t, raw_copy_from_user(buf, (const void __user *)(PAGE_OFFSET + 0x100000), 8), 8);
	/* STRT refuses a kernel page: nothing written. */
	KTEST_EXPECT_EQ(t, raw_copy_to_user((void __user *)&kernel_victim, &v, 4), 4);
	KTEST_EXPECT_EQ(t, kernel_victim, 0x11111111);
	KTEST_EXPECT_EQ(t, raw_copy_to_user((void __user *)((unsigned long)&kernel_victim + 1), &v, 3), 3);
	KTEST_EXPECT_EQ(t, kernel_victim, 0x11111111);
	/* An unmapped user address and a wild one below TASK_SIZE. */
	ix = 77;
	KTEST_EXPECT_EQ(t, get_user(ix, (const int __user *)0x1000), -EFAULT);
	KTEST_EXPECT_EQ(t, ix, 0);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (const void __user *)0x7ffff000, 8), 8);
	KTEST_EXPECT_EQ(t, put_user(1, (int __user *)0x7ffff000), -EFAULT);
	/* A read-only area: read faults in a zeroed page; a write (STRT: AP[2]) fails. */
	x = 5;
	KTEST_EXPECT_EQ(t, get_user(x, (const uint32_t __user *)UM_RO), 0);
	KTEST_EXPECT_EQ(t, x, 0);
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)UM_RO, &v, 4), 4);
	KTEST_EXPECT_EQ(t, get_user(x, (const uint32_t __user *)UM_RO), 0);
	KTEST_EXPECT_EQ(t, x, 0);
	/* A writable area read first (mapped read-only until written: PAGE_COPY), then written:
	 * the STRT's permission fault goes through the write fault (reuse/COW) and succeeds. */
	KTEST_EXPECT_EQ(t, get_user(x, (const uint32_t __user *)UM_DATA2), 0);
	KTEST_EXPECT_EQ(t, put_user(0xdeadbeefu, (uint32_t __user *)UM_DATA2), 0);
	KTEST_EXPECT_EQ(t, get_user(x, (const uint32_t __user *)UM_DATA2), 0);
	KTEST_EXPECT_EQ(t, x, 0xdeadbeef);
	/* Straddling the end of the area: exactly the bytes beyond it are left, both ways. */
	memset(buf, 0xa5, sizeof(buf));
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(UM_DATA2 + PAGE_SIZE - 4), buf, 8), 4);
	KTEST_EXPECT_EQ(t, copy_from_user(buf, (const void __user *)(UM_DATA2 + PAGE_SIZE - 4), 8), 4);
	KTEST_EXPECT_EQ(t, buf[3], 0xa5);
	KTEST_EXPECT_EQ(t, buf[4], 0);
	/* Unaligned, byte by byte across the page boundary between two areas. */
	KTEST_EXPECT_EQ(t, copy_to_user((void __user *)(USERMODE_DATA + PAGE_SIZE - 3), buf, 6), 3);
}

static void uaccess_refuses_bad_pointers(struct ktest *t)
{
	struct um_case c = { .code = um_getpid_exit, .code_end = um_getpid_exit_end,
			     .before_user = uaccess_checks };
	int pid = 0;

	KTEST_EXPECT_EQ(t, run(t, &c, "um-uaccess", &pid), W_EXITCODE(pid & 0xff, 0));
}

/* (g) the timer preempts a user loop; another thread runs and ends it. */
struct spinner {
	struct um_case *c;
	struct task_struct *user;
	bool saw_user_pc;
};

static int spinner_fn(void *arg)
{
	struct spinner *s = arg;
	uint64_t end = ktime_get_ns() + 5 * NSEC_PER_SEC;

	while (ktime_get_ns() < end) {
		unsigned long flags;
		bool dead, seen = false;

		/* Masked: the task cannot end (and its stack go) between the check and the read. */
		local_irq_save(flags);
		dead = READ_ONCE(s->user->__state) == TASK_DEAD;
		if (!dead && s->c->in_user) {
			/* Preempted in USR mode inside the loop: its pt_regs say so. */
			struct pt_regs *r = (struct pt_regs *)((unsigned long)s->user->stack +
							       s->user->stack_size) - 1;
			seen = user_mode(r) && r->ARM_pc > USERMODE_CODE + 4 &&
			       r->ARM_pc < USERMODE_CODE + (unsigned long)(um_spin_flag_end - um_spin_flag);
		}
		local_irq_restore(flags);
		if (dead)
			return 1;
		if (seen) {
			s->saw_user_pc = true;
			break;
		}
		yield();
	}
	*s->c->data_alias = 7;	/* ends the loop: exit_group(7) */
	return 0;
}

static void timer_preempts_user_loop(struct ktest *t)
{
	struct um_case c = { .t = t, .code = um_spin_flag, .code_end = um_spin_flag_end };
	struct spinner s = { .c = &c };

	snapshot();
	s.user = kthread_create(um_task, &c, "um-spin");
	KTEST_ASSERT_TRUE(t, s.user != NULL);
	get_task_struct(s.user);	/* the spinner reads its stack while it may exit */
	struct task_struct *sp = kthread_create(spinner_fn, &s, "um-spinner");
	KTEST_ASSERT_TRUE(t, sp != NULL);
	wake_up_process(s.user);
	wake_up_process(sp);
	KTEST_EXPECT_EQ(t, kthread_join(sp), 0);
	KTEST_EXPECT_TRUE(t, s.saw_user_pc);
	KTEST_EXPECT_EQ(t, kthread_join(s.user), W_EXITCODE(7, 0));
	KTEST_EXPECT_TRUE(t, s.user->nivcsw > 0);	/* preempted, it never gave up the CPU */
	put_task_struct(s.user);
	check_nothing_left(t);
}

/*
 * (h) docs/young.md: the data and code pages made old while the task spins reading the data
 * in USR mode.  LPAE never sets AF itself: the next load takes an Access flag data abort, the
 * next fetch an Access flag prefetch abort, from USR mode; do_user_addr_fault() resolves each by
 * making the pte young, and the loop goes on.  Twice (each clear is seen: ptep_clear_flush_young
 * flushed the TLB entry), then the flag ends it.
 */
static void user_access_makes_old_pte_young(struct ktest *t)
{
	struct um_case c = { .t = t, .code = um_spin_flag_unbounded,
			     .code_end = um_spin_flag_unbounded_end, .keep_mm = true };
	struct task_struct *p;
	uint64_t end;

	snapshot();
	p = start(&c, "um-young");
	KTEST_ASSERT_TRUE(t, p != NULL);
	end = ktime_get_ns() + 5 * NSEC_PER_SEC;
	while (!READ_ONCE(c.in_user) && ktime_get_ns() < end)
		msleep(1);
	KTEST_ASSERT_TRUE(t, c.in_user && c.mm);
	msleep(1);					/* in the loop by now */
	for (int round = 0; round < 2; round++) {
		unsigned long faults = global_vm_event(PGFAULT);

		KTEST_EXPECT_EQ(t, ktest_clear_flush_young(c.mm, USERMODE_DATA, false), 1);
		KTEST_EXPECT_EQ(t, ktest_clear_flush_young(c.mm, USERMODE_CODE, false), 1);
		/* The loop runs while this thread sleeps.  Under a loaded host QEMU's clock can run
		 * on without the guest, and a sleep end before the loop ran at all: look again,
		 * for up to 2 s. */
		for (int i = 0; i < 200; i++) {
			msleep(10);
			if (ktest_clear_flush_young(c.mm, USERMODE_DATA, true) == 1 &&
			    ktest_clear_flush_young(c.mm, USERMODE_CODE, true) == 1)
				break;
		}
		KTEST_EXPECT_EQ(t, ktest_clear_flush_young(c.mm, USERMODE_DATA, true), 1);
		KTEST_EXPECT_EQ(t, ktest_clear_flush_young(c.mm, USERMODE_CODE, true), 1);
		/* a data abort for the load, a prefetch abort for the fetch (both Access flag) */
		KTEST_EXPECT_GE(t, global_vm_event(PGFAULT) - faults, 2UL);
	}
	*c.data_alias = 7;			/* ends the loop: exit_group(7) */
	KTEST_EXPECT_EQ(t, kthread_join(p), W_EXITCODE(7, 0));
	mmput(c.mm);
	check_nothing_left(t);
}

/*
 * 300 fresh mms switched to one after the other: more than the 255 user ASIDs, so the
 * generation rolls over at least once; every ASID given is in 1-255, and user tasks run right
 * after (two at once, each checking its own memory and thread pointer).
 */
extern unsigned long arm_asid_rollovers;
static void asid_rollover_then_user_tasks(struct ktest *t)
{
	unsigned long rollovers = arm_asid_rollovers, bad = 0;

	snapshot();
	for (int i = 0; i < 300; i++) {
		struct mm_struct *mm = mm_alloc();
		unsigned long flags;
		long asid;

		KTEST_ASSERT_TRUE(t, mm != NULL);
		local_irq_save(flags);
		switch_mm(active_mm, mm);
		asid = arm_mm_asid(mm);
		switch_mm(mm, active_mm);
		local_irq_restore(flags);
		if (asid < 1 || asid > 255)
			bad++;
		mmput(mm);
	}
	KTEST_EXPECT_EQ(t, bad, 0);
	KTEST_EXPECT_GE(t, arm_asid_rollovers, rollovers + 1);
	check_nothing_left(t);
	tls_and_address_space_per_task(t);
}

static const struct ktest_case usermode_cases[] = {
	KTEST_CASE(getpid_then_exit_group),
	KTEST_CASE(store_outside_any_area_is_sigsegv),
	KTEST_CASE(undefined_instruction_is_sigill),
	KTEST_CASE(load_from_kernel_address_is_sigsegv),
	KTEST_CASE(tls_and_address_space_per_task),
	KTEST_CASE(uaccess_refuses_bad_pointers),
	KTEST_CASE(timer_preempts_user_loop),
	KTEST_CASE(asid_rollover_then_user_tasks),
	KTEST_CASE(user_access_makes_old_pte_young),
	{}
};
KTEST_SUITE(usermode, usermode_cases);
