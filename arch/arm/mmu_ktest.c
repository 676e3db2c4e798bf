/*
 * mmu_ktest.c - suite `mmu_lpae` (ARM only): what the portable suite `mmu` (tests/ktest/
 * mmu_ktest.c: the tables walked against the design, W^X, vmalloc, ioremap, set_memory_*) cannot
 * say through the contract: the registers mmu_lpae.c programs (SCTLR, the TTBR0/TTBR1 split,
 * MAIR), the memory types in the entries (Normal write-back shareable, Device, Strongly-ordered,
 * Normal non-cacheable), and the LPAE fault status the trap handler decodes, in its exact words.
 */
#include <string.h>
#include "tinymm/arch.h"
#include "tinymm/cache.h"
#include "tinymm/console.h"
#include "tinymm/fixmap.h"
#include "tinymm/io.h"
#include "tinymm/ktest.h"
#include "tinymm/memory.h"
#include "tinymm/pgtable.h"
#include "tinymm/sections.h"
#include "tinymm/timer.h"
#include "tinymm/vmalloc.h"

uint32_t arm_read_sctlr(void);
extern bool arm_lpae_on;

/* A status register of the console UART and a bit it reads as 1 when idle (transmitter empty):
 * PL011 FR.TXFE (QEMU virt), DesignWare 16550 LSR.THRE with reg-shift 2 (the Orange Pi PC's
 * UART0).  0 for a UART this suite does not know. */
static uint32_t console_idle_bit(unsigned long *off)
{
	if (!strcmp(console_name(), "arm,pl011")) {
		*off = 0x18;
		return 0x80;
	}
	if (!strcmp(console_name(), "snps,dw-apb-uart")) {
		*off = 5 << 2;
		return 0x20;
	}
	return 0;
}

static void mmu_caches_and_branch_prediction_on(struct ktest *t)
{
	uint32_t sctlr = arm_read_sctlr();

	KTEST_EXPECT_EQ(t, sctlr & 1, 1);		/* M */
	KTEST_EXPECT_EQ(t, (sctlr >> 2) & 1, 1);	/* C */
	KTEST_EXPECT_EQ(t, (sctlr >> 12) & 1, 1);	/* I */
	KTEST_EXPECT_EQ(t, (sctlr >> 11) & 1, 1);	/* Z */
	KTEST_EXPECT_EQ(t, (sctlr >> 1) & 1, 0);	/* A: unaligned accesses allowed */
	KTEST_EXPECT_EQ(t, (sctlr >> 29) & 1, 1);	/* AFE */
}

static void lpae_registers(struct ktest *t)
{
	uint32_t ttbcr, mair0, mair1, lo, hi, lo1, hi1;

	__asm__ __volatile__("mrc p15, 0, %0, c2, c0, 2" : "=r"(ttbcr));
	__asm__ __volatile__("mrc p15, 0, %0, c10, c2, 0" : "=r"(mair0));
	__asm__ __volatile__("mrc p15, 0, %0, c10, c2, 1" : "=r"(mair1));
	__asm__ __volatile__("mrrc p15, 0, %0, %1, c2" : "=r"(lo), "=r"(hi));
	__asm__ __volatile__("mrrc p15, 1, %0, %1, c2" : "=r"(lo1), "=r"(hi1));
	KTEST_ASSERT_TRUE(t, arm_lpae_on);
	KTEST_EXPECT_EQ(t, ttbcr >> 31, 1);			/* EAE */
	KTEST_EXPECT_EQ(t, ttbcr & 7, 1);			/* T0SZ 1: TTBR0 maps 2 GiB */
	KTEST_EXPECT_EQ(t, (ttbcr >> 16) & 7, 1);		/* T1SZ 1: TTBR1 the other 2 */
	KTEST_EXPECT_EQ(t, (ttbcr >> 7) & 1, 0);		/* EPD0: user walks allowed */
	KTEST_EXPECT_EQ(t, (ttbcr >> 23) & 1, 0);		/* EPD1 */
	KTEST_EXPECT_EQ(t, (ttbcr >> 8) & 0x3f, 0x35);		/* SH0 11, ORGN0 01, IRGN0 01 */
	KTEST_EXPECT_EQ(t, (ttbcr >> 24) & 0x3f, 0x35);		/* SH1, ORGN1, IRGN1 the same */
	KTEST_EXPECT_EQ(t, mair0, 0x000444ff);
	KTEST_EXPECT_EQ(t, mair1, 0);
	KTEST_EXPECT_EQ(t, hi, 0);				/* ASID 0, table below 4 GiB */
	KTEST_EXPECT_EQ(t, lo, (uint32_t)__pa(swapper_pg_dir));
	KTEST_EXPECT_EQ(t, hi1, 0);
	KTEST_EXPECT_EQ(t, lo1, (uint32_t)__pa(&swapper_pg_dir[2]));
	/* The kernel runs in the upper half, RAM mapped at PAGE_OFFSET. */
	KTEST_EXPECT_EQ(t, PAGE_OFFSET, 0x80000000UL);
	KTEST_EXPECT_GE(t, (unsigned long)_start_kernel, PAGE_OFFSET);
	KTEST_EXPECT_EQ(t, (unsigned long)__va(PHYS_OFFSET), PAGE_OFFSET);
}

