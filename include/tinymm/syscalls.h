/*
 * syscalls.h - Linux's system-call ABI: the table the architectures' entry code indexes, and the
 * calls (kernel/sys.c and its neighbours, fs/, mm/).  docs/syscalls.md lists every call with its numbers.
 *
 * The entry (arch/<arch>/entry*.S, traps.c) takes the number and six word arguments from the
 * ABI's registers (ARM EABI: r7, r0-r5; RISC-V: a7, a0-a5), calls invoke_syscall() and puts the
 * result in r0 / a0: a value in [-4095, -1] is -errno (Linux's).  An architecture's private calls
 * (ARM's set_tls) are its own business, before invoke_syscall.  64-bit arguments on the 32-bit
 * ABIs arrive as register pairs: the per-ABI wrappers (sys_llseek, sys_ftruncate64, ...) take
 * the halves as separate words, as v6.10's compat-free 32-bit entry points do.
 * Every call may sleep; it runs in the calling task with interrupts enabled and reaches user
 * memory only through <tinymm/uaccess.h>.
 */
#ifndef TINYMM_SYSCALLS_H
#define TINYMM_SYSCALLS_H

#include "kernel.h"
#include "uapi/unistd.h"

typedef long (*syscall_fn_t)(unsigned long, unsigned long, unsigned long, unsigned long,
			     unsigned long, unsigned long);

/* Indexed by the ABI's number; NULL entries (and numbers past the end) are -ENOSYS. */
extern const syscall_fn_t sys_call_table[];
extern const unsigned int nr_syscalls;

long invoke_syscall(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2,
		    unsigned long a3, unsigned long a4, unsigned long a5);

/* kernel/sys.c, kernel/exit.c */
long sys_getpid(void);
long sys_sched_yield(void);
__noreturn long sys_exit(int error_code);
__noreturn long sys_exit_group(int error_code);

#endif
