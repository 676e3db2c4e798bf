/*
 * page_idle.c - idle page tracking: which user pages were not touched since a moment chosen by
 * the user (Linux v6.10 mm/page_idle.c; docs/page_idle.md).  Marking a frame idle clears the
 * young bit of every pte that maps it (through the rmap) and sets PG_idle; an access after that
 * makes a pte young again (the hardware's A bit on RISC-V, an Access flag fault on ARM:
 * docs/young.md), and reading the frame walks the ptes once more: a young one clears PG_idle.
 * folio_mark_accessed() (mm/swap.c) clears PG_idle for accesses that go through no pte (the
 * page cache's read(), mm/filemap.c), and reclaim's folio_referenced_one() (mm/rmap.c) clears
 * it when it finds a young pte.  Because marking takes the young bits away from reclaim, a young
 * bit it clears is kept in PG_young, which folio_referenced_one() counts as a reference and
 * clears.
 *
 *   page_idle mark <pfn> <count>          every frame of the range as writing 1s to
 *                                         /sys/kernel/mm/page_idle/bitmap: "page_idle: <m>
 *                                         marked idle of <count>"
 *   page_idle read [-v] <pfn> <count>     every frame as reading the bitmap: "page_idle: <i> idle,
 *                                         <a> accessed of <count>", with -v first one line
 *                                         "page_idle: pfn 0x<pfn> accessed" per frame not idle
 *
 * Invariants: only a user folio on an LRU (PG_lru: anonymous or page cache, its head page) is
 * tracked; any other frame (free, slab, page table, kernel, a hole between RAM banks, a tail
 * page) is never marked and reads as not idle (0 in Linux's bitmap), so a read counts it as
 * accessed: <i> + <a> = <count>.  PG_idle and PG_young are cleared when the frame is freed
 * (free_pages_prepare clears every flag), so a frame given to someone else never reads idle.
 * Locking: the folio is pinned by a reference (folio_try_get, so a frame being freed is skipped)
 * and locked with folio_trylock() around the rmap walk, which takes i_mmap_lock or
 * anon_vma->lock and then each mm's page_table_lock (rmap.h's order); ptep_clear_flush_young()
 * checks that last one.  PG_idle and PG_young are set and cleared with atomic bit operations,
 * so reclaim, a fault's folio_mark_accessed() and this file may race on them as in v6.10: the
 * worst outcome is one frame reported accessed that was idle, or the reverse for one read.
 *
 * Where tinymm differs from v6.10, and why:
 *   - a shell command, not the sysfs bitmap (no sysfs); the range need not be 64-aligned;
 *     a range reaching outside RAM (below the first frame or at max_pfn and beyond) is refused
 *     in one line, where the bitmap file returns 0 bytes past max_pfn;
 *   - the command empties every CPU's lru_add batch first (lru_add_drain_all): a folio faulted
 *     in since the last drain has no PG_lru yet, and v6.10 silently neither marks nor reports
 *     the (up to 15) newest folios of each CPU's batch.  Every CPU's, not this one's: a task on
 *     another CPU faults its folios into that CPU's batch (tests/qemu/smp_user.cmake);
 *   - ptep_clear_flush_young() instead of ptep_clear_young_notify(): no MMU notifiers, and the
 *     flush guarantees the next access sets the bit again (a stale TLB entry, which v6.10
 *     tolerates, may let an access through unseen; docs/young.md says why tinymm always flushes);
 *   - the folio lock is taken for an anonymous folio too (v6.10 needs it only for a file or KSM
 *     folio and walks an anonymous one under folio_lock_anon_vma_read): tinymm's
 *     rmap_walk_anon() wants it (mm/rmap_anon.c).  A busy folio's ptes are left as they are, as
 *     v6.10 leaves a busy file folio's;
 *   - PG_young and PG_idle are page flags on every build (v6.10: page_ext on 32-bit);
 *   - only order-0 folios are mapped, so there is no pmd case and no THP split to carry the
 *     flags to the tail pages.
 */
#include <limits.h>
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/mm.h"
#include "tinymm/page_alloc.h"
#include "tinymm/page_idle.h"
#include "tinymm/pagemap.h"
#include "tinymm/printk.h"
#include "tinymm/rmap.h"
#include "tinymm/shell.h"
#include "tinymm/swap.h"

/*
 * The folio at @pfn with a reference, if idle tracking follows it: the head of a user folio on
 * an LRU.  The second look catches a frame freed and reused between the test and the reference.
 */
static struct folio *page_idle_get_folio(unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);
	struct folio *folio;

	if (!page || PageTail(page))
		return NULL;
	folio = page_folio(page);
	if (!folio_test_lru(folio) || !folio_try_get(folio))
		return NULL;
	if (unlikely(page_folio(page) != folio || !folio_test_lru(folio))) {
		folio_put(folio);
		return NULL;
	}
	return folio;
}

