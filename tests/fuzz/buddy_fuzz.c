/*
 * buddy_fuzz.c - libFuzzer target for the page allocator (mm/page_alloc.c, mm/pcp.c,
 * mm/mm_init.c): CTest fuzz.buddy; long runs: README.md.
 *
 * Each input boots a fresh allocator over a fake RAM like tests/host/buddy_test.c's: 16 MiB,
 * 4 MiB-aligned, bank 0 [0, 6M) with a 64 KiB "kernel", a hole, bank 1 [8M, 16M).  Its first
 * byte picks ZONE_DMA's limit (none, unaligned, pageblock-aligned, across the hole), page
 * poisoning and the page checks; the rest, read round and round for at least OPS_PER_INPUT
 * operations (a boot costs as much as many of them), decodes to operations (op byte % 10):
 *   0, 1  alloc_pages(gfp, order): order mostly 0-3, sometimes up to 12 (> MAX_PAGE_ORDER: NULL)
 *   2     drop one reference to a held block (__free_pages, folio_put or put_page on a tail page,
 *         free_pages_exact); the last one frees it, and (v6.10) __free_pages() of a
 *         non-compound block that is not the last frees all but its first page
 *   3     folio_alloc(gfp, order) with 0-3 extra references (folio_get)
 *   4     one more reference to a held block (get_page, on a tail page for a folio)
 *   5     alloc_pages_exact(size, gfp), size 0 to 65 pages, sometimes past the largest block
 *   6     take_page_off_buddy() on any frame: true exactly when the model says the frame is free
 *   7     drain the per-CPU lists, or free everything held
 *   8     migration at the allocator's level (mm/migrate.c's moves through mm/compaction.c's
 *         free scanner): a held order-0 block's contents moved into a frame taken from the
 *         top of its zone as compaction's isolate_freepages_block() takes it (the highest free
 *         block, __isolate_free_page(), split to order-0 frames, each prepared as an
 *         allocation), the old frame freed, the unused frames put back
 *         (__putback_isolated_page(), as compaction's release_freepages());
 *   9     a compaction pass of op 8: up to 16 moves, lowest held frame first, while the free
 *         frame found is above it (the scanners have not met)
 * A model of every frame (free, held, taken; reserved ones from PG_reserved) catches a frame
 * handed out twice.  After every operation: buddy_check() finds nothing, held + free + taken
 * frames == managed frames, no bad page and no poison mismatch was reported.  At the end
 * everything is freed; with nothing taken, every zone's free blocks must be those of the boot.
 * Any failure prints the check, the allocator's complaints and the log, then aborts.
 *
 * BUDDY_FUZZ_BREAK=1 corrupts a free count, =2 loses a free frame, at the end of every input:
 * CTests fuzz.buddy_corrupt_list_aborts and fuzz.buddy_lost_frame_aborts require the abort.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tinymm/memblock.h"
#include "tinymm/page_alloc.h"
#include "tinymm/printk.h"
#include "tinymm/time.h"
#include "../../mm/internal.h"
#include "fake_ram.h"
#include "fuzz_input.h"

void log_buf_dump(void (*out)(const char *s, size_t n));	/* kernel/printk.c */

#define MIB		(1UL << 20)
#define RAM_SIZE	FAKE_RAM_TWO_BANKS
#define RAM_FRAMES	(RAM_SIZE / PAGE_SIZE)
#define MAX_HELD	192
#define OPS_PER_INPUT	160	/* at least; an input longer than that gives one per byte */

enum frame_state { FREE, HELD, TAKEN };	/* FREE includes reserved (PG_reserved) and holes */
enum kind { PAGES, FOLIO, EXACT };

struct held {
	struct page *page;
	unsigned long nr;		/* frames this block holds */
	unsigned int order;
	enum kind kind;
	int refs;
	size_t size;			/* EXACT: the size asked for */
};

static char *ram;
static unsigned long pfn0;
static unsigned char state[RAM_FRAMES];
static struct held held[MAX_HELD];
static int nr_held;
static unsigned long held_frames, taken_frames, bad0, poison0, op_index;
static unsigned long boot_nr_free[MAX_NR_ZONES][NR_PAGE_ORDERS];
static unsigned long long total_ops, total_inputs, total_migrated;
static int break_mode;

static void __attribute__((noreturn)) fuzz_fail(int line, const char *what)
{
	fprintf(stderr, "buddy_fuzz: check failed at %s:%d, operation %lu of the input: %s\n",
		__FILE__, line, op_index, what);
	buddy_check(eprintf);
	fprintf(stderr, "--- kernel log ---\n");
	log_buf_dump(log_out);
	abort();
}
#define CHECK(cond)	do { if (!(cond)) fuzz_fail(__LINE__, #cond); } while (0)

