/*
 * shim.c - the host stand-in for arch/ and the console UART, so portable kernel files run
 * unchanged under cmocka: console output is captured, the counter is a variable, power-off
 * longjmps back into the test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shim.h"
#include "tinymm/arch.h"
#include "tinymm/console.h"
#include "tinymm/shell.h"
#include "tinymm/irqflags.h"
#include "tinymm/smp.h"
#include "tinymm/stacktrace.h"

char shim_console[1 << 16];
size_t shim_console_len;
static const char *input;

void shim_console_reset(void)
{
	shim_console_len = 0;
	shim_console[0] = '\0';
}

void shim_console_input(const char *s)
{
	input = s;
}

void console_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n && shim_console_len + 1 < sizeof(shim_console); i++)
		shim_console[shim_console_len++] = s[i];
	shim_console[shim_console_len] = '\0';
}

int console_getc(void)
{
	return input && *input ? (unsigned char)*input++ : -1;
}

int console_getc_wait(void) { return console_getc(); }
void console_rx_irq(bool on) { (void)on; }
int console_setup(const char *compatible, uintptr_t base, unsigned shift) { return 0; }
const char *console_name(void) { return "shim"; }
uintptr_t console_base(void) { return 0; }
const struct uart_driver *uart_find_driver(const char *l, int len) { return NULL; }

const char arch_name[] = "host";
uint64_t shim_counter, shim_counter_freq;
void arch_early_init(void) {}
uint64_t arch_counter_read(void) { return shim_counter; }
uint64_t arch_counter_freq(void) { return shim_counter_freq; }
void arch_cpu_relax(void) {}
/* No threads in most host tests: preempt_enable() reaching 0 has nobody to switch to.  Weak:
 * tests linking the kernel core (kernel/sched.c) get the real one. */
__attribute__((weak)) void preempt_schedule(void) {}

jmp_buf shim_poweroff_jmp;
int shim_poweroff_armed, shim_poweroff_status = -1;

void arch_poweroff(int status)
{
	shim_poweroff_status = status;
	if (shim_poweroff_armed)
		longjmp(shim_poweroff_jmp, 1);
	fprintf(stderr, "shim: unexpected power-off with status %d\n", status);
	abort();
}

void *shim_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "shim: cannot open %s\n", path);
		abort();
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *buf = malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	*len = (size_t)n;
	return buf;
}

char *shim_read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long n = -1;

	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (text = malloc((size_t)n + 1)) && fread(text, 1, (size_t)n, f) == (size_t)n) {
		text[n] = '\0';
		fclose(f);
		return text;
	}
	fprintf(stderr, "cannot read %s\n", path);
	exit(2);
}

/* No symbol table and no kernel stack on the host: backtraces print just their first frame. */
const uint32_t kallsyms_num = 0;
const unsigned long kallsyms_addrs[1];
const uint32_t kallsyms_sizes[1], kallsyms_offs[1];
const char kallsyms_names[1];
/* A real boot stack (1 MiB, in .bss, unknown to ASan as a global so it has no red zones): the
 * kernel core's host tests run the idle thread on it (tests/host/host_sched_arch.c). */
__asm__(".bss\n"
	".balign 16\n"
	".globl __boot_stack_bottom\n"
	"__boot_stack_bottom:\n"
	".skip 1048576\n"
	".globl __boot_stack_top\n"
	"__boot_stack_top:\n"
	".previous\n");
void arch_mm_init(void) {}
int arch_unwind_frame(struct stackframe *f, unsigned long lo, unsigned long hi) { return -1; }

int shim_run(const char *cmd)
{
	char line[SHELL_LINE_MAX];

	snprintf(line, sizeof(line), "%s", cmd);
	shim_console_reset();
	return shell_exec(__shell_cmds_start, __shell_cmds_end, line);
}

/*
 * kernel/smp.c's masks and on_each_cpu() for the host, where a test is one CPU: the call runs
 * on the caller with interrupts masked, as v6.10's on one CPU.  Weak: an SMP host test that
 * plays several CPUs with threads brings its own.
 */
__attribute__((weak)) struct cpumask __cpu_possible_mask = { 1 }, __cpu_online_mask = { 1 };
__attribute__((weak)) unsigned int nr_cpu_ids = 1;

__attribute__((weak)) void on_each_cpu(smp_call_func_t func, void *info, bool wait)
{
	unsigned long flags;

	(void)wait;
	local_irq_save(flags);
	func(info);
	local_irq_restore(flags);
}

/* panic() on the host: no other CPU to stop, and a second panicking CPU cannot happen. */
__attribute__((weak)) void smp_send_stop(void)
{
}

__attribute__((weak)) __noreturn void panic_smp_self_stop(void)
{
	abort();
}

/* No other CPU on the host: nobody to call (the caller is never in the mask's targets). */
__attribute__((weak)) void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
						  void *info, bool wait)
{
	(void)mask, (void)func, (void)info, (void)wait;
}

/* lockdep's stack reclaim on an SMP host build without kernel/sched.c (host.smp_mm): every
 * task may be running, so no stack is taken from under one. */
struct task_struct;
__attribute__((weak)) bool task_curr(const struct task_struct *p)
{
	(void)p;
	return true;
}

/* ktest_run()'s pin to CPU 0 on an SMP host build without kernel/sched.c: nothing to move. */
struct cpumask;
__attribute__((weak)) int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *mask)
{
	(void)p, (void)mask;
	return 0;
}
