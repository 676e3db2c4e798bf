/*
 * buddy_ktest.c - suite `buddy`: the live page allocator on every board, and on the host over a
 * fake RAM with two banks and two zones (tests/host/buddy_test.c).
 *
 * Every case leaves the allocator as it found it (the free blocks per zone and order that
 * buddyinfo shows, compared with the per-CPU lists drained, and the free frames), but for the few
 * frames the bad-page cases leak on purpose; buddy_check() must find nothing after every step.
 * Leaked frames are recorded: the exhaustion case takes everything and checks none comes back.
 * The two bad frees that could corrupt the free lists if handled wrong run after it, last.
 * Explicit-only (tinymm.test=buddy): it leaks and taints on purpose, and its zone case skips
 * without two zones; tests/qemu/buddy.cmake boots every board with and without a DMA limit.
 *
 * This file holds the helpers, the cases of a working allocator and the case table; the bad
 * frees and the bad allocation are in buddy_bad_ktest.c, what both share in buddy_ktest.h.
 */
#include <stdint.h>
#include <string.h>
#include "tinymm/irqflags.h"
#include "tinymm/ktest.h"
#include "tinymm/page_alloc.h"
#include "tinymm/vmstat.h"
#include "tinymm/printk.h"
#include "../../mm/internal.h"
#include "buddy_ktest.h"

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

#define HELD_MARK	0xb0ddUL	/* page->index of a frame the exhaustion case holds */

int buddy_errors(void)
{
	int e = buddy_check(NULL);

	if (e)
		buddy_check(printk);	/* the details go to the log */
	return e;
}

/* The free block holding @pfn (per-CPU lists drained first), or NULL; *order gets its order. */
struct page *buddy_free_block_of(unsigned long pfn, unsigned int *order)
{
	drain_all_pages(NULL);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		struct page *h = pfn_to_page(pfn & ~((1UL << o) - 1));
		if (h && PageBuddy(h) && buddy_order(h) >= o) {
			if (order)
				*order = buddy_order(h);
			return h;
		}
	}
	return NULL;
}

bool buddy_pfn_is_free(unsigned long pfn) { return buddy_free_block_of(pfn, NULL) != NULL; }

void buddy_take_snap(struct snap *s)
{
	drain_all_pages(NULL);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			s->nr_free[z][o] = zones[z].free_area[o].nr_free;
	s->free = nr_free_pages_and_pcp();
}

void buddy_expect_same(struct ktest *t, const struct snap *before)
{
	struct snap now;
	int diff = 0;

	buddy_take_snap(&now);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			if (now.nr_free[z][o] != before->nr_free[z][o]) {
				printk(KERN_ERR "buddy: zone %s order %d: %lu free blocks, %lu before\n",
				       zones[z].name, o, now.nr_free[z][o], before->nr_free[z][o]);
				diff++;
			}
	KTEST_EXPECT_EQ(t, diff, 0);
	KTEST_EXPECT_EQ(t, now.free, before->free);
	EXPECT_BUDDY_OK(t);
}

/* Frames leaked (or kept) on purpose: never to be handed out again. */
static unsigned long leaked[48];
static unsigned int nr_leaked;

void buddy_record_leak(unsigned long pfn)
{
	if (nr_leaked < ARRAY_SIZE(leaked))
		leaked[nr_leaked++] = pfn;
}

/* The end of the log, where the last Bad page state report is (with its stack: the whole ring). */
static char log_tail[8192 + 512];
static size_t tail_len;

static void tail_out(const char *s, size_t n)
{
	for (; n--; s++) {
		if (tail_len == sizeof(log_tail) - 1)
			memmove(log_tail, log_tail + 512, tail_len -= 512);
		log_tail[tail_len++] = *s;
	}
	log_tail[tail_len] = '\0';
}

/* The last Bad page state report in the log is about @pfn and gives @reason (NULL: any). */
bool buddy_reported(unsigned long pfn, const char *reason)
{
	static const char bug[] = "BUG: Bad page state in process swapper  pfn:";
	const char *last = NULL;
	char want[96];

	tail_len = 0;
	log_buf_dump(tail_out);
	for (const char *p = log_tail; (p = strstr(p, bug)); p++)
		last = p;
	ksnprintf(want, sizeof(want), "%s%05lx\n", bug, pfn);
	if (!last || strncmp(last, want, strlen(want)))
		return false;
	ksnprintf(want, sizeof(want), "page dumped because: %s%s", reason ? reason : "", reason ? "\n" : "");
	return strstr(last, want) != NULL;
}

