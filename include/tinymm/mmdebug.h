/*
 * mmdebug.h - memory-manager debugging: dump_page() and VM_BUG_ON_PAGE (mm/debug.c).
 * dump_page prints v6.10's shape:
 *   page: refcount:1 mapcount:0 mapping:00000000 index:0x0 pfn:0x40123
 *   flags: 0x40000011(locked|dirty|node=0|zone=1)
 *   page dumped because: <reason>
 */
#ifndef TINYMM_MMDEBUG_H
#define TINYMM_MMDEBUG_H

#include "bug.h"
#include "config.h"

struct page;
void dump_page(const struct page *page, const char *reason);

#if CONFIG_DEBUG_VM
#define VM_BUG_ON(cond)		BUG_ON(cond)
#define VM_BUG_ON_PAGE(cond, page)						\
	do {									\
		if (unlikely(cond)) {						\
			dump_page(page, "VM_BUG_ON_PAGE(" #cond ")");		\
			BUG();							\
		}								\
	} while (0)
#define VM_WARN_ON(cond)	WARN_ON(cond)
#else
#define VM_BUG_ON(cond)			do { (void)sizeof(cond); } while (0)
#define VM_BUG_ON_PAGE(cond, page)	do { (void)sizeof(cond); (void)(page); } while (0)
#define VM_WARN_ON(cond)		((void)sizeof(cond), 0)
#endif

#endif
