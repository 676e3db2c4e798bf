/*
 * dma_cachemodel_test.c - the DMA API's streaming maintenance (kernel/dma/, arch/<arch>/
 * dma-noncoherent.c, docs/dma.md) over the host cache model (tests/host/cachemodel.h): a
 * non-coherent device that sees only memory, a CPU that sees its write-back D-cache.  Built
 * twice: with ARM's arch_sync_dma_* (dma_cachemodel_arm_test) and with RISC-V's over
 * arch/riscv/cmo.c's Zicbom or T-Head loops (dma_cachemodel_riscv_test).
 *
 * Usage: dma_cachemodel_<arch>_test arm|riscv-zicbom|riscv-thead|riscv 32|64 SCENARIO [MODE]
 * The buffer starts 5 bytes into a page and is 200 bytes long: both ends are partial lines
 * whose other bytes (the "neighbours") the CPU wrote, dirty, before the mapping.
 *   to_device, to_device_bidi       the CPU writes, maps TO_DEVICE / BIDIRECTIONAL: the device
 *                                   reads the CPU's bytes; maintenance counted exactly
 *   from_device, from_device_bidi   the CPU leaves stale bytes, maps FROM_DEVICE /
 *                                   BIDIRECTIONAL; the device writes half, the CPU refills the
 *                                   lines speculatively, the device writes the rest; after
 *                                   the unmap the CPU reads the device's bytes and its own
 *                                   neighbours
 *   sync_roundtrip                  one BIDIRECTIONAL mapping passed back and forth with
 *                                   dma_sync_single_for_cpu / _for_device, data checked each way
 *   refused                         (riscv: a hart without cache operations) a non-coherent
 *                                   device's mapping is DMA_MAPPING_ERROR with one line
 * MODE --no-maintenance: the model's operations do nothing; every scenario must then fail.
 * MODE --flush-forgets: a flush only invalidates, so an edge line is plainly invalidated
 * (ARM from_device: the neighbours are lost; the edge rule is what keeps them).
 * Exit 0 when every check held.
 */
#include "host_sched_test.h"
#include "cachemodel.h"
#include "tinymm/cacheops.h"
#include "tinymm/dma-map-ops.h"
#include "asm/cmo.h"

unsigned long cacheop_counts[NR_CACHEOPS];	/* kernel/cacheops.c's, on a target */
extern bool fake_dma_default_coherent, fake_dma_noncoherent_ok;

#define OFF	5
#define LEN	200

static enum riscv_cmo cmo;
static bool is_arm;
static unsigned int line;
static const char *scenario, *mode = "";
static struct device dev;
static unsigned char *page_buf;	/* the page; the buffer is page_buf + OFF */

static unsigned char pat(int which, unsigned int i)
{
	return (unsigned char)(which * 37 + i * 7 + 1);
}

static void fill(unsigned char *p, size_t n, int which)
{
	for (size_t i = 0; i < n; i++)
		p[i] = pat(which, (unsigned int)i);
}

/* What the CPU reads of the buffer (@which's pattern) and of its neighbours (pattern 9). */
static void check_cpu(int which, const char *when)
{
	unsigned char *b = page_buf + OFF;

	for (unsigned int i = 0; i < LEN; i++)
		if (b[i] != pat(which, i)) {
			fprintf(stderr, "dma: %s: %s: the CPU reads byte %u stale (%#x, want %#x)\n",
				scenario, when, i, b[i], pat(which, i));
			failures++;
			break;
		}
	for (unsigned int i = 0; i < 256; i++) {
		if (i >= OFF && i < OFF + LEN)
			continue;
		if (page_buf[i] != pat(9, i)) {
			fprintf(stderr, "dma: %s: %s: the neighbour's byte %u is lost (%#x, want %#x)\n",
				scenario, when, i, page_buf[i], pat(9, i));
			failures++;
			break;
		}
	}
}

static void check_device(int which, const char *when)
{
	unsigned char got[LEN];

	cm_device_read(page_buf + OFF, got, LEN);
	for (unsigned int i = 0; i < LEN; i++)
		if (got[i] != pat(which, i)) {
			fprintf(stderr, "dma: %s: %s: the device reads byte %u stale (%#x, want %#x)\n",
				scenario, when, i, got[i], pat(which, i));
			failures++;
			break;
		}
}

