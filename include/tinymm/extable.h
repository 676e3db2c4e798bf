/*
 * extable.h - the exception table (Linux's): for each instruction that may fault on a user
 * address inside the uaccess routines, where to resume instead.  The architecture's assembly
 * emits the entries into section __ex_table (linker/kernel.ld.in collects them between
 * __start___ex_table and __stop___ex_table); its fault handler, for a fault taken in the kernel,
 * looks the faulting pc up with search_exception_tables() and, when found and the fault cannot be
 * resolved, resumes at ->fixup.  Absolute addresses (tinymm is not relocatable), searched
 * linearly: a few dozen entries, looked at only on a fault (Linux sorts and bisects).
 */
#ifndef TINYMM_EXTABLE_H
#define TINYMM_EXTABLE_H

struct exception_table_entry {
	unsigned long insn;	/* the instruction that may fault */
	unsigned long fixup;	/* where to resume */
};

const struct exception_table_entry *search_exception_tables(unsigned long addr);

#endif
