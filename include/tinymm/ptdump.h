/*
 * ptdump.h - the kernel page tables as text (mm/ptdump.c; Linux's mm/ptdump.c with its arch
 * halves, arch/arm/mm/dump.c and arch/riscv/mm/ptdump.c, which print
 * /sys/kernel/debug/kernel_page_tables).  The portable half walks the tables and merges
 * neighbouring entries that differ only in the frame they map (contiguously) into one run; the
 * architecture prints a run in its own format and names the regions.
 *
 * What an architecture provides (arch/<arch>/ptdump.c; tests/host/fake_pgtable.c on the host):
 *   ptdump_markers[]       the regions' first addresses and names, in any order (the walk
 *                          takes them by address, equal addresses in array order), ended by an
 *                          entry whose name is NULL and whose address is where the walk ends
 *                          (0: the top of the address space); the walk covers [the lowest
 *                          marker, that end) and prints "---[ name ]---" as it enters each
 *                          region (a run never spans two)
 *   ptdump_attrs(val, lvl) the bits of an entry that are not its frame number: two entries
 *                          with equal attributes (and contiguous frames) share a run
 *   ptdump_print(run, pr)  one line for @run, in the architecture's format, through @pr
 *
 * Where tinymm differs from v6.10, and why: one walk over the kernel's init_mm only (no
 * ptdump_check_wx() yet, no efi or user tables); an entry's level is the walker's (3 for a pmd
 * leaf, 4 for a pte, as Linux's note_page() levels), and the architecture names it.
 */
#ifndef TINYMM_PTDUMP_H
#define TINYMM_PTDUMP_H

#include "kernel.h"

struct ptdump_marker {
	unsigned long start_address;
	const char *name;
};

struct ptdump_run {
	unsigned long start, end;	/* [start, end): end 0 means the top of the address space */
	int level;			/* 3 (a pmd leaf) or 4 (a pte) */
	uint64_t attrs;			/* ptdump_attrs() of its entries */
	uint64_t val;			/* its first entry, whole */
	phys_addr_t phys;		/* the frame its first entry maps */
};

extern const struct ptdump_marker ptdump_markers[];
uint64_t ptdump_attrs(uint64_t val, int level);
void ptdump_print(const struct ptdump_run *run, int (*pr)(const char *fmt, ...));

/* Walk the kernel page tables and print every present mapping, merged into runs, with the
 * region markers: the `ptdump` command.  The number of runs printed. */
unsigned long ptdump_walk_kernel(int (*pr)(const char *fmt, ...));

#endif
