/*
 * main.c - kmain(): portable bring-up, the same on every board.
 *
 * Order matters and each step only uses what the previous ones set up:
 *   early console (board's UART) -> device tree validated -> command line -> console from
 *   /chosen/stdout-path -> power-off device -> timer frequency -> memory map (memblock)
 *   -> MMU and caches (arch_mm_init, before any atomic or lock) -> memmap (struct pages)
 *   -> slab -> page tables (paging_init: vmalloc) -> scheduler (this context becomes
 *   idle) -> interrupt controllers -> clock event -> console input interrupt -> workqueue
 *   worker -> the first thread ("ktest" or "shell"), which makes __ro_after_init read-only
 *   (mark_rodata_ro), reads the disks' partition tables, mounts the root and then runs tests (tinymm.test), a script
 *   (tinymm.run) or the interactive shell.
 * A fatal problem (bad DTB, bad memory map) is one line and a power-off with status 1.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/bench.h"
#include "tinymm/blkdev.h"
#include "tinymm/board_config.h"
#include "tinymm/cache.h"
#include "tinymm/cmdline.h"
#include "tinymm/compaction.h"
#include "tinymm/console.h"
#include "tinymm/devicetree.h"
#include "tinymm/fixmap.h"
#include "tinymm/irq.h"
#include "tinymm/sched.h"
#include "tinymm/timer.h"
#include "tinymm/workqueue.h"
#include "tinymm/ktest.h"
#include "tinymm/lkdtm.h"
#include "tinymm/memblock.h"
#include "tinymm/memory.h"
#include "tinymm/mmc.h"
#include "tinymm/mm.h"
#include "tinymm/oom.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pagemap.h"
#include "tinymm/pgtable.h"
#include "tinymm/page_reporting.h"
#include "tinymm/slab.h"
#include "tinymm/smp.h"
#include "tinymm/meminfo.h"
#include "tinymm/power.h"
#include "tinymm/printk.h"
#include "tinymm/sections.h"
#include "tinymm/set_memory.h"
#include "tinymm/shell.h"
#include "tinymm/time.h"
#include "tinymm/version.h"
#include "tinymm/brd.h"
#include "tinymm/virtio.h"
#include "tinymm/swap.h"
#include "tinymm/workingset.h"
#include "tinymm/vfs.h"
#include "tinymm/writeback.h"

void _set_tls(void *tls);	/* picolibc: where errno and friends live */
__noreturn void kmain(unsigned long hartid, uintptr_t dtb_pa);

static __noreturn void boot_fail(const char *reason)
{
	printk(KERN_EMERG "tinymm: %s\n", reason);
	machine_poweroff(1);
}

/* The console UART's device-tree node, for its interrupt; set once while booting. */
static int console_node __ro_after_init = -1;
static phys_addr_t console_phys;	/* its registers' physical address (console_mapbase()) */

phys_addr_t console_mapbase(void) { return console_phys; }

/* The console on the UART at @phys, reached through the fixmap (no ioremap() yet). */
static int console_at(const char *compatible, phys_addr_t phys, unsigned int reg_shift)
{
	console_phys = phys;
	return console_setup(compatible, set_fixmap_offset_io(FIX_EARLYCON_MEM_BASE, phys), reg_shift);
}

/* Console from /chosen/stdout-path ("/path", "alias" or either with ":options"). */
static void console_from_dt(const struct dt *dt)
{
	int chosen = dt_path(dt, "/chosen", 7), node, len;
	const char *path = chosen >= 0 ? dt_getprop_str(dt, chosen, "stdout-path") : NULL;
	const char *compat;
	uint64_t base, size;

	if (!path) {
		pr_warn("console: no /chosen/stdout-path, keeping the board's UART\n");
		return;
	}
	node = dt_path(dt, path, strcspn(path, ":"));
	compat = node >= 0 ? dt_getprop(dt, node, "compatible", &len) : NULL;
	if (!compat || dt_address(dt, node, 0, &base, &size)) {
		pr_warn("console: stdout-path '%s' names no usable device, keeping the board's UART\n", path);
		return;
	}
	const struct uart_driver *d = uart_find_driver(compat, len);
	if (!d) {
		pr_warn("console: no driver for '%s' (%s), keeping the board's UART\n", path, compat);
		return;
	}
	console_at(d->compatible, base, dt_getprop_u32(dt, node, "reg-shift", 0));
	console_node = node;
}

