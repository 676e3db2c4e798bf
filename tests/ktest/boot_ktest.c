/*
 * boot_ktest.c - in-kernel checks of what boot built, on the real board: the device tree as
 * the firmware passed it, the memory map memblock made of it, the console and the counter.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/devicetree.h"
#include "tinymm/ktest.h"
#include "tinymm/memblock.h"
#include "tinymm/memory.h"
#include "tinymm/printk.h"
#include "tinymm/sections.h"
#include "tinymm/time.h"

static void dt_has_memory_and_chosen(struct ktest *t)
{
	const struct dt *dt = boot_dt();
	int found = 0;

	KTEST_ASSERT_TRUE(t, dt != NULL);
	KTEST_EXPECT_GE(t, dt_path(dt, "/chosen", 7), 0);
	for (int n = dt_first_child(dt, 0); n >= 0; n = dt_next_sibling(dt, n)) {
		const char *type = dt_getprop_str(dt, n, "device_type");
		found += type && !strcmp(type, "memory");
	}
	KTEST_EXPECT_GE(t, found, 1);
}

static void dt_walk_visits_every_node_once(struct ktest *t)
{
	const struct dt *dt = boot_dt();
	int depth = 0, nodes = 0, children = 0;

	for (int n = 0; n >= 0; n = dt_next_node(dt, n, &depth)) {
		nodes++;
		KTEST_EXPECT_GE(t, depth, 0);
		if (n)
			KTEST_EXPECT_GE(t, dt_parent(dt, n), 0);
	}
	/* Count again through first_child/next_sibling: both walks must agree. */
	int stack[64], sp = 0;
	stack[sp++] = 0;
	while (sp) {
		int n = stack[--sp];
		children++;
		for (int c = dt_first_child(dt, n); c >= 0 && sp < 64; c = dt_next_sibling(dt, c))
			stack[sp++] = c;
	}
	KTEST_EXPECT_EQ(t, nodes, children);
	KTEST_EXPECT_GT(t, nodes, 5);
}

static void memmap_covers_ram_exactly(struct ktest *t)
{
	phys_addr_t sum = 0;

	for (int i = 0; i < memblock_count(); i++) {
		const struct memblock_region *r = memblock_region(i);
		KTEST_EXPECT_GT(t, r->size, 0);
		if (i) {
			const struct memblock_region *p = memblock_region(i - 1);
			KTEST_EXPECT_LE(t, p->base + p->size, r->base);
			if (p->base + p->size == r->base)
				KTEST_EXPECT_NE(t, p->type, r->type);	/* else they would be merged */
		}
		sum += r->size;
	}
	KTEST_EXPECT_EQ(t, sum, memblock_phys_mem_size());
	KTEST_EXPECT_GT(t, memblock_size_of(MEMBLOCK_USABLE), 0);
}

static void kernel_and_dtb_are_reserved(struct ktest *t)
{
	phys_addr_t k = __pa(_start_kernel), ke = __pa(_end);

	KTEST_EXPECT_TRUE(t, memblock_is_memory(k, ke - k));
	KTEST_EXPECT_EQ(t, memblock_size_of(MEMBLOCK_KERNEL), ke - k);
	/* The DTB is reserved wherever it lies in RAM (QEMU puts it inside RAM on every board). */
	KTEST_EXPECT_GE(t, memblock_size_of(MEMBLOCK_DTB), boot_dt()->totalsize);
	/* No usable region may overlap the image. */
	for (int i = 0; i < memblock_count(); i++) {
		const struct memblock_region *r = memblock_region(i);
		if (r->type == MEMBLOCK_USABLE) {
			KTEST_EXPECT_TRUE(t, r->base >= ke || r->base + r->size <= k);
		}
	}
}

/* The counter moves forward in steps far below 1 ms.  The smallest of 16 steps is taken: under
 * QEMU the host may stop this CPU's thread between two reads (seen: 8.6 ms at -smp 2 on a
 * loaded host), which stretches one step, not all of them. */
static void counter_advances(struct ktest *t)
{
	uint64_t step = ~0ULL;

	KTEST_ASSERT_NE(t, time_counter_freq(), 0);
	for (int i = 0; i < 16; i++) {
		uint64_t a = ktime_get_ns(), b;

		do {
			b = ktime_get_ns();
		} while (b == a);
		KTEST_EXPECT_GT(t, b, a);
		if (b - a < step)
			step = b - a;
	}
	KTEST_EXPECT_LT(t, step, 1000000ULL);
}

static void vsnprintf_formats(struct ktest *t)
{
	char buf[64];

	ksnprintf(buf, sizeof(buf), "%d|%5u|%-4x|%08lx|%llx|%c|%s|%zu", -42, 7u, 0xabu, 0x1234UL,
		  0x123456789abcULL, 'z', "str", (size_t)99);
	KTEST_EXPECT_STREQ(t, buf, "-42|    7|ab  |00001234|123456789abc|z|str|99");
	KTEST_EXPECT_EQ(t, ksnprintf(buf, 4, "%s", "truncated"), 9);
	KTEST_EXPECT_STREQ(t, buf, "tru");
}

static const struct ktest_case boot_cases[] = {
	KTEST_CASE(dt_has_memory_and_chosen),
	KTEST_CASE(dt_walk_visits_every_node_once),
	KTEST_CASE(memmap_covers_ram_exactly),
	KTEST_CASE(kernel_and_dtb_are_reserved),
	KTEST_CASE(counter_advances),
	KTEST_CASE(vsnprintf_formats),
	{ 0 },
};
KTEST_SUITE(boot, boot_cases);
