/* dt_memory_test.c - device tree to memory map, on QEMU's DTBs and on tests/dts's bad ones. */
#include "test.h"
#include "tinymm/devicetree.h"
#include "tinymm/memblock.h"

static const char *dtb_dir, *qemu_dir;

static int load(const char *dir, const char *name, phys_addr_t kstart, phys_addr_t kend, char *err,
		void **blobp)
{
	char path[512];
	size_t len;
	struct dt dt;
	char derr[DT_ERR_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	*blobp = shim_read_file(path, &len);
	assert_int_equal(dt_open(&dt, *blobp, len, derr), 0);
	err[0] = '\0';
	return dt_memory_init(&dt, 0x1000000000ULL, kstart, kend, err, 200);
}

static void expect_fail(const char *name, const char *msg)
{
	char err[200];
	void *blob;

	assert_int_not_equal(load(dtb_dir, name, 0x80000000, 0x80011000, err, &blob), 0);
	if (strcmp(err, msg)) {
		fprintf(stderr, "%s: got '%s'\n      want '%s'\n", name, err, msg);
		fail();
	}
	free(blob);
}

static void bad_trees_are_refused_with_one_line(void **state)
{
	expect_fail("no-memory.dtb", "dt: no /memory node (device_type = \"memory\"): RAM unknown");
	expect_fail("bad-cells.dtb", "dt: /memory@80000000: reg is 12 bytes, not a multiple of 16 "
				     "(#address-cells = 2, #size-cells = 2)");
	expect_fail("overlap.dtb", "dt: /memory@83000000: bank [mem 0x0000000083000000-0x0000000086ffffff] "
				   "overlaps RAM [mem 0x0000000080000000-0x0000000083ffffff]");
	expect_fail("zero-size.dtb", "dt: /memory@80000000: bank 1 at 0x90000000 has size 0");
	expect_fail("too-small.dtb", "memory: kernel image [mem 0x0000000080000000-0x0000000080010fff] "
				     "is not inside RAM (32K in all): RAM too small or misplaced");
}

static void good_tree_gives_typed_map(void **state)
{
	char err[200];
	void *blob;

	assert_int_equal(load(dtb_dir, "good.dtb", 0x80000000, 0x80011000, err, &blob), 0);
	assert_int_equal(memblock_phys_mem_size(), 0x6000000);
	assert_int_equal(memblock_size_of(MEMBLOCK_KERNEL), 0x11000);
	assert_int_equal(memblock_size_of(MEMBLOCK_NOMAP), 0x100000);
	assert_int_equal(memblock_size_of(MEMBLOCK_RESERVED), 0x2000);	/* /memreserve/ */
	assert_int_equal(memblock_size_of(MEMBLOCK_DTB), 0);		/* DTB placed outside RAM here */
	assert_false(memblock_is_memory(0x84000000, 0x1000));		/* the hole between banks */
	free(blob);
}

static void qemu_trees(void **state)
{
	char err[200];
	void *blob;

	/* ARM virt, 512 MiB at 0x40000000; kernel at 0x40100000. */
	assert_int_equal(load(qemu_dir, "arm-512M.dtb", 0x40100000, 0x40120000, err, &blob), 0);
	assert_int_equal(memblock_phys_mem_size(), 512ULL << 20);
	assert_int_equal(memblock_region(0)->base, 0x40000000);
	free(blob);
	/* RV64 virt as QEMU makes it (OpenSBI adds its reservation only at run time). */
	assert_int_equal(load(qemu_dir, "riscv64-512M.dtb", 0x80200000, 0x80220000, err, &blob), 0);
	assert_int_equal(memblock_phys_mem_size(), 512ULL << 20);
	assert_int_equal(memblock_region(0)->base, 0x80000000);
	free(blob);
	assert_int_equal(load(qemu_dir, "riscv32-96M.dtb", 0x80000000, 0x80011000, err, &blob), 0);
	assert_int_equal(memblock_phys_mem_size(), 96ULL << 20);
	assert_int_equal(memblock_size_of(MEMBLOCK_USABLE), (96ULL << 20) - 0x11000);
	free(blob);
}

/* QEMU's sifive_u (HiFive Unleashed): 8 GiB, and the boot CPU found by its hart id alone. */
static void sifive_u_tree_and_boot_hart(void **state)
{
	char err[200], derr[DT_ERR_MAX], path[512];
	void *blob;
	size_t len;
	struct dt dt;

	assert_int_equal(load(qemu_dir, "sifive_u-8G.dtb", 0x80200000, 0x80320000, err, &blob), 0);
	assert_int_equal(memblock_phys_mem_size(), 8ULL << 30);
	assert_int_equal(memblock_region(0)->base, 0x80000000);
	free(blob);
	snprintf(path, sizeof(path), "%s/sifive_u-8G.dtb", qemu_dir);
	blob = shim_read_file(path, &len);
	assert_int_equal(dt_open(&dt, blob, len, derr), 0);
	for (unsigned int hart = 0; hart <= 4; hart++) {
		char name[16];
		int node = dt_boot_cpu_node(&dt, hart);
		snprintf(name, sizeof(name), "cpu@%u", hart);
		assert_true(node >= 0);
		assert_string_equal(dt_node_name(&dt, node), name);	/* not the first, not reg 0 */
	}
	assert_int_equal(dt_boot_cpu_node(&dt, 5), -1);			/* no such hart */
	free(blob);
}

static void dma_ranges_give_the_dma_limit(void **state)
{
	char path[512], derr[DT_ERR_MAX];
	size_t len;
	struct dt dt;

	snprintf(path, sizeof(path), "%s/dma-ranges.dtb", dtb_dir);
	void *blob = shim_read_file(path, &len);
	assert_int_equal(dt_open(&dt, blob, len, derr), 0);
	assert_int_equal(dt_dma_limit(&dt), 0x81000000);	/* 0x80000000 + 16 MiB */
	free(blob);
	snprintf(path, sizeof(path), "%s/good.dtb", dtb_dir);	/* no dma-ranges: no limit */
	blob = shim_read_file(path, &len);
	assert_int_equal(dt_open(&dt, blob, len, derr), 0);
	assert_int_equal(dt_dma_limit(&dt), 0);
	free(blob);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bad_trees_are_refused_with_one_line),
		cmocka_unit_test(good_tree_gives_typed_map),
		cmocka_unit_test(qemu_trees),
		cmocka_unit_test(sifive_u_tree_and_boot_hart),
		cmocka_unit_test(dma_ranges_give_the_dma_limit),
	};
	if (argc != 3) {
		fprintf(stderr, "usage: dt_memory_test <tests/dts build dir> <QEMU DTB dir>\n");
		return 2;
	}
	dtb_dir = argv[1];
	qemu_dir = argv[2];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
