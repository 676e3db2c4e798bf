/* memblock_test.c - the early memory map: banks, typed reservations, merging, allocation. */
#include "test.h"
#include "tinymm/errno.h"
#include "tinymm/memblock.h"
#include "tinymm/shell.h"

static int setup(void **state)
{
	memblock_reset();
	return 0;
}

static void expect_region(int i, phys_addr_t base, phys_addr_t size, enum memblock_type type)
{
	const struct memblock_region *r = memblock_region(i);

	assert_non_null(r);
	assert_int_equal(r->base, base);
	assert_int_equal(r->size, size);
	assert_int_equal(r->type, type);
}

static void banks_are_sorted_and_touching_ones_merge(void **state)
{
	assert_int_equal(memblock_add(0x90000000, 0x1000000, NULL), 0);
	assert_int_equal(memblock_add(0x80000000, 0x1000000, NULL), 0);
	assert_int_equal(memblock_add(0x81000000, 0x1000000, NULL), 0);	/* touches the first */
	assert_int_equal(memblock_count(), 2);
	expect_region(0, 0x80000000, 0x2000000, MEMBLOCK_USABLE);
	expect_region(1, 0x90000000, 0x1000000, MEMBLOCK_USABLE);
	assert_int_equal(memblock_phys_mem_size(), 0x3000000);
}

static void bad_banks_are_refused(void **state)
{
	struct memblock_region other;

	assert_int_equal(memblock_add(0x80000000, 0x4000000, NULL), 0);
	assert_int_equal(memblock_add(0x90000000, 0, NULL), -EINVAL);
	assert_int_equal(memblock_add(~0ULL - 0xfff, 0x2000, NULL), -EINVAL);	/* wraps */
	assert_int_equal(memblock_add(0x83000000, 0x4000000, &other), -EEXIST);
	assert_int_equal(other.base, 0x80000000);
	assert_int_equal(other.size, 0x4000000);
	/* The conflict names the whole bank even after reservations split it. */
	memblock_reserve(0x81000000, 0x1000, MEMBLOCK_KERNEL);
	assert_int_equal(memblock_add(0x7ffff000, 0x2000, &other), -EEXIST);
	assert_int_equal(other.base, 0x80000000);
	assert_int_equal(other.size, 0x4000000);
	assert_int_equal(memblock_phys_mem_size(), 0x4000000);
}

static void reserve_splits_and_first_claim_wins(void **state)
{
	memblock_add(0x80000000, 0x100000, NULL);
	assert_int_equal(memblock_reserve(0x80010000, 0x2000, MEMBLOCK_KERNEL), 0x2000);
	assert_int_equal(memblock_count(), 3);
	expect_region(0, 0x80000000, 0x10000, MEMBLOCK_USABLE);
	expect_region(1, 0x80010000, 0x2000, MEMBLOCK_KERNEL);
	expect_region(2, 0x80012000, 0xee000, MEMBLOCK_USABLE);
	/* Overlapping a kernel region: only the usable part changes type. */
	assert_int_equal(memblock_reserve(0x80011000, 0x2000, MEMBLOCK_DTB), 0x1000);
	expect_region(2, 0x80012000, 0x1000, MEMBLOCK_DTB);
	/* Outside RAM: nothing changes. */
	assert_int_equal(memblock_reserve(0x90000000, 0x1000, MEMBLOCK_RESERVED), 0);
	/* A neighbour of the same type merges. */
	assert_int_equal(memblock_reserve(0x80013000, 0x1000, MEMBLOCK_DTB), 0x1000);
	expect_region(2, 0x80012000, 0x2000, MEMBLOCK_DTB);
	assert_int_equal(memblock_size_of(MEMBLOCK_USABLE), 0x100000 - 0x4000);
	assert_true(memblock_is_memory(0x80000000, 0x100000));
	assert_false(memblock_is_memory(0x800ff000, 0x2000));
}

static void is_memory_sees_holes(void **state)
{
	memblock_add(0x80000000, 0x1000, NULL);
	memblock_add(0x80002000, 0x1000, NULL);
	assert_true(memblock_is_memory(0x80000000, 0x1000));
	assert_false(memblock_is_memory(0x80000000, 0x3000));
	assert_false(memblock_is_memory(0x7ffff000, 0x2000));
	assert_false(memblock_is_memory(0x80002000, ~0ULL));
	assert_true(memblock_overlaps_memory(0x7ffff000, 0x2000));
	assert_false(memblock_overlaps_memory(0x80001000, 0x1000));	/* the hole */
	assert_true(memblock_overlaps_memory(0x80001000, 0x1001));
	assert_false(memblock_overlaps_memory(0, 0x1000));
}

