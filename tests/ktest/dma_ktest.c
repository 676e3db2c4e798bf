/*
 * dma_ktest.c - the DMA API on every board (suite dma; kernel/dma/, docs/dma.md).
 *
 *   coherent_board_nodes   of_dma_is_coherent() on the board's own device tree: QEMU ARM
 *                          virt's virtio-mmio nodes say dma-coherent; the Orange Pi PC's and
 *                          the Raspberry Pi 2's SD hosts say nothing and are not coherent (ARM);
 *                          on RISC-V every node says nothing and is coherent
 *   coherent_made_up_tree  a small tree built here: the nearest of node and ancestors with
 *                          "dma-coherent" / "dma-noncoherent" decides, else the default
 *   masks                  dma_set_mask() below the lowest zone's top: -EIO, mask kept; 32 and
 *                          64 bits accepted; a buffer beyond the mask: DMA_MAPPING_ERROR, one
 *                          line, no debug entry
 *   map_counts_noncoherent map + unmap on a non-coherent device: ARM's exact maintenance per
 *                          direction (cacheop_counts; docs/dma.md's table), aligned and not;
 *                          RISC-V without cache operations (QEMU's harts): refused, one line
 *   map_counts_coherent    a coherent device: bus address == physical, no maintenance at all
 *   alloc_coherent_nc      dma_alloc_coherent() on a non-coherent device: vmalloc space, the
 *                          pte exactly pgprot_dmacoherent (non-cacheable), the frames
 *                          PG_uncached while allocated and not after, zeroed, handle ==
 *                          page_to_phys; where the CPU has no non-cacheable type (RISC-V
 *                          without Svpbmt, Sv32): NULL with one line, nothing leaked
 *   alloc_coherent_coherent a coherent device: the linear map, cacheable, zeroed
 *   bad_input              a 0-byte map, a vmalloc buffer, a 0-byte allocation, a free with
 *                          the wrong handle or size: one line (a WARNING for vmalloc), nothing
 *                          mapped, nothing freed
 */
#include <asm/dma-mapping.h>
#include "tinymm/cacheops.h"
#include "tinymm/devicetree.h"
#include "tinymm/dma-map-ops.h"
#include "tinymm/fdt.h"
#include "tinymm/bug.h"
#include "tinymm/ktest.h"
#include "tinymm/mm.h"
#include "tinymm/page-flags.h"
#include "tinymm/page_alloc.h"
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/vmalloc.h"

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

/* ---- the log since a mark (the pattern of bad_page_ktest.c) ---- */
static char dk_log[8192 + 1];
static size_t dk_len;
static unsigned int dk_seq;

static void dk_out(const char *s, size_t n)
{
	n = min(n, sizeof(dk_log) - 1 - dk_len);
	memcpy(dk_log + dk_len, s, n);
	dk_len += n;
	dk_log[dk_len] = '\0';
}

static void dk_mark(void)
{
	printk(KERN_INFO "dma_ktest: mark %u\n", ++dk_seq);
}

static unsigned int dk_count_since_mark(const char *needle)
{
	char mark[40];
	const char *since = NULL;
	unsigned int n = 0;

	ksnprintf(mark, sizeof(mark), "dma_ktest: mark %u\n", dk_seq);
	dk_len = 0;
	dk_log[0] = '\0';
	log_buf_dump(dk_out);
	for (const char *p = dk_log; (p = strstr(p, mark)); p++)
		since = p;
	for (const char *s = since; s && (s = strstr(s, needle)); s++)
		n++;
	return n;
}

/* ---- coherency from the device tree ---- */

