/*
 * irqsoff_test.c - the irqsoff tracer's bookkeeping and hooks (kernel/trace_irqsoff.c, built here
 * with CONFIG_IRQSOFF_TRACER) over the host's simulated interrupt mask and a clock the test
 * moves by hand: which mask/unmask pairs make a section and how long it is, the longest kept with
 * its sites, the per-site table (ordering, a full table), reset, the idle cut, and the command's
 * exact output against a hand-made symbol table in tools/gen-kallsyms's layout.
 */
#include <stdarg.h>
#include "test.h"
#include "tinymm/cmdline.h"
#include "tinymm/irqflags.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/trace_irqsoff.h"

/* Three functions (the last, without a size, ends nowhere: its sites print as addresses). */
const uint32_t kallsyms_num = 3;
const unsigned long kallsyms_addrs[] = { 0x1000, 0x1040, 0x1100 };
const uint32_t kallsyms_sizes[] = { 0x20, 0xc0, 0 };
const uint32_t kallsyms_offs[] = { 0, 6, 13 };
const char kallsyms_names[] = "alpha\0middle\0last_asm";

/* The clock: both counters read it; a read adds clock_step (the enable check needs movement). */
static unsigned long long fake_clock, clock_step;
uint64_t arch_instret(void) { fake_clock += clock_step; return fake_clock; }
uint64_t arch_counter_read(void) { return fake_clock; }

/* The console and the two shell helpers trace_irqsoff.c uses, as kernel/ has them. */
static char out[8192];
int vkprintf(const char *fmt, va_list ap)
{
	size_t n = strlen(out);

	return kvsnprintf(out + n, sizeof(out) - n, fmt, ap);
}
int kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int r = vkprintf(fmt, ap);
	va_end(ap);
	return r;
}
int printk(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int r = vkprintf(fmt + 2, ap);	/* skip the level */
	va_end(ap);
	return r;
}
int shell_usage_error(const char *cmd, const char *msg)
{
	kprintf("%s: %s\n", cmd, msg);
	return 2;
}
int kstrtoull(const char *s, unsigned long long *res)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	*res = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

static int irqsoff_cmd(const char *line)
{
	char buf[64], *argv[4];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t && argc < 4; t = strtok(NULL, " "))
		argv[argc++] = t;
	for (const struct shell_cmd *c = __shell_cmds_start; c < __shell_cmds_end; c++)
		if (!strcmp(c->name, "irqsoff"))
			return c->fn(argc, argv);
	fail_msg("no irqsoff command");
	return -1;
}

static int set_param(const char *val)
{
	for (const struct kparam *p = __kparams_start; p < __kparams_end; p++)
		if (!strcmp(p->name, "irqsoff"))
			return p->set(val);
	fail_msg("no tinymm.irqsoff");
	return -1;
}

/* A fresh tracer counting instructions, interrupts unmasked, nothing recorded. */
static int setup(void **state)
{
	host_irq_flags = 0;
	clock_step = 1;
	assert_int_equal(set_param("1"), 0);
	clock_step = 0;
	assert_int_equal(irqsoff_cmd("irqsoff reset"), 0);
	out[0] = '\0';
	return 0;
}

static void section(unsigned long from, unsigned long len, unsigned long to)
{
	trace_hardirqs_off_caller(from);
	fake_clock += len;
	trace_hardirqs_on_caller(to);
}