/* The device writes @which's pattern over the buffer, the CPU prefetching half way. */
static void device_writes(int which)
{
	unsigned char d[LEN];

	fill(d, LEN, which);
	cm_device_write(page_buf + OFF, d, LEN / 2);
	cm_speculative_fill(page_buf, 256);
	cm_device_write(page_buf + OFF + LEN / 2, d + LEN / 2, LEN - LEN / 2);
}

/* Both sides hold zeros; then the CPU writes its neighbours (dirty, never cleaned). */
static void setup(void)
{
	memset(page_buf, 0, PAGE_SIZE);
	cm_settle(page_buf, PAGE_SIZE);
	for (unsigned int i = 0; i < 256; i++)
		if (i < OFF || i >= OFF + LEN)
			page_buf[i] = pat(9, i);
}

struct counts {
	unsigned long clean, inval, flush;
};

static struct counts counts_now(void)
{
	if (is_arm)	/* the host's asm/cacheflush.h: one model call per primitive call */
		return (struct counts){ cm_counts.dcache_clean, cm_counts.dcache_inval,
					cm_counts.dcache_flush };
	return (struct counts){ cacheop_counts[CACHEOP_DCACHE_CLEAN],
				cacheop_counts[CACHEOP_DCACHE_INVAL],
				cacheop_counts[CACHEOP_DCACHE_FLUSH] };
}

/* Exact maintenance of one map + unmap of the unaligned buffer (docs/dma.md's table). */
static void check_counts(struct counts before, enum dma_data_direction dir)
{
	struct counts now = counts_now(), want;

	if (is_arm)
		want = dir == DMA_TO_DEVICE ? (struct counts){ 1, 0, 0 } :
		       dir == DMA_FROM_DEVICE ? (struct counts){ 0, 2, 0 } : (struct counts){ 1, 1, 0 };
	else	/* a clean to the device; back: both partial blocks flushed, the rest invalidated */
		want = dir == DMA_TO_DEVICE ? (struct counts){ 1, 0, 0 } : (struct counts){ 1, 1, 2 };
	CHECK_EQ(now.clean - before.clean, want.clean);
	CHECK_EQ(now.inval - before.inval, want.inval);
	CHECK_EQ(now.flush - before.flush, want.flush);
}

static void to_device(enum dma_data_direction dir)
{
	struct counts before;
	dma_addr_t a;

	setup();
	fill(page_buf + OFF, LEN, 1);
	before = counts_now();
	a = dma_map_single(&dev, page_buf + OFF, LEN, dir);
	CHECK_EQ(a, __pa(page_buf + OFF));
	check_device(1, "after the map");
	dma_unmap_single(&dev, a, LEN, dir);
	check_counts(before, dir);
	check_cpu(1, "after the unmap");
}

static void from_device(enum dma_data_direction dir)
{
	struct counts before;
	dma_addr_t a;

	setup();
	fill(page_buf + OFF, LEN, 3);		/* stale: the CPU's, dirty */
	before = counts_now();
	a = dma_map_single(&dev, page_buf + OFF, LEN, dir);
	CHECK_EQ(a, __pa(page_buf + OFF));
	device_writes(2);
	dma_unmap_single(&dev, a, LEN, dir);
	check_counts(before, dir);
	check_cpu(2, "after the unmap");
}

static void sync_roundtrip(void)
{
	dma_addr_t a;

	setup();
	fill(page_buf + OFF, LEN, 1);
	a = dma_map_single(&dev, page_buf + OFF, LEN, DMA_BIDIRECTIONAL);
	check_device(1, "after the map");
	device_writes(2);
	dma_sync_single_for_cpu(&dev, a, LEN, DMA_BIDIRECTIONAL);
	check_cpu(2, "after sync_for_cpu");
	fill(page_buf + OFF, LEN, 4);
	dma_sync_single_for_device(&dev, a, LEN, DMA_BIDIRECTIONAL);
	check_device(4, "after sync_for_device");
	device_writes(5);
	dma_unmap_single(&dev, a, LEN, DMA_BIDIRECTIONAL);
	check_cpu(5, "after the unmap");
	CHECK_EQ(dma_debug_entries(), 0);
}