static void coherent_board_nodes(struct ktest *t)
{
	static const struct { const char *compat; bool arm; } nodes[] = {
		{ "virtio,mmio", true },		/* QEMU ARM virt: dma-coherent */
		{ "allwinner,sun7i-a20-mmc", false },	/* the Orange Pi PC's SD hosts */
		{ "brcm,bcm2835-sdhost", false },	/* the Raspberry Pi 2's */
		{ "brcm,bcm2835-sdhci", false },
		{ "sifive,fu540-c000-pdma", false },	/* the HiFive Unleashed's DMA engine */
	};
	const struct dt *dt = boot_dt();
	unsigned int checked = 0;

	KTEST_EXPECT_EQ(t, of_dma_is_coherent(dt, dt_root(dt)), ARCH_DMA_DEFAULT_COHERENT);
	for (unsigned int i = 0; i < ARRAY_SIZE(nodes); i++)
		for (int n = dt_find_compatible(dt, -1, nodes[i].compat); n >= 0;
		     n = dt_find_compatible(dt, n, nodes[i].compat)) {
			/* RISC-V: nothing says non-coherent, the default (true) decides */
			bool want = ARCH_DMA_DEFAULT_COHERENT ? true : nodes[i].arm;

			KTEST_EXPECT_EQ(t, of_dma_is_coherent(dt, n), want);
			checked++;
		}
	KTEST_EXPECT_GT(t, checked, 0);		/* every board has one of them */
	printk(KERN_INFO "dma_ktest: %u device nodes checked\n", checked);
}

/* A flattened tree written here: enough of the format for dt_open(). */
struct fdt_w {
	uint8_t *buf;
	unsigned int len, cap;
};

static void w32(struct fdt_w *w, uint32_t v)
{
	if (w->len + 4 <= w->cap) {
		w->buf[w->len] = (uint8_t)(v >> 24);
		w->buf[w->len + 1] = (uint8_t)(v >> 16);
		w->buf[w->len + 2] = (uint8_t)(v >> 8);
		w->buf[w->len + 3] = (uint8_t)v;
	}
	w->len += 4;
}

static void wstr(struct fdt_w *w, const char *s)
{
	size_t n = strlen(s) + 1;

	for (size_t i = 0; i < n; i++)
		if (w->len + i < w->cap)
			w->buf[w->len + i] = (uint8_t)s[i];
	w->len += (unsigned int)n;
	while (w->len & 3) {
		if (w->len < w->cap)
			w->buf[w->len] = 0;
		w->len++;
	}
}

/*
 * / { a { dma-noncoherent; b { c { }; d { dma-coherent; }; }; };
 *     e { dma-coherent; f { dma-noncoherent; }; g { }; }; h { }; };
 * Both properties are empty; strings: "dma-coherent\0dma-noncoherent\0".
 */
static const char *const made_up[] = {
	"{", "", "{", "a", "N", "{", "b", "{", "c", "}", "{", "d", "C", "}", "}", "}",
	"{", "e", "C", "{", "f", "N", "}", "{", "g", "}", "}", "{", "h", "}", "}",
};

static bool build_made_up(uint8_t *blob, unsigned int cap)
{
	struct fdt_w w = { blob, 40 + 16, cap };	/* the header, one empty /memreserve/ */
	unsigned int off_struct = w.len, off_strings, size_struct;

	for (unsigned int i = 0; i < ARRAY_SIZE(made_up); i++) {
		const char *tok = made_up[i];

		if (!strcmp(tok, "{")) {
			w32(&w, 1);			/* FDT_BEGIN_NODE */
			wstr(&w, made_up[++i]);
		} else if (!strcmp(tok, "}")) {
			w32(&w, 2);			/* FDT_END_NODE */
		} else {
			w32(&w, 3);			/* FDT_PROP, empty */
			w32(&w, 0);
			w32(&w, tok[0] == 'C' ? 0 : 13);	/* "dma-coherent" / "dma-noncoherent" */
		}
	}
	w32(&w, 9);				/* FDT_END */
	size_struct = w.len - off_struct;
	off_strings = w.len;
	memcpy(blob + w.len, "dma-coherent\0dma-noncoherent", 29);
	w.len += 29;
	if (w.len > cap)
		return false;
	memset(blob, 0, 56);
	w.len = 0;
	w32(&w, 0xd00dfeed);
	w32(&w, off_strings + 29);		/* totalsize */
	w32(&w, off_struct);
	w32(&w, off_strings);
	w32(&w, 40);				/* /memreserve/ */
	w32(&w, 17);
	w32(&w, 16);
	w32(&w, 0);
	w32(&w, 29);
	w32(&w, size_struct);
	return true;
}