static void report(void)
{
	fprintf(stderr, "buddy_fuzz: %llu operations in %llu inputs, %llu blocks migrated\n",
		total_ops, total_inputs, total_migrated);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	break_mode = fuzz_break_mode("BUDDY_FUZZ_BREAK");
	ram = fake_ram_alloc(RAM_SIZE);
	if (!ram)
		abort();
	pfn0 = (unsigned long)(__pa(ram) >> PAGE_SHIFT);
	time_init(1000000);
	console_loglevel = 0;		/* the log keeps everything for a failure report */
	atexit(report);
	return 0;
}

static void boot(unsigned int cfg)
{
	static const phys_addr_t dma[4] = { 0, MIB + 0x8000, 4 * MIB, 8 * MIB + PAGE_SIZE };
	phys_addr_t pa = __pa(ram);

	if (fake_ram_two_banks(pa))
		abort();
	fake_ram_reserve_kernel(pa);
	zone_dma_limit = dma[cfg & 3] ? pa + dma[cfg & 3] : 0;
	page_poisoning_enabled = (cfg & 0x1c) == 0x1c;	/* fills every free frame: costly */
	page_checks = (cfg & 0x60) != 0x60;
	CHECK(memmap_init() == 0);
	CHECK(page_alloc_init() == 0);
	memset(state, FREE, sizeof(state));
	nr_held = 0;
	held_frames = taken_frames = 0;
	bad0 = nr_bad_pages;
	poison0 = nr_poison_mismatches;
	for (int z = 0; z < MAX_NR_ZONES; z++)
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			boot_nr_free[z][o] = zones[z].free_area[o].nr_free;
}

/* Frames [page, page + nr) go from @from to @to in the model. */
static void mark(struct page *page, unsigned long nr, enum frame_state from, enum frame_state to)
{
	unsigned long pfn = page_to_pfn(page);

	CHECK(pfn >= pfn0 && pfn + nr <= pfn0 + RAM_FRAMES);
	for (unsigned long i = 0; i < nr; i++) {
		CHECK(state[pfn - pfn0 + i] == from);	/* HELD twice: handed out twice */
		CHECK(pfn_to_page(pfn + i) == page + i && !PageReserved(page + i));
		state[pfn - pfn0 + i] = (unsigned char)to;
	}
}

static gfp_t decode_gfp(unsigned int b)
{
	gfp_t gfp = __GFP_NOWARN;

	gfp |= (b & 1) ? GFP_KERNEL : (b & 2) ? GFP_ATOMIC : GFP_NOWAIT;
	if ((b & 0x0c) == 0x0c)
		gfp |= __GFP_DMA;
	gfp |= (b & 0x10) ? __GFP_MOVABLE : (b & 0x20) ? __GFP_RECLAIMABLE : 0;
	gfp |= (b & 0x40) ? __GFP_ZERO : 0;
	gfp |= (b & 0x80) ? __GFP_COMP : 0;
	return gfp;
}

static unsigned int decode_order(unsigned int b)
{
	return b < 224 ? b % 4 : b % 13;
}

/* A block just handed out: where and what it must be, then into the model and the table. */
static void got_block(struct page *p, unsigned int order, unsigned long nr, gfp_t gfp, enum kind kind,
		      int refs, size_t size)
{
	unsigned long pfn = page_to_pfn(p);
	bool compound = kind == FOLIO ? order > 0 : kind == PAGES && order && (gfp & __GFP_COMP);

	CHECK((pfn & ((1UL << order) - 1)) == 0);
	CHECK(page_ref_count(p) == refs);
	CHECK(!(gfp & __GFP_DMA) || page_zonenum(p) == ZONE_DMA);
	CHECK(page_zone(p + nr - 1) == page_zone(p));
	CHECK(PageHead(p) == compound && folio_order(page_folio(p)) == (compound ? order : 0));
	for (unsigned long i = 1; i < nr; i++) {
		CHECK(compound ? compound_head(p + i) == p : !PageTail(p + i));
		CHECK(page_ref_count(p + i) == (kind == EXACT));
	}
	mark(p, nr, FREE, HELD);
	for (unsigned long i = 0; i < nr; i++) {
		unsigned long *w = page_address(p + i);
		if (gfp & __GFP_ZERO)
			CHECK(w[0] == 0 && w[PAGE_SIZE / sizeof(long) / 2] == 0 &&
			      w[PAGE_SIZE / sizeof(long) - 1] == 0);
		w[0] = w[PAGE_SIZE / sizeof(long) - 1] = pfn + i;	/* the owner writes */
	}
	held_frames += nr;
	held[nr_held++] = (struct held){ p, nr, order, kind, refs, size };
}

