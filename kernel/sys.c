/*
 * sys.c - the small system calls about the calling task and the system (include/tinymm/syscalls.h):
 * getpid, sched_yield, uname, wait4 / waitid.  docs/syscalls.md lists them per ABI.
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

/* v6.10's wait options (include/uapi/linux/wait.h). */
#define WNOHANG		0x00000001
#define WUNTRACED	0x00000002
#define WEXITED		0x00000004
#define WCONTINUED	0x00000008
#define WNOWAIT		0x01000000
#define __WNOTHREAD	0x20000000
#define __WALL		0x40000000
#define __WCLONE	0x80000000U
#define P_ALL		0
#define P_PID		1
#define P_PGID		2
#define P_PIDFD		3

/* No fork yet: a task never has children, so a valid wait is -ECHILD (v6.10's answer for a
 * task without them); bad options are -EINVAL first, as v6.10 checks them first. */
long sys_wait4(int pid, int __user *stat_addr, int options, void __user *ru)
{
	(void)pid;
	(void)stat_addr;
	(void)ru;
	if ((unsigned int)options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	return -ECHILD;
}

long sys_waitid(int which, int upid, void __user *infop, int options, void __user *ru)
{
	(void)upid;
	(void)infop;
	(void)ru;
	if ((unsigned int)options & ~(WNOHANG | WNOWAIT | WEXITED | WUNTRACED | WCONTINUED |
				      __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	if (!(options & (WEXITED | WUNTRACED | WCONTINUED)))
		return -EINVAL;
	if (which < P_ALL || which > P_PIDFD)
		return -EINVAL;
	return -ECHILD;
}
