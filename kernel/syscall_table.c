/*
 * syscall_table.c - the system-call table for the board's ABI (include/tinymm/syscalls.h), by
 * the numbers of include/tinymm/uapi/unistd.h.  A call belongs here once it is implemented;
 * every other number is -ENOSYS.
 */
#include "tinymm/errno.h"
#include "tinymm/exec.h"
#include "tinymm/syscalls.h"

#define SC(nr, fn)	[nr] = (syscall_fn_t)(void (*)(void))(fn)

const syscall_fn_t sys_call_table[] = {
	SC(__NR_execve, sys_execve),
	SC(__NR_exit, sys_exit),
	SC(__NR_exit_group, sys_exit_group),
	SC(__NR_getpid, sys_getpid),
	SC(__NR_sched_yield, sys_sched_yield),
};
const unsigned int nr_syscalls = ARRAY_SIZE(sys_call_table);

long invoke_syscall(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2,
		    unsigned long a3, unsigned long a4, unsigned long a5)
{
	if (unlikely(nr >= nr_syscalls || !sys_call_table[nr]))
		return -ENOSYS;
	return sys_call_table[nr](a0, a1, a2, a3, a4, a5);
}
