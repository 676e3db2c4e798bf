/*
 * stacktrace.c - walks the frame-pointer chain and prints it with function names.
 *
 * Invariant: every frame pointer followed is checked against the bounds of the stack it claims
 * to be on, and must grow towards the stack's top, so a corrupt chain ends the trace instead of
 * faulting inside the fault handler.  Locking: none; reads the current stack only.
 */
#include "tinymm/kallsyms.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/sections.h"
#include "tinymm/stacktrace.h"

#define MAX_FRAMES 32

bool stack_bounds(unsigned long fp, unsigned long *lo, unsigned long *hi)
{
	/* The running thread's stack (the idle thread's is the boot stack). */
	unsigned long b = (unsigned long)__boot_stack_bottom, t = (unsigned long)__boot_stack_top;

	struct task_struct *p = get_current();

	if (p && p->stack) {
		b = (unsigned long)p->stack;
		t = b + p->stack_size;
	}
	if (fp < b || fp > t)
		return false;
	*lo = b;
	*hi = t;
	return true;
}

/*
 * A return address points after its call; a call as the last instruction of a noreturn caller
 * then points into the next function, so the name is looked up at pc - 1 (Linux's %pB).
 */
static void print_frame(unsigned long pc, bool is_return)
{
	char sym[96];
	unsigned long off, size;
	const char *name = kallsyms_lookup(pc - is_return, &off, &size);

	if (name)
		ksnprintf(sym, sizeof(sym), "%s+0x%lx/0x%lx", name, off + is_return, size);
	else
		ksnprintf(sym, sizeof(sym), "?");
	printk(KERN_EMERG " [<%0*lx>] %s\n", (int)sizeof(long) * 2, pc, sym);
}

void show_stack(const struct stackframe *start)
{
	struct stackframe f = *start;
	unsigned long lo, hi;

	printk(KERN_EMERG "Call trace:\n");
	print_frame(f.pc, false);
	if (!stack_bounds(f.fp, &lo, &hi))
		return;
	for (int n = 1; n < MAX_FRAMES; n++) {
		if (arch_unwind_frame(&f, lo, hi))
			return;
		print_frame(f.pc, true);
	}
	printk(KERN_EMERG " ... (more frames)\n");
}