/* Allocate order-@o blocks until two in one zone are buddies: *a (lower) and *b; the rest freed. */
bool buddy_get_pair(unsigned int o, struct page **a, struct page **b)
{
	struct page *held[48];
	int n = 0;
	bool found = false;

	while (!found && n < (int)ARRAY_SIZE(held)) {
		struct page *p = alloc_pages(GFP_TEST, o);
		if (!p)
			break;
		unsigned long bp = page_to_pfn(p) ^ (1UL << o);
		for (int i = 0; i < n && !found; i++)
			if (page_to_pfn(held[i]) == bp && page_zone(held[i]) == page_zone(p)) {
				*a = bp < page_to_pfn(p) ? held[i] : p;
				*b = bp < page_to_pfn(p) ? p : held[i];
				held[i] = NULL;
				found = true;
			}
		if (!found)
			held[n++] = p;
	}
	for (int i = 0; i < n; i++)
		if (held[i])
			__free_pages(held[i], o);
	return found;
}

static void orders_give_aligned_blocks(struct ktest *t)
{
	struct snap before;

	nr_leaked = 0;		/* a new run (host tests rebuild the allocator between runs) */
	buddy_take_snap(&before);
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long n = 1UL << o;
		struct page *p = alloc_pages(GFP_TEST, o);
		KTEST_ASSERT_TRUE(t, p);
		unsigned long pfn = page_to_pfn(p);
		KTEST_EXPECT_EQ(t, pfn & (n - 1), 0);
		KTEST_EXPECT_EQ(t, page_ref_count(p), 1);
		KTEST_EXPECT_TRUE(t, pfn_to_page(pfn + n - 1) == p + n - 1 && page_zone(p + n - 1) == page_zone(p));
		KTEST_EXPECT_FALSE(t, buddy_pfn_is_free(pfn) || buddy_pfn_is_free(pfn + n - 1));
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), before.free - n);
		for (unsigned long i = 0; i < n; i++)	/* really RAM, really ours */
			memset(page_address(p + i), 0x77, 64);
		EXPECT_BUDDY_OK(t);
		__free_pages(p, o);
		drain_all_pages(NULL);
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), before.free);
		EXPECT_BUDDY_OK(t);
		unsigned long va = __get_free_pages(GFP_TEST, o);
		KTEST_ASSERT_TRUE(t, va);
		KTEST_EXPECT_EQ(t, __pa((void *)va) & ((PAGE_SIZE << o) - 1), 0);
		free_pages(va, o);
	}
	/* Out of range: NULL (with a warning unless __GFP_NOWARN), nothing taken. */
	KTEST_EXPECT_TRUE(t, alloc_pages(GFP_TEST, MAX_PAGE_ORDER + 1) == NULL);
	KTEST_EXPECT_TRUE(t, alloc_pages(GFP_KERNEL, MAX_PAGE_ORDER + 1) == NULL);
	KTEST_EXPECT_TRUE(t, alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 31) == NULL);
	KTEST_EXPECT_TRUE(t, folio_alloc(GFP_TEST, MAX_PAGE_ORDER + 1) == NULL);
	KTEST_EXPECT_EQ(t, __get_free_pages(GFP_TEST, MAX_PAGE_ORDER + 1), 0);
	buddy_expect_same(t, &before);
}

static void split_and_merge(struct ktest *t)
{
	for (unsigned int o = 0; o <= 3; o += 3) {
		struct snap before, mid, now;
		struct page *a, *b, *h;
		unsigned int fo = 0;
		buddy_take_snap(&before);
		KTEST_ASSERT_TRUE(t, buddy_get_pair(o, &a, &b));
		int z = page_zonenum(a);
		buddy_take_snap(&mid);
		KTEST_EXPECT_FALSE(t, buddy_pfn_is_free(page_to_pfn(a)) || buddy_pfn_is_free(page_to_pfn(b)));
		__free_pages(a, o);		/* its buddy is in use: a free block of order o */
		buddy_take_snap(&now);
		KTEST_EXPECT_EQ(t, now.nr_free[z][o], mid.nr_free[z][o] + 1);
		KTEST_EXPECT_TRUE(t, buddy_free_block_of(page_to_pfn(a), &fo) == a && fo == o);
		EXPECT_BUDDY_OK(t);
		__free_pages(b, o);		/* merges: order o loses a, a larger block appears */
		buddy_take_snap(&now);
		KTEST_EXPECT_EQ(t, now.nr_free[z][o], mid.nr_free[z][o]);
		h = buddy_free_block_of(page_to_pfn(a), &fo);
		KTEST_EXPECT_TRUE(t, h && h == buddy_free_block_of(page_to_pfn(b), NULL) && fo > o);
		buddy_expect_same(t, &before);	/* every block as before the pair was taken */
	}
}

