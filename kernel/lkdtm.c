/*
 * lkdtm.c - `lkdtm <TEST>`: Linux's Kernel Dump Test Module crash tests, by their v6.10 names,
 * run directly (Linux's /sys/kernel/debug/provoke-crash/DIRECT).  Each test makes one access
 * the memory protections must stop (docs/mmu.md, "lkdtm"): a write to read-only data or to
 * kernel text, execution of data, stack, kmalloc, vmalloc or rodata memory, a NULL access, a
 * stack overflow.  Success is a trap report naming the fault and the address, then the panic
 * and a non-zero power-off (arch/<arch>/traps.c), as for `fault`.  A test whose access returns
 * prints Linux's "FAIL" line and the command fails; `lkdtm` alone lists the tests.
 *
 * The tests follow v6.10's drivers/misc/lkdtm/perms.c and bugs.c and print their lines.  Where
 * tinymm differs:
 *   - EXEC_* copy do_nothing()'s bytes with a plain copy and flush_icache_range(); a function
 *     pointer here is the code address itself (no descriptors), except that a Thumb function's
 *     has bit 0 set, which func_text()/func_at() strip and put back (the boards build -marm).
 *   - WRITE_KERN copies byte by byte through a volatile pointer, so the first store, the one
 *     that faults, is at do_overwritten() itself.
 *   - lkdtm_perms_init() is called by kmain before the first thread (v6.10: an initcall).
 *   - EXHAUST_STACK recurses through fault_exhaust_stack() (1 KiB frames, to twice the *current*
 *     thread's stack: the shell's is 16 KiB), v6.10's frame being CONFIG_FRAME_WARN / 2 and its
 *     depth from THREAD_SIZE; on a stack with no guard page it refuses instead.
 * Locking: none; each test runs in the shell's thread.
 */
#define pr_fmt(fmt) "lkdtm: " fmt

#include <string.h>
#include "tinymm/cache.h"
#include "tinymm/cacheflush.h"
#include "tinymm/fault.h"
#include "tinymm/gfp.h"
#include "tinymm/lkdtm.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/sections.h"
#include "tinymm/shell.h"
#include "tinymm/slab.h"
#include "tinymm/vmalloc.h"

/* How many bytes to copy to be sure all of do_nothing() is there (v6.10's EXEC_SIZE). */
#define EXEC_SIZE	64

/* Writable, so in .bss: mapped read/write and execute-never.  Aligned for any instruction set. */
static unsigned char data_area[EXEC_SIZE] __attribute__((aligned(16)));

/* const, so in .rodata: mapped read-only. */
static const unsigned long rodata = 0xAA55AA55;

/*
 * The code EXEC_* copy: it only returns, and uses no PC-relative data.  noipa keeps GCC from
 * dropping the calls to it (it has no effect) or folding it into another empty function.
 */
static __attribute__((noinline, noipa)) void do_nothing(void)
{
}

/* WRITE_KERN's target.  v6.10 wants it right after do_nothing(), the distance being the size
 * to copy; GCC may place other functions of this file between them, which only makes it longer. */
static __attribute__((noinline, noipa)) void do_overwritten(void)
{
	pr_info("do_overwritten wasn't overwritten!\n");
}

/* The first instruction of @fn (a Thumb function pointer carries bit 0; RISC-V's never do). */
static void *func_text(void (*fn)(void))
{
	return (void *)((uintptr_t)fn & ~(uintptr_t)1);
}

/* A pointer that calls the code at @dst in do_nothing()'s instruction set (v6.10's
 * setup_function_descriptor()). */
static void (*func_at(void *dst))(void)
{
	return (void (*)(void))((uintptr_t)dst | ((uintptr_t)do_nothing & 1));
}

/* Run do_nothing() in place, then (CODE_WRITE) a copy of it at @dst, or (CODE_AS_IS) whatever
 * @dst holds: the call must trap with an instruction-fetch fault at @dst. */
enum { CODE_AS_IS, CODE_WRITE };
static __attribute__((noinline)) void execute_location(void *dst, int write)
{
	void *do_nothing_text = func_text(do_nothing);

	pr_info("attempting ok execution at %p\n", do_nothing_text);
	do_nothing();

	if (write == CODE_WRITE) {
		memcpy(dst, do_nothing_text, EXEC_SIZE);
		flush_icache_range((unsigned long)dst, (unsigned long)dst + EXEC_SIZE);
	}
	pr_info("attempting bad execution at %p\n", dst);
	func_at(dst)();
	pr_err("FAIL: func returned\n");
}

static void lkdtm_WRITE_RO(void)
{
	/* Cast the const away for the test, and volatile so the store is made. */
	volatile unsigned long *ptr = (volatile unsigned long *)&rodata;

	pr_info("attempting bad rodata write at %p\n", (void *)ptr);
	*ptr ^= 0xabcd1234;
	pr_err("FAIL: survived bad write\n");
}

/* Written once at boot (lkdtm_perms_init()), read-only after it (mark_rodata_ro()). */
static unsigned long ro_after_init __ro_after_init = 0x55AA5500;

void lkdtm_perms_init(void)
{
	ro_after_init |= 0xAA;
}

static void lkdtm_WRITE_RO_AFTER_INIT(void)
{
	volatile unsigned long *ptr = &ro_after_init;

	/* The boot-time write landed, so the variable really was writable during init. */
	if ((*ptr & 0xAA) != 0xAA) {
		pr_info("%p was NOT written during init!?\n", (void *)ptr);
		return;
	}
	pr_info("attempting bad ro_after_init write at %p\n", (void *)ptr);
	*ptr ^= 0xabcd1234;
	pr_err("FAIL: survived bad write\n");
}