/* One area that may map @folio: its pte made old; if it was young, the access is kept in
 * PG_young for reclaim and the folio is not idle. */
static bool page_idle_clear_pte_refs_one(struct folio *folio, struct vm_area_struct *vma,
					 unsigned long addr, void *arg)
{
	pte_t *pte = page_vma_mapped_pte(folio, vma, addr);
	bool referenced;

	(void)arg;
	if (!pte)
		return true;
	referenced = ptep_clear_flush_young(vma, addr, pte);
	spin_unlock(&vma->vm_mm->page_table_lock);
	if (referenced) {
		folio_clear_idle(folio);
		/* folio_referenced() must still see this access: it tests and clears PG_young. */
		folio_set_young(folio);
	}
	return true;
}

static void page_idle_clear_pte_refs(struct folio *folio)
{
	struct rmap_walk_control rwc = { .rmap_one = page_idle_clear_pte_refs_one };

	if (!folio_mapped(folio) || !folio->mapping)
		return;
	if (!folio_trylock(folio))
		return;
	rmap_walk(folio, &rwc);
	folio_unlock(folio);
}

bool page_idle_mark_pfn(unsigned long pfn)
{
	struct folio *folio = page_idle_get_folio(pfn);

	if (!folio)
		return false;
	page_idle_clear_pte_refs(folio);
	folio_set_idle(folio);
	folio_put(folio);
	return true;
}

bool page_idle_read_pfn(unsigned long pfn)
{
	struct folio *folio = page_idle_get_folio(pfn);
	bool idle = false;

	if (!folio)
		return false;
	if (folio_test_idle(folio)) {
		page_idle_clear_pte_refs(folio);
		idle = folio_test_idle(folio);
	}
	folio_put(folio);
	return idle;
}

/* ---- the shell command ---- */

#define PAGE_IDLE_USAGE "usage: page_idle mark <pfn> <count> | page_idle read [-v] <pfn> <count>"

static int cmd_page_idle(int argc, char **argv)
{
	unsigned long long pfn, count, n = 0;
	unsigned long first, max_pfn, p;
	bool mark, verbose = false;
	int a = 2;
	char msg[128];

	if (argc < 2)
		return shell_usage_error(argv[0], PAGE_IDLE_USAGE);
	if (!strcmp(argv[1], "mark"))
		mark = true;
	else if (!strcmp(argv[1], "read"))
		mark = false;
	else
		return shell_usage_error(argv[0], PAGE_IDLE_USAGE);
	if (!mark && argc > 2 && !strcmp(argv[2], "-v")) {
		verbose = true;
		a = 3;
	}
	if (argc != a + 2)
		return shell_usage_error(argv[0], PAGE_IDLE_USAGE);
	if (kstrtoull(argv[a], &pfn) || pfn > ULONG_MAX) {
		ksnprintf(msg, sizeof(msg), "bad pfn '%s' (" PAGE_IDLE_USAGE ")", argv[a]);
		return shell_usage_error(argv[0], msg);
	}
	if (kstrtoull(argv[a + 1], &count) || count == 0 || count - 1 > ULONG_MAX - pfn) {
		ksnprintf(msg, sizeof(msg), "bad count '%s' (1 or more, pfn + count - 1 at most 0x%lx)",
			  argv[a + 1], ULONG_MAX);
		return shell_usage_error(argv[0], msg);
	}
	if (!memmap_nr_banks())
		return 1;
	first = memmap_bank(0)->start_pfn;
	max_pfn = memmap_bank(memmap_nr_banks() - 1)->end_pfn;
	if (pfn < first || pfn >= max_pfn || count > max_pfn - pfn) {
		kprintf("page_idle: pfn 0x%llx is outside RAM (pfns 0x%lx-0x%lx)\n",
			pfn < first || pfn >= max_pfn ? pfn : (unsigned long long)max_pfn,
			first, max_pfn - 1);
		return 1;
	}

	lru_add_drain_all();	/* the newest folios get PG_lru, on every CPU (see the header) */
	for (p = (unsigned long)pfn; p - (unsigned long)pfn < count; p++) {
		if (mark) {
			n += page_idle_mark_pfn(p);
		} else if (page_idle_read_pfn(p)) {
			n++;
		} else if (verbose) {
			kprintf("page_idle: pfn 0x%lx accessed\n", p);
		}
	}
	if (mark)
		kprintf("page_idle: %llu marked idle of %llu\n", n, count);
	else
		kprintf("page_idle: %llu idle, %llu accessed of %llu\n", n, count - n, count);
	return 0;
}
SHELL_COMMAND(page_idle, "mark|read [-v] <pfn> <count>",
	      "idle page tracking: mark user frames idle, or read which were accessed since",
	      cmd_page_idle);