/* Drop one reference to held[i]; the last one frees the block. */
static void put_one(int i, unsigned int b)
{
	struct held *h = &held[i];

	if (h->kind == EXACT || h->refs == 1) {
		/* the last reference: the owner stops writing, the frames leave the model */
		mark(h->page, h->nr, HELD, FREE);
		held_frames -= h->nr;
	}
	if (h->kind == EXACT)
		free_pages_exact(page_address(h->page), h->size);
	else if (h->kind == FOLIO && (b & 1))
		put_page(h->page + (b >> 1) % h->nr);		/* a tail page's reference is the folio's */
	else if (h->kind == FOLIO)
		folio_put((struct folio *)h->page);
	else {
		bool head = PageHead(h->page);
		__free_pages(h->page, h->order);
		if (h->refs > 1 && h->order && !head) {
			/* Not the last reference to a non-compound block, as in Linux: all but its
			 * first page go back now, and the other references hold that page alone. */
			mark(h->page + 1, h->nr - 1, HELD, FREE);
			held_frames -= h->nr - 1;
			h->nr = 1;
			h->order = 0;
		}
	}
	if (h->kind == EXACT || --h->refs == 0)
		held[i] = held[--nr_held];
}

static void alloc_op(struct input *in, enum kind kind)
{
	unsigned int order = decode_order(byte(in)), extra = byte(in);
	gfp_t gfp = decode_gfp(byte(in));
	struct page *p;

	if (kind == FOLIO) {
		gfp &= ~__GFP_COMP;
		p = (struct page *)folio_alloc(gfp, order);
	} else {
		p = alloc_pages(gfp, order);
	}
	if (order > MAX_PAGE_ORDER || ((gfp & __GFP_DMA) && !zones[ZONE_DMA].managed_pages))
		CHECK(!p);
	if (!p)
		return;
	got_block(p, order, 1UL << order, gfp, kind, 1, 0);
	for (unsigned int i = 0; kind == FOLIO && i < extra % 4; i++) {
		folio_get((struct folio *)p);
		held[nr_held - 1].refs++;
	}
	CHECK(page_ref_count(p) == held[nr_held - 1].refs);
}

static void exact_op(struct input *in)
{
	unsigned int hi = byte(in), lo = byte(in);
	gfp_t gfp = decode_gfp(byte(in)) & ~__GFP_COMP;
	size_t size = hi == 0xff ? (PAGE_SIZE << MAX_PAGE_ORDER) + lo + 1 : ((hi << 8 | lo) * 17) % (65 * PAGE_SIZE);
	void *v = alloc_pages_exact(size, gfp);

	if (!size || size > (PAGE_SIZE << MAX_PAGE_ORDER))
		CHECK(!v);
	if (!v)
		return;
	unsigned long nr = (size + PAGE_SIZE - 1) / PAGE_SIZE;
	unsigned int order = 0;
	while ((1UL << order) < nr)
		order++;
	got_block(virt_to_page(v), order, nr, gfp, EXACT, 1, size);
}

static void take_op(struct input *in)
{
	unsigned long i = ((unsigned long)byte(in) << 8 | byte(in)) % RAM_FRAMES;
	struct page *page = pfn_to_page(pfn0 + i);

	if (!page)
		return;				/* the hole */
	bool free = state[i] == FREE && !PageReserved(page);
	CHECK(take_page_off_buddy(page) == free);
	if (free) {
		state[i] = TAKEN;
		taken_frames++;
	}
}

static void check_all(void);

/* The free scanner (mm/compaction.c): the highest free block of @z taken off its list and split
 * to order-0 frames on @list; how many (0: none, or the zone at its min watermark). */
static unsigned long isolate_top_free(struct zone *z, struct page_list *list)
{
	unsigned long flags, n = 0;

	spin_lock_irqsave(&z->lock, flags);
	for (unsigned long pfn = zone_end_pfn(z); pfn-- > z->zone_start_pfn;) {
		struct page *page = pfn_valid(pfn) ? pfn_to_page(pfn) : NULL;

		if (!page || !PageBuddy(page))
			continue;
		n = __isolate_free_page(page, buddy_order(page));
		for (unsigned long i = 0; i < n; i++) {
			page[i].private = 0;
			page_list_add_tail(list, &page[i]);
		}
		break;
	}
	spin_unlock_irqrestore(&z->lock, flags);
	return n;
}

/* Frames the free scanner took and nobody used, back (compaction's release_freepages()). */
static void put_back_free(struct zone *z, struct page_list *list)
{
	unsigned long flags;
	struct page *page;

	spin_lock_irqsave(&z->lock, flags);
	while ((page = page_list_first(list))) {
		page_list_del(list, page);
		__putback_isolated_page(page, 0, false);
	}
	spin_unlock_irqrestore(&z->lock, flags);
}

/* Move held[i] (order 0, one reference) up into a frame the free scanner finds; true if the
 * frame found was above it and the move was made. */