static void alloc_is_top_down_aligned_and_typed(void **state)
{
	memblock_add(0x80000000, 0x100000, NULL);
	memblock_add(0x90000000, 0x3000, NULL);
	phys_addr_t a = memblock_alloc(0x2000, 0x1000, MEMBLOCK_MEMMAP);
	assert_int_equal(a, 0x90001000);
	phys_addr_t b = memblock_alloc(0x2000, 0x10000, MEMBLOCK_MEMMAP);	/* no aligned room left up there */
	assert_int_equal(b, 0x800f0000);
	assert_int_equal(memblock_size_of(MEMBLOCK_MEMMAP), 0x4000);
	assert_int_equal(memblock_alloc(0x200000, 0x1000, MEMBLOCK_MEMMAP), 0);	/* too big */
	assert_int_equal(memblock_alloc(0x1000, 0x3000, MEMBLOCK_MEMMAP), 0);	/* align not a power of 2 */
}

static void table_overflow_is_an_error_not_corruption(void **state)
{
	long long ret = 0;

	memblock_add(0x80000000, 0x10000000, NULL);
	for (int i = 0; i < MEMBLOCK_MAX_REGIONS && ret >= 0; i++)
		ret = memblock_reserve(0x80000000 + (phys_addr_t)i * 0x2000, 0x1000, MEMBLOCK_RESERVED);
	assert_int_equal(ret, -ENOSPC);
	assert_true(memblock_count() <= MEMBLOCK_MAX_REGIONS);
	assert_int_equal(memblock_phys_mem_size(), 0x10000000);
	/* A refused reservation changed nothing, even one that would have split several regions. */
	int before = memblock_count();
	phys_addr_t usable = memblock_size_of(MEMBLOCK_USABLE);
	assert_int_equal(memblock_reserve(0x80000800, 0x400000, MEMBLOCK_DTB), -ENOSPC);
	assert_int_equal(memblock_count(), before);
	assert_int_equal(memblock_size_of(MEMBLOCK_USABLE), usable);
	assert_int_equal(memblock_size_of(MEMBLOCK_DTB), 0);
}

static void memmap_command_prints_linux_style(void **state)
{
	char line[] = "memmap", bad[] = "memmap now";

	memblock_add(0x80000000, 0x4000000, NULL);
	memblock_reserve(0x80000000, 0x20000, MEMBLOCK_FIRMWARE);
	memblock_reserve(0x80200000, 0x10000, MEMBLOCK_KERNEL);
	memblock_set_kernel_sizes(0xc000, 0x4000);
	shim_console_reset();
	assert_int_equal(shell_exec(__shell_cmds_start, __shell_cmds_end, line), 0);
	assert_string_equal(shim_console,
		"[mem 0x0000000080000000-0x000000008001ffff] firmware\n"
		"[mem 0x0000000080020000-0x00000000801fffff] usable\n"
		"[mem 0x0000000080200000-0x000000008020ffff] kernel\n"
		"[mem 0x0000000080210000-0x0000000083ffffff] usable\n"
		"Memory: 65344K/65536K available (48K kernel code, 16K rwdata, 128K reserved)\n");
	shim_console_reset();
	assert_int_equal(shell_exec(__shell_cmds_start, __shell_cmds_end, bad), 2);
	assert_string_equal(shim_console, "memmap: unexpected argument 'now'\n");
}

/* v6.10's memblock_enforce_memory_limit(): the lowest @limit bytes of RAM counted bank by bank
 * (holes skipped), everything above gone whatever its type; no more RAM than @limit: nothing. */
static void enforce_memory_limit_keeps_the_lowest_bytes(void **state)
{
	memblock_add(0x80000000, 0x1000000, NULL);		/* 16 MiB */
	memblock_add(0x90000000, 0x2000000, NULL);		/* 32 MiB after a hole */
	memblock_reserve(0x80000000, 0x80000, MEMBLOCK_NOMAP);
	memblock_reserve(0x90800000, 0x1000, MEMBLOCK_DTB);
	memblock_reserve(0x91000000, 0x1000, MEMBLOCK_RESERVED);
	memblock_enforce_memory_limit(0x3000000);		/* all of it: nothing */
	assert_int_equal(memblock_phys_mem_size(), 0x3000000);
	memblock_enforce_memory_limit(0x1800000);		/* 24 MiB: 8 MiB of the second bank */
	assert_int_equal(memblock_phys_mem_size(), 0x1800000);
	assert_int_equal(memblock_count(), 3);			/* the DTB at the cut went */
	expect_region(0, 0x80000000, 0x80000, MEMBLOCK_NOMAP);
	expect_region(1, 0x80080000, 0xf80000, MEMBLOCK_USABLE);
	expect_region(2, 0x90000000, 0x800000, MEMBLOCK_USABLE);
	assert_int_equal(memblock_size_of(MEMBLOCK_DTB) + memblock_size_of(MEMBLOCK_RESERVED), 0);
}

