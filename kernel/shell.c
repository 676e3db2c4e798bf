/*
 * shell.c - the console shell: line editing, splitting into words, the command table.
 *
 * Commands live in the linker section .shell_cmds (SHELL_COMMAND), sorted by name, so `help`
 * lists them alphabetically.  The one expansion is sh's `$!` (the last background task's pid),
 * so that a tinymm.run script can look at the task `exec -b` started.
 * Invariant: a command's output is bare (kprintf, no timestamp).
 * Locking: none; the shell is one thread, the only one running commands.
 */
#include <string.h>
#include "tinymm/cmdline.h"
#include "tinymm/console.h"
#include "tinymm/printk.h"
#include "tinymm/shell.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int shell_last_background_pid;

int shell_usage_error(const char *cmd, const char *msg)
{
	kprintf("%s: %s\n", cmd, msg);
	return 2;
}

int shell_no_args(int argc, char **argv)
{
	if (argc <= 1)
		return 0;
	kprintf("%s: unexpected argument '%s'\n", argv[0], argv[1]);
	return 2;
}

int shell_exec(const struct shell_cmd *cmds, const struct shell_cmd *end, char *line)
{
	char *argv[SHELL_MAX_ARGS + 1];
	int argc = 0;

	for (char *p = line; *p;) {
		while (is_blank(*p))
			*p++ = '\0';
		if (!*p)
			break;
		if (argc == SHELL_MAX_ARGS) {
			kprintf("%s: too many arguments (at most %d)\n", argv[0], SHELL_MAX_ARGS - 1);
			return 2;
		}
		argv[argc++] = p;
		while (*p && !is_blank(*p))
			p++;
	}
	argv[argc] = NULL;
	if (!argc)
		return 0;
	for (int i = 1; i < argc; i++) {
		static char bang[12];	/* one shell thread: one expansion in use at a time */

		if (strcmp(argv[i], "$!"))
			continue;
		if (!shell_last_background_pid) {
			kprintf("%s: $!: no background task\n", argv[0]);
			return 1;
		}
		ksnprintf(bang, sizeof(bang), "%d", shell_last_background_pid);
		argv[i] = bang;
	}
	for (const struct shell_cmd *c = cmds; c < end; c++)
		if (!strcmp(c->name, argv[0]))
			return c->fn(argc, argv);
	kprintf("%s: unknown command (try 'help')\n", argv[0]);
	return 127;
}

int shell_run_script(const struct shell_cmd *cmds, const struct shell_cmd *end, const char *script)
{
	int failed = 0;

	while (*script) {
		const char *semi = strchr(script, ';');
		size_t n = semi ? (size_t)(semi - script) : strlen(script);
		char line[SHELL_LINE_MAX];

		while (n && is_blank(*script)) {
			script++;
			n--;
		}
		while (n && is_blank(script[n - 1]))
			n--;
		if (n >= sizeof(line)) {
			kprintf("tinymm> %.*s...\n", 40, script);
			kprintf("tinymm.run: command longer than %d characters\n", SHELL_LINE_MAX - 1);
			failed = 1;
		} else if (n) {
			memcpy(line, script, n);
			line[n] = '\0';
			kprintf("tinymm> %s\n", line);
			if (shell_exec(cmds, end, line))
				failed = 1;
		}
		if (!semi)
			break;
		script = semi + 1;
	}
	return failed;
}

static void le_echo(struct line_editor *le, const char *s)
{
	if (le->echo)
		le->echo(s, strlen(s));
}

int line_editor_feed(struct line_editor *le, int c)
{
	bool after_cr = le->after_cr;

	le->after_cr = c == '\r';
	if (c == '\n' && after_cr)
		return LE_MORE;		/* CR LF terminals: one line, not a line and an empty one */
	if (le->esc) {			/* swallow ESC [ ... final-byte sequences (arrow keys) */
		if (le->esc == 1 && c == '[')
			le->esc = 2;
		else if (le->esc == 1 || (c >= 0x40 && c <= 0x7e))
			le->esc = 0;
		return LE_MORE;
	}
	switch (c) {
	case '\r':
	case '\n':
		le->buf[le->len] = '\0';
		le->len = 0;
		le_echo(le, "\n");
		return LE_LINE;
	case 0x03:			/* Ctrl-C */
		le->len = 0;
		le_echo(le, "^C\n");
		return LE_CANCEL;
	case 0x08:			/* backspace */
	case 0x7f:			/* DEL, what most terminals send for backspace */
		if (le->len) {
			le->len--;
			le_echo(le, "\b \b");
		}
		return LE_MORE;
	case 0x15:			/* Ctrl-U */
		while (le->len) {
			le->len--;
			le_echo(le, "\b \b");
		}
		return LE_MORE;
	case 0x1b:
		le->esc = 1;
		return LE_MORE;
	}
	if (c < 0x20 || c > 0x7e || le->len + 1 >= sizeof(le->buf))
		return LE_MORE;		/* other control bytes, or the line is full: ignore */
	le->buf[le->len++] = (char)c;
	char s[2] = { (char)c, 0 };
	le_echo(le, s);
	return LE_MORE;
}

static void console_echo(const char *s, size_t n)
{
	console_write(s, n);
}

void shell_interactive(void)
{
	struct line_editor le = { .echo = console_echo };

	kprintf("tinymm> ");
	for (;;) {
		int c = console_getc_wait();
		if (c < 0)
			continue;
		int r = line_editor_feed(&le, c);
		if (r == LE_LINE)
			shell_exec(__shell_cmds_start, __shell_cmds_end, le.buf);
		if (r != LE_MORE)
			kprintf("tinymm> ");
	}
}

/*
 * One row of `help`'s list: "  <a><b><c>" padded to the 24-column name column, a blank, then
 * @desc.  A name wider than the column is printed whole on its own line and the description
 * goes on the next, indented to the column, so neither is ever cut.
 */
#define HELP_NAME_COLUMN 24
static void help_row(const char *a, const char *b, const char *c, const char *desc)
{
	int len = (int)(strlen(a) + strlen(b) + strlen(c));

	if (len <= HELP_NAME_COLUMN)
		kprintf("  %s%s%s%*s %s\n", a, b, c, HELP_NAME_COLUMN - len, "", desc);
	else
		kprintf("  %s%s%s\n  %*s %s\n", a, b, c, HELP_NAME_COLUMN, "", desc);
}

static int cmd_help(int argc, char **argv)
{
	if (argc > 2)
		return shell_usage_error(argv[0], "usage: help [command]");
	if (argc > 1) {
		for (const struct shell_cmd *c = __shell_cmds_start; c < __shell_cmds_end; c++)
			if (!strcmp(c->name, argv[1])) {
				kprintf("%s%s%s\n    %s\n", c->name, c->args[0] ? " " : "", c->args, c->help);
				return 0;
			}
		kprintf("help: no command '%s'\n", argv[1]);
		return 2;
	}
	for (const struct shell_cmd *c = __shell_cmds_start; c < __shell_cmds_end; c++)
		help_row(c->name, c->args[0] ? " " : "", c->args, c->help);
	kprintf("Kernel command line options:\n");
	help_row("tinymm.run=<cmd>; <cmd>", "", "", "run shell commands, then power off");
	help_row("tinymm.test=<glob>", "", "", "run KTAP suites, then power off");
	for (const struct kparam *p = __kparams_start; p < __kparams_end; p++)
		help_row(p->bare ? "" : "tinymm.", p->name, "=", p->help);
	return 0;
}
SHELL_COMMAND(help, "[command]", "list the commands, or describe one", cmd_help);
