/*
 * hello - the first program: one line through picolibc's printf (lib/stdio.c: one write(2) on
 * fd 1), then exit status 0.  The tests look for "hello" in the line; the arguments are
 * echoed so a test can see argv arrive as the shell passed it.
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	printf("hello from %s", argc > 0 ? argv[0] : "(no argv[0])");
	for (int i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	return 0;
}
