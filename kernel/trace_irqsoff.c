/*
 * trace_irqsoff.c - the irqsoff tracer, Linux's idea (kernel/trace/trace_irqsoff.c) made small:
 * how long this CPU runs with interrupts masked, the longest such section since the last reset
 * and where it began and ended.  Built only with CONFIG_IRQSOFF_TRACER (the `<board>-irqsoff`
 * presets, `make run IRQSOFF=1`); on at boot with tinymm.irqsoff=1.  docs/irqsoff.md.
 *
 * A section begins where interrupts go from unmasked to masked: local_irq_save/disable (and the
 * spinlock wrappers, which pass their caller), or the hardware's own mask at an interrupt's
 * entry (the arch's entry code calls trace_irqsoff_trap_entry with the counter it read first).
 * It ends where they are unmasked: local_irq_restore/enable, or the return from the interrupt.
 * The idle loop's wait for an interrupt is cut out (stop/start_critical_timings).
 *
 * Invariants: tracer.active <=> a section is being timed <=> interrupts are masked and were
 * unmasked when it began (sections never nest: a save inside one calls nothing).  Every field
 * is touched with interrupts masked on the boot CPU, so no lock: the hooks run between the mask
 * and the unmask.  With more than one CPU only the boot CPU's sections are traced (the others'
 * hooks return at once): the tracer measures one CPU, as its -icount runs have one.  The tracer's own reads (`irqsoff`, `top`, `reset`) mask
 * and clear tracer.active first: they are never a section.  The clock is read last when a
 * section begins and first when it ends, so a length includes only the few instructions of the
 * hooks on either side of the read (the selftest measures them).
 */
#include <string.h>
#include "tinymm/smp.h"
#include "tinymm/arch.h"
#include "tinymm/cmdline.h"
#include "tinymm/irqflags.h"
#include "tinymm/kallsyms.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/trace_irqsoff.h"

#define RET_IP	((unsigned long)__builtin_return_address(0))

static struct {
	bool enabled;		/* tinymm.irqsoff=1 or `irqsoff on` */
	bool use_ticks;		/* the instruction counter does not run (ARM PMU without -icount) */
	bool active;		/* a section is being timed */
	unsigned long start, start_ip;
	struct irqsoff_stats stats;
} tracer;

/* ---- bookkeeping (host-tested: tests/host/irqsoff_test.c) ---- */

void irqsoff_stats_reset(struct irqsoff_stats *s)
{
	memset(s, 0, sizeof(*s));
}

/* Fibonacci hashing of the code address (its low bit is 0 or 1 on every arch: drop it). */
static unsigned int site_hash(unsigned long from)
{
	return (unsigned int)((uint32_t)((from >> 1) * 2654435761u) >> 24) & (IRQSOFF_SITES - 1);
}

void irqsoff_stats_record(struct irqsoff_stats *s, unsigned long len, unsigned long from,
			  unsigned long to)
{
	s->sections++;
	s->last = len;
	s->last_from = from;
	s->last_to = to;
	if (len > s->max || s->sections == 1) {
		s->max = len;
		s->max_from = from;
		s->max_to = to;
	}
	for (unsigned int i = 0, h = site_hash(from); i < IRQSOFF_SITES; i++) {
		struct irqsoff_site *site = &s->site[(h + i) & (IRQSOFF_SITES - 1)];

		if (site->from != from && site->from)
			continue;
		if (!site->from) {
			site->from = from;
			s->nr_sites++;
		}
		if (len > site->max || !site->count) {
			site->max = len;
			site->to = to;
		}
		site->count++;
		return;
	}
	s->sites_dropped++;
}

unsigned int irqsoff_stats_top(const struct irqsoff_stats *s, struct irqsoff_site *out,
			       unsigned int n)
{
	unsigned int got = 0;
	bool taken[IRQSOFF_SITES] = { false };

	while (got < n) {	/* selection: n is small and this runs in a shell command */
		int best = -1;

		for (unsigned int i = 0; i < IRQSOFF_SITES; i++)
			if (s->site[i].from && !taken[i] &&
			    (best < 0 || s->site[i].max > s->site[best].max))
				best = (int)i;
		if (best < 0)
			break;
		taken[best] = true;
		out[got++] = s->site[best];
	}
	return got;
}

/* ---- the hooks: interrupts are masked whenever these run ---- */

static inline unsigned long irqsoff_clock(void)
{
	return unlikely(tracer.use_ticks) ? (unsigned long)arch_counter_read()
					  : (unsigned long)arch_instret();
}

void trace_hardirqs_off_caller(unsigned long ip)
{
	if (!tracer.enabled || tracer.active || raw_smp_processor_id())
		return;
	tracer.start_ip = ip;
	tracer.active = true;
	tracer.start = irqsoff_clock();
}

