/*
 * bcm2835_wdt.c - the BCM2835 power-management block's watchdog ("brcm,bcm2835-pm-wdt"), the
 * Raspberry Pi's only way to power off: as Linux's bcm2835_power_off(), mark the reset as a halt
 * (the boot partition number 63 in PM_RSTS, which bootcode.bin reads after the reset and then
 * stops instead of booting) and let the watchdog reset the SoC after 10 ticks (~150 us).
 * The board draws power still; it is halted, which is all "power off" means on a Pi.  QEMU's
 * model (hw/misc/bcm2835_powermgt.c) ends the emulation on that reset.  It carries no status,
 * so it is pm_power_off, tried only after semihosting (arch_poweroff()).
 * Registers (every write carries the password 0x5a in the top byte): PM_RSTC 0x1c (WRCFG bits
 * 5:4, 2 = full reset), PM_RSTS 0x20 (the partition bits 0, 2, 4, 6, 8, 10), PM_WDOG 0x24 (ticks).
 * Mapped through the fixmap's FIX_POWEROFF slot, so power-off works whatever state the kernel
 * is in.  Only a node marked "system-power-controller" is used, as in Linux.
 */
#include "tinymm/arch.h"
#include "tinymm/delay.h"
#include "tinymm/fdt.h"
#include "tinymm/fixmap.h"
#include "tinymm/power.h"
#include "tinymm/printk.h"

#define PM_RSTC			0x1c
#define PM_RSTS			0x20
#define PM_WDOG			0x24
#define PM_PASSWORD		0x5a000000u
#define PM_RSTC_WRCFG_CLR	0xffffffcfu
#define PM_RSTC_WRCFG_FULL_RESET 0x00000020u
#define PM_RSTS_PARTITION_HALT	0x00000555u	/* partition 63, spread over the even bits */
#define PM_WDOG_TICKS		10

static uintptr_t pm_base;

static void bcm2835_power_off(void)
{
	uint32_t v = readl(pm_base + PM_RSTS);

	writel(PM_PASSWORD | (v & 0x00ffffffu) | PM_RSTS_PARTITION_HALT, pm_base + PM_RSTS);
	writel(PM_PASSWORD | PM_WDOG_TICKS, pm_base + PM_WDOG);
	v = readl(pm_base + PM_RSTC);
	writel(PM_PASSWORD | (v & PM_RSTC_WRCFG_CLR & 0x00ffffffu) | PM_RSTC_WRCFG_FULL_RESET,
	       pm_base + PM_RSTC);
	mdelay(100);		/* the reset comes after ~150 us; QEMU ends within a few ms */
}

int bcm2835_wdt_init(const struct dt *dt)
{
	int node = dt_find_compatible(dt, -1, "brcm,bcm2835-pm-wdt");
	uint64_t base, size;

	if (node < 0)
		node = dt_find_compatible(dt, -1, "brcm,bcm2835-pm");
	if (node < 0 || !dt_getprop(dt, node, "system-power-controller", NULL))
		return -1;
	if (dt_address(dt, node, 0, &base, &size) || size < PM_WDOG + 4) {
		pr_warn("bcm2835-wdt: %s: no usable reg: power-off has no watchdog\n",
			dt_node_name(dt, node));
		return -1;
	}
	pm_base = set_fixmap_offset_io(FIX_POWEROFF, base);
	pm_power_off = bcm2835_power_off;
	return 0;
}