static void refcounts_free_on_last_put(struct ktest *t)
{
	struct snap before;

	buddy_take_snap(&before);
	struct page *p = alloc_page(GFP_TEST);
	KTEST_ASSERT_TRUE(t, p);
	get_page(p);
	KTEST_EXPECT_EQ(t, page_ref_count(p), 2);
	__free_pages(p, 0);		/* only drops a reference */
	get_page(p);
	put_page(p);
	KTEST_EXPECT_EQ(t, page_ref_count(p), 1);
	KTEST_EXPECT_FALSE(t, buddy_pfn_is_free(page_to_pfn(p)));
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), before.free - 1);
	put_page(p);			/* the last reference frees it */
	buddy_expect_same(t, &before);

	struct folio *f = folio_alloc(GFP_TEST, 2);
	KTEST_ASSERT_TRUE(t, f);
	folio_get(f);
	get_page(folio_page(f, 3));	/* a tail's reference is the folio's */
	KTEST_EXPECT_TRUE(t, page_ref_count(&f->page) == 3 && page_ref_count(folio_page(f, 3)) == 0);
	put_page(folio_page(f, 1));
	folio_put(f);
	KTEST_EXPECT_EQ(t, page_ref_count(&f->page), 1);
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), before.free - 4);
	EXPECT_BUDDY_OK(t);
	folio_put(f);
	buddy_expect_same(t, &before);
}

static void gfp_comp_makes_a_large_folio(struct ktest *t)
{
	unsigned long bad = nr_bad_pages;
	struct snap before;

	buddy_take_snap(&before);
	for (unsigned int o = 1; o <= MAX_PAGE_ORDER; o += 3) {
		struct folio *f = folio_alloc(GFP_TEST, o);
		KTEST_ASSERT_TRUE(t, f);
		KTEST_EXPECT_TRUE(t, folio_test_large(f) && PageHead(&f->page) && !PageTail(&f->page));
		KTEST_EXPECT_TRUE(t, folio_order(f) == o && folio_nr_pages(f) == 1UL << o);
		unsigned long wrong = 0;
		for (unsigned long i = 1; i < (1UL << o); i++) {
			struct page *tail = folio_page(f, i);
			wrong += !PageTail(tail) || compound_head(tail) != &f->page ||
				 page_folio(tail) != f || page_ref_count(tail) != 0;
		}
		KTEST_EXPECT_EQ(t, wrong, 0);
		folio_put(f);
		drain_all_pages(NULL);	/* a small block held on a per-CPU list splits a large one */
		EXPECT_BUDDY_OK(t);
	}
	struct page *p = alloc_pages(GFP_TEST | __GFP_COMP, 2), *q = alloc_pages(GFP_TEST, 2);
	KTEST_ASSERT_TRUE(t, p && q);
	KTEST_EXPECT_TRUE(t, PageHead(p) && PageTail(p + 3) && folio_order(page_folio(p + 3)) == 2);
	KTEST_EXPECT_FALSE(t, PageHead(q) || PageTail(q + 1) || folio_test_large(page_folio(q)));
	__free_pages(p, 2);
	__free_pages(q, 2);
	struct folio *small = folio_alloc(GFP_TEST, 0);
	KTEST_ASSERT_TRUE(t, small && !folio_test_large(small) && !folio_order(small));
	folio_put(small);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad);
	buddy_expect_same(t, &before);
}

static unsigned long nonzero_words(const unsigned long *w, size_t bytes)
{
	unsigned long n = 0;

	for (size_t i = 0; i < bytes / sizeof(long); i++)
		n += w[i] != 0;
	return n;
}

