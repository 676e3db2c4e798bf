/*
 * sleep - sleep for a number of milliseconds with nanosleep(2), so the shell has a live task
 * to look at (ps, maps, pagemap).  `sleep <ms>`: exit 0 after it, 2 for a wrong argument.
 */
#define _DEFAULT_SOURCE 1	/* picolibc: nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "tinymm_user.h"

int main(int argc, char **argv)
{
	char *end;
	unsigned long ms;

	if (argc != 2 || (ms = strtoul(argv[1], &end, 0), *end || end == argv[1])) {
		printf("usage: sleep <ms>\n");
		return 2;
	}
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };
	if (nanosleep(&ts, NULL)) {
		perror("sleep: nanosleep");
		return 1;
	}
	return 0;
}
