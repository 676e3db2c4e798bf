/*
 * extable.c - search_exception_tables() (include/tinymm/extable.h): the fixup for a faulting
 * kernel instruction that touches user memory, or NULL.
 */
#include <stddef.h>
#include "tinymm/extable.h"

extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];

const struct exception_table_entry *search_exception_tables(unsigned long addr)
{
	for (const struct exception_table_entry *e = __start___ex_table; e < __stop___ex_table; e++)
		if (e->insn == addr)
			return e;
	return NULL;
}
