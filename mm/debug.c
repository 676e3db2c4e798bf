/*
 * debug.c - dump_page(): a struct page in Linux v6.10's words (mm/debug.c's __dump_folio):
 *
 *   page: refcount:1 mapcount:0 mapping:00000000 index:0x0 pfn:0x40123
 *   head: order:2 mapcount:0 entire_mapcount:0 nr_pages_mapped:0 pincount:0   (large folios)
 *   flags: 0x40000011(locked|dirty|node=0|zone=1)
 *   page_type: 0xf0000000(buddy)                                              (typed pages)
 *   raw: <the struct page as words>
 *   page dumped because: <reason>
 *
 * Flag names are the primary names, lowest bit first, as v6.10's %pGp prints them.
 * Locking: none; a racy snapshot is what a debug dump can offer, as in Linux.
 */
#include "tinymm/mm.h"
#include "tinymm/printk.h"

static const char *const pageflag_names[NR_PAGEFLAGS] = {
#define __PG_NAME(n) [PG_##n] = #n,
	__PAGEFLAG_BITS(__PG_NAME)
#undef __PG_NAME
};

const char *pageflag_name(int bit);
const char *pageflag_name(int bit)
{
	return bit >= 0 && bit < NR_PAGEFLAGS ? pageflag_names[bit] : "?";
}

/* "0x40000011(locked|dirty|node=0|zone=1)" into @buf. */
void format_page_flags(char *buf, size_t len, unsigned long flags);
void format_page_flags(char *buf, size_t len, unsigned long flags)
{
	size_t pos = (size_t)ksnprintf(buf, len, "%#lx(", flags);

	for (int bit = 0; bit < NR_PAGEFLAGS && pos < len; bit++)
		if (flags & (1UL << bit))
			pos += (size_t)ksnprintf(buf + pos, len - pos, "%s|", pageflag_names[bit]);
	if (pos < len)
		ksnprintf(buf + pos, len - pos, "node=%lu|zone=%lu)", (flags >> NODES_PGSHIFT) & NODES_MASK,
			  (flags >> ZONES_PGSHIFT) & ZONES_MASK);
}

void dump_page(const struct page *page, const char *reason)
{
	const struct page *head = compound_head(page);
	const struct folio *folio = (const struct folio *)head;
	char flags[256];
	const int w = (int)sizeof(long) * 2;

	printk(KERN_WARNING "page: refcount:%d mapcount:%d mapping:%0*lx index:%#lx pfn:%#lx\n",
	       page_ref_count(head), page_mapcount(page), w, (unsigned long)head->mapping,
	       head->index + (unsigned long)(page - head), page_to_pfn(page));
	if (folio_test_large(folio))
		printk(KERN_WARNING "head: order:%u mapcount:%d entire_mapcount:0 nr_pages_mapped:0 "
		       "pincount:0\n", folio_order(folio), page_mapcount(head));
	format_page_flags(flags, sizeof(flags), head->flags);
	printk(KERN_WARNING "flags: %s\n", flags);
	const unsigned long *raw = (const unsigned long *)page;
	printk(KERN_WARNING "raw:");
	for (size_t i = 0; i < sizeof(struct page) / sizeof(long); i++)
		printk(KERN_CONT " %0*lx", w, raw[i]);
	printk(KERN_CONT "\n");
	if (page != head) {
		raw = (const unsigned long *)head;
		printk(KERN_WARNING "head:");
		for (size_t i = 0; i < sizeof(struct page) / sizeof(long); i++)
			printk(KERN_CONT " %0*lx", w, raw[i]);
		printk(KERN_CONT "\n");
	}
	if (reason)
		printk(KERN_WARNING "page dumped because: %s\n", reason);
}