static void coherent_made_up_tree(struct ktest *t)
{
	static uint8_t blob[512] __attribute__((aligned(8)));
	static const struct { const char *path; int want; } cases[] = {
		{ "/a", 0 }, { "/a/b", 0 }, { "/a/b/c", 0 }, { "/a/b/d", 1 },
		{ "/e", 1 }, { "/e/f", 0 }, { "/e/g", 1 }, { "/h", -1 }, { "/", -1 },
	};
	char err[DT_ERR_MAX];
	struct dt dt;

	KTEST_ASSERT_TRUE(t, build_made_up(blob, sizeof(blob)));
	if (dt_open(&dt, blob, sizeof(blob), err)) {
		ktest_fail_msg(t, __FILE__, __LINE__, err);
		return;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		int n = strcmp(cases[i].path, "/") ? dt_path(&dt, cases[i].path, strlen(cases[i].path))
						   : dt_root(&dt);
		bool want = cases[i].want < 0 ? ARCH_DMA_DEFAULT_COHERENT : cases[i].want;

		KTEST_ASSERT_TRUE(t, n >= 0);
		KTEST_EXPECT_EQ(t, of_dma_is_coherent(&dt, n), want);
	}
	/* No tree or no node: the architecture's default. */
	KTEST_EXPECT_EQ(t, of_dma_is_coherent(NULL, -1), ARCH_DMA_DEFAULT_COHERENT);
}

/* ---- masks ---- */