/* Dirty blocks freed, then __GFP_ZERO blocks of the same order: all zero, some of them reused. */
static void gfp_zero_zeroes(struct ktest *t)
{
	struct page *dirty[12], *zeroed[12];
	struct snap before;

	buddy_take_snap(&before);
	for (unsigned int o = 0; o <= 3; o += 3) {
		unsigned long reused = 0, nonzero = 0;
		for (int i = 0; i < 12; i++) {
			dirty[i] = alloc_pages(GFP_TEST, o);
			KTEST_ASSERT_TRUE(t, dirty[i]);
			memset(page_address(dirty[i]), 0xa5, PAGE_SIZE << o);
		}
		for (int i = 11; i >= 0; i--)
			__free_pages(dirty[i], o);
		for (int i = 0; i < 12; i++) {
			zeroed[i] = alloc_pages(GFP_TEST | __GFP_ZERO, o);
			KTEST_ASSERT_TRUE(t, zeroed[i]);
			nonzero += nonzero_words(page_address(zeroed[i]), PAGE_SIZE << o);
			for (int j = 0; j < 12; j++)
				reused += zeroed[i] == dirty[j];
		}
		KTEST_EXPECT_EQ(t, nonzero, 0);
		KTEST_EXPECT_GT(t, reused, 0);		/* the zeroing was needed */
		for (int i = 0; i < 12; i++)
			__free_pages(zeroed[i], o);
	}
	buddy_expect_same(t, &before);
}

static void alloc_pages_exact_frees_the_tail(struct ktest *t)
{
	static const size_t sizes[] = { 1, PAGE_SIZE, 3 * PAGE_SIZE, 5 * PAGE_SIZE + 1 };
	struct snap before;

	buddy_take_snap(&before);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned long nr = (sizes[i] + PAGE_SIZE - 1) / PAGE_SIZE, block = 1, wrong = 0;
		while (block < nr)
			block <<= 1;
		void *v = alloc_pages_exact(sizes[i], GFP_TEST);
		KTEST_ASSERT_TRUE(t, v);
		KTEST_EXPECT_EQ(t, __pa(v) & (PAGE_SIZE - 1), 0);
		memset(v, 0x3c, sizes[i]);
		struct page *p = virt_to_page(v);
		for (unsigned long j = 0; j < block; j++)	/* the used frames ours, the rest free */
			wrong += j < nr ? page_ref_count(p + j) != 1 || PageCompound(p + j) ||
					  buddy_pfn_is_free(page_to_pfn(p) + j)
					: !buddy_pfn_is_free(page_to_pfn(p) + j);
		KTEST_EXPECT_EQ(t, wrong, 0);
		KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), before.free - nr);
		EXPECT_BUDDY_OK(t);
		free_pages_exact(v, sizes[i]);
		buddy_expect_same(t, &before);
	}
	KTEST_EXPECT_TRUE(t, alloc_pages_exact(0, GFP_TEST) == NULL);
	KTEST_EXPECT_TRUE(t, alloc_pages_exact((PAGE_SIZE << MAX_PAGE_ORDER) + 1, GFP_TEST) == NULL);
	KTEST_EXPECT_TRUE(t, alloc_pages_exact(SIZE_MAX, GFP_TEST) == NULL);	/* no wrap to 0 pages */
	buddy_expect_same(t, &before);
}

