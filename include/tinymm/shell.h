/*
 * shell.h - the console shell.  A file that has something to show registers a command with
 * SHELL_COMMAND() next to the code it inspects; the shell never lists subsystems itself.
 *
 * A command returns 0 on success.  On failure it prints one line naming itself and the reason
 * (e.g. "memmap: unexpected argument 'x'") and returns non-zero.
 */
#ifndef TINYMM_SHELL_H
#define TINYMM_SHELL_H

#include "kernel.h"

struct shell_cmd {
	const char *name;
	const char *args;	/* usage of the arguments, "" if none */
	const char *help;
	int (*fn)(int argc, char **argv);
};

#define SHELL_COMMAND(_name, _args, _help, _fn)					\
	static const struct shell_cmd __shell_cmd_##_name __used			\
	__section(TABLE_SECTION_shell_cmds(_name)) __attribute__((aligned(sizeof(void *)))) =	\
		{ #_name, _args, _help, _fn }

#ifdef TINYMM_HOST
/* Host builds have no linker script: the linker's own __start_/__stop_ symbols bound the section
 * (which is why the section name there is a plain identifier). */
#define __shell_cmds_start __start_shell_cmds
#define __shell_cmds_end __stop_shell_cmds
extern const struct shell_cmd __shell_cmds_start[] __attribute__((weak)), __shell_cmds_end[] __attribute__((weak));
#define TABLE_SECTION_shell_cmds(name) "shell_cmds"
#else
extern const struct shell_cmd __shell_cmds_start[], __shell_cmds_end[];
#define TABLE_SECTION_shell_cmds(name) ".shell_cmds." #name
#endif

#define SHELL_MAX_ARGS 16
#define SHELL_LINE_MAX 1024	/* room for paths: a NAME_MAX (255) name, several deep */

/* Run one command line against the table [cmds, end).  Returns the command's status; an empty
 * line is 0; an unknown command prints "<name>: unknown command (try 'help')" and returns 127.
 * An argument that is exactly `$!` is sh's special parameter: the pid of the last task `exec -b`
 * started (shell_last_background_pid); with none yet the command fails with
 * "<name>: $!: no background task" and status 1. */
int shell_exec(const struct shell_cmd *cmds, const struct shell_cmd *end, char *line);

/* Set by `exec -b` (kernel/user_task_cmd.c); 0 until a task was started in the background. */
extern int shell_last_background_pid;

/* tinymm.run: commands separated by ';', each echoed as "tinymm> <command>" and run even after
 * one fails.  0 if every command succeeded, 1 otherwise. */
int shell_run_script(const struct shell_cmd *cmds, const struct shell_cmd *end, const char *script);

/* Usage error helper: prints "<cmd>: <msg>" and returns 2. */
int shell_usage_error(const char *cmd, const char *msg);
/* For commands that take no arguments: 0 if argc == 1, else the usage error. */
int shell_no_args(int argc, char **argv);

/* Line editing, separate from the console so host tests drive it. */
struct line_editor {
	char buf[SHELL_LINE_MAX];
	size_t len;
	int esc;		/* inside an escape sequence: 1 after ESC, 2 after ESC [ */
	bool after_cr;		/* the last byte ended a line with CR: an LF next is the same end */
	void (*echo)(const char *s, size_t n);
};
enum { LE_MORE, LE_LINE, LE_CANCEL };
/* Feed one input byte.  LE_LINE: buf holds a complete, NUL-terminated line; LE_CANCEL: Ctrl-C
 * dropped the line.  Backspace/DEL erase a character, Ctrl-U the whole line. */
int line_editor_feed(struct line_editor *le, int c);

/* The interactive loop: prompt, edit, run.  Returns only through `poweroff`. */
__noreturn void shell_interactive(void);

#endif
