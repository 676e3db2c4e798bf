/*
 * signal.c - signal names for messages (`exec`'s "killed by signal 11 (SIGSEGV)"), and the one
 * signal raised inside a system call to be delivered at its end: memory_failure()'s SIGBUS for
 * an action-required caller (force_sig_mceerr; include/tinymm/signal.h).
 */
#include "tinymm/kernel.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/signal.h"
#include "tinymm/user_task.h"

static const char *const names[] = {
	[SIGILL] = "SIGILL", [SIGTRAP] = "SIGTRAP", [SIGABRT] = "SIGABRT", [SIGBUS] = "SIGBUS",
	[SIGFPE] = "SIGFPE", [SIGKILL] = "SIGKILL", [SIGSEGV] = "SIGSEGV",
};

const char *signal_name(int sig)
{
	if (sig > 0 && sig < (int)ARRAY_SIZE(names) && names[sig])
		return names[sig];
	return "SIG?";
}

void force_sig_mceerr(int code, unsigned long addr)
{
	current->mce_code = code;
	current->mce_addr = addr;
}

/* v6.10 delivers on the way back to user mode; without handlers the default action ends the
 * task, said as v6.10's show_unhandled_signals line says it (the RISC-V do_trap words). */
void force_sig_deliver_pending(void)
{
	if (!current->mce_code)
		return;
	printk(KERN_INFO "%s[%d]: unhandled signal %d code 0x%x at 0x%lx\n", current->comm,
	       current->pid, SIGBUS, current->mce_code, current->mce_addr);
	current->mce_code = 0;
	do_exit(SIGBUS);
}
