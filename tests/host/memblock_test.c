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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