static void stats_keep_the_longest_and_each_site(void **state)
{
	static struct irqsoff_stats s;
	struct irqsoff_site top[4];

	irqsoff_stats_reset(&s);
	irqsoff_stats_record(&s, 0, 0x1004, 0x1008);	/* a first section of 0 is still the max */
	assert_int_equal(s.max_from, 0x1004);
	irqsoff_stats_record(&s, 300, 0x1044, 0x1050);
	irqsoff_stats_record(&s, 200, 0x1044, 0x1060);	/* shorter: the site keeps 300 and its end */
	irqsoff_stats_record(&s, 500, 0x1104, 0x1108);
	irqsoff_stats_record(&s, 100, 0x1104, 0x1110);
	assert_int_equal(s.sections, 5);
	assert_int_equal(s.max, 500);
	assert_int_equal(s.max_from, 0x1104);
	assert_int_equal(s.max_to, 0x1108);
	assert_int_equal(s.last, 100);
	assert_int_equal(s.last_to, 0x1110);
	assert_int_equal(s.nr_sites, 3);
	assert_int_equal(irqsoff_stats_top(&s, top, 4), 3);
	assert_int_equal(top[0].from, 0x1104);
	assert_int_equal(top[0].count, 2);
	assert_int_equal(top[1].from, 0x1044);
	assert_int_equal(top[1].max, 300);
	assert_int_equal(top[1].to, 0x1050);
	assert_int_equal(top[1].count, 2);
	assert_int_equal(top[2].from, 0x1004);
	assert_int_equal(irqsoff_stats_top(&s, top, 1), 1);
	irqsoff_stats_reset(&s);
	assert_int_equal(s.sections + s.max + s.nr_sites, 0);
	assert_int_equal(irqsoff_stats_top(&s, top, 4), 0);
}

/* More sites than slots (every one hashing somewhere): each kept until the table is full. */
static void stats_full_table_drops_new_sites_only(void **state)
{
	static struct irqsoff_stats s;
	static struct irqsoff_site top[IRQSOFF_SITES];

	irqsoff_stats_reset(&s);
	for (unsigned long i = 0; i < IRQSOFF_SITES + 10; i++)
		irqsoff_stats_record(&s, i, 0x10000 + 4 * i, 0x20000);
	assert_int_equal(s.nr_sites, IRQSOFF_SITES);
	assert_int_equal(s.sites_dropped, 10);
	irqsoff_stats_record(&s, 0, 0x10000, 0x20000);	/* a kept site still counts */
	assert_int_equal(s.sites_dropped, 10);
	assert_int_equal(irqsoff_stats_top(&s, top, IRQSOFF_SITES), IRQSOFF_SITES);
	for (unsigned int i = 1; i < IRQSOFF_SITES; i++)
		assert_true(top[i - 1].max >= top[i].max);
	assert_int_equal(top[IRQSOFF_SITES - 1].from, 0x10000);
	assert_int_equal(top[IRQSOFF_SITES - 1].count, 2);
	assert_int_equal(s.max, IRQSOFF_SITES + 9);	/* the dropped sites' sections still count */
}

/* Only the outermost mask and unmask make a section; nested saves call nothing. */
static void nested_saves_make_one_section(void **state)
{
	unsigned long outer, inner;

	local_irq_save(outer);
	fake_clock += 40;
	local_irq_save(inner);
	fake_clock += 60;
	local_irq_restore(inner);
	assert_true(irqs_disabled());
	fake_clock += 5;
	local_irq_restore(outer);
	fake_clock += 1000;		/* unmasked: not counted */
	assert_int_equal(irqsoff_cmd("irqsoff"), 0);
	assert_non_null(strstr(out, "irqsoff: max 105 instructions, from 0x"));

	/* A disable while masked already (boot) starts nothing; the enable then ends nothing. */
	out[0] = '\0';
	assert_int_equal(irqsoff_cmd("irqsoff reset"), 0);
	host_irq_flags = HOST_IRQS_MASKED;
	local_irq_disable();
	fake_clock += 99999;
	local_irq_enable();
	local_irq_disable();	/* and from unmasked it does */
	fake_clock += 7;
	local_irq_enable();
	assert_int_equal(irqsoff_cmd("irqsoff"), 0);
	assert_non_null(strstr(out, "irqsoff: max 7 instructions"));
}

