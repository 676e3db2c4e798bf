/* kallsyms.h - function names for addresses, from the table embedded at build time. */
#ifndef TINYMM_KALLSYMS_H
#define TINYMM_KALLSYMS_H
#include "kernel.h"

/*
 * Name of the function containing @addr, with the offset into it and its size; NULL if @addr is
 * in no known function.  A symbol without a size (assembly) extends to the next symbol.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *offset, unsigned long *size);
/* "name+0xoff/0xsize", or the bare hex address when unknown, into @buf. */
void sprint_symbol(char *buf, size_t len, unsigned long addr);
#endif
