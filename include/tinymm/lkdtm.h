/*
 * lkdtm.h - what the `lkdtm` command (kernel/lkdtm.c, Linux's drivers/misc/lkdtm) needs from
 * outside its file.
 */
#ifndef TINYMM_LKDTM_H
#define TINYMM_LKDTM_H

/* An empty function whose code lies in .rodata (kernel/lkdtm_rodata.c): EXEC_RODATA calls it. */
void lkdtm_rodata_do_nothing(void);

/* Recurse with a large frame until the current thread's stack overflows (bugs.c's). */
void lkdtm_EXHAUST_STACK(void);

#endif
