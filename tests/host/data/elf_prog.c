/*
 * elf_prog.c - a static program with text, data and bss, compiled by each board's cross
 * compiler (cmake/host.cmake) for tests/host/binfmt_elf_test.c.  It is read, never run.
 */
int counter = 5;		/* .data */
int table[100];			/* .bss */

void _start(void)
{
	for (;;)
		table[counter++ % 100]++;
}
