/*
 * rtc.c - the wall clock, from whichever real-time clock the device tree has: the Goldfish RTC
 * (QEMU's RISC-V virt, nanoseconds) or the PL031 (QEMU's ARM virt, seconds).  The VFS reads it
 * once (fs/inode.c's current_time) and advances it with the kernel clock.
 */
#include "tinymm/errno.h"
#include "tinymm/rtc.h"
#include "tinymm/rtc-goldfish.h"

int rtc_read_ns(uint64_t *ns)
{
	if (!goldfish_rtc_read_ns(ns))
		return 0;
	if (!pl031_rtc_read_ns(ns))
		return 0;
	return -ENOENT;
}