static void lkdtm_WRITE_KERN(void)
{
	unsigned char *from = func_text(do_nothing);
	volatile unsigned char *ptr = func_text(do_overwritten);
	size_t size = (size_t)((uintptr_t)ptr - (uintptr_t)from);

	if ((uintptr_t)ptr <= (uintptr_t)from || size > PAGE_SIZE) {
		pr_err("FAIL: do_overwritten at %p does not follow do_nothing at %p\n", (void *)ptr,
		       (void *)from);
		return;
	}
	pr_info("attempting bad %zu byte write at %p\n", size, (void *)ptr);
	for (size_t i = 0; i < size; i++)
		ptr[i] = from[i];
	flush_icache_range((unsigned long)ptr, (unsigned long)(ptr + size));
	pr_err("FAIL: survived bad write\n");

	do_overwritten();
}

static void lkdtm_EXEC_DATA(void)
{
	execute_location(data_area, CODE_WRITE);
}

static void lkdtm_EXEC_STACK(void)
{
	unsigned char stack_area[EXEC_SIZE] __attribute__((aligned(16)));

	execute_location(stack_area, CODE_WRITE);
}

static void lkdtm_EXEC_KMALLOC(void)
{
	void *kmalloc_area = kmalloc(EXEC_SIZE, GFP_KERNEL);

	if (!kmalloc_area) {
		pr_err("FAIL: kmalloc(%d) failed\n", EXEC_SIZE);
		return;
	}
	execute_location(kmalloc_area, CODE_WRITE);
	kfree(kmalloc_area);
}

static void lkdtm_EXEC_VMALLOC(void)
{
	void *vmalloc_area = vmalloc(EXEC_SIZE);

	if (!vmalloc_area) {
		pr_err("FAIL: vmalloc(%d) failed\n", EXEC_SIZE);
		return;
	}
	execute_location(vmalloc_area, CODE_WRITE);
	vfree(vmalloc_area);
}

static void lkdtm_EXEC_RODATA(void)
{
	void *text = func_text(lkdtm_rodata_do_nothing);

	/* Not in rodata, the call would prove nothing about rodata's protection. */
	if ((char *)text < _etext || (char *)text >= _sdata) {
		pr_err("FAIL: lkdtm_rodata_do_nothing at %p is not in .rodata [%p-%p)\n", text,
		       (void *)_etext, (void *)_sdata);
		return;
	}
	execute_location(text, CODE_AS_IS);
}

static void lkdtm_EXEC_NULL(void)
{
	execute_location(NULL, CODE_AS_IS);
}

static void lkdtm_ACCESS_NULL(void)
{
	unsigned long tmp;
	volatile unsigned long *ptr = NULL;

	pr_info("attempting bad read at %p\n", (void *)ptr);
	tmp = *ptr;
	tmp += 0xc0dec0de;
	pr_err("FAIL: survived bad read\n");

	pr_info("attempting bad write at %p\n", (void *)ptr);
	*ptr = tmp;
	pr_err("FAIL: survived bad write\n");
}

/* EXHAUST_STACK (bugs.c): LKDTM's line, then fault_exhaust_stack()'s recursion into the guard. */
void lkdtm_EXHAUST_STACK(void)
{
	pr_info("Calling function with %lu frame size to depth %lu ...\n", 1024UL,
		(unsigned long)(current->stack_size / 1024) * 2);
	fault_exhaust_stack();
	pr_info("FAIL: survived without exhausting stack?!\n");
}

#define CRASHTYPE(name)	{ #name, lkdtm_##name }
/* PANIC (bugs.c): panic() itself; on SMP the other CPUs are stopped and their state printed. */
static void lkdtm_PANIC(void)
{
	panic("dumptest");
}

static const struct crashtype {
	const char *name;
	void (*func)(void);
} crashtypes[] = {
	CRASHTYPE(WRITE_RO),
	CRASHTYPE(WRITE_RO_AFTER_INIT),
	CRASHTYPE(WRITE_KERN),
	CRASHTYPE(EXEC_DATA),
	CRASHTYPE(EXEC_STACK),
	CRASHTYPE(EXEC_KMALLOC),
	CRASHTYPE(EXEC_VMALLOC),
	CRASHTYPE(EXEC_RODATA),
	CRASHTYPE(EXEC_NULL),
	CRASHTYPE(ACCESS_NULL),
	CRASHTYPE(EXHAUST_STACK),
	CRASHTYPE(PANIC),
};

/* Every test is meant to end in a trap: returning at all is the failure. */
static int cmd_lkdtm(int argc, char **argv)
{
	if (argc == 1) {
		kprintf("Available crash types:\n");
		for (size_t i = 0; i < ARRAY_SIZE(crashtypes); i++)
			kprintf("%s\n", crashtypes[i].name);
		return 0;
	}
	if (argc != 2)
		return shell_usage_error(argv[0], "usage: lkdtm [TEST] (no argument: the list)");
	for (size_t i = 0; i < ARRAY_SIZE(crashtypes); i++) {
		if (strcmp(argv[1], crashtypes[i].name))
			continue;
		pr_info("Performing direct entry %s\n", crashtypes[i].name);
		crashtypes[i].func();
		return 1;
	}
	kprintf("lkdtm: unknown test '%s' (lkdtm with no argument lists them)\n", argv[1]);
	return 2;
}
SHELL_COMMAND(lkdtm, "[TEST]", "Linux's LKDTM crash tests: a deliberate fault (none: the list)",
	      cmd_lkdtm);
