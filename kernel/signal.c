/*
 * signal.c - signal names for messages (`exec`'s "killed by signal 11 (SIGSEGV)").
 */
#include "tinymm/kernel.h"
#include "tinymm/signal.h"

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
