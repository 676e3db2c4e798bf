/*
 * dma_debug_ktest.c - DMA-API debugging on every board (suite dma_debug; kernel/dma/debug.c,
 * docs/dma.md): one case per misuse, each asserting exactly one WARNING with v6.10's words
 * (read back from the log ring since a mark, as bad_page_ktest.c does), the WARN count up by
 * exactly one, and that nothing else broke: the table back to its size, no maintenance done
 * for an address that was never mapped, the mapping's own size and direction used otherwise.
 * A clean use (map, sync both ways, unmap) warns nothing; a full table says so once and stops
 * judging until the untracked mappings are gone.  The device is non-coherent where the CPU can maintain its caches (ARM) so the
 * maintenance is visible in cacheop_counts; coherent elsewhere (the table works the same).
 */
#include <asm/dma-mapping.h>
#include "tinymm/bug.h"
#include "tinymm/cacheops.h"
#include "tinymm/dma-map-ops.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

static char dd_log[8192 + 1];
static size_t dd_len;
static unsigned int dd_seq;
static unsigned long dd_warns;

static void dd_out(const char *s, size_t n)
{
	n = min(n, sizeof(dd_log) - 1 - dd_len);
	memcpy(dd_log + dd_len, s, n);
	dd_len += n;
	dd_log[dd_len] = '\0';
}

static void dd_mark(void)
{
	printk(KERN_INFO "dma_debug_ktest: mark %u\n", ++dd_seq);
	dd_warns = nr_warnings();
}

static unsigned int dd_count(const char *needle)
{
	char mark[48];
	const char *since = NULL;
	unsigned int n = 0;

	ksnprintf(mark, sizeof(mark), "dma_debug_ktest: mark %u\n", dd_seq);
	dd_len = 0;
	dd_log[0] = '\0';
	log_buf_dump(dd_out);
	for (const char *p = dd_log; (p = strstr(p, mark)); p++)
		since = p;
	if (!since)
		return ~0U;		/* the mark scrolled away: never a pass */
	for (const char *s = since; (s = strstr(s, needle)); s++)
		n++;
	return n;
}

/* Since the mark: exactly one WARNING, and it is a "WARNING: ..." line holding @text. */
static void expect_one_warning(struct ktest *t, const char *text)
{
	const char *w;

	KTEST_EXPECT_EQ(t, nr_warnings() - dd_warns, 1);
	KTEST_EXPECT_EQ(t, dd_count("WARNING: CPU"), 1);
	KTEST_EXPECT_EQ(t, dd_count(text), 1);
	w = strstr(dd_log, "WARNING: CPU");
	while (w && strstr(w + 1, "WARNING: CPU"))
		w = strstr(w + 1, "WARNING: CPU");
	if (w) {
		const char *eol = strchr(w, '\n'), *hit = strstr(w, text);

		KTEST_EXPECT_TRUE(t, hit && eol && hit < eol);	/* on the WARNING line itself */
	}
}

static void expect_no_warning(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, nr_warnings() - dd_warns, 0);
	KTEST_EXPECT_EQ(t, dd_count("WARNING"), 0);
}

static unsigned long ops(void)
{
	return cacheop_counts[CACHEOP_DCACHE_CLEAN] + cacheop_counts[CACHEOP_DCACHE_INVAL] +
	       cacheop_counts[CACHEOP_DCACHE_FLUSH];
}

static struct device dd_dev;
static char *dd_buf;
static unsigned int dd_entries;	/* live mappings of others (a driver's) at the start */

static bool dd_setup(struct ktest *t)
{
	dma_dev_init(&dd_dev, "ktest-dbg", NULL, -1);
	dma_set_mask_and_coherent(&dd_dev, DMA_BIT_MASK(64));	/* RAM above 4 GiB (HiFive) */
	dd_dev.dma_coherent = !arch_dma_noncoherent_supported();
	dd_buf = (char *)__get_free_page(GFP_KERNEL);
	if (!dd_buf) {
		ktest_fail_msg(t, __FILE__, __LINE__, "no page");
		return false;
	}
	dd_entries = dma_debug_entries();
	return true;
}

static void dd_teardown(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, dma_debug_entries(), dd_entries);	/* nothing left behind */
	free_page((unsigned long)dd_buf);
}

