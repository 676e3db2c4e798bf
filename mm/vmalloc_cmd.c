/*
 * vmalloc_cmd.c - vmalloc's shell commands, for poking it by hand: `vmalloc <KiB>` (the area is
 * kept until `vfree`), `vfree <addr>`, `vmallocinfo` (/proc/vmallocinfo's lines) and
 * `vmalloccheck` (vmalloc_check(): areas sorted, disjoint and inside the range, guard pages
 * unmapped, every page mapped where it belongs).
 * Locking: none of its own; each command calls mm/vmalloc.c as any caller does.
 *
 * Where tinymm differs from v6.10, and why: Linux has no such commands (test_vmalloc.ko drives
 * vmalloc from a module); these give a person at the console the same handles.  `vmalloc <KiB> nc`
 * maps the area write-combining (pgprot_writecombine: ARM Normal non-cacheable, RISC-V PBMT NC),
 * its pages PG_uncached while it lasts, or is refused where the CPU has no such type.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/vmalloc.h"

/* The largest request: more than RAM could ever back on a 32-bit board, so a typo fails fast
 * with the usage line instead of a long allocation that ends in the failure warning. */
#define VMALLOC_CMD_MAX_KIB	(1UL << 22)

static int cmd_vmalloc(int argc, char **argv)
{
	unsigned long kib;
	bool nc = argc == 3 && !strcmp(argv[2], "nc");

	if (argc < 2 || argc > 3 || (argc == 3 && !nc) || kstrtoul(argv[1], &kib) || !kib ||
	    kib > VMALLOC_CMD_MAX_KIB)
		return shell_usage_error(argv[0], "usage: vmalloc <KiB> (1-4194304) [nc]");
	void *p = nc ? __vmalloc_prot(kib << 10, GFP_KERNEL, pgprot_writecombine(PAGE_KERNEL)) :
		       vmalloc(kib << 10);
	if (!p) {
		kprintf("vmalloc: %lu KiB failed (see above)\n", kib);
		return 1;
	}
	const struct vm_struct *vm = find_vm_area(p);
	kprintf("vmalloc: %#lx-%#lx pages=%u\n", (unsigned long)p,
		(unsigned long)p + get_vm_area_size(vm), vm->nr_pages);
	return 0;
}
SHELL_COMMAND(vmalloc, "<KiB> [nc]", "map pages at a free vmalloc range, nc: write-combining (kept until `vfree`)",
	      cmd_vmalloc);

static int cmd_vfree(int argc, char **argv)
{
	unsigned long addr;

	if (argc != 2 || kstrtoul(argv[1], &addr))
		return shell_usage_error(argv[0], "usage: vfree <addr>");
	const struct vm_struct *vm = find_vm_area((const void *)addr);
	/* vfree() itself warns and frees nothing on anything but an area's start: say so here
	 * too, in the command's own words, so a script sees which command failed. */
	if (!vm || vm->addr != (void *)addr || !(vm->flags & VM_ALLOC)) {
		vfree((const void *)addr);
		kprintf("vfree: %#lx is not the start of a vmalloc area: nothing freed\n", addr);
		return 1;
	}
	vfree((const void *)addr);
	return 0;
}
SHELL_COMMAND(vfree, "<addr>", "free what `vmalloc` gave out", cmd_vfree);

static int cmd_vmallocinfo(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	show_vmalloc_info(kprintf);
	return 0;
}
SHELL_COMMAND(vmallocinfo, "", "vmalloc areas (as /proc/vmallocinfo)", cmd_vmallocinfo);

static int cmd_vmalloccheck(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	int problems = vmalloc_check(kprintf);
	if (problems) {
		kprintf("vmalloccheck: FAILED (%d problems)\n", problems);
		return 1;
	}
	kprintf("vmalloccheck: ok (0 problems)\n");
	return 0;
}
SHELL_COMMAND(vmalloccheck, "", "check vmalloc's areas and their mappings", cmd_vmalloccheck);