/* The idle loop: the wait between stop and start is no part of any section. */
static void idle_wait_is_cut_out(void **state)
{
	local_irq_disable();
	fake_clock += 10;
	stop_critical_timings();
	fake_clock += 50000;	/* wfi */
	start_critical_timings();
	fake_clock += 20;
	local_irq_enable();
	assert_int_equal(irqsoff_cmd("irqsoff top"), 0);
	assert_non_null(strstr(out, "irqsoff: 2 sections from 2 sites"));
	out[0] = '\0';
	assert_int_equal(irqsoff_cmd("irqsoff"), 0);
	assert_non_null(strstr(out, "irqsoff: max 20 instructions"));
}

/* The exact line, symbolised from the table; reset; top's rows; off keeps what was recorded. */
static void command_output(void **state)
{
	assert_int_equal(irqsoff_cmd("irqsoff"), 0);
	assert_string_equal(out, "irqsoff: no irqs-off section recorded yet\n");
	section(0x1044, 1234, 0x10b0);
	section(0x1004, 99, 0x1010);
	section(0x1004, 3, 0x1010);
	section(0x5000, 2, 0x1000);		/* in no function: the bare address */
	out[0] = '\0';
	assert_int_equal(irqsoff_cmd("irqsoff"), 0);
	assert_string_equal(out, "irqsoff: max 1234 instructions, from middle+0x4 to middle+0x70\n");
	out[0] = '\0';
	assert_int_equal(irqsoff_cmd("irqsoff top 2"), 0);
	assert_string_equal(out,
		"irqsoff: 4 sections from 3 sites; the longest from each:\n"
		"instructions   sections  from                                     to\n"
		"        1234          1  middle+0x4                               middle+0x70\n"
		"          99          2  alpha+0x4                                alpha+0x10\n");
	out[0] = '\0';
	assert_int_equal(irqsoff_cmd("irqsoff off"), 0);
	section(0x1008, 5000, 0x1008);		/* off: not recorded */
	assert_int_equal(irqsoff_cmd("irqsoff"), 0);
	assert_string_equal(out, "irqsoff: max 1234 instructions, from middle+0x4 to middle+0x70\n");
	out[0] = '\0';
	assert_int_equal(irqsoff_cmd("irqsoff reset"), 0);
	assert_int_equal(irqsoff_cmd("irqsoff"), 1);
	assert_string_equal(out,
		"irqsoff: the tracer is off (boot with tinymm.irqsoff=1, or: irqsoff on)\n");
	out[0] = '\0';
	assert_int_equal(irqsoff_cmd("irqsoff top 0"), 2);
	assert_int_equal(irqsoff_cmd("irqsoff sideways"), 2);
	assert_int_equal(irqsoff_cmd("irqsoff top 1 2"), 2);
	assert_string_equal(out, "irqsoff: top: n must be 1-256\n"
		"irqsoff: usage: irqsoff [reset | top [n] | on | off | selftest [must_fail]]\n"
		"irqsoff: usage: irqsoff [reset | top [n] | on | off | selftest [must_fail]]\n");
	assert_int_equal(set_param("2"), -1);
}

/* Where the instruction counter stands still, the clock is the counter, in ticks. */
static void ticks_when_no_instruction_counter(void **state)
{
	clock_step = 0;
	assert_int_equal(set_param("1"), 0);
	section(0x1044, 77, 0x10b0);
	assert_int_equal(irqsoff_cmd("irqsoff"), 0);
	assert_string_equal(out, "irqsoff: max 77 ticks, from middle+0x4 to middle+0x70\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stats_keep_the_longest_and_each_site),
		cmocka_unit_test(stats_full_table_drops_new_sites_only),
		cmocka_unit_test_setup(nested_saves_make_one_section, setup),
		cmocka_unit_test_setup(idle_wait_is_cut_out, setup),
		cmocka_unit_test_setup(command_output, setup),
		cmocka_unit_test_setup(ticks_when_no_instruction_counter, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