static void clean_use_warns_nothing(struct ktest *t)
{
	dma_addr_t a, b;

	if (!dd_setup(t))
		return;
	dd_mark();
	a = dma_map_single(&dd_dev, dd_buf, 512, DMA_BIDIRECTIONAL);
	KTEST_EXPECT_EQ(t, dma_debug_entries(), dd_entries + 1);
	dma_sync_single_for_cpu(&dd_dev, a + 64, 128, DMA_FROM_DEVICE);	/* a part, any dir */
	dma_debug_cpu_access(dd_buf, 512);				/* the CPU owns it */
	dma_sync_single_for_device(&dd_dev, a, 512, DMA_BIDIRECTIONAL);
	/* a second mapping inside the first: its unmap finds its own entry */
	b = dma_map_single(&dd_dev, dd_buf + 64, 128, DMA_TO_DEVICE);
	dma_unmap_single(&dd_dev, b, 128, DMA_TO_DEVICE);
	dma_unmap_single(&dd_dev, a, 512, DMA_BIDIRECTIONAL);
	dma_debug_cpu_access(dd_buf, 512);				/* unmapped: the CPU's */
	expect_no_warning(t);
	dd_teardown(t);
}

static void unmap_never_mapped(struct ktest *t)
{
	unsigned long before;
	char want[128];

	if (!dd_setup(t))
		return;
	dd_mark();
	before = ops();
	dma_unmap_single(&dd_dev, __pa(dd_buf), 64, DMA_FROM_DEVICE);
	ksnprintf(want, sizeof(want), "DMA-API: ktest-dbg: device driver tries to free DMA memory it has not allocated [device address=0x%016llx] [size=64 bytes]\n",
		  (unsigned long long)__pa(dd_buf));
	expect_one_warning(t, want);
	KTEST_EXPECT_EQ(t, ops(), before);	/* no invalidate of someone else's memory */
	dd_teardown(t);
}

static void sync_never_mapped(struct ktest *t)
{
	unsigned long before;

	if (!dd_setup(t))
		return;
	dd_mark();
	before = ops();
	dma_sync_single_for_cpu(&dd_dev, __pa(dd_buf) + 128, 32, DMA_FROM_DEVICE);
	expect_one_warning(t, "DMA-API: ktest-dbg: device driver tries to sync DMA memory it has not allocated [device address=");
	KTEST_EXPECT_EQ(t, ops(), before);
	dd_teardown(t);
}

static void double_unmap(struct ktest *t)
{
	dma_addr_t a;

	if (!dd_setup(t))
		return;
	a = dma_map_single(&dd_dev, dd_buf, 256, DMA_TO_DEVICE);
	dma_unmap_single(&dd_dev, a, 256, DMA_TO_DEVICE);
	dd_mark();
	dma_unmap_single(&dd_dev, a, 256, DMA_TO_DEVICE);
	expect_one_warning(t, "DMA-API: ktest-dbg: device driver tries to free DMA memory it has not allocated [device address=");
	dd_teardown(t);
}

static void unmap_wrong_size(struct ktest *t)
{
	unsigned long inval;
	dma_addr_t a;

	if (!dd_setup(t))
		return;
	a = dma_map_single(&dd_dev, dd_buf, 256, DMA_FROM_DEVICE);
	dd_mark();
	inval = cacheop_counts[CACHEOP_DCACHE_INVAL];
	dma_unmap_single(&dd_dev, a, 128, DMA_FROM_DEVICE);
	expect_one_warning(t, "DMA-API: ktest-dbg: device driver frees DMA memory with different size [device address=");
	KTEST_EXPECT_EQ(t, dd_count("[map size=256 bytes] [unmap size=128 bytes]"), 1);
	/* the mapping's own maintenance still happened (non-coherent: one invalidate) */
	KTEST_EXPECT_EQ(t, cacheop_counts[CACHEOP_DCACHE_INVAL] - inval, dd_dev.dma_coherent ? 0 : 1);
	dd_teardown(t);
}

static void unmap_wrong_direction(struct ktest *t)
{
	unsigned long inval;
	dma_addr_t a;

	if (!dd_setup(t))
		return;
	a = dma_map_single(&dd_dev, dd_buf, 256, DMA_TO_DEVICE);
	dd_mark();
	inval = cacheop_counts[CACHEOP_DCACHE_INVAL];
	dma_unmap_single(&dd_dev, a, 256, DMA_FROM_DEVICE);
	expect_one_warning(t, "DMA-API: ktest-dbg: device driver frees DMA memory with different direction [device address=");
	KTEST_EXPECT_EQ(t, dd_count("[mapped with DMA_TO_DEVICE] [unmapped with DMA_FROM_DEVICE]"), 1);
	/* TO_DEVICE's unmap: no invalidate, whatever the driver said */
	KTEST_EXPECT_EQ(t, cacheop_counts[CACHEOP_DCACHE_INVAL], inval);
	dd_teardown(t);
}