static void masks(struct ktest *t)
{
	struct page *page = alloc_page(GFP_KERNEL);
	phys_addr_t phys;
	struct device dev;
	unsigned int entries = dma_debug_entries();	/* a driver's live ones */

	KTEST_ASSERT_TRUE(t, page != NULL);
	phys = PFN_PHYS(page_to_pfn(page));
	dma_dev_init(&dev, "ktest-mask", NULL, -1);
	dev.dma_coherent = true;
	KTEST_EXPECT_EQ(t, dev.dma_mask, DMA_BIT_MASK(32));
	KTEST_EXPECT_EQ(t, dev.coherent_dma_mask, DMA_BIT_MASK(32));
	KTEST_EXPECT_EQ(t, dma_set_mask(&dev, DMA_BIT_MASK(12)), -EIO);	/* below all RAM */
	KTEST_EXPECT_EQ(t, dev.dma_mask, DMA_BIT_MASK(32));			/* kept */
	KTEST_EXPECT_EQ(t, dma_set_coherent_mask(&dev, DMA_BIT_MASK(20)), -EIO);
	KTEST_EXPECT_EQ(t, dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64)), 0);
	KTEST_EXPECT_EQ(t, dev.dma_mask, DMA_BIT_MASK(64));
	KTEST_EXPECT_EQ(t, dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(32)), 0);
	/* A mask the platform could not honour, set behind the API's back: the map refuses. */
	dev.dma_mask = phys - 1;
	dk_mark();
	KTEST_EXPECT_EQ(t, dma_map_page(&dev, page, 0, 64, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
	KTEST_EXPECT_EQ(t, dk_count_since_mark("ktest-mask: DMA addr "), 1);
	KTEST_EXPECT_NE(t, dma_mapping_error(&dev, DMA_MAPPING_ERROR), 0);
	/* One byte past the mask is past it too. */
	dev.dma_mask = phys + 63;
	KTEST_EXPECT_EQ(t, dma_map_page(&dev, page, 0, 65, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
	KTEST_EXPECT_EQ(t, dma_debug_entries(), entries);
	__free_page(page);
}

/* ---- streaming maintenance ---- */

struct ops { unsigned long clean, inval, flush; };

static struct ops ops_now(void)
{
	return (struct ops){ cacheop_counts[CACHEOP_DCACHE_CLEAN], cacheop_counts[CACHEOP_DCACHE_INVAL],
			     cacheop_counts[CACHEOP_DCACHE_FLUSH] };
}

/* map + unmap of @len bytes at @off of @buf: the operations it cost. */
static struct ops map_unmap(struct ktest *t, struct device *dev, char *buf, size_t off, size_t len,
			    enum dma_data_direction dir)
{
	struct ops before = ops_now(), after;
	dma_addr_t a = dma_map_single(dev, buf + off, len, dir);

	KTEST_EXPECT_EQ(t, a, __pa(buf + off));
	if (a != DMA_MAPPING_ERROR)
		dma_unmap_single(dev, a, len, dir);
	after = ops_now();
	return (struct ops){ after.clean - before.clean, after.inval - before.inval,
			     after.flush - before.flush };
}

static void map_counts_noncoherent(struct ktest *t)
{
	static const enum dma_data_direction dirs[] = { DMA_TO_DEVICE, DMA_FROM_DEVICE, DMA_BIDIRECTIONAL };
	/* ARM (arch/arm/dma-noncoherent.c): clean to the device unless FROM_DEVICE (invalidate);
	 * invalidate back unless TO_DEVICE; partial lines inside the same operation. */
	static const struct ops want[] = { { 1, 0, 0 }, { 0, 2, 0 }, { 1, 1, 0 } };
	char *buf = (char *)__get_free_page(GFP_KERNEL);
	unsigned int entries = dma_debug_entries();
	struct device dev;

	KTEST_ASSERT_TRUE(t, buf != NULL);
	dma_dev_init(&dev, "ktest-nc", NULL, -1);
	dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64));	/* RAM above 4 GiB (HiFive) */
	dev.dma_coherent = false;
	if (!arch_dma_noncoherent_supported()) {	/* RISC-V without Zicbom / XTheadCmo */
		dk_mark();
		KTEST_EXPECT_EQ(t, dma_map_single(&dev, buf, 64, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
		KTEST_EXPECT_EQ(t, dk_count_since_mark("ktest-nc: non-coherent device and no cache operations: DMA refused"), 1);
		free_page((unsigned long)buf);
		return;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(dirs); i++) {
		struct ops got = map_unmap(t, &dev, buf, 0, PAGE_SIZE, dirs[i]);

		KTEST_EXPECT_EQ(t, got.clean, want[i].clean);
		KTEST_EXPECT_EQ(t, got.inval, want[i].inval);
		KTEST_EXPECT_EQ(t, got.flush, want[i].flush);
		got = map_unmap(t, &dev, buf, 5, 200, dirs[i]);	/* partial lines at both ends */
		KTEST_EXPECT_EQ(t, got.clean, want[i].clean);
		KTEST_EXPECT_EQ(t, got.inval, want[i].inval);
		KTEST_EXPECT_EQ(t, got.flush, want[i].flush);
	}
	/* A sync pair on a BIDIRECTIONAL mapping: an invalidate to the CPU, a clean back. */
	{
		dma_addr_t a = dma_map_single(&dev, buf, 256, DMA_BIDIRECTIONAL);
		struct ops before = ops_now(), after;

		dma_sync_single_for_cpu(&dev, a, 256, DMA_BIDIRECTIONAL);
		dma_sync_single_for_device(&dev, a, 256, DMA_BIDIRECTIONAL);
		after = ops_now();
		KTEST_EXPECT_EQ(t, after.inval - before.inval, 1);
		KTEST_EXPECT_EQ(t, after.clean - before.clean, 1);
		dma_unmap_single(&dev, a, 256, DMA_BIDIRECTIONAL);
	}
	KTEST_EXPECT_EQ(t, dma_debug_entries(), entries);
	free_page((unsigned long)buf);
}

static void map_counts_coherent(struct ktest *t)
{
	char *buf = (char *)__get_free_page(GFP_KERNEL);
	unsigned int entries = dma_debug_entries();
	struct device dev;

	KTEST_ASSERT_TRUE(t, buf != NULL);
	dma_dev_init(&dev, "ktest-coh", NULL, -1);
	dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64));	/* RAM above 4 GiB (HiFive) */
	dev.dma_coherent = true;
	for (int dir = DMA_BIDIRECTIONAL; dir <= DMA_FROM_DEVICE; dir++) {
		struct ops got = map_unmap(t, &dev, buf, 5, 200, (enum dma_data_direction)dir);

		KTEST_EXPECT_EQ(t, got.clean + got.inval + got.flush, 0);
	}
	KTEST_EXPECT_EQ(t, dma_debug_entries(), entries);
	free_page((unsigned long)buf);
}

/* ---- coherent allocations ---- */

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void alloc_coherent_nc(struct ktest *t)
{
	const size_t size = 3 * PAGE_SIZE;	/* an order-2 block, 4 frames */
	unsigned long free_before = nr_free_pages_and_pcp();
	struct device dev;
	struct page *page;
	dma_addr_t handle;
	unsigned char *cpu;

	dma_dev_init(&dev, "ktest-nc", NULL, -1);
	dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64));	/* RAM above 4 GiB (HiFive) */
	dev.dma_coherent = false;
	dk_mark();
	cpu = dma_alloc_coherent(&dev, size, &handle, GFP_KERNEL);
	if (!arch_noncached_supported()) {	/* RISC-V without Svpbmt, Sv32 */
		KTEST_EXPECT_TRUE(t, cpu == NULL);
		KTEST_EXPECT_EQ(t, handle, DMA_MAPPING_ERROR);
		KTEST_EXPECT_EQ(t, dk_count_since_mark("ktest-nc: dma_alloc_coherent: this CPU has no non-cacheable memory type: refused\n"), 1);
		KTEST_EXPECT_EQ(t, dk_count_since_mark("vmap:"), 0);	/* that line only */
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free_before);
		return;
	}
	KTEST_ASSERT_TRUE(t, cpu != NULL);
	KTEST_EXPECT_TRUE(t, is_vmalloc_addr(cpu));
	page = vmalloc_to_page(cpu);
	KTEST_ASSERT_TRUE(t, page != NULL);
	KTEST_EXPECT_EQ(t, handle, PFN_PHYS(page_to_pfn(page)));
	KTEST_EXPECT_TRUE(t, all_zero(cpu, 4 * PAGE_SIZE));
	for (unsigned int i = 0; i < 4; i++) {
		pte_t *ptep = virt_to_kpte((unsigned long)cpu + i * PAGE_SIZE);

		KTEST_ASSERT_TRUE(t, ptep != NULL);
		KTEST_EXPECT_EQ(t, pte_val(ptep_get(ptep)),
				pte_val(pfn_pte(page_to_pfn(page) + i, pgprot_dmacoherent(PAGE_KERNEL))));
		KTEST_EXPECT_TRUE(t, pgprot_noncacheable(__pgprot(pte_val(ptep_get(ptep)))));
		KTEST_EXPECT_TRUE(t, PageUncached(page + i));
	}
	KTEST_EXPECT_TRUE(t, find_vm_area(cpu) && (find_vm_area(cpu)->flags & VM_DMA_COHERENT));
	memset(cpu, 0x5a, size);		/* the memory is usable through the mapping */
	dma_free_coherent(&dev, size, cpu, handle);
	for (unsigned int i = 0; i < 4; i++)
		KTEST_EXPECT_FALSE(t, PageUncached(page + i));
	KTEST_EXPECT_TRUE(t, find_vm_area(cpu) == NULL);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free_before);
}