static void zones_never_merge_across(struct ktest *t)
{
	struct zone *dma = &zones[ZONE_DMA], *normal = &zones[ZONE_NORMAL];
	unsigned int olo = 0, ohi = 0;
	struct snap before;

	if (!dma->managed_pages || !normal->managed_pages) {
		ktest_skip(t, "one zone: boot with tinymm.zone_dma_limit=<address in RAM>");
		return;
	}
	unsigned long b = normal->zone_start_pfn;
	KTEST_EXPECT_TRUE(t, zone_end_pfn(dma) == b && b == PHYS_PFN(zone_dma_limit));
	buddy_take_snap(&before);
	/* The free blocks either side (the limit must be where frames are free); an unaligned
	 * limit makes them buddies by address, and they must still not merge. */
	struct page *lo = buddy_free_block_of(b - 1, &olo), *hi = buddy_free_block_of(b, &ohi);
	KTEST_ASSERT_TRUE(t, lo && hi);
	KTEST_EXPECT_TRUE(t, page_zone(lo) == dma && page_zone(hi) == normal);
	KTEST_EXPECT_TRUE(t, page_to_pfn(lo) + (1UL << olo) == b && page_to_pfn(hi) == b);
	for (int i = 0; i < 2; i++) {	/* off the lists, then freed the ordinary way */
		struct page *h = i ? lo : hi;
		unsigned long flags;
		spin_lock_irqsave(&page_zone(h)->lock, flags);
		__isolate_free_page(h, i ? olo : ohi);
		spin_unlock_irqrestore(&page_zone(h)->lock, flags);
		atomic_set(&h->_refcount, 1);
		__free_pages(h, i ? olo : ohi);
	}
	KTEST_EXPECT_TRUE(t, buddy_free_block_of(b - 1, &olo) == lo && buddy_free_block_of(b, &ohi) == hi);
	KTEST_EXPECT_EQ(t, page_to_pfn(lo) + (1UL << olo), b);
	buddy_expect_same(t, &before);

	struct page *d0 = alloc_pages(GFP_DMA | __GFP_NOWARN, 0);
	struct page *d2 = alloc_pages(GFP_DMA | __GFP_NOWARN, 2), *n0 = alloc_page(GFP_TEST);
	KTEST_ASSERT_TRUE(t, d0 && d2 && n0);
	KTEST_EXPECT_TRUE(t, page_zonenum(d0) == ZONE_DMA && page_to_pfn(d0) < b);
	KTEST_EXPECT_TRUE(t, page_zonenum(d2) == ZONE_DMA && page_to_pfn(d2) + 4 <= b);
	KTEST_EXPECT_TRUE(t, page_zonenum(n0) == ZONE_NORMAL && page_to_pfn(n0) >= b);
	EXPECT_BUDDY_OK(t);
	__free_pages(d0, 0);
	__free_pages(d2, 2);
	__free_page(n0);
	buddy_expect_same(t, &before);
}

static void mlocked_folio_put_is_quiet(struct ktest *t)
{
	unsigned long bad = nr_bad_pages, cleared = global_vm_event(UNEVICTABLE_PGCLEARED);
	unsigned long mlocked = global_node_page_state(NR_MLOCK);
	struct snap before;

	buddy_take_snap(&before);
	for (unsigned int o = 0; o <= 2; o += 2) {
		struct folio *f = folio_alloc(GFP_TEST, o);
		KTEST_ASSERT_TRUE(t, f);
		folio_set_mlocked(f);		/* as mlock_folio, counted */
		mod_node_page_state(NR_MLOCK, (long)folio_nr_pages(f));
		count_vm_events(UNEVICTABLE_PGMLOCKED, (long)folio_nr_pages(f));
		folio_put(f);
		EXPECT_BUDDY_OK(t);
	}
	KTEST_EXPECT_EQ(t, global_vm_event(UNEVICTABLE_PGCLEARED), cleared + 1 + 4);	/* pages */
	KTEST_EXPECT_EQ(t, global_node_page_state(NR_MLOCK), mlocked);
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad);
	buddy_expect_same(t, &before);
}

static void hwpoison_frame_is_kept_quietly(struct ktest *t)
{
	struct page *p = alloc_page(GFP_TEST);
	unsigned long bad = nr_bad_pages;
	struct snap before;

	KTEST_ASSERT_TRUE(t, p);
	buddy_take_snap(&before);
	SetPageHWPoison(p);
	__free_pages(p, 0);
	buddy_record_leak(page_to_pfn(p));
	KTEST_EXPECT_EQ(t, nr_bad_pages, bad);
	KTEST_EXPECT_TRUE(t, PageHWPoison(p) && !buddy_pfn_is_free(page_to_pfn(p)));
	buddy_expect_same(t, &before);
}

