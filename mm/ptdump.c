/*
 * ptdump.c - the kernel page tables as text: the `ptdump` command (Linux's
 * /sys/kernel/debug/kernel_page_tables).  A read-only walk of init_mm (mm/pagewalk.c) notes
 * every present leaf, pmd blocks and ptes alike; neighbours with the same level and attributes
 * whose frames are contiguous are one run, printed by the architecture (include/tinymm/ptdump.h
 * says what it provides) under the name of the region it is in.
 *
 * Invariants: runs come out in address order, never overlap, never span a region marker, and
 * cover exactly the present leaves; the markers come out in address order whatever the order
 * of the architecture's array.
 * Locking: the walker holds init_mm.page_table_lock over each pmd-sized chunk, so no table is
 * freed under it; entries may change between chunks (a run is a snapshot).
 *
 * Where tinymm differs from v6.10, and why: Linux's arch note_page() does the merging and the
 * printing; here the portable half merges and the architecture only prints, so the merging rule
 * is written (and tested on the host) once.
 */
#include "tinymm/pgtable.h"
#include "tinymm/printk.h"
#include "tinymm/ptdump.h"
#include "tinymm/shell.h"

struct ptdump_state {
	int (*pr)(const char *fmt, ...);
	struct ptdump_run run;
	bool have_run;
	unsigned long runs;
};

static void flush_run(struct ptdump_state *st)
{
	if (!st->have_run)
		return;
	ptdump_print(&st->run, st->pr);
	st->runs++;
	st->have_run = false;
}

static void note(struct ptdump_state *st, unsigned long addr, unsigned long next, int level,
		 uint64_t val, phys_addr_t phys)
{
	uint64_t attrs = ptdump_attrs(val, level);
	struct ptdump_run *r = &st->run;

	if (st->have_run && r->level == level && r->attrs == attrs && r->end == addr &&
	    phys == r->phys + (addr - r->start)) {
		r->end = next;
		return;
	}
	flush_run(st);
	*r = (struct ptdump_run){ .start = addr, .end = next, .level = level, .attrs = attrs,
				  .val = val, .phys = phys };
	st->have_run = true;
}

static int ptdump_pmd(pmd_t *pmd, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	pmd_t v = pmdp_get(pmd);

	if (pmd_leaf(v))
		note(walk->private, addr, next, 3, (uint64_t)pmd_val(v),
		     (phys_addr_t)pmd_pfn(v) << PAGE_SHIFT);
	return 0;
}

static int ptdump_pte(pte_t *pte, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	pte_t v = ptep_get(pte);

	if (pte_present(v))
		note(walk->private, addr, next, 4, (uint64_t)pte_val(v),
		     (phys_addr_t)pte_pfn(v) << PAGE_SHIFT);
	else
		flush_run(walk->private);	/* a hole ends a run */
	return 0;
}

static int ptdump_hole(unsigned long addr, unsigned long next, int depth, struct mm_walk *walk)
{
	flush_run(walk->private);
	return 0;
}

static const struct mm_walk_ops ptdump_ops = {
	.pmd_entry = ptdump_pmd,
	.pte_entry = ptdump_pte,
	.pte_hole = ptdump_hole,
};

/*
 * The named marker that follows @prev in address order (markers at one address in the order
 * the array lists them), the first one if @prev is NULL, or NULL after the last.  The array is
 * not required to be sorted: a layout that differs between 32 and 64 bits (or is being moved)
 * then needs no second list, and a handful of markers makes the quadratic scan free.
 */
static const struct ptdump_marker *next_marker(const struct ptdump_marker *prev)
{
	const struct ptdump_marker *best = NULL;

	for (const struct ptdump_marker *m = ptdump_markers; m->name; m++) {
		if (prev && (m->start_address < prev->start_address ||
			     (m->start_address == prev->start_address && m <= prev)))
			continue;
		if (!best || m->start_address < best->start_address)
			best = m;
	}
	return best;
}

unsigned long ptdump_walk_kernel(int (*pr)(const char *fmt, ...))
{
	struct ptdump_state st = { .pr = pr };
	const struct ptdump_marker *end = ptdump_markers;

	while (end->name)
		end++;
	/* One walk per region, so a run never spans a marker and an end of 0 (the top of the
	 * address space) is only ever a walk's end, never its start. */
	for (const struct ptdump_marker *m = next_marker(NULL), *n; m; m = n) {
		unsigned long to;

		n = next_marker(m);
		to = n ? n->start_address : end->start_address;
		pr("---[ %s ]---\n", m->name);
		if (to != m->start_address)
			walk_page_range_novma(&init_mm, m->start_address, to, &ptdump_ops, NULL, &st);
		flush_run(&st);
	}
	return st.runs;
}

static int cmd_ptdump(int argc, char **argv)
{
	if (shell_no_args(argc, argv))
		return 2;
	ptdump_walk_kernel(kprintf);
	return 0;
}
SHELL_COMMAND(ptdump, "", "the kernel page tables (as /sys/kernel/debug/kernel_page_tables)",
	      cmd_ptdump);
