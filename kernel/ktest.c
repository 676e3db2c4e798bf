/*
 * ktest.c - runs the in-kernel suites and prints KTAP version 1:
 *
 *	KTAP version 1
 *	1..<suites>
 *	    KTAP version 1
 *	    # Subtest: <suite>
 *	    1..<cases>
 *	    ok 1 <case>
 *	ok 1 <suite>
 *	# totals: pass:P fail:F skip:S
 *
 * The totals count cases.  A suite is "not ok" if any case failed, "ok ... # SKIP" if all skipped.
 * Locking: none; tests run alone, before the shell.
 */
#include <setjmp.h>
#include "tinymm/irqflags.h"
#include "tinymm/preempt.h"
#include <string.h>
#include "tinymm/ktest.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/smp.h"
#include "tinymm/shell.h"

bool glob_match(const char *p, const char *s)
{
	const char *star = NULL, *retry = NULL;

	while (*s) {
		if (*p == '*') {
			star = ++p;		/* remember where to resume if a later match fails */
			retry = s;
		} else if (*p == '?' || *p == *s) {
			p++;
			s++;
		} else if (star) {
			p = star;
			s = ++retry;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return !*p;
}

/* The innermost armed recovery point (a case being run, or a KTEST_EXPECT_BUG inside it). */
static struct ktest_recovery *recovery_top;
static char last_bug[160];

/* The running thread (NULL in host builds that set none). */
static const void *ktest_thread(void)
{
	return get_current();
}

void ktest_recovery_push(struct ktest_recovery *r)
{
	r->hit = false;
	r->preempt_count = preempt_count();
	local_save_flags(r->irqflags);
	r->owner = ktest_thread();
	r->prev = recovery_top;
	recovery_top = r;
}

bool ktest_recovery_pop(struct ktest_recovery *r)
{
	if (recovery_top == r)
		recovery_top = r->prev;
	if (r->hit) {
		__preempt_count = r->preempt_count;
		local_irq_restore(r->irqflags);
	}
	return r->hit;
}

struct ktest_recovery *ktest_recovery_take(const char *reason)
{
	struct ktest_recovery *r = recovery_top;

	if (!r || r->owner != ktest_thread())
		return NULL;	/* another thread's bug: that thread's stack cannot jump to ours */
	strncpy(last_bug, reason, sizeof(last_bug) - 1);
	r->hit = true;
	recovery_top = r->prev;
	return r;
}

const char *ktest_last_bug(void)
{
	return last_bug;
}

/*
 * With other CPUs running, an earlier case's dead threads could hand their stacks back (a work
 * item, on any CPU) in the middle of a case that counts free pages exactly: they go first.  The
 * host runs one CPU, and its fuzzers link this file without the scheduler.
 */
static void settle_other_cpus(void)
{
#ifndef TINYMM_HOST
	if (num_online_cpus() > 1 && current)
		flush_thread_stack_frees();
#endif
}

/* Runs one case; a BUG, panic or trap inside it fails the case instead of the machine. */
static void run_case(const struct ktest_case *c, struct ktest *t)
{
	struct ktest_recovery rec;

	ktest_recovery_push(&rec);
	if (!setjmp(rec.jb))
		c->run(t);
	if (ktest_recovery_pop(&rec)) {
		t->status = KTEST_FAIL;
		kprintf("    # %s: unexpected BUG/panic/trap: %s\n", t->name, last_bug);
	}
}

static bool selected(const struct ktest_suite *s, const char *glob)
{
	if (s->explicit_only)
		return !strcmp(s->name, glob);
	return glob_match(glob, s->name);
}

void ktest_fail_int(struct ktest *t, const char *file, int line, const char *ea,
		    const char *op, const char *eb, long long a, long long b)
{
	t->status = KTEST_FAIL;
	kprintf("    # %s: EXPECTATION FAILED at %s:%d\n", t->name, file, line);
	kprintf("    # Expected %s %s %s, but\n", ea, op, eb);
	kprintf("    #     %s == %lld (0x%llx)\n", ea, a, (unsigned long long)a);
	kprintf("    #     %s == %lld (0x%llx)\n", eb, b, (unsigned long long)b);
}

void ktest_fail_str(struct ktest *t, const char *file, int line, const char *ea,
		    const char *eb, const char *a, const char *b)
{
	t->status = KTEST_FAIL;
	kprintf("    # %s: EXPECTATION FAILED at %s:%d\n", t->name, file, line);
	kprintf("    # Expected %s == %s, but\n", ea, eb);
	kprintf("    #     %s == \"%s\"\n", ea, a ? a : "(null)");
	kprintf("    #     %s == \"%s\"\n", eb, b ? b : "(null)");
}

void ktest_fail_msg(struct ktest *t, const char *file, int line, const char *msg)
{
	t->status = KTEST_FAIL;
	kprintf("    # %s: FAILED at %s:%d: %s\n", t->name, file, line, msg);
}

void ktest_skip(struct ktest *t, const char *reason)
{
	if (t->status != KTEST_FAIL)
		t->status = KTEST_SKIP;
	t->skip_reason = reason;
}

/*
 * With more than one CPU, a suite's thread runs on CPU 0 unless the suite says it is written
 * for several (KTEST_SUITE_SMP): most suites assert what one CPU sees (its own per-CPU page
 * lists, which thread a wake-up preempts), and threads they create inherit the pin
 * (kthread_create).  The rest of the kernel (workers, kswapd, the flusher, other tasks) runs on
 * every CPU meanwhile, so those suites still race it; suites smp, sched_smp and smp_stress
 * race each other's CPUs on purpose.
 */
static void ktest_set_cpus(unsigned long mask)
{
	if (NR_CPUS == 1 || !current)
		return;
	struct cpumask m = { mask };
	set_cpus_allowed_ptr(current, &m);
}

int ktest_run(const struct ktest_suite *start, const struct ktest_suite *end, const char *glob)
{
	int nr_suites = 0, pass = 0, fail = 0, skip = 0, n = 0;
	unsigned long old_mask = current ? current->cpus_mask : ~0UL;	/* back after each suite */

	for (const struct ktest_suite *s = start; s < end; s++)
		nr_suites += selected(s, glob);
	kprintf("KTAP version 1\n1..%d\n", nr_suites);
	for (const struct ktest_suite *s = start; s < end; s++) {
		int nr_cases = 0, sfail = 0, sskip = 0;

		if (!selected(s, glob))
			continue;
		while (s->cases[nr_cases].run)
			nr_cases++;
		kprintf("    KTAP version 1\n    # Subtest: %s\n    1..%d\n", s->name, nr_cases);
		ktest_set_cpus(s->smp ? old_mask : 1UL);
		for (int i = 0; i < nr_cases; i++) {
			struct ktest t = { .name = s->cases[i].name, .status = KTEST_PASS };

			settle_other_cpus();
			run_case(&s->cases[i], &t);
			if (t.status == KTEST_SKIP) {
				kprintf("    ok %d %s # SKIP %s\n", i + 1, t.name, t.skip_reason);
				sskip++;
			} else {
				kprintf("    %s %d %s\n", t.status == KTEST_PASS ? "ok" : "not ok", i + 1, t.name);
				sfail += t.status == KTEST_FAIL;
			}
		}
		ktest_set_cpus(old_mask);
		pass += nr_cases - sfail - sskip;
		fail += sfail;
		skip += sskip;
		n++;
		if (nr_cases && sskip == nr_cases)
			kprintf("ok %d %s # SKIP all cases skipped\n", n, s->name);
		else
			kprintf("%s %d %s\n", sfail ? "not ok" : "ok", n, s->name);
	}
	if (!nr_suites)
		kprintf("# no suite matches '%s'\n", glob);	/* before the totals: they end the run */
	kprintf("# totals: pass:%d fail:%d skip:%d\n", pass, fail, skip);
	if (!nr_suites)
		return -1;
	return fail;
}

/* `ktest <suite>`: the same runner from the shell, e.g. next to devices a boot test set up. */
static int cmd_ktest(int argc, char **argv)
{
	if (argc != 2)
		return shell_usage_error(argv[0], "usage: ktest <suite|all>");
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, argv[1]);
	return failed ? 1 : 0;
}
SHELL_COMMAND(ktest, "<suite|all>", "run KTAP suites (as tinymm.test=) and print KTAP", cmd_ktest);