void trace_hardirqs_on_caller(unsigned long ip)
{
	if (!tracer.active || raw_smp_processor_id())
		return;
	unsigned long now = irqsoff_clock();

	tracer.active = false;
	irqsoff_stats_record(&tracer.stats, now - tracer.start, tracer.start_ip, ip);
}

__attribute__((noinline)) void trace_hardirqs_off(void)
{
	trace_hardirqs_off_caller(RET_IP);
}

__attribute__((noinline)) void trace_hardirqs_on(void)
{
	trace_hardirqs_on_caller(RET_IP);
}

/* The idle loop: the masked stretch before the wait is a section of its own, the wait none. */
__attribute__((noinline)) void stop_critical_timings(void)
{
	trace_hardirqs_on_caller(RET_IP);
}

__attribute__((noinline)) void start_critical_timings(void)
{
	if (irqs_disabled())
		trace_hardirqs_off_caller(RET_IP);
}

__attribute__((noinline)) void trace_irqsoff_trap_entry(unsigned long stamp)
{
	if (!tracer.enabled || tracer.active || raw_smp_processor_id())
		return;
	tracer.start_ip = RET_IP;
	tracer.active = true;
	tracer.start = unlikely(tracer.use_ticks) ? irqsoff_clock() : stamp;
}

__attribute__((noinline)) void trace_irqsoff_trap_exit(void)
{
	trace_hardirqs_on_caller(RET_IP);
}

/* ---- switching it on, reading it ---- */

/* On: the instruction counter is the clock if it moves (ARM's PMU counts only under -icount). */
static void irqsoff_enable(void)
{
	unsigned long a = (unsigned long)arch_instret(), b;

	for (volatile int i = 0; i < 64; i++)
		;
	b = (unsigned long)arch_instret();
	tracer.use_ticks = a == b;
	tracer.enabled = true;	/* sections already under way are not timed: no start was seen */
}

/* A setter of its own: turning the tracer on calibrates its clock (irqsoff_enable). */
static int set_irqsoff(const char *v)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return -1;
	if (v[0] == '1')
		irqsoff_enable();
	else
		tracer.enabled = false;
	return 0;
}
KPARAM(irqsoff, set_irqsoff,
       "1: the irqsoff tracer on from boot (docs/irqsoff.md); 0 (default): off");

/*
 * Copy the results (the site table too if @sites) with interrupts masked, the stretch untimed.
 * The copy is static: `irqsoff top` is the only user and the shell runs one command at a time.
 */
static struct irqsoff_stats snap;

static void irqsoff_snapshot(bool sites)
{
	unsigned long flags;

	local_irq_save(flags);
	tracer.active = false;
	if (sites)
		snap = tracer.stats;
	else
		memcpy(&snap, &tracer.stats, offsetof(struct irqsoff_stats, site));
	local_irq_restore(flags);
}

static const char *unit(void)
{
	return tracer.use_ticks ? "ticks" : "instructions";
}

static void sym(char *buf, size_t len, unsigned long ip)
{
	unsigned long off;
	const char *name = kallsyms_lookup(ip, &off, NULL);

	if (name)
		ksnprintf(buf, len, "%s+0x%lx", name, off);
	else
		ksnprintf(buf, len, "0x%lx", ip);
}

static int irqsoff_show_max(void)
{
	char from[80], to[80];

	irqsoff_snapshot(false);
	if (!snap.sections) {
		kprintf("irqsoff: no irqs-off section recorded yet\n");
		return 0;
	}
	sym(from, sizeof(from), snap.max_from);
	sym(to, sizeof(to), snap.max_to);
	kprintf("irqsoff: max %lu %s, from %s to %s\n", snap.max, unit(), from, to);
	return 0;
}

static int irqsoff_show_top(unsigned int n)
{
	static struct irqsoff_site top[IRQSOFF_SITES];
	char from[80], to[80];

	irqsoff_snapshot(true);
	n = irqsoff_stats_top(&snap, top, n);
	kprintf("irqsoff: %lu sections from %u sites%s; the longest from each:\n", snap.sections,
		snap.nr_sites, snap.sites_dropped ? " (table full: some sites not kept)" : "");
	kprintf("%12s %10s  %-40s %s\n", unit(), "sections", "from", "to");
	for (unsigned int i = 0; i < n; i++) {
		sym(from, sizeof(from), top[i].from);
		sym(to, sizeof(to), top[i].to);
		kprintf("%12lu %10lu  %-40s %s\n", top[i].max, top[i].count, from, to);
	}
	return 0;
}

static void irqsoff_reset(void)
{
	unsigned long flags;

	local_irq_save(flags);
	tracer.active = false;
	irqsoff_stats_reset(&tracer.stats);
	local_irq_restore(flags);
}

/* ---- selftest: a masked loop of known length must come back as a section of that length ---- */

