/*
 * swapon_cmd.c - the shell's `swapon <dev>`, `swapoff <dev>` (swapon(8)/swapoff(8) on one
 * device, "vdb" or "/dev/vdb") and `swaps` (/proc/swaps).  mm/swapon.c does the work and
 * prints the one-line reason of a refusal ("swapon: vdb: Device or resource busy"); the
 * commands return 1 then.  docs/swap.md.
 * Locking: none of its own.
 */
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/swapfile.h"

static int cmd_swapon(int argc, char **argv)
{
	if (argc != 2)
		return shell_usage_error(argv[0], "usage: swapon <dev>");
	return sys_swapon(argv[1]) ? 1 : 0;
}
SHELL_COMMAND(swapon, "<dev>", "swap on a block device mkswap prepared (vdb, /dev/vdb)", cmd_swapon);

static int cmd_swapoff(int argc, char **argv)
{
	if (argc != 2)
		return shell_usage_error(argv[0], "usage: swapoff <dev>");
	return sys_swapoff(argv[1]) ? 1 : 0;
}
SHELL_COMMAND(swapoff, "<dev>", "bring a swap area's pages back in and stop swapping to it", cmd_swapoff);

static int cmd_swaps(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	swap_show(kprintf);
	return 0;
}
SHELL_COMMAND(swaps, "", "swap areas (as /proc/swaps)", cmd_swaps);
