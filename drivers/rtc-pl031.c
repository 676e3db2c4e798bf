/*
 * rtc-pl031.c - the ARM PrimeCell PL031 real-time clock ("arm,pl031", QEMU virt's at
 * 0x09010000): one 32-bit counter of seconds since 1970 in RTCDR (offset 0), which the
 * platform (QEMU: the host's clock) keeps running.  Only read: the wall clock for file times
 * (rtc_read_ns(), drivers/rtc.c).  Linux v6.10 drivers/rtc/rtc-pl031.c, reduced to the read.
 * Where tinymm differs from v6.10, and why: no alarm, no setting the time, no ST variant.
 */
#include "tinymm/io.h"
#include "tinymm/arch.h"
#include "tinymm/devicetree.h"
#include "tinymm/errno.h"
#include "tinymm/fdt.h"
#include "tinymm/rtc.h"

#define RTCDR	0x00	/* data: seconds */

int pl031_rtc_read_ns(uint64_t *ns)
{
	static uintptr_t base;
	const struct dt *dt = boot_dt();
	uint64_t addr, size;

	if (!base) {
		int node = dt ? dt_find_compatible(dt, -1, "arm,pl031") : -1;
		if (node < 0 || dt_address(dt, node, 0, &addr, &size) || size < 4)
			return -ENOENT;
		base = (uintptr_t)ioremap(addr, 0x1000);
		if (!base)
			return -ENOENT;
	}
	*ns = (uint64_t)readl(base + RTCDR) * 1000000000ULL;
	return 0;
}
