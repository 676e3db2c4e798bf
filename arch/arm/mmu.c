/*
 * mmu.c - ARMv7-A MMU and caches: a flat short-descriptor table of 1 MiB sections, VA == PA.
 *
 * Why now: exclusives (ldrex/strex, so every atomic and lock) need Normal memory to be legal on
 * real hardware, and with the MMU off all memory is Strongly-ordered.  The map:
 *   - RAM (every memblock region, any type): Normal, write-back write-allocate, shareable, RWX;
 *   - the first MiB: no mapping, so a NULL dereference faults (QEMU has flash there);
 *   - everything else: Device, shareable, execute-never.
 * A section that holds any RAM is mapped as RAM (QEMU's and real boards' banks are MiB-aligned).
 * Invariant: the table is written with the MMU and caches off, then left alone.  It is the boot
 * table only: once the page allocator is up, mmu_lpae.c switches to LPAE tables (paging_init).
 * Locking: none; runs once on the boot CPU before anything else could use memory.
 */
#include "tinymm/arch.h"
#include "tinymm/memblock.h"
#include "tinymm/printk.h"

#define SECTION_SHIFT	20
#define NR_SECTIONS	4096

/* Section descriptor bits (ARM ARM B3.5.1, short-descriptor format, TEX remap off). */
#define SECT		(2u << 0)
#define SECT_B		(1u << 2)
#define SECT_C		(1u << 3)
#define SECT_XN		(1u << 4)
#define SECT_AP_RW	(3u << 10)	/* AP[1:0] = 11, AP[2] = 0: read/write at every level */
#define SECT_TEX(x)	((unsigned)(x) << 12)
#define SECT_S		(1u << 16)

#define SECT_NORMAL	(SECT | SECT_AP_RW | SECT_TEX(1) | SECT_C | SECT_B | SECT_S)	/* WB-WA */
#define SECT_DEVICE	(SECT | SECT_AP_RW | SECT_B | SECT_XN)	/* shareable Device (TEX 0, C 0, B 1) */

#define SCTLR_M		(1u << 0)
#define SCTLR_A		(1u << 1)
#define SCTLR_C		(1u << 2)
#define SCTLR_Z		(1u << 11)
#define SCTLR_I		(1u << 12)
#define SCTLR_TRE	(1u << 28)
#define SCTLR_AFE	(1u << 29)

static uint32_t l1_table[NR_SECTIONS] __attribute__((aligned(16384)));

uint32_t arm_read_sctlr(void);
uint32_t arm_read_sctlr(void)
{
	uint32_t v;

	__asm__ __volatile__("mrc p15, 0, %0, c1, c0, 0" : "=r"(v));
	return v;
}

/*
 * Invalidate (@clean false: DCISW) or clean and invalidate (DCCISW) every data/unified cache up
 * to the Level of Coherency, by set/way (ARM ARM B4.2.1).  Real cores may come out of reset with
 * garbage lines; mmu_lpae.c cleans before it turns the MMU off.  QEMU has no caches.
 */
void arm_dcache_all(bool clean);
void arm_dcache_all(bool clean)
{
	uint32_t clidr, loc;

	__asm__ __volatile__("mrc p15, 1, %0, c0, c0, 1" : "=r"(clidr));
	loc = (clidr >> 24) & 7;
	for (uint32_t level = 0; level < loc; level++) {
		uint32_t ctype = (clidr >> (level * 3)) & 7, ccsidr;
		if (ctype < 2)
			continue;	/* no data cache at this level */
		__asm__ __volatile__("mcr p15, 2, %0, c0, c0, 0\n\tisb" :: "r"(level << 1));
		__asm__ __volatile__("mrc p15, 1, %0, c0, c0, 0" : "=r"(ccsidr));
		uint32_t line_shift = (ccsidr & 7) + 4;
		uint32_t ways = ((ccsidr >> 3) & 0x3ff) + 1, sets = ((ccsidr >> 13) & 0x7fff) + 1;
		uint32_t way_shift = ways > 1 ? (uint32_t)__builtin_clz(ways - 1) : 0;
		for (uint32_t way = 0; way < ways; way++)
			for (uint32_t set = 0; set < sets; set++) {
				uint32_t sw = (way << way_shift) | (set << line_shift) | (level << 1);
				if (clean)
					__asm__ __volatile__("mcr p15, 0, %0, c7, c14, 2" :: "r"(sw));	/* DCCISW */
				else
					__asm__ __volatile__("mcr p15, 0, %0, c7, c6, 2" :: "r"(sw));	/* DCISW */
			}
	}
	__asm__ __volatile__("dsb sy\n\tisb" ::: "memory");
}

void arch_mm_init(void)
{
	for (uint32_t i = 0; i < NR_SECTIONS; i++)
		l1_table[i] = ((phys_addr_t)i << SECTION_SHIFT) | SECT_DEVICE;
	for (int r = 0; r < memblock_count(); r++) {
		const struct memblock_region *reg = memblock_region(r);
		uint64_t first = reg->base >> SECTION_SHIFT;
		uint64_t last = (reg->base + reg->size - 1) >> SECTION_SHIFT;
		for (uint64_t s = first; s <= last && s < NR_SECTIONS; s++)
			l1_table[s] = (uint32_t)(s << SECTION_SHIFT) | SECT_NORMAL;
	}
	l1_table[0] = 0;	/* fault: catches NULL pointers */

	arm_dcache_all(false);
	__asm__ __volatile__(
		"mcr p15, 0, %0, c7, c5, 0\n\t"		/* ICIALLU */
		"mcr p15, 0, %0, c7, c5, 6\n\t"		/* BPIALL */
		"mcr p15, 0, %0, c8, c7, 0\n\t"		/* TLBIALL */
		"mcr p15, 0, %0, c2, c0, 2\n\t"		/* TTBCR = 0: TTBR0 only, short descriptors */
		"dsb sy\n\tisb" :: "r"(0) : "memory");
	/* Table walks: inner and outer write-back write-allocate (IRGN 01, RGN 01), shareable. */
	uint32_t ttbr0 = (uint32_t)(uintptr_t)l1_table | (1u << 6) | (1u << 3) | (1u << 1);
	__asm__ __volatile__("mcr p15, 0, %0, c2, c0, 0" :: "r"(ttbr0));
	__asm__ __volatile__("mcr p15, 0, %0, c3, c0, 0" :: "r"(0x55555555));	/* DACR: all client */
	uint32_t sctlr = arm_read_sctlr();
	sctlr &= ~(SCTLR_A | SCTLR_TRE | SCTLR_AFE);
	sctlr |= SCTLR_M | SCTLR_C | SCTLR_I | SCTLR_Z;
	__asm__ __volatile__("dsb sy\n\tmcr p15, 0, %0, c1, c0, 0\n\tisb" :: "r"(sctlr) : "memory");
	pr_info("mmu: on, 1 MiB sections, RAM write-back shareable, MMIO device, first MiB unmapped\n");
}
