/*
 * panic.c - panic(), BUG(), WARN() and dump_stack(), printed in Linux's shape so a reader who
 * knows one kernel's reports can read the other's.
 *
 * tinymm has no tasks to kill, so every BUG is fatal (Linux kills the task unless panic_on_oops).
 * Inside a KTAP case, the report is printed and then control returns to the test runner
 * (ktest_recovery_take), so a dying test fails without taking the machine down.
 * Locking: panic_cpu (cmpxchg) lets one CPU panic; smp_send_stop() stops the others before
 * the power-off, and a CPU that panics second stops itself (kernel/smp.c).
 */
#include <setjmp.h>
#include "tinymm/bug.h"
#include "tinymm/ktest.h"
#include "tinymm/power.h"
#include "tinymm/printk.h"
#include "tinymm/smp.h"
#include "tinymm/stacktrace.h"
#include "tinymm/kallsyms.h"

static unsigned long warn_count;
static int panic_cpu = -1;

unsigned long nr_warnings(void)
{
	return warn_count;
}

void dump_stack(void)
{
	/* Start from this function's own frame: portable, and always a non-leaf frame. */
	struct stackframe f = {
		.fp = (unsigned long)__builtin_frame_address(0),
		.pc = (unsigned long)dump_stack,
	};

	show_stack(&f);
}

void panic(const char *fmt, ...)
{
	static bool in_panic;
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* One CPU panics; another that panics meanwhile stops where it is (v6.10's panic_cpu),
	 * its state then printed by the first. */
	int this_cpu = raw_smp_processor_id(), old_cpu = cmpxchg(&panic_cpu, -1, this_cpu);
	if (NR_CPUS > 1 && old_cpu != -1 && old_cpu != this_cpu)
		panic_smp_self_stop();
	if (in_panic) {		/* a panic while panicking: say the least and stop */
		printk(KERN_EMERG "Kernel panic during panic: %s\n", msg);
		machine_poweroff(1);
	}
	in_panic = true;
	printk(KERN_EMERG "Kernel panic - not syncing: %s\n", msg);
	dump_stack();
	struct ktest_recovery *r = ktest_recovery_take(msg);
	if (r) {
		in_panic = false;
		WRITE_ONCE(panic_cpu, -1);
		longjmp(r->jb, 1);
	}
	if (NR_CPUS > 1)
		smp_send_stop();	/* the others stop; their state is printed here */
	printk(KERN_EMERG "---[ end Kernel panic - not syncing: %s ]---\n", msg);
	machine_poweroff(1);
}

void __bug(const char *file, int line, const char *func)
{
	char where[160];

	ksnprintf(where, sizeof(where), "kernel BUG at %s:%d!", file, line);
	printk(KERN_EMERG "------------[ cut here ]------------\n");
	printk(KERN_EMERG "%s\n", where);
	printk(KERN_EMERG "Internal error: Oops - BUG in %s\n", func);
	struct ktest_recovery *r = ktest_recovery_take(where);
	if (r) {
		dump_stack();
		longjmp(r->jb, 1);
	}
	panic("Fatal exception: %s", where);
}

/* Every WARNING's shape: the cut line, "WARNING: CPU: 0 PID: 0 at file:line caller<what>",
 * @detail (if any), the call trace, the end line. */
static void warn_report(const char *file, int line, unsigned long caller_pc, const char *what,
			const char *detail)
{
	char caller[96];

	warn_count++;
	sprint_symbol(caller, sizeof(caller), caller_pc);
	printk(KERN_WARNING "------------[ cut here ]------------\n");
	printk(KERN_WARNING "WARNING: CPU: %d PID: 0 at %s:%d %s%s\n", raw_smp_processor_id(), file,
	       line, caller, what);
	if (detail)
		printk(KERN_WARNING "%s\n", detail);
	dump_stack();
	printk(KERN_WARNING "---[ end trace 0000000000000000 ]---\n");
}

void __warn(const char *file, int line, const char *func, const char *cond)
{
	char detail[160];

	ksnprintf(detail, sizeof(detail), "WARN_ON(%s) in %s", cond, func);
	warn_report(file, line, (unsigned long)__builtin_return_address(0), "", detail);
}

/* WARN(cond, fmt, ...): the message ends the WARNING line, after ": ". */
void __warn_printf(const char *file, int line, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	what[0] = ':';
	what[1] = ' ';
	va_start(ap, fmt);
	kvsnprintf(what + 2, sizeof(what) - 2, fmt, ap);
	va_end(ap);
	warn_report(file, line, (unsigned long)__builtin_return_address(0), what, NULL);
}

/* lockdep_assert_held() failed (lockdep.h): one line names the function and the lock. */
void __warn_lock_not_held(const char *file, int line, const char *func, const char *lock)
{
	char what[128];

	ksnprintf(what, sizeof(what), ": %s() called without %s held", func, lock);
	warn_report(file, line, (unsigned long)__builtin_return_address(0), what, NULL);
}
