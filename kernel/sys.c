/*
 * sys.c - the small system calls about the calling task (include/tinymm/syscalls.h).
 */
#include "tinymm/sched.h"
#include "tinymm/syscalls.h"

/* Linux's getpid() is the thread group id; one thread per process here, so the task's pid. */
long sys_getpid(void)
{
	return current->pid;
}

long sys_sched_yield(void)
{
	yield();
	return 0;
}
