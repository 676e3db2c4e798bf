/*
 * memblock.h - the early physical memory map: RAM banks, each byte typed (usable, kernel,
 * dtb, firmware, reserved, no-map, memmap), before the page allocator exists.
 *
 * tinymm differs from Linux here: Linux keeps two lists (memblock.memory and memblock.reserved)
 * and a flag for no-map; tinymm keeps one sorted partition of RAM where every region has a type,
 * because the boot-time map it prints (`memmap`) needs a type per range anyway, and
 * "what is left" is then simply the usable regions.
 */
#ifndef TINYMM_MEMBLOCK_H
#define TINYMM_MEMBLOCK_H

#include "kernel.h"

enum memblock_type {
	MEMBLOCK_USABLE,
	MEMBLOCK_RESERVED,	/* /memreserve/ and /reserved-memory without no-map */
	MEMBLOCK_NOMAP,		/* /reserved-memory with no-map: not even mapped later */
	MEMBLOCK_KERNEL,	/* the tinymm image, .bss and boot stack included */
	MEMBLOCK_DTB,		/* the device tree blob, kept: it is read after boot */
	MEMBLOCK_FIRMWARE,	/* firmware marked its own region (OpenSBI's mmode_resv) */
	MEMBLOCK_MEMMAP,	/* memblock_alloc()ed boot-time structures (the memmap later) */
	MEMBLOCK_NR_TYPES,
};

struct memblock_region {
	phys_addr_t base, size;
	enum memblock_type type;
};

#define MEMBLOCK_MAX_REGIONS 128

/* Forget everything (boot starts with an empty map; host tests reuse it). */
void memblock_reset(void);

/*
 * Add a RAM bank.  0; -EINVAL for a zero size or a bank that wraps the address space; -EEXIST
 * if it overlaps a bank already added (*conflict gets that bank); -ENOSPC if the table is full.
 */
int memblock_add(phys_addr_t base, phys_addr_t size, struct memblock_region *conflict);

/*
 * Give [base, base + size) the type @type where it is RAM and still usable; parts outside RAM
 * or already typed keep what they had (the first claim wins, so reserve the most specific first).
 * Returns the number of bytes that changed type, or -ENOSPC (and nothing changes) if the table
 * would overflow.
 */
long long memblock_reserve(phys_addr_t base, phys_addr_t size, enum memblock_type type);

/* True if every byte of [base, base + size) is RAM. */
bool memblock_is_memory(phys_addr_t base, phys_addr_t size);
/* True if any byte of [base, base + size) is RAM. */
bool memblock_overlaps_memory(phys_addr_t base, phys_addr_t size);

/*
 * Allocate @size bytes aligned to @align (a power of two) from the highest usable RAM, as Linux's
 * memblock allocates top-down, typed @type.  Returns the physical address, or 0 if nothing fits.
 */
phys_addr_t memblock_alloc(phys_addr_t size, phys_addr_t align, enum memblock_type type);

int memblock_count(void);
const struct memblock_region *memblock_region(int i);
phys_addr_t memblock_phys_mem_size(void);		/* all RAM */
phys_addr_t memblock_size_of(enum memblock_type type);
const char *memblock_type_name(enum memblock_type type);



/*
 * mem=nn[KMG]: memory_limit is nn (0: none), set from the command line.
 * memblock_enforce_memory_limit(): v6.10's, over the one table: every byte from where the lowest
 * @limit bytes of RAM end is no longer RAM, whatever its type (reserved ranges up there go too,
 * as v6.10 truncates memblock.reserved); nothing if there is no more RAM than @limit.
 * memblock_apply_memory_limit(): the boot's policy around it.  @limit is rounded down to a page
 * and raised to MEM_LIMIT_MIN past the end of the kernel image (the image must stay RAM; the
 * memmap, the page tables and the slab need room); a limit not below all RAM changes nothing.
 * Returns 0 (no limit asked, @msg empty), 1 (cut as asked: @msg is the info line) or -1 (raised,
 * or nothing cut: @msg is the warning line).
 */
#define MEM_LIMIT_MIN		(16ULL << 20)
extern phys_addr_t memory_limit;
void memblock_enforce_memory_limit(phys_addr_t limit);
int memblock_apply_memory_limit(phys_addr_t limit, char *msg, size_t len);

/* The image's split, for the summary line: bytes of code (text+rodata) and of rwdata. */
void memblock_set_kernel_sizes(phys_addr_t code, phys_addr_t rwdata);
/* "Memory: <avail>K/<total>K available (<code>K kernel code, <data>K rwdata, <reserved>K reserved)" */
void memblock_summary(char *buf, size_t len);

#endif
