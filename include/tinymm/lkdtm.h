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

/* Boot's write to WRITE_RO_AFTER_INIT's variable (v6.10's initcall): kmain calls it before the
 * first thread, whose mark_rodata_ro() then makes the variable read-only. */
void lkdtm_perms_init(void);

#endif
