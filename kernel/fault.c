/*
 * fault.c - the `fault` shell command: a deliberate bad access, to show (and test) what a trap
 * report looks like.  `fault read|write|exec <addr>`; an access that does not trap (the address
 * was valid) is reported as such and fails the command.  `fault stack` overflows the running
 * thread's stack (fault_exhaust_stack(), include/tinymm/fault.h).
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/fault.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shell.h"

#define FAULT_USAGE	"usage: fault read|write|exec <address> | fault stack"
#define REC_STACK_SIZE	1024	/* v6.10 lkdtm's THREAD_SIZE / 8, for 8 KiB stacks */

static volatile int rec_sink;

/*
 * v6.10 lkdtm's recursive_loop(): a 1 KiB frame filled on every call (volatile: it cannot be
 * dropped), used after the call returns (so the call is not a tail call the compiler could turn
 * into a loop), noinline (not folded into one frame).  Less than a page per frame, so the store
 * that leaves the stack lands in the guard page and not past it.
 */
static __attribute__((noinline)) int recursive_loop(int remaining)
{
	volatile char buf[REC_STACK_SIZE];

	for (size_t i = 0; i < sizeof(buf); i += sizeof(long))
		*(volatile long *)&buf[i] = remaining;
	if (remaining)
		rec_sink = recursive_loop(remaining - 1);
	return buf[remaining % REC_STACK_SIZE] + rec_sink;
}

void fault_exhaust_stack(void)
{
	struct task_struct *p = current;
	unsigned long lo = (unsigned long)p->stack;

	if (!p->stack_vm_area) {
		kprintf("fault: stack: thread '%s' has no guard page below its stack (not from vmalloc): refused\n",
			p->comm);
		return;
	}
	kprintf("fault: stack: recursing in '%s' (pid %d), stack [0x%lx-0x%lx), guard page 0x%lx\n",
		p->comm, p->pid, lo, lo + p->stack_size, lo - PAGE_SIZE);
	/* Twice the stack's size in frames: this overflows long before it returns. */
	recursive_loop((int)(2 * p->stack_size / REC_STACK_SIZE));
	kprintf("fault: stack: returned without a trap\n");
}

static int cmd_fault(int argc, char **argv)
{
	unsigned long long addr;

	if (argc == 2 && !strcmp(argv[1], "stack")) {
		fault_exhaust_stack();
		return 1;
	}
	if (argc != 3 || kstrtoull(argv[2], &addr) || addr > (uintptr_t)-1)
		return shell_usage_error(argv[0], FAULT_USAGE);
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
		return shell_usage_error(argv[0], FAULT_USAGE);
	}
	return 1;
}
SHELL_COMMAND(fault, "read|write|exec <addr> | stack",
	      "make a deliberate bad access or stack overflow (shows a trap report)", cmd_fault);