static bool migrate_one_block(int i)
{
	struct held *h = &held[i];
	struct page *old = h->page, *new;
	struct zone *z = page_zone(old);
	struct page_list free;

	if (h->order || h->kind == EXACT || h->refs != 1)
		return false;
	page_list_init(&free);
	if (!isolate_top_free(z, &free))
		return false;
	new = page_list_first(&free);
	if (page_to_pfn(new) < page_to_pfn(old)) {	/* the scanners met */
		put_back_free(z, &free);
		return false;
	}
	page_list_del(&free, new);
	/* Prepared as compaction_alloc() prepares it: an allocation's checks, one reference. */
	set_page_pcp_mt(new, pageblock_mt(z, page_to_pfn(new)));
	CHECK(!page_checks || check_new_pages(new, 0));
	CHECK(!page_poisoning_enabled || check_poison_pages(new, 1));
	atomic_set(&new->_refcount, 1);
	mark(new, 1, FREE, HELD);
	memcpy(page_address(new), page_address(old), PAGE_SIZE);
	((unsigned long *)page_address(new))[0] = page_to_pfn(new);	/* the owner's, moved */
	h->page = new;
	mark(old, 1, HELD, FREE);
	if (h->kind == FOLIO)
		folio_put((struct folio *)old);
	else
		__free_pages(old, 0);
	put_back_free(z, &free);
	total_migrated++;
	return true;
}

static void migrate_op(struct input *in, bool pass)
{
	unsigned int b = byte(in);

	if (!nr_held)
		return;
	if (!pass) {
		migrate_one_block((int)(b % (unsigned int)nr_held));
		return;
	}
	for (int n = 0; n < 16; n++) {
		int lowest = -1;

		for (int i = 0; i < nr_held; i++)
			if (!held[i].order && held[i].kind != EXACT && held[i].refs == 1 &&
			    (lowest < 0 || held[i].page < held[lowest].page))
				lowest = i;
		if (lowest < 0 || !migrate_one_block(lowest))
			break;
		check_all();
	}
}

static void check_all(void)
{
	CHECK(nr_bad_pages == bad0);		/* the fuzzer never frees a bad page */
	CHECK(nr_poison_mismatches == poison0);	/* nor writes to a free one */
	CHECK(buddy_check(NULL) == 0);
	CHECK(held_frames + nr_free_pages_and_pcp() + taken_frames == totalram_pages());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size, 0, 1 };	/* byte 0 is the configuration */
	size_t ops = size < 2 ? 0 : max(size, (size_t)OPS_PER_INPUT);

	boot(size ? byte(&in) : 0);
	total_inputs++;
	for (op_index = 0; op_index < ops; op_index++, total_ops++) {
		unsigned int op = byte(&in) % 10, b;
		switch (op) {
		case 0: case 1: case 3:
			if (nr_held < MAX_HELD)
				alloc_op(&in, op == 3 ? FOLIO : PAGES);
			break;
		case 2:
			b = byte(&in);
			if (nr_held)
				put_one((int)(b % (unsigned int)nr_held), byte(&in));
			break;
		case 4:
			b = byte(&in);
			if (nr_held && held[b % (unsigned int)nr_held].kind != EXACT && held[b % (unsigned int)nr_held].refs < 100) {
				struct held *h = &held[b % (unsigned int)nr_held];
				get_page(h->kind == FOLIO ? h->page + byte(&in) % h->nr : h->page);
				h->refs++;
				CHECK(page_ref_count(h->page) == h->refs);
			}
			break;
		case 5:
			if (nr_held < MAX_HELD)
				exact_op(&in);
			break;
		case 6:
			take_op(&in);
			break;
		case 7:
			if (byte(&in) & 1)
				drain_all_pages(NULL);
			else
				while (nr_held)
					put_one(nr_held - 1, 0);
			break;
		case 8: case 9:
			migrate_op(&in, op == 9);
			break;
		}
		check_all();
	}
	while (nr_held)
		put_one(nr_held - 1, 0);
	drain_all_pages(NULL);
	if (break_mode == 1)
		zones[ZONE_NORMAL].free_area[0].nr_free++;	/* on purpose: buddy_check must object */
	if (break_mode == 2) {
		for (unsigned long i = RAM_FRAMES; i-- > 0;)	/* on purpose: a frame gone unaccounted */
			if (state[i] == FREE && pfn_valid(pfn0 + i) && !PageReserved(pfn_to_page(pfn0 + i))) {
				CHECK(take_page_off_buddy(pfn_to_page(pfn0 + i)));
				break;
			}
	}
	check_all();
	for (int z = 0; z < MAX_NR_ZONES && !taken_frames; z++)	/* the boot's blocks again */
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			CHECK(zones[z].free_area[o].nr_free == boot_nr_free[z][o]);
	return 0;
}
