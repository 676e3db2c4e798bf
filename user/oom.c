/*
 * oom - allocates and touches anonymous memory without end, for the OOM killer's test
 * (docs/oom.md): the kernel must kill it (SIGKILL, "Out of memory: Killed process <pid> (oom)
 * ...") and go on.
 *
 *   oom [step-MiB]   (default 1)
 *   oom -h <MiB>     touch MiB, say "oom: holding <MiB> MiB", then sleep (nanosleep, a
 *                    second at a time) for ever: a big victim asleep in a system call
 *   oom -s <MiB>     mlockall(MCL_CURRENT|MCL_FUTURE), touch MiB (one area), say "oom:
 *                    spinning on <MiB> MiB", then call mprotect on the whole area for ever,
 *                    read-only and read-write in turn: a big victim that is almost always
 *                    inside a system call (each one walks every pte of the area; the user-mode
 *                    part is a few instructions), so it dies only if the return from a system
 *                    call takes the kill.  Locked, its text is never reclaimed: no refault of
 *                    its own (which takes the kill on the fault's return) gets in the way
 *
 * Maps step-MiB of private anonymous memory at a time and writes one word in every page (so
 * every page is really allocated), printing "oom: <n> MiB touched" every 16 MiB.  A failed
 * mmap (the address space full, or ENOMEM) is reported once and retried with single pages:
 * the program never stops asking.  It exits only if user space runs out altogether (status
 * 1: it should have been killed first); 2 for a wrong argument.
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tinymm_user.h"

#define PAGE	4096UL
#define MIB	(1UL << 20)

int main(int argc, char **argv)
{
	unsigned long step = MIB, touched = 0, next_report = 16 * MIB, failures = 0, hold = 0;
	bool spin = false;
	char *end;

	if (argc == 3 && !strcmp(argv[1], "-s")) {
		spin = true;
		step = strtoul(argv[2], &end, 0) * MIB;
		if (*end || end == argv[2] || !step)
			argc = 0;
		else if (mlockall(MCL_CURRENT | MCL_FUTURE)) {
			printf("oom: FAIL: mlockall (errno %d)\n", errno);
			return 1;
		}
	} else if (argc == 3 && !strcmp(argv[1], "-h")) {
		hold = strtoul(argv[2], &end, 0) * MIB;
		if (*end || end == argv[2] || !hold)
			argc = 0;
	} else if (argc > 2 || (argc == 2 && (step = strtoul(argv[1], &end, 0) * MIB,
					      *end || end == argv[1] || !step))) {
		argc = 0;
	}
	if (!argc) {
		printf("usage: oom [step-MiB] | oom -h <MiB> | oom -s <MiB>\n");
		return 2;
	}
	for (;;) {
		if (hold && touched >= hold) {
			struct timespec ts = { 1, 0 };

			printf("oom: holding %lu MiB\n", touched / MIB);
			for (;;)
				nanosleep(&ts, NULL);
		}
		volatile uint32_t *p = mmap(NULL, step, PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED && spin) {
			printf("oom: FAIL: mmap of %lu MiB (errno %d)\n", step / MIB, errno);
			return 1;
		}
		if (p == MAP_FAILED) {
			if (!failures++)
				printf("oom: mmap of %lu KiB failed (errno %d): going on page by page\n",
				       step >> 10, errno);
			if (step == PAGE && failures > 1000000) {
				printf("oom: FAIL: user space is full and nobody killed me\n");
				return 1;
			}
			step = PAGE;
			continue;
		}
		for (unsigned long off = 0; off < step; off += PAGE)
			p[off / sizeof(*p)] = (uint32_t)(touched + off) | 1;
		if (spin) {
			printf("oom: spinning on %lu MiB\n", step / MIB);
			for (;;) {
				mprotect((void *)p, step, PROT_READ);
				mprotect((void *)p, step, PROT_READ | PROT_WRITE);
			}
		}
		touched += step;
		if (touched >= next_report) {
			printf("oom: %lu MiB touched\n", touched / MIB);
			next_report += 16 * MIB;
		}
	}
}
