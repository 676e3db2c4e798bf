/*
 * slab_test.c - the slab allocator on the host, under ASan/UBSan, over a fake RAM (8 MiB with a
 * ZONE_DMA below 1 MiB): the in-kernel suite `slab` with debugging on (the host build's default,
 * CONFIG_SLUB_DEBUG_ON) and off, then what only the host can check: a report's exact text,
 * slabinfo's exact lines, the `page` command on a slab page, slab_check() catching deliberate
 * damage, tinymm.slub_debug's parsing, and __GFP_DMA objects from ZONE_DMA.  Every test boots
 * the page and slab allocators afresh.
 */
#include "test.h"
#include "tinymm/cmdline.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/meminfo.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"
#include "tinymm/shrinker.h"
#include "tinymm/time.h"
#include "../../mm/slab.h"
#include "fake_ram.h"

#include "../ktest/slab_ktest.c"

#define MIB		(1UL << 20)
#define RAM_SIZE	(8 * MIB)
#define TS		"[    0.000000] "
static char *ram;
static char want[1 << 14];

static int group_setup(void **state)
{
	ram = fake_ram_alloc(RAM_SIZE);
	return ram ? 0 : -1;
}

static int group_teardown(void **state)
{
	free(ram);
	return 0;
}

/* Fresh page and slab allocators, with tinymm.<options> @opts. */
static void boot(const char *opts)
{
	char line[256];
	struct boot_args args;

	assert_int_equal(fake_ram_one_bank(__pa(ram), RAM_SIZE), 0);
	fake_ram_reserve_kernel(__pa(ram));
	snprintf(line, sizeof(line), "tinymm.zone_dma_limit=%#llx %s",
		 (unsigned long long)(__pa(ram) + MIB), opts);
	slub_debug = SLAB_DEBUG_FLAGS;		/* the host build's default, before the options */
	cmdline_parse(line, &args, __kparams_start, __kparams_end, no_warning);
	assert_int_equal(memmap_init(), 0);
	assert_int_equal(page_alloc_init(), 0);
	kmem_cache_init();
	meminfo_set_total(RAM_SIZE);		/* (also links the meminfo command in) */
	assert_int_equal(slab_check(NULL), 0);
	time_init(1000000);
	shim_counter = 0;
	console_loglevel = 7;
	shim_console_reset();
}

static int setup(void **state)
{
	boot("");
	return 0;
}

static int run(const char *cmd)
{
	char line[128];

	snprintf(line, sizeof(line), "%s", cmd);
	shim_console_reset();
	return shell_exec(__shell_cmds_start, __shell_cmds_end, line);
}

static void suite_passes(const char *opts)
{
	boot(opts);
	int failed = ktest_run(__ktest_suites_start, __ktest_suites_end, "slab");
	if (failed)
		fprintf(stderr, "%s", shim_console);
	assert_int_equal(failed, 0);
	snprintf(want, sizeof(want), "# totals: pass:%zu fail:0 skip:0\n", ARRAY_SIZE(slab_cases) - 1);
	assert_console_has(want);
}

static void ktest_suite_passes_debug_on(void **state) { suite_passes(""); }
static void ktest_suite_passes_debug_off(void **state) { suite_passes("tinymm.slub_debug=0"); }

static void slub_debug_parses_v6_10_letters(void **state)
{
	boot("tinymm.slub_debug=FZ");
	assert_int_equal(slub_debug, SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE);
	struct kmem_cache *s = kmem_cache_create("fz", 24, 0, 0, NULL);
	assert_int_equal(s->flags & SLAB_DEBUG_FLAGS, SLAB_CONSISTENCY_CHECKS | SLAB_RED_ZONE);
	kmem_cache_destroy(s);
	boot("tinymm.slub_debug=-");
	assert_int_equal(slub_debug, 0);
	boot("tinymm.slub_debug=1");
	assert_int_equal(slub_debug, SLAB_DEBUG_FLAGS);
	char line[] = "tinymm.slub_debug=FX";
	struct boot_args args;
	cmdline_parse(line, &args, __kparams_start, __kparams_end, NULL);
	assert_int_equal(slub_debug, SLAB_DEBUG_FLAGS);		/* rejected: unchanged */
}

/* The double-free report, line by line. */
static void double_free_report_text(void **state)
{
	struct kmem_cache *s = kmem_cache_create("test_obj", 40, 0, SLAB_DEBUG_FLAGS, NULL);
	void *keep = kmem_cache_alloc(s, GFP_KERNEL), *p = kmem_cache_alloc(s, GFP_KERNEL);

	kmem_cache_free(s, p);
	shim_console_reset();
	kmem_cache_free(s, p);
	struct slab *slab = virt_to_slab(p);
	snprintf(want, sizeof(want),
		 "=============================================================================\n"
		 TS "BUG test_obj: Object already free\n"
		 TS "-----------------------------------------------------------------------------\n"
		 TS "Slab 0x%lx objects=%u used=1 fp=0x%lx\n"
		 TS "Object 0x%lx\n", (unsigned long)slab, slab->objects, (unsigned long)p,
		 (unsigned long)p);
	assert_non_null(strstr(shim_console, "====="));
	want[strlen(want)] = 0;
	assert_memory_equal(strstr(shim_console, "====="), want, strlen(want));	/* the start, exactly */
	assert_console_has("page_type: 0xffffefff(slab)\n");
	assert_console_has("slab: cache test_obj\n");
	assert_console_has("page dumped because: slab\n");
	kmem_cache_free(s, keep);
	kmem_cache_destroy(s);
	assert_int_equal(slab_check(NULL), 0);
}