static void sync_wrong_direction(struct ktest *t)
{
	dma_addr_t a;

	if (!dd_setup(t))
		return;
	a = dma_map_single(&dd_dev, dd_buf, 256, DMA_FROM_DEVICE);
	dd_mark();
	dma_sync_single_for_device(&dd_dev, a, 256, DMA_TO_DEVICE);
	expect_one_warning(t, "DMA-API: ktest-dbg: device driver syncs DMA memory with different direction [device address=");
	KTEST_EXPECT_EQ(t, dd_count("[mapped with DMA_FROM_DEVICE] [synced with DMA_TO_DEVICE]"), 1);
	dma_unmap_single(&dd_dev, a, 256, DMA_FROM_DEVICE);
	dd_teardown(t);
}

static void sync_outside_range(struct ktest *t)
{
	dma_addr_t a;

	if (!dd_setup(t))
		return;
	a = dma_map_single(&dd_dev, dd_buf, 256, DMA_BIDIRECTIONAL);
	dd_mark();
	dma_sync_single_for_cpu(&dd_dev, a + 200, 100, DMA_BIDIRECTIONAL);
	expect_one_warning(t, "DMA-API: ktest-dbg: device driver syncs DMA memory outside allocated range [device address=");
	KTEST_EXPECT_EQ(t, dd_count("[allocation size=256 bytes] [sync offset+size=300]"), 1);
	dma_unmap_single(&dd_dev, a, 256, DMA_BIDIRECTIONAL);
	dd_teardown(t);
}

static void cpu_touches_device_buffer(struct ktest *t)
{
	dma_addr_t a;

	if (!dd_setup(t))
		return;
	a = dma_map_single(&dd_dev, dd_buf + 64, 128, DMA_FROM_DEVICE);
	dd_mark();
	dma_debug_cpu_access(dd_buf + 100, 4);
	expect_one_warning(t, "DMA-API: ktest-dbg: cpu touching an active dma mapped buffer [device address=");
	dd_mark();
	dma_debug_cpu_access(dd_buf, 64);		/* just before it: fine */
	dma_debug_cpu_access(dd_buf + 192, 64);		/* just after it */
	dma_sync_single_for_cpu(&dd_dev, a, 128, DMA_FROM_DEVICE);
	dma_debug_cpu_access(dd_buf + 100, 4);		/* the CPU owns it now */
	expect_no_warning(t);
	dma_sync_single_for_device(&dd_dev, a, 128, DMA_FROM_DEVICE);
	dd_mark();
	dma_debug_cpu_access(dd_buf + 64, 1);		/* the device's again */
	expect_one_warning(t, "DMA-API: ktest-dbg: cpu touching an active dma mapped buffer [device address=");
	dma_unmap_single(&dd_dev, a, 128, DMA_FROM_DEVICE);
	dd_teardown(t);
}

/* More live mappings than the table holds: one line, then no judging (nor false alarms) until
 * as many unknown unmaps as untracked mappings; then judging again. */
static void table_full(struct ktest *t)
{
	enum { N = 300 };
	static dma_addr_t addrs[N];
	struct device coh;

	if (!dd_setup(t))
		return;
	dma_dev_init(&coh, "ktest-full", NULL, -1);
	dma_set_mask_and_coherent(&coh, DMA_BIT_MASK(64));	/* RAM above 4 GiB (HiFive) */
	coh.dma_coherent = true;		/* no maintenance: only the table is under test */
	dd_mark();
	for (unsigned int i = 0; i < N; i++)
		addrs[i] = dma_map_single(&coh, dd_buf + i, 1, DMA_TO_DEVICE);
	KTEST_EXPECT_EQ(t, dd_count("DMA-API: debugging out of memory"), 1);
	KTEST_EXPECT_GT(t, dma_debug_overflows(), 0);
	for (unsigned int i = 0; i < N; i++)
		dma_unmap_single(&coh, addrs[i], 1, DMA_TO_DEVICE);
	expect_no_warning(t);			/* the untracked ones were not judged */
	KTEST_EXPECT_EQ(t, dma_debug_entries(), dd_entries);
	dd_mark();				/* judging again: */
	dma_unmap_single(&coh, addrs[0], 1, DMA_TO_DEVICE);
	expect_one_warning(t, "DMA-API: ktest-full: device driver tries to free DMA memory it has not allocated");
	dd_teardown(t);
}

static const struct ktest_case dma_debug_cases[] = {
	KTEST_CASE(clean_use_warns_nothing),
	KTEST_CASE(unmap_never_mapped),
	KTEST_CASE(sync_never_mapped),
	KTEST_CASE(double_unmap),
	KTEST_CASE(unmap_wrong_size),
	KTEST_CASE(unmap_wrong_direction),
	KTEST_CASE(sync_wrong_direction),
	KTEST_CASE(sync_outside_range),
	KTEST_CASE(cpu_touches_device_buffer),
	KTEST_CASE(table_full),
	{}
};
KTEST_SUITE(dma_debug, dma_debug_cases);
