/* shell_test.c - word splitting, the command table, tinymm.run scripts and line editing. */
#include "test.h"
#include "tinymm/cmdline.h"
#include "tinymm/shell.h"

static int last_argc;
static char last_args[256];
static int cmd_echo(int argc, char **argv)
{
	last_argc = argc;
	last_args[0] = '\0';
	for (int i = 0; i < argc; i++) {
		strcat(last_args, argv[i]);
		strcat(last_args, "|");
	}
	return 0;
}
static int cmd_false(int argc, char **argv)
{
	return shell_usage_error(argv[0], "always fails");
}
static const struct shell_cmd cmds[] = {
	{ "echo", "", "", cmd_echo },
	{ "false", "", "", cmd_false },
};
#define END (cmds + 2)

/*
 * `help` lists the commands of the shell_cmds section: these three are in it (the section
 * holds what the test links).  A name with its usage that fills the 24-column name column
 * exactly stays on one line; one character more, or a usage as long as blk's, goes on a line
 * of its own, whole, and the description follows on the next, indented to the column.
 */
SHELL_COMMAND(fits, "<nineteen--columns>", "fits its column", cmd_echo);
SHELL_COMMAND(fits2, "<nineteen--columns>", "one column too wide", cmd_echo);
SHELL_COMMAND(wide, "list|stats|read|sha256|readrand|write|pfn|inject ... | and more after 48",
	      "a usage far wider than the column", cmd_echo);
static int set_nothing(const char *val)
{
	return 0;
}
KPARAM(a_rather_long_option_name, set_nothing, "an option wider than the column");

static void help_wraps_long_names(void **state)
{
	assert_int_equal(shim_run("help"), 0);
	assert_console_has("\n  fits <nineteen--columns> fits its column\n");
	assert_console_has("\n  fits2 <nineteen--columns>\n                           one column too wide\n");
	assert_console_has("  wide list|stats|read|sha256|readrand|write|pfn|inject ... | and more after 48\n"
			   "                           a usage far wider than the column\n");
	assert_console_has("\n  help [command]           list the commands, or describe one\n");
	assert_console_has("\n  tinymm.run=<cmd>; <cmd>  run shell commands, then power off\n");
	assert_console_has("\n  tinymm.a_rather_long_option_name=\n"
			   "                           an option wider than the column\n");
	assert_int_equal(shim_run("help wide"), 0);
	assert_string_equal(shim_console,
			    "wide list|stats|read|sha256|readrand|write|pfn|inject ... | and more after 48\n"
			    "    a usage far wider than the column\n");
}

static void splits_words_and_dispatches(void **state)
{
	char line[] = "  echo a\tbb   ccc  ";

	assert_int_equal(shell_exec(cmds, END, line), 0);
	assert_int_equal(last_argc, 4);
	assert_string_equal(last_args, "echo|a|bb|ccc|");
}

static void unknown_command_is_one_line_and_127(void **state)
{
	char line[] = "frobnicate now";

	shim_console_reset();
	assert_int_equal(shell_exec(cmds, END, line), 127);
	assert_string_equal(shim_console, "frobnicate: unknown command (try 'help')\n");
	char empty[] = "   ";
	assert_int_equal(shell_exec(cmds, END, empty), 0);
}

/* sh's $!: a word that is exactly "$!" becomes the last background pid; none yet is one line
 * and status 1, and the command does not run. */
static void bang_is_the_last_background_pid(void **state)
{
	char none[] = "echo $!", some[] = "echo x $! $!y $!", again[] = "echo $!";

	shell_last_background_pid = 0;
	last_argc = 0;
	shim_console_reset();
	assert_int_equal(shell_exec(cmds, END, none), 1);
	assert_string_equal(shim_console, "echo: $!: no background task\n");
	assert_int_equal(last_argc, 0);
	shell_last_background_pid = 42;
	assert_int_equal(shell_exec(cmds, END, some), 0);
	assert_string_equal(last_args, "echo|x|42|$!y|42|");
	shell_last_background_pid = 7;
	assert_int_equal(shell_exec(cmds, END, again), 0);
	assert_string_equal(last_args, "echo|7|");
	shell_last_background_pid = 0;
}