static void poweroff_from_dt(const struct dt *dt)
{
	int node = dt_find_compatible(dt, -1, "sifive,test0");
	uint64_t base, size;

	if (node >= 0 && !dt_address(dt, node, 0, &base, &size))
		poweroff_register(sifive_test_poweroff, set_fixmap_offset_io(FIX_POWEROFF, base));
	else
		bcm2835_wdt_init(dt);
}

/*
 * The ARM generic timer's frequency, as Linux's arch_timer_of_init() decides it: the timer
 * node's clock-frequency when the tree has one (for firmware known to program CNTFRQ wrong),
 * else CNTFRQ as time_init() had it.  On the Orange Pi PC U-Boot writes 24 MHz, the H3's real
 * oscillator, while QEMU's counter ticks at 62.5 MHz: only a tree that says so corrects QEMU.
 */
static void timer_freq_from_dt(const struct dt *dt)
{
	int node = dt_find_compatible(dt, -1, "arm,armv7-timer");
	uint32_t f;

	if (node < 0)
		node = dt_find_compatible(dt, -1, "arm,armv8-timer");
	f = node >= 0 ? dt_getprop_u32(dt, node, "clock-frequency", 0) : 0;
	if (f && f != time_counter_freq()) {
		pr_info("arch_timer: clock-frequency %u Hz from the device tree, not CNTFRQ's %llu Hz\n",
			(unsigned)f, (unsigned long long)time_counter_freq());
		time_init(f);
	}
}

static void cpu_info(const struct dt *dt, unsigned long hartid)
{
	int cpus = dt_path(dt, "/cpus", 5), boot = dt_boot_cpu_node(dt, hartid);
	uint32_t tb = cpus >= 0 ? dt_getprop_u32(dt, cpus, "timebase-frequency", 0) : 0;
	int ncpus = 0;
	/* RISC-V hart ids are small numbers; ARM's are MPIDR affinity fields (0xf00 on the
	 * BCM2836), which read best in hex, as the tree's cpu@f00 writes them. */
	char id[24];

	ksnprintf(id, sizeof(id), hartid < 10 ? "%lu" : "%#lx", hartid);
	if (!time_counter_freq() && tb)
		time_init(tb);
	for (int n = cpus >= 0 ? dt_first_child(dt, cpus) : -1; n >= 0; n = dt_next_sibling(dt, n)) {
		const char *type = dt_getprop_str(dt, n, "device_type");
		if (type && !strcmp(type, "cpu"))
			ncpus++;
	}
	/* The boot CPU's node holds its ISA and its interrupt controller: without it nothing
	 * below would find them (a firmware that booted on a hart the tree does not list). */
	if (ncpus && boot < 0) {
		char line[120];
		ksnprintf(line, sizeof(line), "cpus: the boot hart/cpu %s has no /cpus node (reg %s)",
			  id, id);
		boot_fail(line);
	}
	if (boot >= 0) {
		const char *isa = dt_getprop_str(dt, boot, "riscv,isa");
		const char *compat = dt_getprop_str(dt, boot, "compatible");
		int elen;
		const char *ext = dt_getprop(dt, boot, "riscv,isa-extensions", &elen);
		pr_info("cpu%s: %s%s%s%s\n", id, compat ? compat : "?", isa ? ", isa " : "",
			isa ? isa : "", ext ? ", with riscv,isa-extensions" : "");
	}
	pr_info("cpus: %d in the device tree, booting on hart/cpu %s; timer %llu Hz\n", ncpus, id,
		(unsigned long long)time_counter_freq());
}

/*
 * A device tree outside the RAM it describes (QEMU's -dtb with a smaller memory node, a boot
 * loader's choice) is reachable only through the boot page tables: the final ones map RAM alone.
 * Copy it into RAM, reserved as `dtb`, and read that copy from now on.
 */
