/*
 * fault.c - the `fault` shell command: a deliberate bad access, to show (and test) what a trap
 * report looks like.  `fault read|write|exec <addr>`; an access that does not trap (the address
 * was valid) is reported as such and fails the command.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"

static int cmd_fault(int argc, char **argv)
{
	unsigned long long addr;

	if (argc != 3 || kstrtoull(argv[2], &addr) || addr > (uintptr_t)-1)
		return shell_usage_error(argv[0], "usage: fault read|write|exec <address>");
	uintptr_t a = (uintptr_t)addr;
	kprintf("fault: %s at 0x%lx\n", argv[1], (unsigned long)a);
	if (!strcmp(argv[1], "read")) {
		unsigned long v = *(volatile unsigned long *)a;
		kprintf("fault: read 0x%lx without a trap\n", v);
	} else if (!strcmp(argv[1], "write")) {
		*(volatile unsigned long *)a = 0x5a5a5a5aUL;
		kprintf("fault: wrote without a trap\n");
	} else if (!strcmp(argv[1], "exec")) {
		void (*fn)(void) = (void (*)(void))a;
		fn();
		kprintf("fault: returned from 0x%lx without a trap\n", (unsigned long)a);
	} else {
		return shell_usage_error(argv[0], "usage: fault read|write|exec <address>");
	}
	return 1;
}
SHELL_COMMAND(fault, "read|write|exec <addr>", "make a deliberate bad access (shows a trap report)",
	      cmd_fault);