static void slabinfo_lines(void **state)
{
	boot("tinymm.slub_debug=0");
	void *a = kmalloc(100, GFP_KERNEL), *b = kmalloc(100, GFP_KERNEL), *c = kmalloc(3, GFP_KERNEL);
	assert_int_equal(run("slabinfo"), 0);
	assert_console_has("slabinfo - version: 2.1\n# name            <active_objs> <num_objs> "
			   "<objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> "
			   "<sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n");
	assert_console_has("\nkmalloc-128            2     32    128   32    1 : tunables    0    0"
			   "    0 : slabdata      1      1      0\n");
	assert_console_has("\nkmalloc-8              1    512      8  512    1 : tunables    0    0"
			   "    0 : slabdata      1      1      0\n");
	assert_console_has("\nkmalloc-2k             0      0   2048    8    4 : tunables    0    0"
			   "    0 : slabdata      0      0      0\n");
	kfree(a);
	kfree(b);
	kfree(c);
	assert_int_equal(run("slabinfo"), 0);
	assert_console_has("\nkmalloc-128            0     32    128   32    1 : ");
	assert_int_equal(run("meminfo"), 0);
	assert_console_has("KReclaimable:          0 kB\nSlab:                  8 kB\n"
			   "SReclaimable:          0 kB\nSUnreclaim:            8 kB\n");
	assert_int_equal(run("slabcheck"), 0);
	assert_string_equal(shim_console, "slabcheck: ok (0 problems)\n");
}

static void slab_check_catches_damage(void **state)
{
	boot("tinymm.slub_debug=Z");
	struct kmem_cache *s = kmem_cache_create("damaged", 32, 0, 0, NULL);
	unsigned char *p = kmem_cache_alloc(s, GFP_KERNEL);
	struct slab *slab = virt_to_slab(p);

	p[32] ^= 0xff;				/* an overflow nobody has freed yet */
	assert_int_equal(slab_check(NULL), 1);
	assert_int_equal(run("slabcheck"), 1);
	snprintf(want, sizeof(want), "slabcheck: damaged object 0x%lx: red zone overwritten\n",
		 (unsigned long)p);
	assert_console_has(want);
	assert_console_has("slabcheck: FAILED (1 problem)\n");
	p[32] ^= 0xff;
	slab->inuse++;				/* the counters disagree with the free list */
	assert_true(slab_check(NULL) >= 1);
	slab->inuse--;
	assert_int_equal(slab_check(NULL), 0);
	s->nr_partial++;			/* and the lists with the cache's counts */
	assert_int_equal(slab_check(NULL), 1);
	s->nr_partial--;
	kmem_cache_free(s, p);
	kmem_cache_destroy(s);
	assert_int_equal(slab_check(NULL), 0);
}

static void dma_objects_come_from_zone_dma(void **state)
{
	void *d = kmalloc(64, GFP_KERNEL | __GFP_DMA), *n = kmalloc(64, GFP_KERNEL);

	assert_int_equal(page_zonenum(virt_to_page(d)), ZONE_DMA);
	assert_string_equal(slab_cache_name_of(virt_to_page(d)), "dma-kmalloc-64");
	assert_int_equal(page_zonenum(virt_to_page(n)), ZONE_NORMAL);
	kfree(d);
	kfree(n);
	assert_int_equal(slab_check(NULL), 0);
}

/* tinymm.slub_min_partial: how many empty slabs a cache keeps before giving them back. */
static void min_partial_is_configurable(void **state)
{
	for (unsigned int keep = 1; keep <= 3; keep += 2) {
		char opts[64];
		snprintf(opts, sizeof(opts), "tinymm.slub_debug=0 tinymm.slub_min_partial=%u", keep);
		boot(opts);
		struct kmem_cache *s = kmem_cache_create("keep", 512, 0, 0, NULL);
		assert_int_equal(s->min_partial, keep);
		void *objs[8 * 8];
		unsigned int n = 8 * s->objects;
		assert_true(n <= ARRAY_SIZE(objs));
		for (unsigned int i = 0; i < n; i++)
			assert_non_null(objs[i] = kmem_cache_alloc(s, GFP_KERNEL));
		for (unsigned int i = 0; i < n; i++)
			kmem_cache_free(s, objs[i]);
		flush_cpu_slab(s);
		assert_int_equal(slab_empty_slabs(s), keep);
		assert_int_equal(s->nr_slabs, keep);
		assert_int_equal(slab_check(NULL), 0);
	}
	struct boot_args args;
	char bad[] = "tinymm.slub_min_partial=0";
	cmdline_parse(bad, &args, __kparams_start, __kparams_end, NULL);	/* rejected */
	assert_int_equal(kmem_cache_create("keep2", 512, 0, 0, NULL)->min_partial, 3);
	boot("tinymm.slub_min_partial=5");	/* Linux's rule's 5..10 for the rest */
}

