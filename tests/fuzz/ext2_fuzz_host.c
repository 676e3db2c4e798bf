/*
 * ext2_fuzz_host.c - the ext2 fuzzer's hands on the host (ext2_fuzz.h): the backing file and
 * e2fsck.  Apart from the kernel's headers, whose O_* flags and loff_t the C library's
 * <fcntl.h> and <sys/types.h> define too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ext2_fuzz.h"

/* A new empty file in $TMPDIR (or /tmp): its path in @path. */
int host_backing_file(char *path, size_t len)
{
	snprintf(path, len, "%s/ext2_fuzz.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	int fd = mkstemp(path);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* e2fsck -fn @path: its exit status (0: clean; 4: errors left uncorrected), 128 if it died;
 * its report to stderr unless @quiet. */
int host_e2fsck(const char *path, bool quiet)
{
	char *argv[] = { "e2fsck", "-fn", (char *)path, NULL };
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status;

	posix_spawn_file_actions_init(&fa);
	if (quiet) {
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	} else {
		posix_spawn_file_actions_adddup2(&fa, 2, 1);
	}
	if (posix_spawnp(&pid, "e2fsck", &fa, NULL, argv, environ)) {
		fprintf(stderr, "ext2_fuzz: cannot run e2fsck (install Debian's e2fsprogs)\n");
		abort();
	}
	posix_spawn_file_actions_destroy(&fa);
	pid_t w;
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;			/* libFuzzer's SIGALRM (-timeout) */
	if (w != pid) {
		perror("ext2_fuzz: waitpid");
		abort();
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