static const struct dt *relocate_dtb(uintptr_t *dtb_pa, char *err)
{
	const struct dt *old = boot_dt();
	phys_addr_t copy = memblock_alloc(ALIGN((phys_addr_t)old->totalsize, PAGE_SIZE), PAGE_SIZE,
					  MEMBLOCK_DTB);

	if (!copy)
		boot_fail("dt: the device tree lies outside RAM and no RAM is left to copy it to");
	memcpy(__va(copy), __va(*dtb_pa), old->totalsize);
	if (devicetree_init((uintptr_t)copy, err))
		boot_fail("dt: the copy of the device tree does not read back");
	pr_info("dt: at 0x%lx, outside RAM: copied to 0x%llx\n", (unsigned long)*dtb_pa,
		(unsigned long long)copy);
	*dtb_pa = (uintptr_t)copy;
	return boot_dt();
}

static void warn_option(const char *line)
{
	pr_warn("cmdline: %s\n", line);
}

KPARAM_UINT(loglevel, console_loglevel, 0, 8, "console log level 0-8 (default 7: all but debug)");

unsigned long boot_cpu_hwid __ro_after_init;	/* devicetree.h */
static char cmdline_buf[1024];
static struct boot_args boot_args __ro_after_init;	/* kmain's, read by kernel_init */
static int kernel_init(void *unused);

void kmain(unsigned long hartid, uintptr_t dtb_pa)
{
	char err[160];
	struct boot_args args = { 0 };

	/* picolibc's TLS block: .tdata is loaded in place; .tbss follows it and is not in .bss. */
	memset(__tls_base + (uintptr_t)__tdata_size, 0, (uintptr_t)__tbss_size);
	_set_tls(__tls_base);
	boot_cpu_hwid = hartid;
	arch_early_init();
	console_at(BOARD_EARLY_UART_COMPAT, BOARD_EARLY_UART_BASE, BOARD_EARLY_UART_SHIFT);
	if (BOARD_EXIT_BASE)
		poweroff_register(sifive_test_poweroff, set_fixmap_offset_io(FIX_POWEROFF, BOARD_EXIT_BASE));
	time_init(arch_counter_freq());

	if (!dtb_pa)
		dtb_pa = BOARD_DTB_ADDR;	/* a physical address, as the firmware's a1 is */
	if (devicetree_init(dtb_pa, err)) {
		char line[200];
		ksnprintf(line, sizeof(line), "bad device tree at 0x%lx: %s", (unsigned long)dtb_pa, err);
		boot_fail(line);
	}
	const struct dt *dt = boot_dt();
	int chosen = dt_path(dt, "/chosen", 7);
	const char *bootargs = chosen >= 0 ? dt_getprop_str(dt, chosen, "bootargs") : NULL;
	if (bootargs && strlen(bootargs) >= sizeof(cmdline_buf))
		pr_warn("cmdline: longer than %zu bytes, truncated\n", sizeof(cmdline_buf) - 1);
	if (bootargs)
		strncpy(cmdline_buf, bootargs, sizeof(cmdline_buf) - 1);
	cmdline_parse(cmdline_buf, &args, __kparams_start, __kparams_end, warn_option);

	console_from_dt(dt);
	poweroff_from_dt(dt);
	pr_info("tinymm %s on %s (%s)\n", tinymm_version, BOARD_NAME, arch_name);
	pr_info("console: %s at 0x%lx; dtb at 0x%lx, %u bytes\n", console_name(),
		(unsigned long)console_phys, (unsigned long)dtb_pa, (unsigned)dt->totalsize);
	if (bootargs && *bootargs)
		pr_info("Kernel command line: %s\n", bootargs);
	timer_freq_from_dt(dt);
	cpu_info(dt, hartid);

	phys_addr_t kstart = __pa(_start_kernel), kend = __pa(_end);
	if (dt_memory_init(dt, dtb_pa, kstart, kend, err, sizeof(err)))
		boot_fail(err);
	/* mem=: before anything is allocated from the map; a DTB cut off is copied below. */
	char line[240];
	int said = memblock_apply_memory_limit(memory_limit, line, sizeof(line));
	if (said < 0)
		pr_warn("%s\n", line);
	else if (said)
		pr_info("%s\n", line);
	arch_mm_init();		/* all RAM in the boot page tables */
	if (!memblock_is_memory(dtb_pa, dt->totalsize))
		dt = relocate_dtb(&dtb_pa, err);
	uint64_t init_instret = arch_instret();		/* make bench: init-per-frame */
	if (memmap_init())
		boot_fail("memmap: not enough memory for the struct page arrays");
	zone_dma_limit_from_firmware(dt_dma_limit(dt));
	if (page_alloc_init())
		boot_fail("page_alloc: no memory to manage");
	bench_init_instret = arch_instret() - init_instret;
	kmem_cache_init();
	paging_init(dt);	/* page tables from the buddy allocator; vmalloc */
	memblock_set_kernel_sizes(__pa(_sdata) - kstart, kend - __pa(_sdata));
	meminfo_set_total(memblock_size_of(MEMBLOCK_USABLE));
	memblock_summary(err, sizeof(err));
	pr_info("%s\n", err);

	pagecache_init();	/* the folio wait queues */
	sched_init();		/* this context becomes the idle thread */
	irq_init(dt);
	timers_init(dt);
	console_irq_init(dt, console_node);
	workqueue_init();
	writeback_init();	/* the flusher's workqueue, before the first disk can be dirtied */
	workingset_init();	/* the shadow clock's buckets and the shadow-node shrinker */
	kswapd_run();		/* reclaim: kswapd and the allocator's direct-reclaim hook */
	kcompactd_run();	/* compaction: kcompactd and the allocator's direct-compaction hook */
	oom_init();		/* the allocator's OOM-killer hook (mm/oom_kill.c) */
	page_reporting_init();	/* reporting passes as delayed work, before a balloon registers */
	vmstat_work_init();	/* the per-CPU lists' high decays once a second */
	virtio_mmio_init(dt);	/* disks: needs the slab, interrupts and the page allocator */
	sunxi_mmc_init(dt);	/* the Orange Pi PC's SD card, mmcblk0 */
	bcm2835_sdhost_init(dt);	/* the Raspberry Pi 2B's SD card, mmcblk0 */
	mmc_spi_init(dt);	/* the HiFive Unleashed's SD card on SPI, mmcblk0 */
	brd_init();		/* RAM disks, made when first named */

	boot_args = args;
	lkdtm_perms_init();	/* a __ro_after_init write, while it is still allowed */
	/* 16 KiB: shell commands and KTAP cases format text and walk tables on this stack. */
	struct task_struct *init = kthread_create_opts(kernel_init, NULL,
						       args.test ? "ktest" : "shell", DEFAULT_PRIO, 2);
	if (!init)
		boot_fail("sched: cannot create the first thread");
	kthread_detach(init);
	wake_up_process(init);
	cpu_idle_loop();
}

