/*
 * usermode_progs.h - the user programs in usermode_progs.S (the `usermode` suite and the
 * syscall-getpid bench): each is the bytes [name, name_end), copied to USERMODE_CODE.
 */
#ifndef ARM_USERMODE_PROGS_H
#define ARM_USERMODE_PROGS_H

#include <stdint.h>

#define USERMODE_CODE	0x10000UL	/* the programs' address: one page, R+X */
#define USERMODE_DATA	0x11000UL	/* one page RW just after: the flag, the bench's samples */
#define USERMODE_RO	0x12000UL	/* VM_READ only */
#define USERMODE_DATA2	0x13000UL	/* RW, never touched before the suite's uaccess checks */
#define USERMODE_STACK_TOP 0x21000UL	/* one RW page below it */

#define USERMODE_PROG(n)	extern const unsigned char n[], n##_end[]
USERMODE_PROG(um_getpid_exit);
USERMODE_PROG(um_store_unmapped);
USERMODE_PROG(um_udf);
USERMODE_PROG(um_load_kernel);
USERMODE_PROG(um_tls);
USERMODE_PROG(um_spin_flag);
USERMODE_PROG(um_spin_flag_unbounded);
USERMODE_PROG(um_bench_getpid);

/*
 * usermode_run.c: in a kernel thread, a fresh mm made current with the areas above, the
 * program [code, code_end) at USERMODE_CODE and @data0 as the data page's first word; the
 * kernel's alias of the data page in *@data_alias.  0, or a negative step that failed (the
 * caller then ends the thread with do_exit).  arm_usermode_enter(): start it in USR mode.
 */
int arm_usermode_setup(const unsigned char *code, const unsigned char *code_end, uint32_t data0,
		       volatile uint32_t **data_alias);
__noreturn void arm_usermode_enter(void);

#endif