static void alloc_coherent_coherent(struct ktest *t)
{
	struct device dev;
	dma_addr_t handle;
	unsigned char *cpu;

	dma_dev_init(&dev, "ktest-coh", NULL, -1);
	dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64));	/* RAM above 4 GiB (HiFive) */
	dev.dma_coherent = true;
	cpu = dma_alloc_coherent(&dev, 100, &handle, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, cpu != NULL);
	KTEST_EXPECT_FALSE(t, is_vmalloc_addr(cpu));
	KTEST_EXPECT_EQ(t, handle, __pa(cpu));
	KTEST_EXPECT_FALSE(t, PageUncached(virt_to_page(cpu)));
	KTEST_EXPECT_TRUE(t, all_zero(cpu, PAGE_SIZE));
	dma_free_coherent(&dev, 100, cpu, handle);
}

/* Bad input: one line each, nothing mapped, nothing freed that should not be. */
static void bad_input(struct ktest *t)
{
	unsigned long free_before;
	struct device coh, nc;
	dma_addr_t handle;
	unsigned char *cpu;
	void *v = vmalloc(PAGE_SIZE);
	unsigned long warns = nr_warnings();

	dma_dev_init(&coh, "ktest-bad", NULL, -1);
	dma_set_mask_and_coherent(&coh, DMA_BIT_MASK(64));
	coh.dma_coherent = true;
	dk_mark();
	KTEST_EXPECT_EQ(t, dma_map_single(&coh, dk_log, 0, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
	KTEST_EXPECT_EQ(t, dk_count_since_mark("ktest-bad: DMA map of 0 bytes at "), 1);
	if (v) {
		dk_mark();
		KTEST_EXPECT_EQ(t, dma_map_single(&coh, v, 64, DMA_TO_DEVICE), DMA_MAPPING_ERROR);
		KTEST_EXPECT_EQ(t, dk_count_since_mark("ktest-bad: rejecting DMA map of vmalloc memory"), 1);
		KTEST_EXPECT_EQ(t, nr_warnings() - warns, 1);
		vfree(v);
	}
	KTEST_EXPECT_TRUE(t, dma_alloc_coherent(&coh, 0, &handle, GFP_KERNEL) == NULL);
	/* a free whose handle is not the memory's: refused, and the right one still works */
	cpu = dma_alloc_coherent(&coh, PAGE_SIZE, &handle, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, cpu != NULL);
	free_before = nr_free_pages_and_pcp();
	dk_mark();
	dma_free_coherent(&coh, PAGE_SIZE, cpu, handle + PAGE_SIZE);
	KTEST_EXPECT_EQ(t, dk_count_since_mark("is not the handle's memory: nothing freed"), 1);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), free_before);
	dma_free_coherent(&coh, PAGE_SIZE, cpu, handle);
	if (!arch_noncached_supported())
		return;
	dma_dev_init(&nc, "ktest-bad", NULL, -1);
	dma_set_mask_and_coherent(&nc, DMA_BIT_MASK(64));
	nc.dma_coherent = false;
	cpu = dma_alloc_coherent(&nc, PAGE_SIZE, &handle, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, cpu != NULL);
	dk_mark();
	dma_free_coherent(&nc, 4 * PAGE_SIZE, cpu, handle);	/* another size: another order */
	KTEST_EXPECT_EQ(t, dk_count_since_mark("bytes is not the handle's allocation: nothing freed"), 1);
	KTEST_EXPECT_TRUE(t, PageUncached(pfn_to_page(PHYS_PFN(handle))));	/* still mapped */
	dma_free_coherent(&nc, PAGE_SIZE, cpu, handle);
	KTEST_EXPECT_FALSE(t, PageUncached(pfn_to_page(PHYS_PFN(handle))));
}

static const struct ktest_case dma_cases[] = {
	KTEST_CASE(coherent_board_nodes),
	KTEST_CASE(coherent_made_up_tree),
	KTEST_CASE(masks),
	KTEST_CASE(map_counts_noncoherent),
	KTEST_CASE(map_counts_coherent),
	KTEST_CASE(alloc_coherent_nc),
	KTEST_CASE(alloc_coherent_coherent),
	KTEST_CASE(bad_input),
	{}
};
KTEST_SUITE(dma, dma_cases);