static __attribute__((noinline)) void irqsoff_selftest_section(unsigned long n, bool hooked)
{
	unsigned long flags;

	if (hooked)
		local_irq_save(flags);
	else
		flags = arch_local_irq_save();	/* must_fail: a mask the tracer cannot see */
	for (unsigned long i = n; i; i--)
		__asm__ __volatile__("" : "+r"(i));
	if (hooked)
		local_irq_restore(flags);
	else
		arch_local_irq_restore(flags);
}

/* One masked loop of @n iterations as the tracer saw it: its length into @len, or false. */
static bool selftest_measure(unsigned long n, bool hooked, unsigned long *len)
{
	unsigned long fn_off;
	const char *fn = kallsyms_lookup((unsigned long)irqsoff_selftest_section, &fn_off, NULL);

	for (int try = 0; try < 16; try++) {	/* an interrupt at the unmask records after us */
		irqsoff_selftest_section(n, hooked);
		irqsoff_snapshot(false);
		if (fn && kallsyms_lookup(snap.last_from, NULL, NULL) == fn &&
		    kallsyms_lookup(snap.last_to, NULL, NULL) == fn) {
			*len = snap.last;
			return true;
		}
	}
	return false;
}

/*
 * Loops of n, 2n and 3n iterations: each must be seen, from and to the loop's function, and the
 * max must be at least the longest.  Counting instructions the lengths are exact: they must grow
 * by the same whole number of instructions per iteration.  Counting ticks (no instruction
 * counter) they follow the host's timing, and only being seen is checked.
 */
static int irqsoff_selftest(bool hooked)
{
	const unsigned long n = 1000;
	unsigned long len[3];

	if (irqs_disabled())
		return shell_usage_error("irqsoff", "selftest: needs interrupts unmasked");
	irqsoff_selftest_section(n, hooked);	/* once unmeasured: QEMU translates the code */
	for (int k = 0; k < 3; k++) {
		if (!selftest_measure(n * (k + 1), hooked, &len[k])) {
			kprintf("irqsoff selftest: FAIL: no section from irqsoff_selftest_section seen "
				"(%lu iterations masked)\n", n * (k + 1));
			return 1;
		}
	}
	unsigned long step = len[1] - len[0], per = step / n;

	irqsoff_snapshot(false);
	kprintf("irqsoff selftest: %lu/%lu/%lu iterations masked: %lu/%lu/%lu %s\n", n, 2 * n,
		3 * n, len[0], len[1], len[2], unit());
	if (snap.max < len[2]) {
		kprintf("irqsoff selftest: FAIL: max %lu is below a section it saw (%lu)\n",
			snap.max, len[2]);
		return 1;
	}
	if (tracer.use_ticks) {
		kprintf("irqsoff selftest: ok (ticks: the sections were seen; their lengths follow "
			"the host)\n");
		return 0;
	}
	if (len[0] < n || len[1] <= len[0] || len[2] - len[1] != step || step % n || per > 8) {
		kprintf("irqsoff selftest: FAIL: the lengths do not grow by the same whole number "
			"of instructions per iteration\n");
		return 1;
	}
	kprintf("irqsoff selftest: ok: %lu instructions per iteration, %lu outside the loop\n",
		per, len[0] - per * n);
	return 0;
}

static int cmd_irqsoff(int argc, char **argv)
{
	unsigned long long n = 10;
	const char *sub = argc > 1 ? argv[1] : "";
	bool top = !strcmp(sub, "top"), selftest = !strcmp(sub, "selftest");
	bool known = argc == 1 || top || selftest || !strcmp(sub, "reset") || !strcmp(sub, "on") ||
		     !strcmp(sub, "off");

	if (!known || argc > 3 || (argc == 3 && !top && !selftest) ||
	    (argc == 3 && selftest && strcmp(argv[2], "must_fail")))
		return shell_usage_error("irqsoff",
			"usage: irqsoff [reset | top [n] | on | off | selftest [must_fail]]");
	if (top && argc == 3 && (kstrtoull(argv[2], &n) || !n || n > IRQSOFF_SITES))
		return shell_usage_error("irqsoff", "top: n must be 1-256");
	if (!strcmp(sub, "on")) {
		irqsoff_enable();
		return 0;
	}
	if (!strcmp(sub, "off")) {
		tracer.enabled = false;
		return 0;
	}
	if (!strcmp(sub, "reset")) {
		irqsoff_reset();
		return 0;
	}
	/* Off: the max recorded so far can still be read; anything else says how to turn it on. */
	if (!tracer.enabled && (argc > 1 || !tracer.stats.sections)) {
		kprintf("irqsoff: the tracer is off (boot with tinymm.irqsoff=1, or: irqsoff on)\n");
		return 1;
	}
	if (top)
		return irqsoff_show_top((unsigned int)n);
	if (selftest)
		return irqsoff_selftest(argc == 2);
	return irqsoff_show_max();
}
SHELL_COMMAND(irqsoff, "[reset|top [n]|on|off|selftest]",
	      "longest irqs-off section: where it began and ended (docs/irqsoff.md)", cmd_irqsoff);