static void take_page_off_buddy_takes_one_frame(struct ktest *t)
{
	struct page *h = NULL, *p;
	unsigned int o = 0;
	struct snap before;

	buddy_take_snap(&before);
	for (int z = 0; z < MAX_NR_ZONES; z++)		/* the largest free block, order >= 3 */
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			for (unsigned int i = 3; i <= MAX_PAGE_ORDER; i++)
				if ((p = page_list_first(&zones[z].free_area[i].free_list[mt])) && i > o) {
					h = p;
					o = i;
				}
	KTEST_ASSERT_TRUE(t, h);
	unsigned long head = page_to_pfn(h), pfn = head + (1UL << o) / 2 + 3, missing = 0;
	KTEST_ASSERT_TRUE(t, take_page_off_buddy(pfn_to_page(pfn)));
	buddy_record_leak(pfn);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), before.free - 1);
	EXPECT_BUDDY_OK(t);
	for (unsigned long i = head; i < head + (1UL << o); i++)
		missing += (i == pfn) == buddy_pfn_is_free(i);	/* exactly that frame is gone */
	KTEST_EXPECT_EQ(t, missing, 0);
	KTEST_EXPECT_FALSE(t, take_page_off_buddy(pfn_to_page(pfn)));	/* not free any more */
	p = alloc_page(GFP_TEST);
	KTEST_ASSERT_TRUE(t, p);
	KTEST_EXPECT_FALSE(t, take_page_off_buddy(p));			/* in use */
	__free_page(p);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp(), before.free - 1);
	EXPECT_BUDDY_OK(t);
}

/* Is @page on its zone's per-CPU list for @mt? */
bool buddy_on_pcp_list(struct page *page, int mt)
{
	struct per_cpu_pages *pcp = &zones[page_zonenum(page)].pcp[0];
	struct page *p;

	for_each_pcp_block(p, pcp, &pcp->lists[pindex(0, mt)])
		if (p == page)
			return true;
	return false;
}

/*
 * The per-CPU lists: an allocated frame remembers its pageblock's migratetype (pcp mt), and its
 * free files it on that list, LIFO; what its owner left in ->private does not matter (a block's
 * order comes from its list), and an allocation clears it; a gfp with both migratetype bits is
 * served (as MOVABLE) and leaves the list slot those bits index empty.
 */
static void pcp_lists_by_migratetype(struct ktest *t)
{
	struct snap before;

	buddy_take_snap(&before);
	struct page *m = alloc_page(GFP_TEST | __GFP_MOVABLE), *u = alloc_page(GFP_TEST);
	KTEST_ASSERT_TRUE(t, m && u);
	KTEST_EXPECT_EQ(t, page_pcp_mt(m->flags), get_pageblock_migratetype(page_zone(m), page_to_pfn(m)));
	KTEST_EXPECT_EQ(t, page_pcp_mt(u->flags), get_pageblock_migratetype(page_zone(u), page_to_pfn(u)));
	KTEST_EXPECT_EQ(t, m->private, 0);
	m->private = 7;			/* owners' data, not an order */
	u->private = 5;
	int mm = page_pcp_mt(m->flags), um = page_pcp_mt(u->flags);
	__free_page(m);
	__free_page(u);
	KTEST_EXPECT_TRUE(t, buddy_on_pcp_list(m, mm));
	KTEST_EXPECT_TRUE(t, buddy_on_pcp_list(u, um));
	KTEST_EXPECT_TRUE(t, zones[page_zonenum(u)].pcp[0].lists[pindex(0, um)] == u);	/* LIFO */
	EXPECT_BUDDY_OK(t);
	struct page *again = alloc_page(GFP_TEST | (um == MIGRATE_MOVABLE ? __GFP_MOVABLE :
						   um == MIGRATE_RECLAIMABLE ? __GFP_RECLAIMABLE : 0));
	KTEST_EXPECT_TRUE(t, again == u);
	KTEST_EXPECT_EQ(t, u->private, 0);
	struct page *both = alloc_page(GFP_TEST | __GFP_MOVABLE | __GFP_RECLAIMABLE);
	KTEST_EXPECT_TRUE(t, both != NULL);
	KTEST_EXPECT_TRUE(t, pcp_list_empty(&zones[ZONE_NORMAL].pcp[0], &zones[ZONE_NORMAL].pcp[0].lists[3]) &&
			     pcp_list_empty(&zones[ZONE_DMA].pcp[0], &zones[ZONE_DMA].pcp[0].lists[3]));
	if (both)
		__free_page(both);
	__free_page(again);
	buddy_expect_same(t, &before);	/* the drain took every frame back at order 0 */
}

/*
 * The order-0 fast paths: interrupts come back masked or not as they were (their restore,
 * local_irq_restore_unchanged(), writes the whole saved status back; the flags word's other
 * bits, ARM's condition flags among them, are not compared); a literal 0 and an order 0 only
 * known at run time free the same way (onto the list, LIFO); pcp_count() follows every push
 * and pop; a free past `high` drains a batch back to the buddy lists.
 */