/*
 * The first thread: KTAP suites (tinymm.test), a script (tinymm.run) or the interactive shell.
 * Boot is over once it runs: __ro_after_init becomes read-only first (v6.10's kernel_init does
 * mark_readonly() at the same point), so the tests and the shell see the final protections.
 */
static int kernel_init(void *unused)
{
	smp_init();		/* the other CPUs, before anything below can need them */
	mark_rodata_ro();
	blk_scan_boot_disks();	/* partitions (vda1): reading a disk sleeps, so in this thread */
	vfs_init();		/* the root filesystem: mounting sleeps, so in this thread */
	if (boot_args.test) {
		int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, boot_args.test);
		machine_poweroff(failed ? 1 : 0);	/* -1: no suite matched, also a failure */
	}
	if (boot_args.run)
		machine_poweroff(shell_run_script(__shell_cmds_start, __shell_cmds_end, boot_args.run));
	shell_interactive();
	return 0;
}

static int cmd_version(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	kprintf("tinymm %s (%s, %s), built with gcc %s\n", tinymm_version, BOARD_NAME, arch_name,
		__VERSION__);
	return 0;
}
SHELL_COMMAND(version, "", "print tinymm's version and board", cmd_version);

static int cmd_poweroff(int argc, char **argv)
{
	unsigned long long status = 0;

	if (argc > 2 || (argc == 2 && (kstrtoull(argv[1], &status) || status > 255)))
		return shell_usage_error(argv[0], "usage: poweroff [status 0-255]");
	machine_poweroff((int)status);
}
SHELL_COMMAND(poweroff, "[status]", "power the machine off with an exit status (default 0)", cmd_poweroff);
