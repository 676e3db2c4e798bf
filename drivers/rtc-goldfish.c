/*
 * rtc-goldfish.c - just enough of QEMU's Goldfish RTC to raise a level interrupt on purpose and
 * to read the wall clock for file timestamps
 * (include/tinymm/rtc-goldfish.h).  Registers (QEMU hw/rtc/goldfish_rtc.c), 32 bits each:
 *   0x00 TIME_LOW  0x04 TIME_HIGH        nanoseconds (reading LOW latches HIGH)
 *   0x08 ALARM_LOW                       writing it arms the alarm at ALARM_HIGH:ALARM_LOW; an
 *   0x0c ALARM_HIGH                      alarm at or before now fires at once
 *   0x10 IRQ_ENABLED  0x14 CLEAR_ALARM  0x18 ALARM_STATUS  0x1c CLEAR_INTERRUPT
 * The line is (alarm fired) && IRQ_ENABLED, level, until CLEAR_INTERRUPT.
 * The device is found in the boot device tree at every call (tests only; cheap enough).
 * Portable C: readl/writel only.  Locking: none; the caller serialises (one test at a time).
 */
#include "tinymm/io.h"
#include "tinymm/arch.h"
#include "tinymm/devicetree.h"
#include "tinymm/errno.h"
#include "tinymm/fdt.h"
#include "tinymm/irq.h"
#include "tinymm/rtc-goldfish.h"

#define RTC_TIME_LOW		0x00
#define RTC_TIME_HIGH		0x04
#define RTC_ALARM_LOW		0x08
#define RTC_ALARM_HIGH		0x0c
#define RTC_IRQ_ENABLED		0x10
#define RTC_CLEAR_ALARM		0x14
#define RTC_CLEAR_INTERRUPT	0x1c

/* The device's node, its registers mapped once (the first call) in *base; -1 if there is none. */
static int goldfish_rtc_find(uintptr_t *base)
{
	static uintptr_t mapped;
	const struct dt *dt = boot_dt();
	int node = dt ? dt_find_compatible(dt, -1, "google,goldfish-rtc") : -1;
	uint64_t addr, size;

	if (node < 0 || dt_address(dt, node, 0, &addr, &size) || size < 0x20)
		return -1;
	if (!mapped)
		mapped = (uintptr_t)ioremap(addr, (size_t)size);
	if (!mapped)
		return -1;
	*base = mapped;
	return node;
}

/* The wall clock, nanoseconds since 1970 (TIME_LOW first: reading it latches TIME_HIGH).
 * Mapped for the one read and unmapped again: the first
 * file timestamp comes at boot, and vmalloc's first-fit addresses stay what they were. */
int goldfish_rtc_read_ns(uint64_t *ns)
{
	const struct dt *dt = boot_dt();
	int node = dt ? dt_find_compatible(dt, -1, "google,goldfish-rtc") : -1;
	uint64_t addr, size;
	uint32_t lo, hi;

	if (node < 0 || dt_address(dt, node, 0, &addr, &size) || size < 0x20)
		return -ENOENT;
	void __iomem *base = ioremap(addr, (size_t)size);
	if (!base)
		return -ENOMEM;
	lo = readl((uintptr_t)base + RTC_TIME_LOW);
	hi = readl((uintptr_t)base + RTC_TIME_HIGH);
	iounmap(base);
	*ns = (uint64_t)hi << 32 | lo;
	return 0;
}

int goldfish_rtc_fire_alarm(void)
{
	uintptr_t base;

	if (goldfish_rtc_find(&base) < 0)
		return -ENOENT;
	writel(1, base + RTC_IRQ_ENABLED);
	writel(0, base + RTC_ALARM_HIGH);
	writel(0, base + RTC_ALARM_LOW);	/* time 0: long past, fires now */
	return 0;
}

int goldfish_rtc_clear(void)
{
	uintptr_t base;

	if (goldfish_rtc_find(&base) < 0)
		return -ENOENT;
	writel(0, base + RTC_IRQ_ENABLED);
	writel(1, base + RTC_CLEAR_ALARM);
	writel(1, base + RTC_CLEAR_INTERRUPT);
	return 0;
}

unsigned int goldfish_rtc_irq(void)
{
	uintptr_t base;
	int node = goldfish_rtc_find(&base);

	return node < 0 ? 0 : irq_of_parse_and_map(boot_dt(), node, 0);
}
