/* devicetree_test.c - the boot tree: refusing bad blobs, node paths, the `dtb` command. */
#include "test.h"
#include "tinymm/devicetree.h"
#include "tinymm/shell.h"

static const char *dtb_path;

static void refuses_bad_blobs(void **state)
{
	char err[DT_ERR_MAX];
	static uint8_t junk[64];

	assert_int_equal(devicetree_init(0, err), -1);
	assert_string_equal(err, "no device tree was passed to the kernel");
	assert_int_equal(devicetree_init((uintptr_t)junk, err), -1);
	assert_non_null(strstr(err, "magic"));
	/* A header claiming 16 MiB is refused from the header alone, before anything past it is read. */
	uint8_t *big = calloc(1, 64);
	memcpy(big, "\xd0\x0d\xfe\xed\x01\x00\x00\x00", 8);
	assert_int_equal(devicetree_init((uintptr_t)big, err), -1);
	assert_string_equal(err, "totalsize 16777216 is larger than the 1048576 bytes tinymm accepts");
	free(big);
	assert_null(boot_dt());
}

static void dtb_command_prints_dts(void **state)
{
	size_t len;
	void *blob = shim_read_file(dtb_path, &len);
	char err[DT_ERR_MAX], line[] = "dtb";

	assert_int_equal(devicetree_init((uintptr_t)blob, err), 0);
	assert_non_null(boot_dt());
	shim_console_reset();
	assert_int_equal(shell_exec(__shell_cmds_start, __shell_cmds_end, line), 0);
	assert_true(strncmp(shim_console, "/dts-v1/;\n/ {\n", 14) == 0);
	assert_console_has("\tmemory@40000000 {\n\t\treg = <0x0 0x40000000 0x0 0x6000000>;\n"
			   "\t\tdevice_type = \"memory\";\n\t};\n");
	assert_console_has("\t\tcompatible = \"arm,pl011\", \"arm,primecell\";\n");
	assert_console_has("\t#address-cells = <0x2>;\n");
	/* Braces balance. */
	int open = 0, close = 0;
	for (const char *p = shim_console; *p; p++) {
		open += *p == '{';
		close += *p == '}';
	}
	assert_int_equal(open, close);
	assert_true(strcmp(shim_console + strlen(shim_console) - 3, "};\n") == 0);

	int node = dt_path(boot_dt(), "/pl011@9000000", 14);
	char path[64];
	dt_node_path(boot_dt(), node, path, sizeof(path));
	assert_string_equal(path, "/pl011@9000000");
	dt_node_path(boot_dt(), 0, path, sizeof(path));
	assert_string_equal(path, "/");
	free(blob);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refuses_bad_blobs),
		cmocka_unit_test(dtb_command_prints_dts),
	};
	if (argc != 2) {
		fprintf(stderr, "usage: devicetree_test <QEMU arm virt DTB with 96 MiB>\n");
		return 2;
	}
	dtb_path = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