static void order0_fast_paths(struct ktest *t)
{
	struct zone *z = preferred_zone;
	struct per_cpu_pages *pcp = &z->pcp[0];
	unsigned long before, after, irqflags;
	volatile unsigned int zero = 0;
	struct snap snap;

	buddy_take_snap(&snap);
	local_save_flags(before);
	KTEST_EXPECT_TRUE(t, !irqs_disabled_flags(before));	/* test threads run unmasked */
	struct page *a = alloc_page(GFP_TEST), *b = alloc_page(GFP_TEST);
	KTEST_ASSERT_TRUE(t, a && b);
	local_save_flags(after);
	KTEST_EXPECT_EQ(t, irqs_disabled_flags(after), irqs_disabled_flags(before));
	int n = pcp_count(pcp);
	int mt = page_pcp_mt(b->flags);
	__free_pages(a, 0);
	(__free_pages)(b, zero);		/* the out-of-line entry with a run-time order */
	local_save_flags(after);
	KTEST_EXPECT_EQ(t, irqs_disabled_flags(after), irqs_disabled_flags(before));
	KTEST_EXPECT_EQ(t, pcp_count(pcp), n + 2);
	KTEST_EXPECT_TRUE(t, pcp->lists[pindex(0, mt)] == b);

	local_irq_save(irqflags);		/* the same with interrupts already masked */
	unsigned long masked;
	local_save_flags(masked);
	struct page *c = alloc_page(GFP_ATOMIC | __GFP_NOWARN | (mt == MIGRATE_MOVABLE ? __GFP_MOVABLE :
						mt == MIGRATE_RECLAIMABLE ? __GFP_RECLAIMABLE : 0));
	KTEST_EXPECT_TRUE(t, c == b);		/* LIFO: the last frame freed */
	KTEST_EXPECT_EQ(t, pcp_count(pcp), n + 1);
	if (c)
		__free_page(c);
	local_save_flags(after);
	KTEST_EXPECT_TRUE(t, irqs_disabled_flags(after) && irqs_disabled_flags(masked));
	local_irq_restore(irqflags);
	local_save_flags(after);
	KTEST_EXPECT_EQ(t, irqs_disabled_flags(after), irqs_disabled_flags(before));

	/* At high: the free that brings the count to high gives frames back at once (Linux's
	 * count >= high; how many and how high moves: suite pcp). */
	struct page *chain = NULL;
	int held = 0, want = pcp->high_max + pcp->batch;	/* high grows as the lists refill */
	while (held < want) {
		struct page *p = alloc_page(GFP_TEST);
		if (!p)
			break;
		p->private = (unsigned long)chain;
		chain = p;
		held++;
	}
	KTEST_EXPECT_EQ(t, held, want);
	drain_all_pages(z);
	KTEST_EXPECT_EQ(t, pcp_count(pcp), 0);
	int drains = 0;
	while (chain) {
		struct page *p = chain;
		int before = pcp_count(pcp);
		chain = (struct page *)p->private;
		/* Interrupts masked from the free to the check: the once-a-second decay
		 * (decay_pcp_high) may otherwise lower high to the count in between. */
		unsigned long f;
		local_irq_save(f);
		__free_page(p);
		bool below_high = pcp_count(pcp) < pcp->high;
		int after = pcp_count(pcp);
		local_irq_restore(f);
		KTEST_EXPECT_TRUE(t, below_high);			/* never reached high */
		drains += after <= before;
	}
	KTEST_EXPECT_GT(t, drains, 0);
	EXPECT_BUDDY_OK(t);
	buddy_expect_same(t, &snap);
}

static unsigned long hook_calls;
static void count_reclaim_wakeup(struct zone *z, unsigned int order, gfp_t gfp)
{
	hook_calls++;
}