static void too_many_arguments(void **state)
{
	char line[256] = "echo";

	for (int i = 0; i < SHELL_MAX_ARGS; i++)
		strcat(line, " x");
	shim_console_reset();
	assert_int_equal(shell_exec(cmds, END, line), 2);
	assert_console_has("echo: too many arguments");
}

static void script_runs_every_command_and_reports_failure(void **state)
{
	shim_console_reset();
	assert_int_equal(shell_run_script(cmds, END, "echo 1; false;nosuch ;; echo 2  "), 1);
	assert_string_equal(shim_console,
		"tinymm> echo 1\n"
		"tinymm> false\n"
		"false: always fails\n"
		"tinymm> nosuch\n"
		"nosuch: unknown command (try 'help')\n"
		"tinymm> echo 2\n");
	assert_string_equal(last_args, "echo|2|");
	shim_console_reset();
	assert_int_equal(shell_run_script(cmds, END, "echo a;echo b"), 0);
}

static char echoed[512];
static void echo_cb(const char *s, size_t n)
{
	strncat(echoed, s, n);
}

static int feed(struct line_editor *le, const char *s)
{
	int r = LE_MORE;
	while (*s)
		r = line_editor_feed(le, (unsigned char)*s++);
	return r;
}

static void line_editor_edits(void **state)
{
	struct line_editor le = { .echo = echo_cb };

	echoed[0] = '\0';
	assert_int_equal(feed(&le, "memx\x7f" "map\r"), LE_LINE);
	assert_string_equal(le.buf, "memmap");
	assert_string_equal(echoed, "memx\b \bmap\n");
	assert_int_equal(feed(&le, "junk\x15" "help\n"), LE_LINE);	/* Ctrl-U */
	assert_string_equal(le.buf, "help");
	echoed[0] = '\0';
	assert_int_equal(feed(&le, "abc\x03"), LE_CANCEL);		/* Ctrl-C */
	assert_string_equal(echoed, "abc^C\n");
	assert_int_equal(feed(&le, "\x08\x08x\r"), LE_LINE);		/* backspace on empty line */
	assert_string_equal(le.buf, "x");
	assert_int_equal(feed(&le, "a\x1b[Db\x1b[1;5Cc\r"), LE_LINE);	/* arrow keys swallowed */
	assert_string_equal(le.buf, "abc");
	/* CR LF is one end of line; LF alone and LF LF are lines of their own. */
	assert_int_equal(line_editor_feed(&le, '\n'), LE_MORE);
	assert_int_equal(feed(&le, "x\n"), LE_LINE);
	assert_int_equal(line_editor_feed(&le, '\n'), LE_LINE);
	assert_string_equal(le.buf, "");
}

static void line_editor_stops_at_full_line(void **state)
{
	struct line_editor le = { 0 };
	char big[SHELL_LINE_MAX + 50];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	feed(&le, big);
	assert_int_equal(le.len, SHELL_LINE_MAX - 1);
	assert_int_equal(line_editor_feed(&le, '\r'), LE_LINE);
	assert_int_equal(strlen(le.buf), SHELL_LINE_MAX - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(help_wraps_long_names),
		cmocka_unit_test(splits_words_and_dispatches),
		cmocka_unit_test(unknown_command_is_one_line_and_127),
		cmocka_unit_test(too_many_arguments),
		cmocka_unit_test(bang_is_the_last_background_pid),
		cmocka_unit_test(script_runs_every_command_and_reports_failure),
		cmocka_unit_test(line_editor_edits),
		cmocka_unit_test(line_editor_stops_at_full_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
