/*
 * page_flags.c - the flag table as data (for `page-flags`, dump_page and the docs test), the
 * policy-violation report, and compound page set-up.
 */
#include "tinymm/mm.h"
#include "tinymm/printk.h"

const struct pageflag_info pageflag_table[] = {
#define __PF_ROW(U, l, bit, pol) { #l, bit, pol },
	__PAGEFLAG_ACCESSORS(__PF_ROW)
#undef __PF_ROW
};
const unsigned int pageflag_table_len = ARRAY_SIZE(pageflag_table);

const char *pf_policy_name(enum pf_policy p)
{
	static const char *const names[] = {
		[PF_ANY] = "PF_ANY", [PF_HEAD] = "PF_HEAD", [PF_NO_TAIL] = "PF_NO_TAIL",
		[PF_NO_COMPOUND] = "PF_NO_COMPOUND", [PF_SECOND] = "PF_SECOND",
	};
	return (unsigned)p < ARRAY_SIZE(names) ? names[p] : "?";
}

void pageflag_policy_bug(const struct page *page, const char *flag, const char *why)
{
	char reason[128];

	ksnprintf(reason, sizeof(reason), "page flag policy: %s: %s", flag, why);
	dump_page(page, reason);
	BUG();
}

void prep_compound_page(struct page *page, unsigned int order)
{
	unsigned long nr = 1UL << order;

	VM_BUG_ON(order == 0 || order > 31);
	__SetPageHead(page);
	for (unsigned long i = 1; i < nr; i++)
		set_compound_head(page + i, page);
	struct folio *folio = (struct folio *)page;
	folio->_flags_1 = (folio->_flags_1 & ~0xffUL) | order;
}