/* The memory types in the live entries: RAM Normal write-back, inner shareable, global; an
 * ioremap() of the console UART (wherever the board has it) and the console's fixmap slot
 * Device, execute-never at both levels; the two uncached protections Strongly-ordered and
 * Normal non-cacheable (MAIR0's indices). */
static void memory_types(struct ktest *t)
{
	phys_addr_t phys = console_mapbase();
	unsigned long off = 0;
	uint32_t idle = console_idle_bit(&off);

	if (!idle) {
		ktest_skip(t, "a console UART this suite has no status register for");
		return;
	}
	KTEST_ASSERT_NE(t, phys, 0);
	pte_t *data = virt_to_kpte((unsigned long)__end_ro_after_init);	/* .data */
	char __iomem *uart = ioremap(phys + off, 4);
	pte_t *pte = uart ? virt_to_kpte((unsigned long)uart) : NULL;

	KTEST_ASSERT_TRUE(t, data != NULL && pte != NULL);
	KTEST_EXPECT_EQ(t, pte_val(*data) & (L_PTE_ATTRINDX_MASK | L_PTE_SHARED | L_PTE_NG),
			L_PTE_ATTRINDX(MT_NORMAL) | L_PTE_SHARED);
	KTEST_EXPECT_EQ(t, pte_val(*pte) & L_PTE_ATTRINDX_MASK, L_PTE_ATTRINDX(MT_DEVICE));
	KTEST_EXPECT_NE(t, pte_val(*pte) & L_PTE_XN, 0);
	KTEST_EXPECT_NE(t, pte_val(*pte) & L_PTE_PXN, 0);
	/* The UART answers through the mapping: idle once the last line has left its FIFO (at
	 * once in QEMU; on a board, 64 bytes at 115200 baud are ~6 ms: a bounded wait). */
	uint64_t end = ktime_get_ns() + 50 * NSEC_PER_MSEC;
	while (!(readl((uintptr_t)uart) & idle) && ktime_get_ns() < end)
		;
	KTEST_EXPECT_EQ(t, readl((uintptr_t)uart) & idle, idle);
	iounmap(uart);
	pte = &fixmap_pte[(__fix_to_virt(FIX_EARLYCON_MEM_BASE) >> PAGE_SHIFT) & (PTRS_PER_PTE - 1)];
	KTEST_EXPECT_EQ(t, pte_val(*pte), pte_val(pfn_pte(phys >> PAGE_SHIFT, PAGE_KERNEL_DEVICE)));
	KTEST_EXPECT_EQ(t, pgprot_val(pgprot_noncached(PAGE_KERNEL)) & L_PTE_ATTRINDX_MASK,
			L_PTE_ATTRINDX(MT_SO));
	KTEST_EXPECT_EQ(t, pgprot_val(pgprot_writecombine(PAGE_KERNEL)) & L_PTE_ATTRINDX_MASK,
			L_PTE_ATTRINDX(MT_NORMAL_NC));
}

/* Through volatile pointers, so the compiler neither warns about nor removes the access. */
static unsigned long read_at(uintptr_t a)
{
	volatile unsigned long *volatile p = (volatile unsigned long *)a;

	return *p;
}

static void write_at(uintptr_t a, int v)
{
	volatile int *volatile p = (volatile int *)a;

	*p = v;
}

static int lpae_probe __ro_after_init = 0x5a;

/* The LPAE fault status decoded in arch/arm/traps.c's words: a NULL read and the image's
 * physical address are level-1 translation faults (TTBR0's entries are empty), a vmalloc guard
 * page a level-3 one (its pte table exists), a write to __ro_after_init a level-3 permission
 * fault. */
static void fault_status_words(struct ktest *t)
{
	unsigned char *p = vmalloc(PAGE_SIZE);

	KTEST_ASSERT_TRUE(t, p != NULL);
	KTEST_EXPECT_TRUE(t, pgd_none(swapper_pg_dir[0]) && pgd_none(swapper_pg_dir[1]));
	KTEST_EXPECT_BUG(t, read_at(16));
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "data abort: translation fault (level 1) on read at 0x00000010") != NULL);
	KTEST_EXPECT_BUG(t, read_at(PHYS_OFFSET + 0x100000));	/* the image's physical address */
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "data abort: translation fault (level 1) on read at") != NULL);
	KTEST_EXPECT_BUG(t, read_at((uintptr_t)p + PAGE_SIZE));
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "data abort: translation fault (level 3) on read at") != NULL);
	vfree(p);
	KTEST_EXPECT_BUG(t, write_at((uintptr_t)&lpae_probe, 0xbad));
	KTEST_EXPECT_TRUE(t, strstr(ktest_last_bug(), "data abort: permission fault (level 3) on write at") != NULL);
	KTEST_EXPECT_EQ(t, lpae_probe, 0x5a);
	KTEST_EXPECT_TRUE(t, (unsigned long)&arm_lpae_on >= (unsigned long)__start_ro_after_init &&
			  (unsigned long)&arm_lpae_on < (unsigned long)__end_ro_after_init);
}

static const struct ktest_case mmu_lpae_cases[] = {
	KTEST_CASE(mmu_caches_and_branch_prediction_on),
	KTEST_CASE(lpae_registers),
	KTEST_CASE(memory_types),
	KTEST_CASE(fault_status_words),
	{ 0 },
};
KTEST_SUITE(mmu_lpae, mmu_lpae_cases);