static void refused(void)
{
	struct device d;

	fake_dma_noncoherent_ok = false;
	shim_console_reset();
	dma_dev_init(&d, "nc-dev", NULL, -1);
	d.dma_mask = DMA_BIT_MASK(64);
	CHECK(strstr(shim_console, "nc-dev: device non-coherent but no non-coherent operations supported"));
	shim_console_reset();
	CHECK(dma_mapping_error(&d, dma_map_single(&d, page_buf, 64, DMA_TO_DEVICE)) != 0);
	CHECK(strstr(shim_console, "nc-dev: non-coherent device and no cache operations: DMA refused\n"));
	CHECK_EQ(dma_debug_entries(), 0);
	fake_dma_noncoherent_ok = true;
}

static int run(void)
{
	struct page *page = alloc_page(GFP_KERNEL);

	CHECK(page != NULL);
	if (!page)
		return 1;
	page_buf = page_address(page);
	if (cmo == RISCV_CMO_ZICBOM)
		riscv_cmo_select(true, line, 0, 0, 0);
	else if (cmo == RISCV_CMO_THEAD)
		riscv_cmo_select(false, 0, 0x5b7, 0, 0);
	fake_dma_default_coherent = false;
	dma_dev_init(&dev, "cm-dev", NULL, -1);
	CHECK(!dev.dma_coherent);
	CHECK_EQ(dma_set_mask(&dev, DMA_BIT_MASK(64)), 0);	/* the host's RAM is high */
	cm_install(is_arm ? CM_ARM : CM_RISCV, cmo == RISCV_CMO_THEAD ? 64 : line, ram, RAM_SIZE,
		   strcmp(mode, "--no-maintenance") != 0);
	cm_flush_forgets_to_clean(!strcmp(mode, "--flush-forgets"));
	if (!strcmp(scenario, "to_device"))
		to_device(DMA_TO_DEVICE);
	else if (!strcmp(scenario, "to_device_bidi"))
		to_device(DMA_BIDIRECTIONAL);
	else if (!strcmp(scenario, "from_device"))
		from_device(DMA_FROM_DEVICE);
	else if (!strcmp(scenario, "from_device_bidi"))
		from_device(DMA_BIDIRECTIONAL);
	else if (!strcmp(scenario, "sync_roundtrip"))
		sync_roundtrip();
	else if (!strcmp(scenario, "refused"))
		refused();
	else {
		fprintf(stderr, "dma: unknown scenario '%s'\n", scenario);
		failures++;
	}
	cm_uninstall();
	riscv_cmo_select(false, 0, 0, 0, 0);
	__free_page(page);
	return 0;
}

static void scenario_runs(void **state)
{
	(void)state;
	run_scenario(run);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(scenario_runs),
	};

	(void)jiffy_deadline;
	(void)start;
	if (argc < 4 || argc > 5 ||
	    (strcmp(argv[1], "arm") && strcmp(argv[1], "riscv-zicbom") && strcmp(argv[1], "riscv-thead") &&
	     strcmp(argv[1], "riscv")) ||
	    (strcmp(argv[2], "32") && strcmp(argv[2], "64")) ||
	    (argc == 5 && strcmp(argv[4], "--no-maintenance") && strcmp(argv[4], "--flush-forgets"))) {
		fprintf(stderr, "usage: dma_cachemodel_<arch>_test arm|riscv-zicbom|riscv-thead|riscv 32|64 SCENARIO [--no-maintenance|--flush-forgets]\n");
		return 2;
	}
	is_arm = !strcmp(argv[1], "arm");
#ifdef DMA_CM_ARM
	if (!is_arm) {
		fprintf(stderr, "dma_cachemodel_arm_test: ARM's arch_sync_dma_* only\n");
		return 2;
	}
#else
	if (is_arm) {
		fprintf(stderr, "dma_cachemodel_riscv_test: RISC-V's arch_sync_dma_* only\n");
		return 2;
	}
#endif
	cmo = !strcmp(argv[1], "riscv-zicbom") ? RISCV_CMO_ZICBOM :
	      !strcmp(argv[1], "riscv-thead") ? RISCV_CMO_THEAD : RISCV_CMO_NONE;
	line = (unsigned int)atoi(argv[2]);
	scenario = argv[3];
	if (argc == 5)
		mode = argv[4];
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
