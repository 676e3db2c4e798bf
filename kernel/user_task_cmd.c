/*
 * user_task_cmd.c - the shell's `exec`: run a program from the filesystem as a user task
 * (user_task_spawn, include/tinymm/exec.h) and report how it ended, in the words of a Unix
 * shell's wait:
 *   exec <path> [args...]       wait; `<path>: exited with status <n>` or
 *                               `<path>: killed by signal <n> (<NAME>)`; fails unless status 0
 *   exec -b <path> [args...]    do not wait: `<path>: pid <n>`; the task runs detached (its end
 *                               is not reported), for `maps`/`pagemap` of a live task; later
 *                               commands name it as `$!` (sh's last background pid)
 * A failed exec: `<path>: <strerror words>` (No such file or directory, Permission denied,
 * Exec format error after the loader's one-line reason) and failure.  argv[0] is <path> as
 * typed; the environment is PATH=/bin and HOME=/.
 * Locking: may sleep (the exec, the wait).
 */
#include <string.h>
#include "tinymm/exec.h"
#include "tinymm/printk.h"
#include "tinymm/sched.h"
#include "tinymm/shell.h"
#include "tinymm/signal.h"
#include "tinymm/user_task.h"

static const char *const exec_envp[] = { "PATH=/bin", "HOME=/", NULL };

static int cmd_exec(int argc, char **argv)
{
	const char *args[SHELL_MAX_ARGS + 1];
	bool background = argc > 1 && !strcmp(argv[1], "-b");
	int first = background ? 2 : 1, n = 0, err, status;
	struct task_struct *p;
	const char *path;

	if (argc <= first)
		return shell_usage_error(argv[0], "usage: exec [-b] <path> [args...]");
	path = argv[first];
	for (int i = first; i < argc; i++)
		args[n++] = argv[i];
	args[n] = NULL;
	p = user_task_spawn(path, args, exec_envp, &err);
	if (!p) {
		kprintf("%s: %s\n", path, exec_strerror(err));
		return 1;
	}
	if (background) {
		kprintf("%s: pid %d\n", path, p->pid);
		shell_last_background_pid = p->pid;	/* sh's $! (kernel/shell.c) */
		kthread_detach(p);
		return 0;
	}
	status = kthread_join(p);
	if (WIFEXITED(status)) {
		kprintf("%s: exited with status %d\n", path, WEXITSTATUS(status));
		return WEXITSTATUS(status) ? 1 : 0;
	}
	kprintf("%s: killed by signal %d (%s)\n", path, WTERMSIG(status),
		signal_name(WTERMSIG(status)));
	return 1;
}
SHELL_COMMAND(exec, "[-b] <path> [args...]",
	      "run a program as a user task and wait for it (-b: don't wait, print its pid)", cmd_exec);
