/* mmu_ktest.c - the ARM MMU is on with the map mmu.c promises (suite `mmu`, ARM only). */
#include "tinymm/ktest.h"
#include "tinymm/memory.h"
#include "tinymm/sections.h"

uint32_t arm_section_entry(uintptr_t va);
uint32_t arm_read_sctlr(void);

static void mmu_caches_and_branch_prediction_on(struct ktest *t)
{
	uint32_t sctlr = arm_read_sctlr();

	KTEST_EXPECT_EQ(t, sctlr & 1, 1);		/* M */
	KTEST_EXPECT_EQ(t, (sctlr >> 2) & 1, 1);	/* C */
	KTEST_EXPECT_EQ(t, (sctlr >> 12) & 1, 1);	/* I */
	KTEST_EXPECT_EQ(t, (sctlr >> 11) & 1, 1);	/* Z */
	KTEST_EXPECT_EQ(t, (sctlr >> 1) & 1, 0);	/* A: unaligned accesses allowed */
	KTEST_EXPECT_EQ(t, (sctlr >> 28) & 1, 0);	/* TRE off: TEX/C/B mean what mmu.c says */
}

static void kernel_is_normal_writeback_shareable(struct ktest *t)
{
	uint32_t e = arm_section_entry((uintptr_t)_start_kernel);

	KTEST_EXPECT_EQ(t, e & 3, 2);				/* a section */
	KTEST_EXPECT_EQ(t, e & 0xfff00000, (uintptr_t)_start_kernel & 0xfff00000);	/* VA == PA */
	KTEST_EXPECT_EQ(t, (e >> 12) & 7, 1);			/* TEX 001 */
	KTEST_EXPECT_EQ(t, (e >> 2) & 3, 3);			/* C B: write-back write-allocate */
	KTEST_EXPECT_EQ(t, (e >> 16) & 1, 1);			/* S */
	KTEST_EXPECT_EQ(t, (e >> 4) & 1, 0);			/* executable */
	KTEST_EXPECT_EQ(t, __pa(_start_kernel), (uintptr_t)_start_kernel);
}

static void mmio_is_device_execute_never(struct ktest *t)
{
	uint32_t e = arm_section_entry(0x09000000);	/* QEMU virt's PL011 section */

	KTEST_EXPECT_EQ(t, e & 3, 2);
	KTEST_EXPECT_EQ(t, (e >> 12) & 7, 0);
	KTEST_EXPECT_EQ(t, (e >> 2) & 3, 1);			/* C 0 B 1: shareable Device */
	KTEST_EXPECT_EQ(t, (e >> 4) & 1, 1);			/* XN */
}

/* Through a volatile pointer, so the compiler neither warns about nor removes the access. */
static unsigned long read_at(uintptr_t a)
{
	volatile unsigned long *volatile p = (volatile unsigned long *)a;

	return *p;
}

static void first_mib_faults(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, arm_section_entry(0), 0);
	KTEST_EXPECT_BUG(t, read_at(16));
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "data abort: translation fault (section) on read at 0x00000010") != NULL);
}

static const struct ktest_case mmu_cases[] = {
	KTEST_CASE(mmu_caches_and_branch_prediction_on),
	KTEST_CASE(kernel_is_normal_writeback_shareable),
	KTEST_CASE(mmio_is_device_execute_never),
	KTEST_CASE(first_mib_faults),
	{ 0 },
};
KTEST_SUITE(mmu, mmu_cases);
