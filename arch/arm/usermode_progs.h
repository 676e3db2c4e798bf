/*
 * usermode_progs.h - the user programs in usermode_progs.S (the `usermode` suite and the
 * syscall-getpid bench): each is the bytes [name, name_end), copied to USERMODE_CODE.
 */
#ifndef ARM_USERMODE_PROGS_H
#define ARM_USERMODE_PROGS_H

#define USERMODE_CODE	0x10000UL	/* the programs' address: one page, R+X */
#define USERMODE_DATA	0x11000UL	/* one page RW just after: the flag, the bench's samples */

#define USERMODE_PROG(n)	extern const unsigned char n[], n##_end[]
USERMODE_PROG(um_getpid_exit);
USERMODE_PROG(um_store_unmapped);
USERMODE_PROG(um_udf);
USERMODE_PROG(um_load_kernel);
USERMODE_PROG(um_tls);
USERMODE_PROG(um_spin_flag);
USERMODE_PROG(um_bench_getpid);

#endif