/* SLAB_TYPESAFE_BY_RCU (the XArray's nodes): freed objects keep their bytes (the free pointer
 * is outside them) and the cache's slabs stay with it through kmem_cache_shrink() and the slab
 * shrinker; a plain cache beside it gives its empty slabs back.  kmem_cache_destroy() does. */
static void typesafe_cache_keeps_its_slabs(void **state)
{
	boot("tinymm.slub_debug=0");
	struct kmem_cache *ts = kmem_cache_create("typesafe", 200, 0, SLAB_TYPESAFE_BY_RCU, NULL);
	struct kmem_cache *plain = kmem_cache_create("plain", 200, 0, 0, NULL);
	assert_true(ts->offset >= ts->object_size);
	assert_true(plain->offset < plain->object_size);
	static void *objs[2][8 * 128];
	unsigned int n[2] = { 4 * ts->objects, 4 * plain->objects };
	assert_true(n[0] <= ARRAY_SIZE(objs[0]) && n[1] <= ARRAY_SIZE(objs[1]));
	for (unsigned int i = 0; i < n[0]; i++) {
		assert_non_null(objs[0][i] = kmem_cache_alloc(ts, GFP_KERNEL));
		memset(objs[0][i], 0x5a, 200);
	}
	for (unsigned int i = 0; i < n[1]; i++)
		assert_non_null(objs[1][i] = kmem_cache_alloc(plain, GFP_KERNEL));
	unsigned long slabs = ts->nr_slabs, frames = nr_free_pages();
	for (unsigned int i = 0; i < n[0]; i++)
		kmem_cache_free(ts, objs[0][i]);
	for (unsigned int i = 0; i < n[1]; i++)
		kmem_cache_free(plain, objs[1][i]);
	for (unsigned int i = 0; i < n[0]; i++)
		for (unsigned int b = 0; b < 200; b++)
			assert_int_equal(((unsigned char *)objs[0][i])[b], 0x5a);
	kmem_cache_shrink(ts);
	kmem_cache_shrink(plain);
	assert_int_equal(ts->nr_slabs, slabs);
	assert_int_equal(slab_empty_slabs(ts), slabs);
	assert_int_equal(plain->nr_slabs, 0);
	struct shrink_control sc = { .gfp_mask = GFP_KERNEL, .nr_to_scan = 1000 };
	slab_shrinker.scan_objects(&slab_shrinker, &sc);
	assert_int_equal(ts->nr_slabs, slabs);
	assert_int_equal(slab_check(NULL), 0);
	kmem_cache_destroy(ts);
	kmem_cache_destroy(plain);
	assert_true(nr_free_pages() >= frames);
	assert_int_equal(slab_check(NULL), 0);
}

static void impossible_size_warns_unless_nowarn(void **state)
{
	shim_console_reset();
	assert_null(kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN));
	assert_null(strstr(shim_console, "KMALLOC_MAX_SIZE"));
	assert_null(kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL));
	snprintf(want, sizeof(want), "kmalloc: %lu bytes is above KMALLOC_MAX_SIZE (%lu)\n",
		 KMALLOC_MAX_SIZE + 1, KMALLOC_MAX_SIZE);
	assert_console_has(want);
	assert_int_equal(slab_check(NULL), 0);
}

static void page_command_names_the_cache(void **state)
{
	void *p = kmalloc(512, GFP_KERNEL);
	char cmd[48];

	snprintf(cmd, sizeof(cmd), "page %#lx", page_to_pfn(virt_to_page(p)));
	assert_int_equal(run(cmd), 0);
	assert_console_has("page_type: 0xffffefff(slab)\n");
	assert_console_has("slab: cache kmalloc-512\n");
	kfree(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ktest_suite_passes_debug_on),
		cmocka_unit_test(ktest_suite_passes_debug_off),
		cmocka_unit_test(slub_debug_parses_v6_10_letters),
		cmocka_unit_test_setup(double_free_report_text, setup),
		cmocka_unit_test(slabinfo_lines),
		cmocka_unit_test(slab_check_catches_damage),
		cmocka_unit_test_setup(dma_objects_come_from_zone_dma, setup),
		cmocka_unit_test_setup(page_command_names_the_cache, setup),
		cmocka_unit_test(typesafe_cache_keeps_its_slabs),
		cmocka_unit_test_setup(impossible_size_warns_unless_nowarn, setup),
		cmocka_unit_test(min_partial_is_configurable),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
