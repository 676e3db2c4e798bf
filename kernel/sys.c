/*
 * sys.c - the small system calls about the calling task and the system (include/tinymm/syscalls.h):
 * getpid, sched_yield, uname (wait4 / waitid: kernel/exit.c).  docs/syscalls.md lists them per ABI.
 */
#include <string.h>
#include "tinymm/sched.h"
#include "tinymm/syscalls.h"
#include "tinymm/uaccess.h"
#include "tinymm/uapi/utsname.h"
#include "tinymm/version.h"

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

/* Linux's struct new_utsname: sysname "tinymm" (a program that checks for "Linux" learns it is
 * not), release the build's version, machine the ABI's name as Linux spells it. */
long sys_newuname(struct linux_new_utsname __user *name)
{
	struct linux_new_utsname u;

	memset(&u, 0, sizeof(u));
	strncpy(u.sysname, "tinymm", LINUX_NEW_UTS_LEN);
	strncpy(u.nodename, "tinymm", LINUX_NEW_UTS_LEN);
	strncpy(u.release, tinymm_version, LINUX_NEW_UTS_LEN);
	strncpy(u.version, "#1", LINUX_NEW_UTS_LEN);
	strncpy(u.machine, UTS_MACHINE, LINUX_NEW_UTS_LEN);
	strncpy(u.domainname, "(none)", LINUX_NEW_UTS_LEN);
	return copy_to_user(name, &u, sizeof(u)) ? -EFAULT : 0;
}
