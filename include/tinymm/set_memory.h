/*
 * set_memory.h - changing the protection of kernel mappings (v6.10's include/linux/set_memory.h
 * and asm/set_memory.h), mm/set_memory.c:
 *   set_memory_ro(addr, numpages)  read-only       set_memory_rw(addr, numpages)  writable
 *   set_memory_x(addr, numpages)   executable      set_memory_nx(addr, numpages)  not executable
 * over [addr, addr + numpages * PAGE_SIZE) in the kernel's tables (init_mm), splitting a pmd leaf
 * the range covers only partly.  0, or -EINVAL (addr not page-aligned, numpages <= 0, a page not
 * mapped, or a writable+executable result: tinymm refuses W+X, which v6.10 does not) or -ENOMEM
 * (no frame for a split) or -EBUSY (a split that would unmap the code, stack or table doing it),
 * in every error case with one line on the console and nothing changed.  May sleep.
 *
 * mark_rodata_ro(): the end of boot (v6.10's name; there it is each architecture's and covers
 * .rodata too, which tinymm maps read-only from the start): __ro_after_init data read-only.
 */
#ifndef TINYMM_SET_MEMORY_H
#define TINYMM_SET_MEMORY_H

int set_memory_ro(unsigned long addr, int numpages);
int set_memory_rw(unsigned long addr, int numpages);
int set_memory_x(unsigned long addr, int numpages);
int set_memory_nx(unsigned long addr, int numpages);

void mark_rodata_ro(void);

#endif