static void exhaustion_returns_null_and_recovers(struct ktest *t)
{
	struct page *held = NULL;
	unsigned long n = 0, atomic = 0, again = 0, twice = 0;
	unsigned long wakeups = kswapd_wakeups;
	struct snap before;

	buddy_take_snap(&before);
	hook_calls = 0;
	void (*kswapd_hook)(struct zone *, unsigned int, gfp_t) = reclaim_wakeup_hook;
	reclaim_wakeup_hook = count_reclaim_wakeup;	/* in place of kswapd's, put back at the end */
	for (gfp_t gfp = GFP_TEST; ; ) {
		struct page *p = alloc_page(gfp);
		if (!p && gfp == GFP_TEST) {	/* at the min watermark: GFP_ATOMIC may go on */
			for (int z = 0; z < MAX_NR_ZONES; z++)
				KTEST_EXPECT_LE(t, zones[z].free_pages, zones[z]._watermark[WMARK_MIN] +
						zones[z].lowmem_reserve[MAX_NR_ZONES - 1]);
			/* ZONE_DMA kept its lowmem reserve from allocations that could use Normal. */
			if (zones[ZONE_DMA].managed_pages && zones[ZONE_NORMAL].managed_pages) {
				KTEST_EXPECT_GT(t, zones[ZONE_DMA].lowmem_reserve[ZONE_NORMAL], 0);
				KTEST_EXPECT_GE(t, zones[ZONE_DMA].free_pages,
						zones[ZONE_DMA].lowmem_reserve[ZONE_NORMAL]);
			}
			gfp = GFP_ATOMIC | __GFP_NOWARN;
			continue;
		}
		if (!p)
			break;
		for (unsigned int i = 0; i < nr_leaked; i++)
			again += leaked[i] == page_to_pfn(p);
		if (p->index == HELD_MARK) {	/* handed out twice: do not chain it again */
			twice++;
			continue;
		}
		p->index = HELD_MARK;
		*(struct page **)page_address(p) = held;	/* the list lives in the pages */
		held = p;
		n++;
		atomic += gfp != GFP_TEST;
	}
	KTEST_EXPECT_GT(t, atomic, 0);
	KTEST_EXPECT_GT(t, n, atomic);
	/* Below the low watermark every slow-path allocation woke "kswapd": the hook saw them. */
	KTEST_EXPECT_GT(t, hook_calls, 0);
	KTEST_EXPECT_EQ(t, kswapd_wakeups - wakeups, hook_calls);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		KTEST_EXPECT_LE(t, zones[z].free_pages, zones[z]._watermark[WMARK_MIN] / 2 +
				zones[z].lowmem_reserve[MAX_NR_ZONES - 1]);
	KTEST_EXPECT_TRUE(t, alloc_page(GFP_TEST) == NULL);
	drain_all_pages(NULL);
	KTEST_EXPECT_EQ(t, nr_free_pages_and_pcp() + n, before.free);
	KTEST_EXPECT_EQ(t, again, 0);
	KTEST_EXPECT_EQ(t, twice, 0);
	EXPECT_BUDDY_OK(t);
	for (unsigned long i = 0; held && i < n; i++) {
		struct page *next = *(struct page **)page_address(held);
		held->index = 0;
		__free_page(held);
		held = next;
	}
	reclaim_wakeup_hook = kswapd_hook;
	buddy_expect_same(t, &before);
}

static const struct ktest_case buddy_cases[] = {
	KTEST_CASE(orders_give_aligned_blocks), KTEST_CASE(split_and_merge),
	KTEST_CASE(refcounts_free_on_last_put), KTEST_CASE(gfp_comp_makes_a_large_folio),
	KTEST_CASE(gfp_zero_zeroes), KTEST_CASE(alloc_pages_exact_frees_the_tail),
	KTEST_CASE(zones_never_merge_across), KTEST_CASE(mlocked_folio_put_is_quiet),
	KTEST_CASE(hwpoison_frame_is_kept_quietly), KTEST_CASE(take_page_off_buddy_takes_one_frame),
	KTEST_CASE(pcp_lists_by_migratetype), KTEST_CASE(order0_fast_paths),
	KTEST_CASE(bad_free_locked), KTEST_CASE(bad_free_mlocked),
	KTEST_CASE(bad_free_mapping), KTEST_CASE(bad_free_mapcount),
	KTEST_CASE(bad_free_tail_page), KTEST_CASE(bad_free_impossible_order),
	KTEST_CASE(bad_free_wrong_order), KTEST_CASE(exhaustion_returns_null_and_recovers),
	KTEST_CASE(bad_double_free), KTEST_CASE(bad_free_wrong_order_over_free_buddy),
	KTEST_CASE(bad_free_wrong_order_over_pcp_buddy), KTEST_CASE(bad_free_compound_wrong_order),
	KTEST_CASE(bad_alloc_spoiled_while_free), KTEST_CASE(bad_free_misaligned),
	{}
};
KTEST_SUITE_EXPLICIT(buddy, buddy_cases);