static void enforce_memory_limit_cuts_inside_a_region(void **state)
{
	memblock_add(0x80000000, 0x1000000, NULL);
	memblock_add(0x90000000, 0x2000000, NULL);
	memblock_reserve(0x90700000, 0x200000, MEMBLOCK_RESERVED);	/* across the cut */
	memblock_enforce_memory_limit(0x1800000);
	assert_int_equal(memblock_count(), 3);
	expect_region(0, 0x80000000, 0x1000000, MEMBLOCK_USABLE);
	expect_region(1, 0x90000000, 0x700000, MEMBLOCK_USABLE);
	expect_region(2, 0x90700000, 0x100000, MEMBLOCK_RESERVED);
	assert_false(memblock_is_memory(0x90800000, 1));
	memblock_enforce_memory_limit(0x1000000);		/* exactly the first bank */
	assert_int_equal(memblock_count(), 1);
	expect_region(0, 0x80000000, 0x1000000, MEMBLOCK_USABLE);
	memblock_enforce_memory_limit(0);			/* 0: no limit */
	assert_int_equal(memblock_phys_mem_size(), 0x1000000);
}

/* The boot's policy: the lines it gives, and what it keeps. */
static void apply_memory_limit_policy(void **state)
{
	char msg[240];

	memblock_add(0x40000000, 0x40000000, NULL);		/* 1 GiB */
	memblock_reserve(0x40008000, 0x1a0000, MEMBLOCK_KERNEL);	/* ends at 1696K */
	memblock_reserve(0x49ff7000, 0x9000, MEMBLOCK_DTB);
	assert_int_equal(memblock_apply_memory_limit(0, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	assert_int_equal(memblock_apply_memory_limit(2ULL << 30, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "mem=2097152K is not below the 1048576K of RAM: no limit");
	assert_int_equal(memblock_apply_memory_limit(1ULL << 30, msg, sizeof(msg)), -1);
	assert_int_equal(memblock_phys_mem_size(), 1ULL << 30);
	/* 64M + 100 bytes: rounded down to a page; the DTB above goes with the rest. */
	assert_int_equal(memblock_apply_memory_limit((64 << 20) + 100, msg, sizeof(msg)), 1);
	assert_string_equal(msg, "mem=65536K: [mem 0x0000000044000000-0x000000007fffffff] removed, "
			    "65536K of RAM left");
	assert_int_equal(memblock_phys_mem_size(), 64 << 20);
	assert_int_equal(memblock_size_of(MEMBLOCK_DTB), 0);
	assert_int_equal(memblock_size_of(MEMBLOCK_KERNEL), 0x1a0000);
	/* Below the minimum: raised to the kernel's end (1696K of RAM) + 16 MiB. */
	assert_int_equal(memblock_apply_memory_limit(4 << 20, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "mem=4096K is below the 18080K tinymm needs (RAM to the kernel "
			    "image's end, and 16M more): raised to it, [mem 0x00000000411a8000-"
			    "0x0000000043ffffff] removed");
	assert_int_equal(memblock_phys_mem_size(), 18080 << 10);
	assert_int_equal(memblock_size_of(MEMBLOCK_KERNEL), 0x1a0000);
	assert_true(memblock_is_memory(0x40008000, 0x1a0000));
	/* When even that is all the RAM: nothing cut. */
	assert_int_equal(memblock_apply_memory_limit(1 << 20, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "mem=1024K: tinymm needs 18080K (RAM to the kernel image's end, and "
			    "16M more), not less than the 18080K of RAM: no limit");
	assert_int_equal(memblock_phys_mem_size(), 18080 << 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(banks_are_sorted_and_touching_ones_merge, setup),
		cmocka_unit_test_setup(bad_banks_are_refused, setup),
		cmocka_unit_test_setup(reserve_splits_and_first_claim_wins, setup),
		cmocka_unit_test_setup(is_memory_sees_holes, setup),
		cmocka_unit_test_setup(alloc_is_top_down_aligned_and_typed, setup),
		cmocka_unit_test_setup(table_overflow_is_an_error_not_corruption, setup),
		cmocka_unit_test_setup(memmap_command_prints_linux_style, setup),
		cmocka_unit_test_setup(enforce_memory_limit_keeps_the_lowest_bytes, setup),
		cmocka_unit_test_setup(enforce_memory_limit_cuts_inside_a_region, setup),
		cmocka_unit_test_setup(apply_memory_limit_policy, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
