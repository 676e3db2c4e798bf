/*
 * mapbus - an access past EOF through a shared mapping is SIGBUS (docs/shared-mappings.md).
 *
 *   mapbus <path>
 *
 * Creates <path> (O_RDWR|O_CREAT|O_TRUNC) two pages long, maps both MAP_SHARED, writes a byte
 * into each, truncates the file to one page (the kernel unmaps page 1: truncate_pagecache),
 * checks that page 0 still holds its byte, then reads page 1: the kernel must kill it with
 * SIGBUS.  If the read returns, it prints "mapbus: FAIL: no SIGBUS past EOF" and exits 1; any
 * call failing is exit 1 with a line saying which; 2 for wrong arguments.
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "tinymm_user.h"

#define PAGE	4096

static int fail(const char *what)
{
	printf("mapbus: FAIL: %s (errno %d)\n", what, errno);
	return 1;
}

int main(int argc, char **argv)
{
	volatile unsigned char *map;
	int fd;

	if (argc != 2) {
		printf("usage: mapbus <path>\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fail("open");
	if (ftruncate(fd, 2 * PAGE))
		return fail("ftruncate up");
	map = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return fail("mmap MAP_SHARED");
	map[0] = 0x5a;
	map[PAGE] = 0xa5;
	if (ftruncate(fd, PAGE))
		return fail("ftruncate down");
	if (map[0] != 0x5a)
		return fail("page 0 lost its byte");
	printf("mapbus: reading past EOF\n");
	(void)map[PAGE];				/* SIGBUS */
	printf("mapbus: FAIL: no SIGBUS past EOF\n");
	return 1;
}
