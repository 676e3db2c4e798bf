/*
 * printk.c - kernel log lines and bare console output.
 *
 * printk() formats into a line buffer, drops messages at or above console_loglevel, and
 * prefixes each line with "[seconds.micros] " as Linux does.  kprintf() is the same path without
 * the prefix and the level: shell output and KTAP use it because their text is a contract.
 * Every message, shown or not, also goes to a ring (the log buffer) that `dmesg` prints.
 * Locking: each message is stored and written with interrupts masked under the console lock,
 * so messages from threads, interrupt handlers and other CPUs never interleave.  The lock is
 * a bare ticket lock that knows its owner CPU and is not taken again by it: a fault inside
 * printk prints its report without deadlocking (v6.10's printk_cpu_sync has the same rule).
 */
#include <string.h>
#include "tinymm/console.h"
#include "tinymm/irqflags.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/smp.h"
#include "tinymm/spinlock.h"
#include "tinymm/time.h"

int console_loglevel = 7;

#define LOG_BUF_SIZE 8192
static char log_buf[LOG_BUF_SIZE];
static size_t log_head;		/* total bytes ever written; ring index is log_head % size */

static void log_store(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		log_buf[(log_head + i) % LOG_BUF_SIZE] = s[i];
	log_head += n;
}

/* Copies the log ring, oldest byte first, to @out (for `dmesg`; the oldest line may be cut). */
void log_buf_dump(void (*out)(const char *s, size_t n))
{
	size_t n = log_head < LOG_BUF_SIZE ? log_head : LOG_BUF_SIZE;
	size_t start = (log_head - n) % LOG_BUF_SIZE;
	size_t first = min(n, LOG_BUF_SIZE - start);

	out(log_buf + start, first);
	out(log_buf, n - first);
}

static bool line_start = true;	/* the next character begins a new log line */

static arch_spinlock_t console_lock = __ARCH_SPIN_LOCK_UNLOCKED;
static int console_owner = -1;	/* the holder's CPU */

/* Interrupts masked, and the console lock unless this CPU already holds it (false then). */
static bool console_lock_irqsave(unsigned long *flags)
{
	int cpu;

	local_irq_save(*flags);
	cpu = raw_smp_processor_id();
	if (READ_ONCE(console_owner) == cpu)
		return false;
	arch_spin_lock(&console_lock);
	WRITE_ONCE(console_owner, cpu);
	return true;
}

static void console_unlock_irqrestore(bool locked, unsigned long flags)
{
	if (locked) {
		WRITE_ONCE(console_owner, -1);
		arch_spin_unlock(&console_lock);
	}
	local_irq_restore(flags);
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	static int last_level = LOGLEVEL_DEFAULT;
	int level = LOGLEVEL_DEFAULT;
	int n;

	if (fmt[0] == KERN_SOH[0] && fmt[1] >= '0' && fmt[1] <= '7') {
		level = fmt[1] - '0';
		fmt += 2;
	} else if (fmt[0] == KERN_SOH[0] && fmt[1] == 'c') {
		level = last_level;
		fmt += 2;
	}
	last_level = level;
	n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;

	char ts[24] = "";
	unsigned long flags;
	bool locked = console_lock_irqsave(&flags);
	if (line_start) {
		uint64_t ns = ktime_get_ns();
		ksnprintf(ts, sizeof(ts), "[%5llu.%06llu] ", (unsigned long long)(ns / NSEC_PER_SEC),
			  (unsigned long long)(ns % NSEC_PER_SEC / 1000));
	}
	line_start = n > 0 && buf[n - 1] == '\n';
	log_store(ts, strlen(ts));
	log_store(buf, (size_t)n);
	if (level < console_loglevel) {
		console_write(ts, strlen(ts));
		console_write(buf, (size_t)n);
	}
	console_unlock_irqrestore(locked, flags);
	return n;
}

void console_write_atomic(const char *s, size_t n)
{
	unsigned long flags;
	bool locked = console_lock_irqsave(&flags);

	console_write(s, n);
	console_unlock_irqrestore(locked, flags);
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

int vkprintf(const char *fmt, va_list ap)
{
	char buf[512];
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);

	/* One call prints at most one buffer; callers print long things (dtb values) in parts. */
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	unsigned long flags;
	bool locked = console_lock_irqsave(&flags);
	console_write(buf, (size_t)n);
	console_unlock_irqrestore(locked, flags);
	return n;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vkprintf(fmt, ap);
	va_end(ap);
	return n;
}

static int cmd_dmesg(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	log_buf_dump(console_write);
	return 0;
}
SHELL_COMMAND(dmesg, "", "print the kernel log, messages below the console level included", cmd_dmesg);
